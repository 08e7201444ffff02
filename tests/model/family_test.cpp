// Every registered family holds the contracts the rest of zerolab relies on, checked
// over every preset small enough to run here: psi from its tensors is the layout's; its
// network's calls to the engine are its unit calls (what the step-time model and the
// stage-3 gather count replay); its network counts exactly its activation footprint in
// the ledger; its init is the same whatever the padding. A new family gets these checks
// by registering (runtime/README.md, "Adding a model family").
#include "kernels/kernels.h"
#include "runtime/memory/ledger.h"
#include "runtime/model/family.h"
#include "runtime/model/network.h"
#include "tests/model/model_test_util.h"
#include "tests/model/test_unit_access.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace zerolab {
namespace {

// Presets that train here in well under a second.
std::vector<ModelPreset> smallPresets() {
    std::vector<ModelPreset> v;
    for (const ModelPreset& p : modelPresets())
        if (paramCount(p.shape) < 20'000'000)
            v.push_back(p);
    return v;
}

TEST(ModelFamily, RegistryNamesEveryFamilyOnceAndEachPresetBelongsToItsFamily) {
    std::set<std::string_view> names;
    for (const ModelFamily* f : modelFamilies()) {
        EXPECT_TRUE(names.insert(f->name).second) << f->name;
        EXPECT_EQ(&modelFamily(f->id), f);
        EXPECT_EQ(findModelFamily(f->name), f);
        EXPECT_FALSE(f->presets.empty()) << f->name;
        for (const ModelPreset& p : f->presets)
            EXPECT_EQ(p.shape.family, f->id) << p.name;
    }
    std::set<std::string_view> presets;
    for (const ModelPreset& p : modelPresets())
        EXPECT_TRUE(presets.insert(p.name).second) << "preset named twice: " << p.name;
    EXPECT_EQ(findModelFamily("no-such-family"), nullptr);
    EXPECT_NE(findModelFamily("gpt2"), nullptr);
}

TEST(ModelFamily, PsiIsTheSumOfTheTensorsAndTheLayoutHoldsEachOnce) {
    for (const ModelPreset& p : modelPresets()) {
        SCOPED_TRACE(std::string(p.name));
        std::int64_t sum = 0;
        const auto tensors = familyOf(p.shape).tensors(p.shape);
        ASSERT_LE(tensors.size(), static_cast<std::size_t>(kMaxFamilyTensors));
        for (const TensorSpec& t : tensors)
            sum += t.elements() * (t.role == UnitRole::Block ? p.shape.n_layer : 1);
        EXPECT_EQ(paramCount(p.shape), sum);
        EXPECT_EQ(checkedParamCount(p.shape), sum);
        for (int N : {1, 3, 8}) {
            const ParamLayout layout = makeParamLayout(p.shape, N);
            EXPECT_EQ(layout.total_elems, sum);
            EXPECT_EQ(layout.unitCount(), p.shape.n_layer + 2);
            for (const UnitLayout& u : layout.units)
                EXPECT_EQ(u.padded_elems % N, 0);
        }
    }
}

TEST(ModelFamily, TheNetworksCallsAreItsUnitCallsInEveryRecomputeMode) {
    for (const ModelPreset& p : smallPresets()) {
        for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
            SCOPED_TRACE(std::string(p.name) + " " + std::string(recomputeName(r)));
            auto k = makeCpuKernels(1);
            MemoryLedger ledger;
            const int B = 1, T = std::min(8, p.shape.seq_len);
            auto net = makeNetwork(p.shape, B, T, *k, ledger, r);
            test::FlatUnitAccess access(makeParamLayout(p.shape, 1));
            test::initAllUnits(access.layout(), 1, access.paramsFlat());
            const auto in = test::randomTokens(B * T, p.shape.vocab_size, 1);
            const auto tg = test::randomTokens(B * T, p.shape.vocab_size, 2);
            net->forward(in.data(), tg.data(), access);
            net->backward(in.data(), tg.data(), access, 1.0f);
            std::vector<std::string> data;
            for (const UnitCall& c : modelUnitCalls(access.layout(), r)) {
                static const char* const kNames[] = {"p", "r", "g", "ready", nullptr};
                if (const char* name = kNames[static_cast<int>(c.kind)])
                    data.push_back(name + std::to_string(c.unit));
            }
            EXPECT_EQ(access.log(), data);
        }
    }
}

TEST(ModelFamily, TheNetworkCountsExactlyItsActivationFootprint) {
    for (const ModelPreset& p : smallPresets())
        for (AttentionKernel a : {AttentionKernel::Standard, AttentionKernel::Flash})
            for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
                SCOPED_TRACE(std::string(p.name) + " " + std::string(recomputeName(r)) + " " +
                             std::string(attentionKernelName(a)));
                ModelShape shape = p.shape;
                shape.attention = a;
                auto k = makeCpuKernels(1);
                MemoryLedger ledger;
                const int B = 2, T = std::min(16, shape.seq_len);
                // A kernel other than the preset's may be one the family does not run
                // (Llama: flash only): then its footprint and its network both refuse it.
                if (a != p.shape.attention) {
                    bool offered = true;
                    try {
                        activationFootprint(shape, B, T, r);
                    } catch (const std::invalid_argument&) {
                        offered = false;
                    }
                    if (!offered) {
                        EXPECT_THROW(makeNetwork(shape, B, T, *k, ledger, r),
                                     std::invalid_argument);
                        EXPECT_EQ(ledger.current()[MemCategory::Activations], 0);
                        continue;
                    }
                }
                {
                    auto net = makeNetwork(shape, B, T, *k, ledger, r);
                    EXPECT_EQ(ledger.current()[MemCategory::Activations],
                              activationFootprint(shape, B, T, r).total(shape.n_layer));
                }
                EXPECT_EQ(ledger.current()[MemCategory::Activations], 0);
            }
}

// --explain's closed forms (activation_terms) are the arena's: at B = 2, T = 16 every
// buffer is a whole number of 64-byte lines, so the "per layer" term is the footprint's
// per-layer bytes exactly, in every mode and with every attention kernel the family runs.
TEST(ModelFamily, TheExplainedPerLayerTermIsTheArenasPerLayerBytes) {
    for (const ModelPreset& p : smallPresets())
        for (AttentionKernel a : {AttentionKernel::Standard, AttentionKernel::Flash})
            for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full}) {
                SCOPED_TRACE(std::string(p.name) + " " + std::string(recomputeName(r)) + " " +
                             std::string(attentionKernelName(a)));
                ModelShape shape = p.shape;
                shape.attention = a;
                const int B = 2, T = std::min(16, shape.seq_len);
                ActivationFootprint f;
                try {
                    f = activationFootprint(shape, B, T, r);
                } catch (const std::invalid_argument&) {
                    continue; // a kernel the family does not run (the test above)
                }
                const std::vector<ActivationTerm> terms =
                    familyOf(shape).activation_terms(shape, B, T, r);
                ASSERT_FALSE(terms.empty());
                EXPECT_FALSE(terms.front().bytes) << "the first line names the symbols";
                int per_layer = 0;
                for (const ActivationTerm& t : terms)
                    if (t.text.text.rfind("  per layer:", 0) == 0) {
                        ++per_layer;
                        ASSERT_TRUE(t.bytes);
                        EXPECT_EQ(*t.bytes, static_cast<double>(f.per_layer_bytes)) << t.text.text;
                    }
                EXPECT_EQ(per_layer, 1);
            }
}

TEST(ModelFamily, InitIsTheSameWhateverThePadding) {
    for (const ModelPreset& p : smallPresets()) {
        SCOPED_TRACE(std::string(p.name));
        const ParamLayout one = makeParamLayout(p.shape, 1), five = makeParamLayout(p.shape, 5);
        std::vector<float> a, b;
        test::initAllUnits(one, 7, a);
        test::initAllUnits(five, 7, b);
        for (int u = 0; u < one.unitCount(); ++u) {
            const UnitLayout &ua = one.units[u], &ub = five.units[u];
            ASSERT_EQ(ua.elems, ub.elems);
            for (std::int64_t i = 0; i < ua.elems; ++i)
                ASSERT_EQ(a[ua.offset + i], b[ub.offset + i]) << "unit " << u << " element " << i;
            for (std::int64_t i = ub.elems; i < ub.padded_elems; ++i)
                ASSERT_EQ(b[ub.offset + i], 0.0f) << "padding of unit " << u;
        }
    }
}

} // namespace
} // namespace zerolab
