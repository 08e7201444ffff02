// The learning-rate schedules, with DeepSpeed's formulas (deepspeed/runtime/
// lr_schedules.py: WarmupLR, WarmupDecayLR, WarmupCosineLR). `step` is DeepSpeed's
// last_batch_iteration: 0 for the first optimizer step.
#include "runtime/config/config.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace zerolab {

namespace {

// Fraction of the warmup done at `step` (< warmup steps); DeepSpeed clamps the
// warmup length to at least 2 so that log(warmup) is not 0.
double warmupGamma(const SchedulerConfig& s, int step) {
    const int warmup = std::max(2, s.warmup_num_steps);
    if (s.warmup_type == WarmupType::Log)
        return std::log(static_cast<double>(step) + 1.0) / std::log(static_cast<double>(warmup));
    return static_cast<double>(step) / warmup;
}

} // namespace

double lrAt(const TrainConfig& config, int step) {
    const SchedulerConfig& s = config.scheduler;
    if (s.type == SchedulerType::None)
        return config.optimizer.lr;
    const int warmup = std::max(2, s.warmup_num_steps);

    if (s.type == SchedulerType::WarmupCosineLR) {
        if (step < 0)
            return 0.0; // DeepSpeed's value before the first scheduler step
        double ratio;
        if (step < warmup) {
            ratio = s.warmup_min_ratio + warmupGamma(s, step) * (1.0 - s.warmup_min_ratio);
        } else {
            const double done = step - warmup + 1;
            const double total = s.total_num_steps - warmup;
            const double cosine = (1.0 + std::cos(std::numbers::pi * done / total)) / 2.0;
            ratio = std::max(0.0, s.cos_min_ratio + (1.0 - s.cos_min_ratio) * cosine);
        }
        return config.optimizer.lr * ratio;
    }

    if (step < 0)
        return s.warmup_min_lr; // DeepSpeed's value before the first scheduler step
    double gamma;
    if (step < warmup)
        gamma = warmupGamma(s, step);
    else if (s.type == SchedulerType::WarmupLR)
        gamma = 1.0;
    else
        gamma = std::max(0.0, static_cast<double>(s.total_num_steps - step) /
                                  std::max(1.0, static_cast<double>(s.total_num_steps - warmup)));
    return s.warmup_min_lr + (s.warmup_max_lr - s.warmup_min_lr) * gamma;
}

} // namespace zerolab
