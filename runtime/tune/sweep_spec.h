// A sweep's definition (docs/tune.md): a base config and axes, each a config JSON path
// (or "world" for N) with the values to try, plus the strategy, the memory capacity per
// rank and how each trial is measured. parseSweep reads the JSON file and reports every
// problem naming the file and the JSON path.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace zerolab {

// The one exception type of runtime/tune: invalid input (a sweep file, a sweep id) or a
// state the sweep cannot go on from. what() names the file and JSON path where one applies.
class SweepError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class SweepStrategy { Grid, Guided };

// "world": N. Any other name is a dotted JSON path into the config.
inline constexpr const char* kWorldAxis = "world";
inline constexpr const char* kMicroBatchAxis = "train_micro_batch_size_per_gpu";
inline constexpr const char* kThreadsAxis = "run.threads";

// The most candidates a sweep may have (the product of its axes' lengths) unless its
// "max_candidates" says more, and the most that key may say; every candidate is planned
// and stored before the first trial runs, and the driver reads them all before each trial,
// so the most is what does that in bounded memory (docs/tune.md: 100,000 took 179 MB and
// 9 s to the first trial; 1,000,000 took 1.8 GB and started none in 90 s).
inline constexpr std::int64_t kDefaultMaxCandidates = 10'000;
inline constexpr std::int64_t kMaxCandidatesLimit = 100'000;
// A sweep's name starts every trial's run name ("NAME #3 trial 12"), so it follows the run
// name's rules (stored_text.h) with room for that suffix.
inline constexpr std::size_t kMaxSweepNameBytes = 192;

struct SweepAxis {
    std::string name;
    std::vector<nlohmann::json> values; // in the order to try
};

// The memory a rank may fill. Host: the host's RAM / N (CPU runs). Device: a planner device
// preset (plan_devices.h) less its reserve. Bytes: a fixed number.
struct SweepCapacity {
    enum class Kind { Host, Device, Bytes } kind = Kind::Host;
    std::string device;     // Device: the preset key ("a100-80")
    std::int64_t bytes = 0; // Bytes
};

struct SweepSpec {
    std::string source;  // the file it was read from ("" when built in memory)
    std::string name;    // default: the file's stem
    nlohmann::json base; // the base config document (inline, or read from base's path)
    std::vector<SweepAxis> axes;
    SweepStrategy strategy = SweepStrategy::Guided;
    SweepCapacity capacity;
    // true: train_batch_size stays the base's and gradient_accumulation_steps follows
    // (train_batch_size / (micro-batch x N)); false: the accumulation stays and the
    // global batch follows.
    bool hold_global_batch = false;
    int warmup_steps = 3;
    int measure_steps = 10;
    double trial_timeout_s = 300;
    int repeat_best = 2; // the best this-many trials run once more to measure the noise
    std::string launcher = "mpirun";
    std::int64_t max_candidates = kDefaultMaxCandidates;

    // The sweep as JSON with base inline: what the store keeps and parseSweepJson reads back.
    nlohmann::json toJson() const;
};

// Reads and checks a sweep file. base may be a path, relative to the sweep file's folder.
// Throws SweepError listing every problem ("FILE: axes.world[1]: ...").
SweepSpec parseSweepFile(const std::string& path);
// The same from a parsed document; source names it in messages and anchors relative paths.
SweepSpec parseSweepJson(const nlohmann::json& doc, const std::string& source);

// Why `name` cannot name a sweep (invalid UTF-8, a control character, longer than
// kMaxSweepNameBytes), or nullopt.
std::optional<std::string> sweepNameProblem(const std::string& name);

// Bucket axes: what the guided search tunes at its best point.
bool isBucketAxis(const std::string& name);

std::string_view strategyName(SweepStrategy s);

} // namespace zerolab
