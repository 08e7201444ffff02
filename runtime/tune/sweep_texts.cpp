// A stored phase or reason back to its Message (sweep_texts.h).
#include "runtime/tune/sweep_texts.h"

#include "storage/sweep_store.h"

#include <array>

namespace zerolab {

namespace {

constexpr std::array kPhases = {kPhaseSearch, kPhaseBuckets, kPhaseRepeat};

constexpr std::array kReasons = {
    kReasonOverCapacity, kReasonMicroBatchEnded, kReasonThroughputFlat, kReasonSameConfig,
    kReasonStopped,      kReasonTimeout,         kReasonNoMeasuredStep, kReasonNoRunLine,
    kReasonInterrupted,  kSweepNoTrialFinished,  kSweepNothingRan,
};

Message matchedOrLiteral(const std::string& text, std::span<const MessageSource> templates) {
    if (auto m = matchMessage(text, templates))
        return *m;
    return Message(text);
}

} // namespace

Message sweepPhaseMessage(const std::string& phase) {
    return matchedOrLiteral(phase, kPhases);
}

Message sweepReasonMessage(const std::string& reason) {
    Message m = matchedOrLiteral(reason, kReasons);
    // The trial status word ("oom") in the catalogue's context "Status", where the GUI
    // lists every stored status word (gui/core/status_label.cpp).
    if (m.text == kReasonMicroBatchEnded.source && m.args.size() == 2 &&
        trialStatusFromName(m.args[1].text)) {
        m.args[1].context = "Status";
    }
    return m;
}

} // namespace zerolab
