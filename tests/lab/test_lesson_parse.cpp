// The lesson format: a valid lesson parses; each kind of mistake is an error naming the
// file and the JSON path; every shipped lesson parses with both languages everywhere.
#include "lab_test_util.h"
#include "runtime/config/config_paths.h"
#include "runtime/lab/shipped_lessons.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

namespace zerolab {
namespace {

using test::minimalLesson;
using test::parseError;

TEST(LessonParse, MinimalLessonParses) {
    const Lesson l = parseLesson(minimalLesson().dump(), "t.json");
    EXPECT_EQ(l.id, "mini-lesson");
    ASSERT_EQ(l.steps.size(), 2u);
    const LessonStep& s = l.steps[0];
    ASSERT_TRUE(s.experiment);
    ASSERT_EQ(s.experiment->runs.size(), 1u);
    const LessonRun& r = s.experiment->runs[0];
    EXPECT_EQ(r.world, 2);
    // The run's config: base_config plus the Lab's run settings.
    EXPECT_EQ((*r.config)["run"]["steps"], 1);
    EXPECT_EQ((*r.config)["run"]["timeline_every"], 1);
    EXPECT_EQ((*r.config)["zero_optimization"]["stage"], 1);
    EXPECT_EQ(r.origin, "one/n2");
    ASSERT_EQ(s.checks.size(), 1u);
    EXPECT_EQ(s.checks[0].json_path, "steps[0].checks[0]");
    EXPECT_EQ(l.steps[1].checks[1].run, "plan"); // a plan step's default run
    // A teacher's lesson may give only en; zh_CN falls back to it.
    EXPECT_EQ(l.title.in("zh_CN"), "A lesson");
}

TEST(LessonParse, RunOverridesAreAMergePatch) {
    auto doc = minimalLesson();
    doc["steps"][0]["experiment"]["runs"][0]["config"] = {{"zero_optimization", {{"stage", 2}}},
                                                          {"model", {{"recompute", nullptr}}}};
    const Lesson l = parseLesson(doc.dump(), "t.json");
    const auto& c = *l.steps[0].experiment->runs[0].config;
    EXPECT_EQ(c["zero_optimization"]["stage"], 2);
    EXPECT_FALSE(c["model"].contains("recompute"));
    EXPECT_EQ(c["model"]["preset"], "nano");
}

struct Broken {
    const char* what;
    std::function<void(nlohmann::json&)> edit;
    const char* expect; // a substring of the message
};

TEST(LessonParse, ErrorsNameFileAndJsonPath) {
    const std::vector<Broken> cases = {
        {"format", [](auto& d) { d["format"] = 2; }, "t.json: format: unsupported lesson format 2"},
        {"id", [](auto& d) { d["id"] = "Bad Id"; }, "t.json: id: 'Bad Id' is not a lesson id"},
        {"no title", [](auto& d) { d.erase("title"); }, "t.json: (document): missing 'title'"},
        {"unknown key", [](auto& d) { d["steps"][0]["checks"][0]["formla"] = "1"; },
         "t.json: steps[0].checks[0]: unknown key 'formla'"},
        {"text not object", [](auto& d) { d["steps"][0]["text"] = "x"; },
         "t.json: steps[0].text: expected an object"},
        {"config invalid",
         [](auto& d) {
             d["steps"][0]["experiment"]["runs"][0]["config"] = {
                 {"zero_optimization", {{"stage", 7}}}};
         },
         "t.json: steps[0].experiment.runs[0]: its config (base_config + config, world 2) is "
         "invalid: zero_optimization.stage"},
        {"world", [](auto& d) { d["steps"][0]["experiment"]["runs"][0]["world"] = 0; },
         "t.json: steps[0].experiment.runs[0].world: must be in 1..64, got 0"},
        {"duplicate run",
         [](auto& d) {
             d["steps"][0]["experiment"]["runs"].push_back({{"id", "n2"}, {"world", 1}});
         },
         "t.json: steps[0].experiment.runs[1].id: duplicate run id 'n2'"},
        {"unknown run", [](auto& d) { d["steps"][0]["checks"][0]["run"] = "n9"; },
         "t.json: steps[0].checks[0].run: no run 'n9' in this step"},
        {"unknown quantity", [](auto& d) { d["steps"][0]["checks"][0]["quantity"] = "states"; },
         "t.json: steps[0].checks[0].quantity: unknown quantity 'states'"},
        {"timing without a profile",
         [](auto& d) {
             d["steps"][0]["checks"][0]["quantity"] = "step_ms";
             d["steps"][0]["checks"][0]["unit"] = "ms";
             d["steps"][0]["checks"][0]["tolerance"] = 0.25;
         },
         "steps[0].checks[0].quantity: 'step_ms' is a time: it is checked against the step-time "
         "model, which needs the experiment's \"profile\": \"calibrate\""},
        {"timing without a tolerance",
         [](auto& d) {
             d["steps"][0]["experiment"]["profile"] = "calibrate";
             d["steps"][0]["checks"][0]["quantity"] = "step_ms";
             d["steps"][0]["checks"][0]["unit"] = "ms";
             d["steps"][0]["checks"][0].erase("formula");
         },
         "t.json: steps[0].checks[0]: a time check states its tolerance"},
        {"profile", [](auto& d) { d["steps"][0]["experiment"]["profile"] = "a100"; },
         "steps[0].experiment.profile: 'calibrate' (zerolab-calibrate before the runs), got "
         "'a100'"},
        {"profile of a custom shape",
         [](auto& d) {
             d["steps"][0]["experiment"]["profile"] = "calibrate";
             d["base_config"]["model"] = {{"n_layer", 1},
                                          {"n_head", 1},
                                          {"n_embd", 8},
                                          {"seq_len", 16},
                                          {"vocab_size", 256}};
         },
         "steps[0].experiment.runs[0]: \"profile\": \"calibrate\" measures a model preset's"},
        {"hosts without a rate", [](auto& d) { d["steps"][0]["experiment"]["hosts"] = 2; },
         "t.json: steps[0].experiment: emulated hosts need a link 'rate'"},
        {"rate without hosts", [](auto& d) { d["steps"][0]["experiment"]["rate"] = "1gbit"; },
         "steps[0].experiment.rate: a link rate needs \"hosts\": 2 or more"},
        {"bad rate",
         [](auto& d) {
             d["steps"][0]["experiment"]["hosts"] = 2;
             d["steps"][0]["experiment"]["rate"] = "200";
         },
         "steps[0].experiment.rate: '200': unlimited, or bits per second with kbit, mbit or gbit"},
        {"rate tc cannot hold",
         [](auto& d) {
             d["steps"][0]["experiment"]["hosts"] = 2;
             d["steps"][0]["experiment"]["rate"] = "1kbit";
         },
         "steps[0].experiment.rate: '1kbit': unlimited, or bits per second with kbit, mbit or "
         "gbit from 8kbit to 100gbit"},
        {"rate past what tc holds",
         [](auto& d) {
             d["steps"][0]["experiment"]["hosts"] = 2;
             d["steps"][0]["experiment"]["rate"] = "1000gbit";
         },
         "steps[0].experiment.rate: '1000gbit': unlimited"},
        {"hosts", [](auto& d) { d["steps"][0]["experiment"]["hosts"] = 17; },
         "steps[0].experiment.hosts: must be in 1..16, got 17"},
        {"world over hosts",
         [](auto& d) {
             d["steps"][0]["experiment"]["hosts"] = 2;
             d["steps"][0]["experiment"]["rate"] = "200mbit";
             d["steps"][0]["experiment"]["runs"][0]["world"] = 3;
         },
         "steps[0].experiment.runs[0].world: world 3 does not split over the 2 hosts"},
        {"ranks per host",
         [](auto& d) {
             d["steps"][0]["experiment"]["hosts"] = 2;
             d["steps"][0]["experiment"]["rate"] = "200mbit";
             d["base_config"]["run"] = {{"ranks_per_host", 2}};
         },
         "steps[0].experiment.runs[0]: run.ranks_per_host 2 is not the 1 ranks a host"},
        {"unit", [](auto& d) { d["steps"][0]["checks"][0]["unit"] = "ms"; },
         "t.json: steps[0].checks[0].unit: 'ms' does not measure 'model_states'"},
        {"unknown unit", [](auto& d) { d["steps"][0]["checks"][0]["unit"] = "furlongs"; },
         "steps[0].checks[0].unit: unknown unit 'furlongs'"},
        {"formula syntax", [](auto& d) { d["steps"][0]["checks"][0]["formula"] = "4 + (12/N"; },
         "t.json: steps[0].checks[0].formula: '4 + (12/N': column 10: expected ')' at the end"},
        {"formula variable", [](auto& d) { d["steps"][0]["checks"][0]["formula"] = "4 + 12/n"; },
         "t.json: steps[0].checks[0].formula: unknown variable 'n'"},
        {"prediction", [](auto& d) { d["steps"][0]["checks"][0]["prediction"] = "nope"; },
         "steps[0].checks[0].prediction: no prediction 'nope' in this step"},
        {"tolerance", [](auto& d) { d["steps"][0]["checks"][0]["tolerance"] = 5; },
         "steps[0].checks[0].tolerance: a relative tolerance in [0, 1)"},
        {"relation",
         [](auto& d) {
             d["steps"][0]["checks"][0] = {
                 {"id", "r"},          {"kind", "relation"},  {"label", {{"en", "R"}}},
                 {"unit", "psi"},      {"quantity", "grads"}, {"runs", {"n2"}},
                 {"relation", "equal"}};
         },
         "steps[0].checks[0].runs: a relation needs at least two runs"},
        {"erratum topic", [](auto& d) { d["steps"][1]["checks"][0]["topic"] = "typo"; },
         "t.json: steps[1].checks[0].topic: the plan has no erratum 'typo' (it has: stage-1 total"},
        {"erratum convention", [](auto& d) { d["steps"][1]["plan"]["convention"] = "paper"; },
         "steps[1].checks[0]: an erratum check needs the step's plan with \"convention\": "
         "\"chapter\""},
        {"plan device", [](auto& d) { d["steps"][1]["plan"]["device"] = "tpu"; },
         "steps[1].plan.device: unknown device 'tpu'"},
        // grad_accum_dtype: the config's names and rule (config_choices.h).
        {"plan grad_accum_dtype",
         [](auto& d) { d["steps"][1]["plan"]["grad_accum_dtype"] = "int8"; },
         "steps[1].plan.grad_accum_dtype: 'fp32', 'bf16' or 'fp16', got 'int8'"},
        {"plan bf16 gradients",
         [](auto& d) {
             d["steps"][1]["plan"]["precision"] = "fp32";
             d["steps"][1]["plan"]["grad_accum_dtype"] = "bf16";
         },
         "steps[1].plan.grad_accum_dtype: bf16 gradients need bf16 training (precision 'bf16')"},
        {"plan fp16 gradients", [](auto& d) { d["steps"][1]["plan"]["grad_accum_dtype"] = "fp16"; },
         "steps[1].plan.grad_accum_dtype: fp16 gradients are not implemented"},
        {"plan measured-only",
         [](auto& d) {
             d["steps"][1]["checks"][1]["quantity"] = "reduce_scatter_count";
             d["steps"][1]["checks"][1]["unit"] = "count";
             d["steps"][1]["checks"][1].erase("formula");
         },
         "steps[1].checks[1].quantity: 'reduce_scatter_count' is measured only"},
        {"chart", [](auto& d) { d["steps"][0]["chart"]["kind"] = "pie"; },
         "steps[0].chart.kind: 'memory', 'traffic', 'step_time', 'timeline' or 'plan', got 'pie'"},
        {"chart category", [](auto& d) { d["steps"][0]["chart"]["categories"] = {"weights"}; },
         "steps[0].chart.categories[0]: unknown ledger category 'weights'"},
    };
    ASSERT_EQ(parseError(minimalLesson()), "");
    for (const Broken& b : cases) {
        auto doc = minimalLesson();
        b.edit(doc);
        const std::string msg = parseError(doc);
        EXPECT_NE(msg.find(b.expect), std::string::npos)
            << b.what << ": got \"" << msg << "\", want \"" << b.expect << "\"";
    }
}

// Issue 29 §3: a lesson is bounded. A 2.3 MB lesson kept a full merged config per run
// (6.6 GB RSS); a 5 MB step text froze the Lab view for over 10 minutes. The file, its
// steps and each text are capped, the error naming the path and both numbers.
TEST(LessonParse, WhatALessonMayHoldIsBounded) {
    auto longText = minimalLesson();
    longText["steps"][0]["text"]["en"] = std::string(20000, 'x');
    EXPECT_NE(parseError(longText).find("t.json: steps[0].text.en: a text of 20000 bytes, more "
                                        "than the 16384 a lesson text may hold"),
              std::string::npos)
        << parseError(longText);
    auto longChinese = minimalLesson();
    longChinese["steps"][0]["title"]["zh_CN"] = std::string(16385, 'x');
    EXPECT_NE(parseError(longChinese).find("steps[0].title.zh_CN: a text of 16385 bytes"),
              std::string::npos);
    auto manySteps = minimalLesson();
    while (manySteps["steps"].size() <= 32) {
        auto step = manySteps["steps"][1];
        step["id"] = "s" + std::to_string(manySteps["steps"].size());
        manySteps["steps"].push_back(step);
    }
    EXPECT_NE(parseError(manySteps).find("t.json: steps: give 1 to 32 steps, got 33"),
              std::string::npos)
        << parseError(manySteps);
    const std::string big = minimalLesson().dump() + std::string((1 << 20) + 1, ' ');
    try {
        parseLesson(big, "t.json");
        ADD_FAILURE() << "a lesson over 1 MiB was read";
    } catch (const LessonError& e) {
        EXPECT_NE(std::string(e.what()).find("t.json: a lesson of "), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("more than the 1048576 a lesson may hold"),
                  std::string::npos);
    }
    // Right at the caps: accepted.
    auto atCap = minimalLesson();
    atCap["steps"][0]["text"]["en"] = std::string(16384, 'x');
    EXPECT_EQ(parseError(atCap), "");
}

// Emulated hosts: the run's config carries the ranks of a host (the link classes the
// engine counts and the planner plans), the experiment its hosts and rate.
TEST(LessonParse, HostsAndRateReachTheRunsConfig) {
    auto doc = minimalLesson();
    doc["steps"][0]["experiment"]["hosts"] = 2;
    doc["steps"][0]["experiment"]["rate"] = "200mbit";
    doc["steps"][0]["experiment"]["runs"][0]["world"] = 4;
    const Lesson l = parseLesson(doc.dump(), "t.json");
    const LessonExperiment& e = *l.steps[0].experiment;
    EXPECT_EQ(e.hosts, 2);
    EXPECT_EQ(e.rate, "200mbit");
    EXPECT_FALSE(e.calibrate);
    EXPECT_EQ((*e.runs[0].config)["run"]["ranks_per_host"], 2);
}

// Issue 29 §3: runs launched alike share one merged config (one object per distinct run,
// validated once), and a later step's run names the first as its origin, so that the Lab
// runs it once. 32 steps x 16 runs of one config hold one config, not 512.
TEST(LessonParse, RunsLaunchedAlikeShareOneConfig) {
    auto doc = minimalLesson();
    nlohmann::json step = doc["steps"][0];
    step["checks"] = nlohmann::json::array();
    step["experiment"]["runs"] = nlohmann::json::array();
    for (int r = 0; r < 16; ++r)
        step["experiment"]["runs"].push_back({{"id", "r" + std::to_string(r)}, {"world", 2}});
    doc["steps"] = nlohmann::json::array();
    for (int i = 0; i < 32; ++i) {
        step["id"] = "s" + std::to_string(i);
        doc["steps"].push_back(step);
    }
    const Lesson l = parseLesson(doc.dump(), "t.json");
    const auto& first = l.steps[0].experiment->runs[0];
    EXPECT_EQ(first.origin, "s0/r0");
    std::set<const nlohmann::json*> configs;
    for (const LessonStep& s : l.steps)
        for (const LessonRun& r : s.experiment->runs) {
            configs.insert(r.config.get());
            EXPECT_EQ(r.origin, "s0/r0") << s.id << "/" << r.id;
        }
    EXPECT_EQ(configs.size(), 1u);
    EXPECT_EQ(first.config.use_count(), 32 * 16);

    // What differs in how it is launched is not shared: world, steps, config, hosts.
    auto mixed = minimalLesson();
    auto& runs = mixed["steps"][0]["experiment"]["runs"];
    runs.push_back({{"id", "n4"}, {"world", 4}});
    runs.push_back(
        {{"id", "s2"}, {"world", 2}, {"config", {{"zero_optimization", {{"stage", 2}}}}}});
    runs.push_back({{"id", "again"}, {"world", 2}});
    auto onHosts = mixed["steps"][0];
    onHosts["id"] = "hosts";
    onHosts["experiment"]["hosts"] = 2;
    onHosts["experiment"]["rate"] = "1gbit";
    onHosts["experiment"]["runs"] = {{{"id", "n2"}, {"world", 2}}};
    onHosts["checks"] = nlohmann::json::array();
    mixed["steps"].push_back(onHosts);
    const Lesson m = parseLesson(mixed.dump(), "t.json");
    const auto& mr = m.steps[0].experiment->runs;
    EXPECT_EQ(mr[3].origin, "one/n2");
    EXPECT_EQ(mr[3].config, mr[0].config);
    EXPECT_EQ(mr[1].origin, "one/n4");
    EXPECT_EQ(mr[2].origin, "one/s2");
    EXPECT_NE(mr[2].config, mr[0].config);
    EXPECT_EQ(m.steps[2].experiment->runs[0].origin, "hosts/n2");
}

// A distinct run's merged config is held whole: capped at 16 KiB of JSON, naming the run.
TEST(LessonParse, ARunsConfigIsBounded) {
    auto doc = minimalLesson();
    doc["base_config"]["run"] = {{"on_stall", std::string(17000, 'c')}};
    const std::string msg = parseError(doc);
    EXPECT_NE(msg.find("t.json: steps[0].experiment.runs[0]: its config (base_config + config) "
                       "is "),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("more than the 16384 a lesson run's config may hold"), std::string::npos)
        << msg;
}

// Every config key that names a file or folder, in base_config or in a run's overrides, is
// refused naming the lesson file and its JSON path: a lesson's runs may not write outside
// the Lab's folder (flops_profiler.output_file overwrote a file as root) or read elsewhere.
TEST(LessonParse, ARunMayNotChooseWhereItWritesOrWhatItReads) {
    const std::vector<std::string> expected = {"run.checkpoint_dir",
                                               "tensorboard.output_path",
                                               "csv_monitor.output_path",
                                               "flops_profiler.output_file",
                                               "zero_optimization.offload_optimizer.nvme_path",
                                               "zero_optimization.offload_param.nvme_path",
                                               "data.path",
                                               "model.init_from",
                                               "model.hf_config"};
    std::vector<std::string> seen;
    for (const ConfigPathKey& k : kConfigPathKeys) {
        nlohmann::json patch = "/etc/passwd";
        std::string path;
        for (auto it = k.keys.rbegin(); it != k.keys.rend(); ++it)
            if (!it->empty()) {
                patch = nlohmann::json{{std::string(*it), patch}};
                path = std::string(*it) + (path.empty() ? "" : ".") + path;
            }
        seen.push_back(path);
        auto inBase = minimalLesson();
        inBase["base_config"].merge_patch(patch);
        EXPECT_NE(parseError(inBase).find("t.json: base_config." + path +
                                          ": a lesson may not choose where its runs write"),
                  std::string::npos)
            << parseError(inBase);
        auto inRun = minimalLesson();
        inRun["steps"][0]["experiment"]["runs"][0]["config"] = patch;
        EXPECT_NE(parseError(inRun).find("t.json: steps[0].experiment.runs[0].config." + path +
                                         ": a lesson may not choose"),
                  std::string::npos)
            << parseError(inRun);
    }
    EXPECT_EQ(seen, expected);
}

// A time check: on a step that calibrates, with its tolerance stated.
TEST(LessonParse, ATimeCheckIsGradedWithinItsStatedTolerance) {
    auto doc = minimalLesson();
    doc["steps"][0]["experiment"]["profile"] = "calibrate";
    doc["steps"][0]["checks"].push_back({{"id", "time"},
                                         {"label", {{"en", "Step time"}}},
                                         {"unit", "ms"},
                                         {"quantity", "step_ms"},
                                         {"run", "n2"},
                                         {"tolerance", 0.25}});
    const Lesson l = parseLesson(doc.dump(), "t.json");
    EXPECT_TRUE(l.steps[0].experiment->calibrate);
    EXPECT_EQ(l.steps[0].checks[1].quantity, "step_ms");
    EXPECT_DOUBLE_EQ(l.steps[0].checks[1].tolerance, 0.25);
}

TEST(LessonParse, SyntaxErrorNamesLineAndColumn) {
    try {
        parseLesson("{\n  \"format\": 1,\n  \"id\" \"x\"\n}", "t.json");
        FAIL() << "parsed";
    } catch (const LessonError& e) {
        EXPECT_NE(std::string(e.what()).find("t.json: line 3, column"), std::string::npos)
            << e.what();
    }
}

TEST(LessonParse, BothLanguagesRequiredWhenAsked) {
    const std::string msg = parseError(minimalLesson(), true);
    EXPECT_NE(msg.find("t.json: title: missing 'zh_CN'"), std::string::npos) << msg;
}

TEST(LessonParse, MissingFileIsNamed) {
    try {
        loadLesson("/nonexistent/lesson.json");
        FAIL() << "loaded";
    } catch (const LessonError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/lesson.json: cannot read"),
                  std::string::npos);
    }
    try {
        loadLesson("no-such-lesson");
        FAIL() << "loaded";
    } catch (const LessonError& e) {
        EXPECT_NE(std::string(e.what()).find("unknown lesson 'no-such-lesson' (shipped: "),
                  std::string::npos);
    }
}

// Every shipped lesson parses with both languages required, ids are unique, the list
// has the seven of issue 16, ZeRO++'s (issue 25), the step time's (issue 24) and the Llama
// shapes' (issue 36) in order, and the files on disk are what is embedded.
TEST(ShippedLessons, ParseWithBothLanguages) {
    const auto& files = shippedLessonFiles();
    ASSERT_EQ(files.size(), 10u);
    std::set<std::string> ids;
    for (const ShippedLessonFile& f : files) {
        SCOPED_TRACE(std::string(f.file));
        Lesson l;
        ASSERT_NO_THROW(l = parseLesson(std::string(f.text), std::string(f.file), true));
        EXPECT_TRUE(ids.insert(l.id).second) << "duplicate id " << l.id;
        std::ifstream in(std::string(ZEROLAB_SOURCE_DIR) + "/resources/lessons/" +
                         std::string(f.file));
        const std::string disk((std::istreambuf_iterator<char>(in)), {});
        EXPECT_EQ(disk, f.text) << "rebuild: the embedded copy is stale";
    }
    const auto list = shippedLessons();
    ASSERT_EQ(list.size(), 10u);
    for (std::size_t i = 0; i < list.size(); ++i)
        EXPECT_EQ(list[i].order, static_cast<int>(i + 1));
    EXPECT_EQ(shippedLesson("stage1-optimizer-sharding").order, 2);
    EXPECT_EQ(shippedLesson("llama-shapes").order, 10);
}

// Every Text of every shipped lesson has en and zh_CN, checked on the raw JSON so that a
// Text added in a place the parser does not read yet is caught too. The failure names
// the file and the JSON path.
void expectBilingual(const nlohmann::json& j, const std::string& file, const std::string& path) {
    if (j.is_object()) {
        if (j.contains("en")) {
            EXPECT_TRUE(j.contains("zh_CN") && j["zh_CN"].is_string() &&
                        !j["zh_CN"].get<std::string>().empty())
                << file << ": " << path << ": no zh_CN";
            return;
        }
        for (const auto& [k, v] : j.items())
            if (k != "base_config" && k != "config")
                expectBilingual(v, file, path.empty() ? k : path + "." + k);
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i)
            expectBilingual(j[i], file, path + "[" + std::to_string(i) + "]");
    }
}

TEST(ShippedLessons, EveryTextHasBothLanguages) {
    for (const ShippedLessonFile& f : shippedLessonFiles())
        expectBilingual(nlohmann::json::parse(f.text), std::string(f.file), "");
}

} // namespace
} // namespace zerolab
