// Batch-size inference and DeepSpeed's rule train_batch_size = micro x accum x world.
#include "config_test_util.h"

namespace zerolab::test {
namespace {

TEST(ConfigBatch, InfersAccumulationFromTrainAndMicro) {
    auto r = parse(R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4})", 2);
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_EQ(r.config->batch.grad_accum, 8);
    EXPECT_EQ(r.config->batch.world, 2);
}

TEST(ConfigBatch, InfersMicroFromTrainAndAccumulation) {
    auto r = parse(R"({"train_batch_size": 1024, "gradient_accumulation_steps": 4})", 8);
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_EQ(r.config->batch.micro_batch, 32);
}

TEST(ConfigBatch, InfersTrainFromMicroAndAccumulation) {
    auto r = parse(R"({"train_micro_batch_size_per_gpu": 3, "gradient_accumulation_steps": 5})", 4);
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_EQ(r.config->batch.train_batch_size, 60);
}

TEST(ConfigBatch, OnlyTrainOrOnlyMicroMeansNoAccumulation) {
    auto t = parse(R"({"train_batch_size": 12})", 3);
    ASSERT_TRUE(t.ok()) << dump(t);
    EXPECT_EQ(t.config->batch.micro_batch, 4);
    EXPECT_EQ(t.config->batch.grad_accum, 1);
    auto m = parse(R"({"train_micro_batch_size_per_gpu": 6})", 2);
    ASSERT_TRUE(m.ok()) << dump(m);
    EXPECT_EQ(m.config->batch.train_batch_size, 12);
    EXPECT_EQ(m.config->batch.grad_accum, 1);
}

TEST(ConfigBatch, WorldDecidedByAllThreeNumbersWhenNotGiven) {
    auto r = parse(R"({"train_batch_size": 48, "train_micro_batch_size_per_gpu": 4,
                       "gradient_accumulation_steps": 3})");
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_EQ(r.config->batch.world, 4);
}

TEST(ConfigBatch, WorldIsOneWhenNothingDecidesIt) {
    auto r = parse(R"({"train_batch_size": 32, "gradient_accumulation_steps": 2})");
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_EQ(r.config->batch.world, 1);
    EXPECT_EQ(r.config->batch.micro_batch, 16);
}

TEST(ConfigBatch, MismatchNamesAllFourNumbers) {
    auto r = parse(R"({"train_batch_size": 100, "train_micro_batch_size_per_gpu": 4,
                       "gradient_accumulation_steps": 3})",
                   8);
    ASSERT_FALSE(r.ok());
    const ConfigDiagnostic* d = findError(r, "train_batch_size", "100 != 4 * 3 * 8");
    ASSERT_NE(d, nullptr) << dump(r);
    EXPECT_NE(d->message.find("train_batch_size is not equal to micro_batch_per_gpu * "
                              "gradient_acc_step * world_size"),
              std::string::npos);
}

TEST(ConfigBatch, IndivisibleInferenceExplainsTheDivisor) {
    auto r = parse(R"({"train_batch_size": 1024, "gradient_accumulation_steps": 4})", 3);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "train_batch_size", "1024 != 85 * 4 * 3"), nullptr) << dump(r);
    EXPECT_NE(findError(r, "train_batch_size", "not divisible by gradient_accumulation_steps 4"),
              nullptr)
        << dump(r);
}

// micro x accumulation x world past a long long (issue 40) wrapped around to a negative
// train_batch_size that was accepted (zerolab-plan then ran without end): refused as too
// large. train_batch_size's int bounds the accumulation count (docs/config.md).
TEST(ConfigBatch, AProductPastALongLongIsTooLarge) {
    auto r = parse(R"({"train_micro_batch_size_per_gpu": 2147483647,
                       "gradient_accumulation_steps": 2147483647})",
                   4);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "train_batch_size", "train_batch_size above 2^63 is too large"), nullptr)
        << dump(r);
    r = parse(R"({"train_batch_size": 8, "train_micro_batch_size_per_gpu": 2147483647,
                  "gradient_accumulation_steps": 2147483647})",
              4);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "train_batch_size", "the product is above 2^63"), nullptr) << dump(r);
    r = parse(R"({"train_micro_batch_size_per_gpu": 8, "gradient_accumulation_steps": 100000000})",
              4);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "train_batch_size", "train_batch_size 3200000000 is too large"), nullptr)
        << dump(r);
    r = parse(R"({"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 100000000})");
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_EQ(r.config->batch.grad_accum, 100000000);
}

TEST(ConfigBatch, NeitherTrainNorMicroIsAnError) {
    auto r = parse(R"({"gradient_accumulation_steps": 4})");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "train_batch_size", "Either train_batch_size or"), nullptr) << dump(r);
}

TEST(ConfigBatch, AutoIsResolvedWhereTheOthersDecide) {
    auto r = parse(R"({"train_batch_size": "auto", "train_micro_batch_size_per_gpu": 2,
                       "gradient_accumulation_steps": 4})",
                   2);
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_EQ(r.config->batch.train_batch_size, 16);
    auto m = parse(R"({"train_batch_size": 16, "train_micro_batch_size_per_gpu": "auto",
                       "gradient_accumulation_steps": 4})",
                   2);
    ASSERT_TRUE(m.ok()) << dump(m);
    EXPECT_EQ(m.config->batch.micro_batch, 2);
}

TEST(ConfigBatch, AutoThatNothingDecidesNamesTheKey) {
    auto r = parse(R"({"train_batch_size": 16, "gradient_accumulation_steps": "auto"})", 2);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "gradient_accumulation_steps", "\"auto\" cannot be resolved"), nullptr)
        << dump(r);
    auto both = parse(R"({"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto"})");
    ASSERT_FALSE(both.ok());
    EXPECT_NE(findError(both, "train_batch_size", "\"auto\""), nullptr) << dump(both);
}

TEST(ConfigBatch, NonPositiveOrWrongTypeIsATypeError) {
    auto r = parse(R"({"train_batch_size": 0, "train_micro_batch_size_per_gpu": "four"})");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "train_batch_size", "expected an integer 1-2147483647, got 0"), nullptr)
        << dump(r);
    EXPECT_NE(findError(r, "train_micro_batch_size_per_gpu",
                        "expected an integer 1-2147483647, got \"four\""),
              nullptr)
        << dump(r);
}

TEST(ConfigBatch, WorldMustBePositive) {
    auto r = parse(R"({"train_micro_batch_size_per_gpu": 1})", 0);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "", "world size must be >= 1"), nullptr) << dump(r);
}

} // namespace
} // namespace zerolab::test
