// zerolab-calibrate's flag bounds (calibrate_flags.h).
#include "runtime/train/calibrate_flags.h"

#include "runtime/model/activation_layout.h"
#include "runtime/model/model_shape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <unistd.h>

namespace zerolab {

namespace {

std::string gb(double bytes) {
    char s[32];
    std::snprintf(s, sizeof s, "%.3g GB", bytes / 1e9);
    return s;
}

std::string number(double v) {
    char s[32];
    std::snprintf(s, sizeof s, "%.17g", v);
    return s;
}

// The activations one rank holds for `shape` at micro-batch B (its pieces run a real
// forward and backward with full recompute), or the reason they cannot be counted.
std::string microProblem(const ModelShape& shape, const std::string& model, int B,
                         double memory_bytes) {
    double bytes = 0;
    try {
        bytes = static_cast<double>(
            activationFootprint(shape, B, shape.seq_len, Recompute::Full).total(shape.n_layer));
    } catch (const std::invalid_argument& e) {
        return "--micro: " + std::to_string(B) + " with --model " + model + ": " + e.what();
    }
    if (bytes > memory_bytes / 2)
        return "--micro: " + std::to_string(B) + " with --model " + model + " needs " + gb(bytes) +
               " of activations, more than half of this machine's " + gb(memory_bytes);
    return {};
}

} // namespace

bool validEmulatedHostsName(const std::string& name) {
    if (name.empty() || name.size() > 24 || name[0] == '.' || name[0] == '-')
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '.' || c == '-';
    });
}

double physicalMemoryBytes() {
    return static_cast<double>(sysconf(_SC_PHYS_PAGES)) *
           static_cast<double>(sysconf(_SC_PAGESIZE));
}

std::string calibrateOptionsProblem(const CalibrateOptions& o, double memory_bytes) {
    if (o.threads < 1 || o.reps < 1)
        return "--threads, --reps: at least 1, got " + std::to_string(o.threads) + ", " +
               std::to_string(o.reps);
    if (o.micros.empty())
        return "--micro: at least one";
    for (int n : o.ranks) {
        if (n < 2)
            return "--ranks: each at least 2, got " + std::to_string(n);
        if (n > kMaxCalibrateRanks)
            return "--ranks: each at most " + std::to_string(kMaxCalibrateRanks) +
                   " (a job's ranks share this one machine), got " + std::to_string(n);
    }
    if (!std::isfinite(o.max_bytes) || o.max_bytes < kMinCollectiveBytes ||
        o.max_bytes > kMaxCollectiveBytes)
        return "--max-bytes: a size in bytes from 1024 (the smallest collective timed) to "
               "1073741824 (1 GiB), got " +
               number(o.max_bytes);
    if (!std::isfinite(o.max_call_s) || o.max_call_s <= 0 || o.max_call_s > kMaxCallSeconds)
        return "--max-call-s: seconds above 0, at most 60 (each size is timed in about ten "
               "calls), got " +
               number(o.max_call_s);
    if (!o.emulated_hosts.empty() && !validEmulatedHostsName(o.emulated_hosts))
        return "--emulated-hosts: '" + o.emulated_hosts +
               "' is no name of scripts/emulated-hosts (1-24 letters, digits, '.', '_' and '-', "
               "not starting with '.' or '-')";
    for (const std::string& model : o.models)
        if (!findModelPreset(model))
            return "--model: unknown preset '" + model + "'";
    for (int B : o.micros) {
        if (B < 1)
            return "--micro: each at least 1, got " + std::to_string(B);
        for (const std::string& model : o.models)
            if (std::string problem = microProblem(*findModelPreset(model), model, B, memory_bytes);
                !problem.empty())
                return problem;
    }
    if (!o.ranks.empty()) {
        const int ranks = *std::max_element(o.ranks.begin(), o.ranks.end());
        const double held = ranks * kRankBytesPerCollectiveByte * o.max_bytes;
        if (held > memory_bytes / 2)
            return "--max-bytes: " + number(o.max_bytes) + " over " + std::to_string(ranks) +
                   " ranks holds about " + gb(held) + " (3x the size a rank), more than half " +
                   "of this machine's " + gb(memory_bytes);
    }
    return {};
}

} // namespace zerolab
