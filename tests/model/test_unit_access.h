// UnitAccess implementations for the model tests: replicated flat buffers (as the
// engine's stages 0-2 hold them) and a ZeRO-3-like one that hands out a fresh copy
// per params() call and poisons it with NaN on release(), plus a log of every call.
#pragma once

#include "runtime/model/gpt2/gpt2.h"
#include "runtime/model/param_layout.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace zerolab::test {

// Flat host params and grads laid out as `layout` (any pad_multiple). Records calls as
// "p<u>", "r<u>", "g<u>", "ready<u>". Host pointers: for the CPU kernels only.
class FlatUnitAccess : public UnitAccess {
public:
    explicit FlatUnitAccess(const ParamLayout& layout)
        : m_layout(layout), m_params(static_cast<std::size_t>(layout.padded_total)),
          m_grads(static_cast<std::size_t>(layout.padded_total)) {}

    const float* params(int unit) override {
        m_log.push_back("p" + std::to_string(unit));
        return m_params.data() + m_layout.units[unit].offset;
    }
    float* grads(int unit) override {
        m_log.push_back("g" + std::to_string(unit));
        return m_grads.data() + m_layout.units[unit].offset;
    }
    void release(int unit) override { m_log.push_back("r" + std::to_string(unit)); }
    void gradsReady(int unit) override { m_log.push_back("ready" + std::to_string(unit)); }

    const ParamLayout& layout() const { return m_layout; }
    std::vector<float>& paramsFlat() { return m_params; }
    std::vector<float>& gradsFlat() { return m_grads; }
    std::vector<std::string>& log() { return m_log; }

protected:
    ParamLayout m_layout;
    std::vector<float> m_params;
    std::vector<float> m_grads;
    std::vector<std::string> m_log;
};

// Like ZeRO-3: params(u) returns a temporary copy that release(u) overwrites with NaN,
// so a model that keeps a pointer across release() produces NaN. The copies stay
// allocated until the object dies so that such a read is wrong, not undefined.
class GatheringUnitAccess : public FlatUnitAccess {
public:
    using FlatUnitAccess::FlatUnitAccess;

    const float* params(int unit) override {
        FlatUnitAccess::params(unit);
        const UnitLayout& u = m_layout.units[unit];
        m_copies.push_back(std::make_unique<std::vector<float>>(
            m_params.begin() + u.offset, m_params.begin() + u.offset + u.padded_elems));
        m_live.push_back({unit, m_copies.back().get()});
        return m_copies.back()->data();
    }
    void release(int unit) override {
        FlatUnitAccess::release(unit);
        for (auto it = m_live.begin(); it != m_live.end(); ++it) {
            if (it->unit == unit) {
                std::fill(it->copy->begin(), it->copy->end(),
                          std::numeric_limits<float>::quiet_NaN());
                m_live.erase(it);
                return;
            }
        }
        ++m_bad_releases;
    }
    int badReleases() const { return m_bad_releases; }
    std::size_t liveCount() const { return m_live.size(); }

private:
    struct Live {
        int unit;
        std::vector<float>* copy;
    };
    std::vector<std::unique_ptr<std::vector<float>>> m_copies;
    std::vector<Live> m_live;
    int m_bad_releases = 0;
};

} // namespace zerolab::test
