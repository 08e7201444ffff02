// The engine against a device whose work runs later (delayed_device.h), proven on the CPU:
// delayed_train_check trains on two ranks with every kernel queued on a compute stream and
// every collective on a communication stream behind an event, NaN in its buffer while in
// flight and its result written only when it completes (NCCL's semantics, made
// adversarial). Every stage, overlap on and off, fp32 and bf16 must equal the plain CPU run
// bit for bit: a missing wait, a gradient or gather slot reused while its collective is in
// flight, or a read of memory nothing wrote would change the losses or the parameters.
#include "tests/engine/engine_runs.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <tuple>

namespace zerolab {
namespace {

using test::RunOutput;
using test::train;

const std::string kDelayed = std::string(ZEROLAB_BIN_DIR) + "/../tests/delayed_train_check";

// The same job on the plain CPU run and on the delayed device: the same losses and the
// same exported parameters, bit for bit.
void expectBitEqual(int stage, bool overlap, bool bf16, const nlohmann::json& patch,
                    const std::string& what) {
    const RunOutput plain = train(2, stage, 3, overlap, bf16, patch);
    const RunOutput delayed = train(2, stage, 3, overlap, bf16, patch, "cpu", kDelayed);
    ASSERT_FALSE(plain.losses.empty()) << what;
    ASSERT_EQ(delayed.losses.size(), plain.losses.size()) << what;
    for (std::size_t i = 0; i < plain.losses.size(); ++i)
        EXPECT_EQ(delayed.losses[i], plain.losses[i]) << what << ", step " << i + 1;
    ASSERT_EQ(delayed.params.size(), plain.params.size()) << what;
    EXPECT_EQ(delayed.params, plain.params) << what;
}

class DelayedEngine : public ::testing::TestWithParam<std::tuple<int, bool>> {};

TEST_P(DelayedEngine, TrainsBitEqualToThePlainRun) {
    const auto [stage, overlap] = GetParam();
    for (bool bf16 : {false, true})
        expectBitEqual(stage, overlap, bf16, nlohmann::json::object(),
                       "stage " + std::to_string(stage) + (overlap ? " overlap" : " no overlap") +
                           (bf16 ? " bf16" : ""));
}

// bf16 parameters with fp32 gradients (data_types.grad_accum_dtype "fp32"): stages 0-1
// write the gradients straight into the fp32 buffers the collectives reduce, stages 2-3
// reduce-scatter fp32 slots instead of narrowing them to bf16.
TEST(DelayedEngineFp32Grads, TrainsBitEqualToThePlainRun) {
    const nlohmann::json fp32Grads = {{"data_types", {{"grad_accum_dtype", "fp32"}}}};
    for (int stage : {1, 3})
        expectBitEqual(stage, true, true, fp32Grads,
                       "stage " + std::to_string(stage) + " overlap bf16, fp32 gradients");
}

INSTANTIATE_TEST_SUITE_P(Stages, DelayedEngine,
                         ::testing::Combine(::testing::Values(0, 1, 2, 3), ::testing::Bool()),
                         [](const auto& info) {
                             return "stage" + std::to_string(std::get<0>(info.param)) +
                                    (std::get<1>(info.param) ? "_overlap" : "_no_overlap");
                         });

} // namespace
} // namespace zerolab
