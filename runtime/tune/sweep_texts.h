// What a sweep writes into a trial's phase and reason, as Message templates (context
// "Sweep"): the tune library renders them in English into the store (the texts
// zerolab-sweep prints and the JSON holds, unchanged), and a reader that translates
// turns a stored text back into its Message. The store keeps English only, so a text from
// an older store, or one these templates do not cover (a config error, a launch
// failure), comes back as a literal and shows as stored.
#pragma once

#include "runtime/launch/job_runner.h"
#include "runtime/text/message.h"

#include <string>

namespace zerolab {

// Phases: stored as these English words (also the ids the strategy compares).
inline constexpr MessageSource kPhaseSearch = ZEROLAB_TR("Sweep", "search");
inline constexpr MessageSource kPhaseBuckets = ZEROLAB_TR("Sweep", "buckets");
inline constexpr MessageSource kPhaseRepeat = ZEROLAB_TR("Sweep", "repeat");

// Reasons.
inline constexpr MessageSource kReasonOverCapacity =
    ZEROLAB_TR("Sweep", "forecast %1 per rank > capacity %2 (%3)");
inline constexpr MessageSource kReasonMicroBatchEnded =
    ZEROLAB_TR("Sweep", "micro-batch %1 ended %2");
inline constexpr MessageSource kReasonThroughputFlat =
    ZEROLAB_TR("Sweep", "throughput stopped rising at micro-batch %1 (%2 <= %3 tokens/s)");
inline constexpr MessageSource kReasonSameConfig =
    ZEROLAB_TR("Sweep", "the same config as trial %1");
inline constexpr MessageSource kReasonStopped =
    ZEROLAB_TR("Sweep", "interrupted by the sweep's stop");
inline constexpr MessageSource kReasonTimeout =
    ZEROLAB_TR("Sweep", "killed at the trial timeout of %1 s");
inline constexpr MessageSource kReasonNoMeasuredStep =
    ZEROLAB_TR("Sweep", "no measured step was recorded");
inline constexpr MessageSource kReasonNoRunLine = kJobNoRunLine; // job_runner.h
inline constexpr MessageSource kReasonInterrupted =
    ZEROLAB_TR("Sweep", "interrupted (run %1); run again on resume");
// A sweep's own message when it ends failed: no trial finished, and the first trial's reason.
inline constexpr MessageSource kSweepNoTrialFinished =
    ZEROLAB_TR("Sweep", "no trial finished (%1 of %2 candidates ran); trial %3 %4: %5");
inline constexpr MessageSource kSweepNothingRan =
    ZEROLAB_TR("Sweep", "no trial finished (none of %1 candidates ran)");

// A stored phase or reason as a Message: the template it was rendered from, with its
// arguments as literals (a trial status word as a message of context "Status"), or the
// stored text as a literal when none matches.
Message sweepPhaseMessage(const std::string& phase);
Message sweepReasonMessage(const std::string& reason);

} // namespace zerolab
