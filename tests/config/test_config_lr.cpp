// The LR schedules against DeepSpeed's formulas (lr_schedules.py), evaluated by hand
// at known steps; `step` is DeepSpeed's last_batch_iteration.
#include "config_test_util.h"

#include <cmath>
#include <numbers>

namespace zerolab::test {
namespace {

TrainConfig withScheduler(SchedulerConfig s, double lr = 1e-3) {
    TrainConfig c;
    c.optimizer.lr = lr;
    c.scheduler = s;
    return c;
}

TEST(ConfigLr, NoSchedulerIsConstant) {
    TrainConfig c;
    c.optimizer.lr = 3e-4;
    EXPECT_DOUBLE_EQ(lrAt(c, 0), 3e-4);
    EXPECT_DOUBLE_EQ(lrAt(c, 12345), 3e-4);
}

TEST(ConfigLr, WarmupLRLogByDefault) {
    SchedulerConfig s;
    s.type = SchedulerType::WarmupLR;
    s.warmup_min_lr = 1e-5;
    s.warmup_max_lr = 1e-3;
    s.warmup_num_steps = 100;
    TrainConfig c = withScheduler(s);
    ASSERT_EQ(s.warmup_type, WarmupType::Log);
    // gamma = log(step + 1) / log(warmup); lr = min + (max - min) * gamma
    EXPECT_DOUBLE_EQ(lrAt(c, 0), 1e-5);
    EXPECT_NEAR(lrAt(c, 9), 1e-5 + (1e-3 - 1e-5) * std::log(10.0) / std::log(100.0), 1e-15);
    EXPECT_NEAR(lrAt(c, 49), 1e-5 + (1e-3 - 1e-5) * std::log(50.0) / std::log(100.0), 1e-15);
    EXPECT_DOUBLE_EQ(lrAt(c, 100), 1e-3);
    EXPECT_DOUBLE_EQ(lrAt(c, 5000), 1e-3);
}

TEST(ConfigLr, WarmupLRLinear) {
    SchedulerConfig s;
    s.type = SchedulerType::WarmupLR;
    s.warmup_min_lr = 0.0;
    s.warmup_max_lr = 2e-3;
    s.warmup_num_steps = 10;
    s.warmup_type = WarmupType::Linear;
    TrainConfig c = withScheduler(s);
    EXPECT_DOUBLE_EQ(lrAt(c, 0), 0.0);
    EXPECT_NEAR(lrAt(c, 5), 1e-3, 1e-15);
    EXPECT_DOUBLE_EQ(lrAt(c, 10), 2e-3);
}

TEST(ConfigLr, WarmupNumStepsIsAtLeastTwo) {
    SchedulerConfig s;
    s.type = SchedulerType::WarmupLR;
    s.warmup_max_lr = 1.0;
    s.warmup_num_steps = 0;
    TrainConfig c = withScheduler(s);
    // DeepSpeed: warmup = max(2, 0) = 2; step 1: log(2) / log(2) = 1.
    EXPECT_DOUBLE_EQ(lrAt(c, 0), 0.0);
    EXPECT_DOUBLE_EQ(lrAt(c, 1), 1.0);
}

TEST(ConfigLr, WarmupDecayLR) {
    SchedulerConfig s;
    s.type = SchedulerType::WarmupDecayLR;
    s.warmup_min_lr = 0.0;
    s.warmup_max_lr = 1e-3;
    s.warmup_num_steps = 10;
    s.total_num_steps = 110;
    s.warmup_type = WarmupType::Linear;
    TrainConfig c = withScheduler(s);
    EXPECT_NEAR(lrAt(c, 5), 0.5e-3, 1e-15);
    // gamma = (total - step) / max(1, total - warmup)
    EXPECT_DOUBLE_EQ(lrAt(c, 10), 1e-3);
    EXPECT_NEAR(lrAt(c, 60), 1e-3 * 50.0 / 100.0, 1e-15);
    EXPECT_DOUBLE_EQ(lrAt(c, 110), 0.0);
    EXPECT_DOUBLE_EQ(lrAt(c, 500), 0.0);
}

TEST(ConfigLr, WarmupCosineLR) {
    SchedulerConfig s;
    s.type = SchedulerType::WarmupCosineLR;
    s.warmup_num_steps = 10;
    s.total_num_steps = 110;
    s.warmup_min_ratio = 0.1;
    s.cos_min_ratio = 0.01;
    s.warmup_type = WarmupType::Linear;
    const double lr = 6e-4;
    TrainConfig c = withScheduler(s, lr);
    // Warmup: ratio = min_ratio + step / warmup * (1 - min_ratio)
    EXPECT_NEAR(lrAt(c, 0), lr * 0.1, 1e-18);
    EXPECT_NEAR(lrAt(c, 5), lr * (0.1 + 0.5 * 0.9), 1e-18);
    // Cosine: real step = step - warmup + 1 over total - warmup.
    auto cosine = [&](int step) {
        double x = (1.0 + std::cos(std::numbers::pi * (step - 10 + 1) / 100.0)) / 2.0;
        return lr * (0.01 + 0.99 * x);
    };
    EXPECT_NEAR(lrAt(c, 10), cosine(10), 1e-18);
    EXPECT_NEAR(lrAt(c, 59), lr * (0.01 + 0.99 * 0.5), 1e-15);
    EXPECT_NEAR(lrAt(c, 109), lr * 0.01, 1e-15);
}

TEST(ConfigLr, WarmupLRPeaksAtOptimizerLrWhenMaxNotGiven) {
    auto r = parse(R"({"train_micro_batch_size_per_gpu": 1,
        "optimizer": {"type": "AdamW", "params": {"lr": 5e-4}},
        "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 4}}})");
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_DOUBLE_EQ(lrAt(*r.config, 4), 5e-4);
    auto decay = parse(R"({"train_micro_batch_size_per_gpu": 1,
        "optimizer": {"type": "AdamW", "params": {"lr": 5e-4}},
        "scheduler": {"type": "WarmupDecayLR", "params": {"total_num_steps": 10}}})");
    ASSERT_TRUE(decay.ok()) << dump(decay);
    EXPECT_DOUBLE_EQ(decay.config->scheduler.warmup_max_lr, 1e-3); // DeepSpeed's default
}

} // namespace
} // namespace zerolab::test
