// A family's description against its network, kernel by kernel: for each of the network's
// calls to its UnitAccess, the kernels it really runs until the next call (a recording
// Kernels) are the description's compute_ops of that call's piece (family.h). The
// step-time model prices exactly these lists, so a kernel added to a network without its
// description fails. Used by the Llama and GPT-2 compute-ops tests.
#pragma once

#include "model_test_util.h"
#include "recording_kernels.h"
#include "test_unit_access.h"

#include "runtime/model/family.h"
#include "runtime/model/network.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace zerolab::test {

// Marks, at each call, how many ops the kernels had run.
class MarkingAccess : public FlatUnitAccess {
public:
    MarkingAccess(const ParamLayout& layout, const RecordingKernels& k)
        : FlatUnitAccess(layout), m_k(k) {}
    const float* params(int u) override { return mark(), FlatUnitAccess::params(u); }
    float* grads(int u) override { return mark(), FlatUnitAccess::grads(u); }
    void release(int u) override { mark(), FlatUnitAccess::release(u); }
    void gradsReady(int u) override { mark(), FlatUnitAccess::gradsReady(u); }
    void recomputing(int u) override { mark(); }
    std::vector<std::size_t> marks;

private:
    void mark() { marks.push_back(m_k.ops.size()); }
    const RecordingKernels& m_k;
};

inline std::string describe(const std::vector<KernelOp>& ops) {
    std::string s;
    for (const KernelOp& op : ops)
        s += std::string(kOpKindNames[static_cast<std::size_t>(op.kind)]) + "(" +
             std::to_string(op.work) + ") ";
    return s;
}

inline void checkComputeOps(const ModelShape& s, Recompute r) {
    const int B = 2, T = std::min(8, s.seq_len);
    RecordingKernels k(makeCpuKernels(1));
    MemoryLedger ledger;
    auto net = makeNetwork(s, B, T, k, ledger, r);
    MarkingAccess access(makeParamLayout(s, 1), k);
    initAllUnits(access.layout(), 3, access.paramsFlat());
    const auto in = randomTokens(B * T, s.vocab_size, 4);
    const auto tg = randomTokens(B * T, s.vocab_size, 5);
    k.ops.clear(); // the RoPE table's upload is no compute
    net->forward(in.data(), tg.data(), access);
    const std::size_t forwardEnd = k.ops.size();
    net->backward(in.data(), tg.data(), access, 1.0f);

    const ModelFamily& f = familyOf(s);
    const std::vector<UnitCall> calls = f.unit_calls(access.layout(), r);
    ASSERT_EQ(access.marks.size(), calls.size());
    // The forward ends with the lm head's params and release (unit_calls.h): HeadForward
    // lasts to the forward's end, over the release (the cross-entropy runs after it); the
    // cross-entropy backward, before backward's first call, belongs to HeadBackward.
    std::size_t head = 0;
    while (calls[head].then != ModelCompute::HeadForward)
        ++head;
    const std::size_t forwardCalls = head + 2;
    auto slice = [&](std::size_t a, std::size_t b) {
        return std::vector<KernelOp>(k.ops.begin() + static_cast<std::ptrdiff_t>(a),
                                     k.ops.begin() + static_cast<std::ptrdiff_t>(b));
    };
    for (std::size_t i = 0; i < calls.size(); ++i) {
        const std::size_t end = i == head || i + 1 == forwardCalls ? forwardEnd
                                : i + 1 < calls.size()             ? access.marks[i + 1]
                                                                   : k.ops.size();
        std::vector<KernelOp> ran =
            i + 1 == forwardCalls ? std::vector<KernelOp>{} : slice(access.marks[i], end);
        if (calls[i].then == ModelCompute::HeadBackward) {
            std::vector<KernelOp> before = slice(forwardEnd, access.marks[forwardCalls]);
            ran.insert(ran.begin(), before.begin(), before.end());
        }
        const std::vector<KernelOp> listed = f.compute_ops(calls[i].then, s, B, T, r);
        EXPECT_EQ(ran, listed) << "call " << i << " (unit " << calls[i].unit << ", piece "
                               << kModelComputeNames[static_cast<std::size_t>(calls[i].then)]
                               << ")\n ran:    " << describe(ran)
                               << "\n listed: " << describe(listed);
    }
}

} // namespace zerolab::test
