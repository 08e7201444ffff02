// ZeRO++'s keys (zero_quantized_weights, zero_hpz_partition_size, zero_quantized_gradients)
// and run.ranks_per_host: parsed at stage 3, warned about and ignored at other stages as
// DeepSpeed ignores them, and refused where the groups do not divide the world or the run
// is not on the CPU.
#include "tests/config/config_test_util.h"

namespace zerolab {
namespace {

using test::dump;
using test::findError;
using test::findWarning;
using test::parse;
using test::withBatch;

TEST(ConfigZeroPP, Stage3ReadsTheKeys) {
    auto r = parse(withBatch(R"("zero_optimization": {"stage": 3, "zero_quantized_weights": true,
        "zero_hpz_partition_size": 2, "zero_quantized_gradients": true},
        "run": {"ranks_per_host": 2})"),
                   4);
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_TRUE(r.config->zero.quantized_weights);
    EXPECT_EQ(r.config->zero.hpz_partition_size, 2);
    EXPECT_TRUE(r.config->zero.quantized_gradients);
    EXPECT_EQ(r.config->run.ranks_per_host, 2);
    EXPECT_TRUE(r.diagnostics.empty()) << dump(r);
    // Defaults: off; DeepSpeed's 0 for the partition size means off too.
    auto d = parse(withBatch(R"("zero_optimization": {"stage": 3, "zero_hpz_partition_size": 0})"));
    ASSERT_TRUE(d.ok()) << dump(d);
    EXPECT_FALSE(d.config->zero.quantized_weights);
    EXPECT_EQ(d.config->zero.hpz_partition_size, 1);
    EXPECT_FALSE(d.config->zero.quantized_gradients);
}

TEST(ConfigZeroPP, OtherStagesWarnByPathAndIgnore) {
    for (int stage : {0, 1, 2}) {
        auto r = parse(withBatch(R"("zero_optimization": {"stage": )" + std::to_string(stage) +
                                 R"(, "zero_quantized_weights": true,
            "zero_hpz_partition_size": 2, "zero_quantized_gradients": true})"));
        ASSERT_TRUE(r.ok()) << dump(r);
        for (const char* key :
             {"zero_quantized_weights", "zero_hpz_partition_size", "zero_quantized_gradients"})
            EXPECT_NE(findWarning(r, std::string("zero_optimization.") + key,
                                  "DeepSpeed ignores it at stage " + std::to_string(stage)),
                      nullptr)
                << dump(r);
        EXPECT_FALSE(r.config->zero.quantized_weights);
        EXPECT_EQ(r.config->zero.hpz_partition_size, 1);
        EXPECT_FALSE(r.config->zero.quantized_gradients);
    }
}

TEST(ConfigZeroPP, BadValuesAreErrorsNamingThePath) {
    auto notDividing = parse(withBatch(R"("zero_optimization": {"stage": 3,
        "zero_hpz_partition_size": 3}, "run": {"ranks_per_host": 3})"),
                             4);
    ASSERT_FALSE(notDividing.ok());
    EXPECT_NE(findError(notDividing, "zero_optimization.zero_hpz_partition_size",
                        "3 does not divide the world of 4 ranks"),
              nullptr)
        << dump(notDividing);
    EXPECT_NE(findError(notDividing, "run.ranks_per_host", "does not divide"), nullptr)
        << dump(notDividing);
    auto typed = parse(withBatch(R"("zero_optimization": {"stage": 3,
        "zero_quantized_weights": "yes", "zero_hpz_partition_size": -1})"));
    ASSERT_FALSE(typed.ok());
    EXPECT_NE(findError(typed, "zero_optimization.zero_quantized_weights", ""), nullptr)
        << dump(typed);
    EXPECT_NE(findError(typed, "zero_optimization.zero_hpz_partition_size", ""), nullptr)
        << dump(typed);
    auto gpu = parse(withBatch(R"("zero_optimization": {"stage": 3,
        "zero_quantized_gradients": true}, "run": {"device": "cuda"})"));
    ASSERT_FALSE(gpu.ok());
    EXPECT_NE(findError(gpu, "zero_optimization.zero_quantized_gradients", "\"cpu\" only"), nullptr)
        << dump(gpu);
}

} // namespace
} // namespace zerolab
