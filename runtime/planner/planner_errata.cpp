// The chapter's slips with the numbers of this plan plugged in (planner_errata.h).
// At psi = 175e9, N = 64 these reproduce its 175B example; at 6.7e9, N = 8 its
// 8xA100 case.
#include "runtime/planner/planner_errata.h"
#include "runtime/planner/planner_units.h"

#include <cstdio>
#include <string>

namespace zerolab {

namespace {

std::string percent(double fraction) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", fraction * 100);
    return buf;
}

// "14 psi + 4 psi / N = 14 x 6.7e9 + 4 x 6.7e9 / 8 = 97.15 GB": a Message, so that a
// translation writes its own psi (ψ).
Message sum(int r, int s, double psi, int n) {
    return Message(ZEROLAB_TR("PlanErrata", "%1 psi + %2 psi / N = %1 x %3 + %2 x %3 / %4 = %5"),
                   {std::to_string(r), std::to_string(s), formatPsi(psi), std::to_string(n),
                    formatBytes(r * psi + s * psi / n, ByteUnit::GB)});
}

// The chapter's worked stage-1 case that its accumulation slip is about: gradient
// accumulation 2 (its 6.7B migration) when the plan does not set one.
constexpr int kChapterAccumulation = 2;

// The chapter's stage-1 communication example: psi = 10B at N = 32 moves
// 2 x psi x 4 bytes x (N-1)/N = 77.5 GB, which it says takes "tens of seconds" over NVLink
// (600 GB/s) or InfiniBand (200 Gb/s = 25 GB/s).
constexpr double kNvlinkBytesPerS = 600e9;
constexpr double kInfinibandBytesPerS = 25e9;

// One erratum: its strings are the English renderings of its Messages.
Erratum erratum(Message topic, Message claimed, Message correct, double claimed_value,
                double correct_value, std::string unit) {
    return {renderEnglish(topic), renderEnglish(claimed), renderEnglish(correct),
            claimed_value,        correct_value,          std::move(unit),
            std::move(topic),     std::move(claimed),     std::move(correct)};
}

} // namespace

std::vector<Erratum> chapterErrata(const PlanInput& in, std::int64_t psi_count) {
    const double psi = static_cast<double>(psi_count);
    const int n = in.world;
    std::vector<Erratum> out;

    const double claimed_total = 14 * psi + 4 * psi / n;
    const double rows_total = 10 * psi + 8 * psi / n;
    out.push_back(
        erratum(Message(ZEROLAB_TR("PlanErrata", "stage-1 total")),
                Message(ZEROLAB_TR("PlanErrata", "the table's total: %1"), {sum(14, 4, psi, n)}),
                Message(ZEROLAB_TR("PlanErrata", "the sum of its own rows (2 + 4 + 4 "
                                                 "replicated, 4/N + 4/N sharded): %1"),
                        {sum(10, 8, psi, n)}),
                claimed_total, rows_total, "bytes"));

    out.push_back(erratum(
        Message(ZEROLAB_TR("PlanErrata", "saving limit")),
        Message(ZEROLAB_TR("PlanErrata", "stage 1 saves about 22% as N grows")),
        Message(ZEROLAB_TR("PlanErrata", "sharding m and v (8 of 18 bytes per parameter) saves "
                                         "(8 - 8/N) / 18 = %1 at N = %2, tending to 8/18 = %3"),
                {percent((8.0 - 8.0 / n) / 18), std::to_string(n), percent(8.0 / 18)}),
        0.22, 8.0 / 18, "fraction"));

    out.push_back(erratum(
        Message(ZEROLAB_TR("PlanErrata", "master weights")),
        Message(ZEROLAB_TR("PlanErrata",
                           "its layout keeps the fp32 master and fp32 grads replicated: %1"),
                {sum(10, 8, psi, n)}),
        Message(ZEROLAB_TR("PlanErrata", "DeepSpeed and the ZeRO paper shard the fp32 master with "
                                         "m and v and keep 16-bit grads (K = 12): %1"),
                {sum(4, 12, psi, n)}),
        rows_total, 4 * psi + 12 * psi / n, "bytes"));

    {
        // Learn has no accumulation input: the slip is shown at the chapter's own 2.
        const int a = in.grad_accumulation > 1 ? in.grad_accumulation : kChapterAccumulation;
        const double activations = static_cast<double>(in.activation_bytes.value_or(0));
        const double stage1 = rows_total + activations;
        const double halved = stage1 - (4 * psi - 4 * psi / a);
        out.push_back(erratum(
            Message(ZEROLAB_TR("PlanErrata", "gradient accumulation")),
            activations > 0
                ? Message(ZEROLAB_TR("PlanErrata", "gradient_accumulation_steps = %1 divides fp32 "
                                                   "gradient memory by %1: 4 psi / %1 = %2, so "
                                                   "stage 1 needs %3 (with %4 of activations)"),
                          {std::to_string(a), formatBytes(4 * psi / a, ByteUnit::GB),
                           formatBytes(halved, ByteUnit::GB),
                           formatBytes(activations, ByteUnit::GB)})
                : Message(ZEROLAB_TR("PlanErrata", "gradient_accumulation_steps = %1 divides fp32 "
                                                   "gradient memory by %1: 4 psi / %1 = %2, so "
                                                   "stage 1's model states are %3"),
                          {std::to_string(a), formatBytes(4 * psi / a, ByteUnit::GB),
                           formatBytes(halved, ByteUnit::GB)}),
            Message(ZEROLAB_TR("PlanErrata",
                               "accumulation sums micro-batch gradients into the same 4 psi = %1 "
                               "buffer, so stage 1 still needs %2; it shrinks activations by "
                               "allowing a smaller micro-batch for the same global batch"),
                    {formatBytes(4 * psi, ByteUnit::GB), formatBytes(stage1, ByteUnit::GB)}),
            4 * psi / a, 4 * psi, "bytes"));
    }

    {
        const int n_ex = 32;
        const double psi_ex = 10e9;
        const double bytes = 2 * psi_ex * 4 * (n_ex - 1) / n_ex;
        out.push_back(erratum(
            Message(ZEROLAB_TR("PlanErrata", "communication time")),
            Message(ZEROLAB_TR("PlanErrata", "2 x psi x 4 bytes x (N-1)/N = %1 at psi = 10e9, N "
                                             "= %2 takes tens of seconds over NVLink (600 GB/s) or "
                                             "InfiniBand (200 Gb/s)"),
                    {formatBytes(bytes, ByteUnit::GB), std::to_string(n_ex)}),
            Message(ZEROLAB_TR("PlanErrata", "%1 / 600 GB/s = %2 over NVLink, %1 / 25 GB/s = %3 "
                                             "over InfiniBand: well under a second to a few "
                                             "seconds, not tens"),
                    {formatBytes(bytes, ByteUnit::GB), formatSeconds(bytes / kNvlinkBytesPerS),
                     formatSeconds(bytes / kInfinibandBytesPerS)}),
            0, bytes / kNvlinkBytesPerS, "text"));
    }

    out.push_back(erratum(
        Message(ZEROLAB_TR("PlanErrata", "parameter sync")),
        Message(ZEROLAB_TR("PlanErrata",
                           "after the local update each rank broadcasts its parameter shard")),
        Message(ZEROLAB_TR("PlanErrata", "DeepSpeed all-gathers the shards (allgather_partitions: "
                                         "true); a series of broadcasts only when "
                                         "allgather_partitions is false")),
        0, 0, "text"));
    return out;
}

} // namespace zerolab
