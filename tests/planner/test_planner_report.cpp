// The planner's outputs: the JSON contract (a `stages` array with stage, per_rank
// by ledger category, model_states_bytes), the table's unit header, explain().
#include "runtime/planner/planner.h"

#include <gtest/gtest.h>

using namespace zerolab;

namespace {

PlanInput paperCase() {
    PlanInput in;
    in.params = 7.5e9;
    in.world = 64;
    in.stage = 1;
    return in;
}

} // namespace

TEST(PlannerJson, StagesArrayWithEveryCategory) {
    const Plan p = plan(paperCase());
    const nlohmann::json j = toJson(p);
    ASSERT_TRUE(j.at("stages").is_array());
    ASSERT_EQ(j.at("stages").size(), 4u);
    for (int s = 0; s < 4; ++s) {
        const nlohmann::json& st = j["stages"][s];
        EXPECT_EQ(st.at("stage").get<int>(), s);
        const nlohmann::json& per_rank = st.at("per_rank");
        ASSERT_EQ(per_rank.size(), kMemCategoryCount);
        long long states = 0;
        for (auto c : {MemCategory::Params, MemCategory::MasterParams, MemCategory::Grads,
                       MemCategory::OptimM, MemCategory::OptimV})
            states += per_rank.at(std::string(memCategoryName(c))).get<long long>();
        EXPECT_EQ(st.at("model_states_bytes").get<long long>(), states);
        EXPECT_EQ(states, p.stages[s].model_states_bytes);
    }
    EXPECT_EQ(j["stages"][1]["model_states_bytes"].get<long long>(), 31'406'250'000LL);
    EXPECT_EQ(j.at("psi").get<long long>(), 7'500'000'000LL);
    EXPECT_EQ(j.at("verdict").at("lowest_stage").get<int>(), 1);
    EXPECT_EQ(j.at("verdict").at("smallest_world").size(), 4u);
    EXPECT_TRUE(j.at("verdict").at("smallest_world")[0].is_null());
    EXPECT_EQ(j.at("input").at("precision").get<std::string>(), "bf16");
    EXPECT_EQ(j.at("input").at("convention").get<std::string>(), "paper");
}

TEST(PlannerTable, HeaderNamesTheUnit) {
    const Plan p = plan(paperCase());
    const std::string gb = formatTable(p);
    EXPECT_NE(gb.find("GB = 1e9 bytes"), std::string::npos) << gb;
    EXPECT_NE(gb.find("120.00 GB"), std::string::npos) << gb;
    EXPECT_NE(gb.find("model states"), std::string::npos);
    EXPECT_NE(gb.find("Lowest stage that fits at N = 64: 1"), std::string::npos) << gb;
    const std::string gib = formatTable(p, ByteUnit::GiB);
    EXPECT_NE(gib.find("GiB = 2^30 bytes"), std::string::npos);
    EXPECT_NE(gib.find("111.76 GiB"), std::string::npos) << gib; // 120e9 / 2^30
}

TEST(PlannerTable, ChapterTableShowsItsSlips) {
    PlanInput in = paperCase();
    in.params = 175e9;
    in.convention = Convention::Chapter;
    const std::string t = formatTable(plan(in));
    EXPECT_NE(t.find("chapter layout"), std::string::npos);
    EXPECT_NE(t.find("2460.94 GB"), std::string::npos) << t;
    EXPECT_NE(t.find("1771.88 GB"), std::string::npos) << t;
    EXPECT_NE(t.find("44.4%"), std::string::npos) << t;
}

TEST(PlannerExplain, FormulaWithNumbersPluggedIn) {
    const std::string e = explain(paperCase(), 1);
    EXPECT_NE(e.find("ZeRO stage 1"), std::string::npos) << e;
    EXPECT_NE(e.find("GB = 1e9 bytes"), std::string::npos) << e;
    EXPECT_NE(e.find("model states = 4 psi + 12 psi / N = 30.00 GB + 1.41 GB = 31.41 GB"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("optim_m (fp32): 4 x psi / N = 4 x 7.5e9 / 64 = 468.75 MB  (sharded)"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("params (bf16): 2 x psi = 2 x 7.5e9 = 15.00 GB  (replicated)"),
              std::string::npos)
        << e;
    const std::string e3 = explain(paperCase(), 3);
    EXPECT_NE(e3.find("model states = 0 psi + 16 psi / N"), std::string::npos) << e3;
    EXPECT_NE(e3.find("3 A psi"), std::string::npos) << e3;
    EXPECT_THROW(explain(paperCase(), 5), PlanError);
}
