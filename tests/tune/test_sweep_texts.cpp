// A trial's stored phase and reason back to their Messages (runtime/tune/sweep_texts.h):
// every template the tune library writes is recognised with its arguments, the English
// rendering is the stored text, and a text no template fits (an older store's, a config
// error) stays a literal shown as stored.
#include "runtime/tune/sweep_texts.h"

#include <gtest/gtest.h>

using namespace zerolab;

TEST(SweepTexts, PhasesAreRecognised) {
    for (const char* phase : {"search", "buckets", "repeat"}) {
        const Message m = sweepPhaseMessage(phase);
        EXPECT_EQ(m.context, "Sweep");
        EXPECT_EQ(m.text, phase);
    }
    EXPECT_TRUE(sweepPhaseMessage("grid").isLiteral());
}

TEST(SweepTexts, ReasonsRoundTrip) {
    const std::vector<Message> written = {
        Message(kReasonOverCapacity, {std::string("3.00 GiB"), std::string("1.00 GiB"),
                                      std::string("params 1.00 GiB, grads 2.00 GiB")}),
        Message(kReasonThroughputFlat,
                {std::string("8"), std::string("1200"), std::string("1300")}),
        Message(kReasonSameConfig, {std::string("4")}),
        Message(kReasonStopped),
        Message(kReasonTimeout, {std::string("600")}),
        Message(kReasonNoMeasuredStep),
        Message(kReasonNoRunLine, {std::string("/tmp/x (1).out")}),
        Message(kReasonInterrupted, {std::string("-1")}),
    };
    for (const Message& w : written) {
        const std::string stored = renderEnglish(w);
        const Message back = sweepReasonMessage(stored);
        EXPECT_EQ(back.text, w.text) << stored;
        EXPECT_EQ(back.context, w.context) << stored; // "Sweep", "Job" for the job's own
        EXPECT_EQ(renderEnglish(back), stored);
    }
}

TEST(SweepTexts, StatusWordOfAnEndedMicroBatchIsAStatus) {
    const Message m = sweepReasonMessage("micro-batch 16 ended oom");
    EXPECT_EQ(m.text, kReasonMicroBatchEnded.source);
    ASSERT_EQ(m.args.size(), 2u);
    EXPECT_TRUE(m.args[0].isLiteral());
    EXPECT_EQ(m.args[0].text, "16");
    EXPECT_EQ(m.args[1].context, "Status");
    EXPECT_EQ(m.args[1].text, "oom");
    EXPECT_EQ(renderEnglish(m), "micro-batch 16 ended oom");
}

TEST(SweepTexts, UnknownReasonStaysAsStored) {
    const std::string stored = "sweep.json at micro=4: train_batch_size: expected an integer";
    const Message m = sweepReasonMessage(stored);
    EXPECT_TRUE(m.isLiteral());
    EXPECT_EQ(renderEnglish(m), stored);
    EXPECT_TRUE(sweepReasonMessage("").isLiteral());
}
