// Whether a calibration ran on a quiet machine (issue 37 item 5). A profile calibrated
// while another process burns a core times every kernel and collective slower than the
// machine runs them, and every forecast made from it afterwards is long (measured: a
// one-core burner for a minute made the forecasts 82-91% long, against 4-26% from a quiet
// calibration). zerolab-calibrate samples the machine's CPU time around its measurements
// and times its reference pass once a round; from those it judges the load, says so, and
// refuses to write a profile that the load has spoiled unless told to (--allow-load).
#pragma once

#include <string>
#include <vector>

namespace zerolab {

// CPU time of the whole machine and of this process with its waited-for descendants
// (its mpirun jobs and their ranks), and the wall clock, at one instant.
struct CpuSample {
    double machine_busy_s = 0; // /proc/stat: every core's user+nice+system+irq+softirq+steal
    double own_s = 0;          // getrusage: self + children, user + system
    double wall_s = 0;         // a monotonic clock
};

// The sample now. Where /proc/stat cannot be read, machine_busy_s is negative and the
// judgement says the load is unknown (it is then never the reason for a refusal).
CpuSample sampleCpu();

// Above these the calibration counts as loaded: other processes used more than a fifth of
// a core on average over the calibration (a desktop at rest uses a few hundredths), or the
// reference pass, the same work each round, spread by more than 50% between its fastest
// and slowest round. A quiet day on this 2-core VM spread 1-5%; a noisy one (2026-12-07:
// nothing else running, 0.01 cores of others, the host's neighbours busy) 23-38% over 7
// rounds, which refused every calibration at the first bound of 15%. A one-core burner
// makes the passes it overlaps ~2x (100%) slower (docs/performance.md).
inline constexpr double kMaxOtherCores = 0.2;
inline constexpr double kMaxRoundSpread = 0.5;
// A round's reference time: the fastest of this many passes back to back. One pass alone
// let a single preempted call read as a loaded round (83.9% spread on a quiet machine after
// the in-situ pieces of six models), where a load that lasts slows every call of it.
inline constexpr int kReferenceCallsPerRound = 3;

struct LoadVerdict {
    double other_cores = -1;  // other processes' mean CPU use in cores; < 0: unknown
    double round_spread = -1; // (slowest - fastest) / median of the rounds; < 0: too few
    bool loaded = false;
    std::string text; // one line, in words, naming both numbers and the bounds
};

// The judgement of a calibration between `before` and `after` whose reference pass took
// `round_seconds` (one per round). Pure: the tests feed it made-up samples.
LoadVerdict judgeLoad(const CpuSample& before, const CpuSample& after,
                      const std::vector<double>& round_seconds);

} // namespace zerolab
