// The planner's texts as Messages: explainLines rendered in English is explain() (what
// zerolab-plan --explain printed before they were Messages), the errata strings are
// their Messages rendered, and each template reaches a translator.
#include "runtime/planner/planner.h"

#include <gtest/gtest.h>

using namespace zerolab;

namespace {

PlanInput chapterCase() {
    PlanInput in;
    in.params = 6.7e9;
    in.world = 8;
    in.stage = 1;
    in.grad_accumulation = 4;
    in.convention = Convention::Chapter;
    return in;
}

} // namespace

TEST(PlannerMessages, ExplainIsTheLinesInEnglish) {
    PlanInput in;
    in.params = 6.7e9;
    in.world = 8;
    const std::vector<Message> lines = explainLines(in, 1);
    std::string joined;
    for (const Message& m : lines)
        joined += renderEnglish(m) + "\n";
    EXPECT_EQ(joined, explain(in, 1));
    ASSERT_GE(lines.size(), 8u);
    // Lines as zerolab-plan --params 6.7e9 --world 8 --stage 1 --explain printed them.
    EXPECT_EQ(renderEnglish(lines[0]), "ZeRO stage 1, ZeRO paper convention, bf16");
    EXPECT_EQ(renderEnglish(lines[1]),
              "psi = 6.7e9 parameters, N = 8 ranks; decimal units, 1 GB = 1e9 bytes");
    EXPECT_EQ(renderEnglish(lines[2]), "");
    EXPECT_EQ(renderEnglish(lines[5]),
              "  master_params (fp32): 4 x psi / N = 4 x 6.7e9 / 8 = 3.35 GB  (sharded)");
    EXPECT_EQ(renderEnglish(lines[9]),
              "  model states = 4 psi + 12 psi / N = 26.80 GB + 10.05 GB = 36.85 GB");
    EXPECT_NE(explain(in, 1).find("\nCommunication per optimizer step (A = 1 micro-steps): "
                                  "reduce-scatter of the grads (psi) + all-gather of the params "
                                  "(psi): 2 psi = 13.4e9 elements = 26.80 GB\n  traffic per rank "
                                  "(ring: each psi above x (N - 1) / N) = 23.45 GB = 11.72e9 "
                                  "elements = 1.750 psi\n"),
              std::string::npos)
        << explain(in, 1);
}

TEST(PlannerMessages, ExplainTemplatesReachATranslator) {
    PlanInput in;
    in.params = 6.7e9;
    in.world = 8;
    const auto upper = [](const std::string& context, const std::string& source) {
        EXPECT_EQ(context, "PlanExplain");
        return "[" + source + "]";
    };
    const std::vector<Message> lines = explainLines(in, 1);
    EXPECT_EQ(renderMessage(lines[0], upper), "[ZeRO stage 1, [ZeRO paper convention], bf16]");
    EXPECT_EQ(renderMessage(lines[1], upper),
              "[psi = 6.7e9 parameters, N = 8 ranks; [decimal units, 1 GB = 1e9 bytes]]");
}

TEST(PlannerMessages, ErrataStringsAreTheirMessagesInEnglish) {
    const Plan p = plan(chapterCase());
    ASSERT_EQ(p.errata.size(), 6u);
    for (const Erratum& e : p.errata) {
        EXPECT_EQ(e.topic, renderEnglish(e.topic_text));
        EXPECT_EQ(e.claimed, renderEnglish(e.claimed_text));
        EXPECT_EQ(e.correct, renderEnglish(e.correct_text));
        EXPECT_EQ(e.claimed_text.context, "PlanErrata");
    }
    // As zerolab-plan --params 6.7e9 --world 8 --convention chapter --grad-accum 4 --json
    // printed them.
    EXPECT_EQ(p.errata[0].topic, "stage-1 total");
    EXPECT_EQ(p.errata[0].claimed,
              "the table's total: 14 psi + 4 psi / N = 14 x 6.7e9 + 4 x 6.7e9 / 8 = 97.15 GB");
    EXPECT_EQ(p.errata[1].correct,
              "sharding m and v (8 of 18 bytes per parameter) saves (8 - 8/N) / 18 = 38.9% at N "
              "= 8, tending to 8/18 = 44.4%");
    EXPECT_EQ(p.errata[3].claimed,
              "gradient_accumulation_steps = 4 divides fp32 gradient memory by 4: 4 psi / 4 = "
              "6.70 GB, so stage 1's model states are 53.60 GB");
    EXPECT_EQ(p.errata[5].correct,
              "DeepSpeed all-gathers the shards (allgather_partitions: true); a series of "
              "broadcasts only when allgather_partitions is false");
}
