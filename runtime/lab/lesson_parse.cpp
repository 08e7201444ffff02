// The lesson format, checked field by field. A Node pairs a JSON value with its path so
// that every error names where it is; unknown keys are errors (a teacher's typo must not
// silently drop a check).
#include "runtime/lab/lesson_parse.h"

#include "runtime/config/config_choices.h"
#include "runtime/config/config_paths.h"
#include "runtime/config/json_text.h"
#include "runtime/files/bounded_file.h"
#include "runtime/lab/lab_expr.h"
#include "runtime/lab/lab_quantity.h"
#include "runtime/lab/lab_units.h"
#include "runtime/lab/shipped_lessons.h"
#include "runtime/planner/plan_devices.h"
#include "runtime/planner/plan_names.h"
#include "runtime/text/name_table.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

namespace zerolab {

namespace {

using json = nlohmann::json;

constexpr int kFormat = 1;
constexpr int kMaxExperimentSteps = 50;
constexpr int kMaxWorldInLesson = 64;
constexpr std::size_t kMaxRuns = 16;
// What a lesson may hold (docs/lab.md): a lesson file is read whole and every run of it
// keeps its merged config, and the Lab view lays each text out at once; a 2.3 MB lesson
// held 6.6 GB, a 5 MB text froze the window for minutes. The shipped lessons use at most
// 13 KB, 2 steps and 875 bytes of text.
constexpr std::size_t kMaxLessonBytes = 1 << 20;
constexpr std::size_t kMaxSteps = 32;
constexpr std::size_t kMaxTextBytes = 16 << 10;
// A run's merged config (base_config + its overrides) as JSON text: runs launched alike
// share one (RunPool), and each distinct one is held whole, so it is capped too.
constexpr std::size_t kMaxRunConfigBytes = 16 << 10;
constexpr int kMaxEmulatedHosts = 16; // scripts/emulated-hosts up --hosts 2..16

struct Ctx {
    std::string source;
    bool both_languages = false;
};

class Node {
public:
    Node(const json& v, std::string path, const Ctx& ctx)
        : m_v(v), m_path(std::move(path)), m_ctx(ctx) {}

    [[noreturn]] void fail(const std::string& message) const {
        throw LessonError(m_ctx.source + ": " + (m_path.empty() ? "(document)" : m_path) + ": " +
                          message);
    }
    const json& value() const { return m_v; }
    const std::string& path() const { return m_path; }
    const Ctx& ctx() const { return m_ctx; }

    Node at(const std::string& key) const {
        return Node(m_v.at(key), m_path.empty() ? key : m_path + "." + key, m_ctx);
    }
    Node at(std::size_t i) const {
        return Node(m_v.at(i), m_path + "[" + std::to_string(i) + "]", m_ctx);
    }
    bool has(const std::string& key) const { return m_v.contains(key); }

    void requireObject(std::initializer_list<std::string_view> allowed) const {
        if (!m_v.is_object())
            fail("expected an object, got " + std::string(m_v.type_name()));
        for (const auto& [k, _] : m_v.items())
            if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
                std::string list;
                for (std::string_view a : allowed)
                    list += (list.empty() ? "" : ", ") + std::string(a);
                fail("unknown key '" + k + "' (allowed: " + list + ")");
            }
    }
    Node required(const std::string& key) const {
        if (!has(key))
            fail("missing '" + key + "'");
        return at(key);
    }
    std::string string() const {
        if (!m_v.is_string())
            fail("expected a string, got " + std::string(m_v.type_name()));
        return m_v.get<std::string>();
    }
    double number() const {
        if (!m_v.is_number())
            fail("expected a number, got " + std::string(m_v.type_name()));
        return m_v.get<double>();
    }
    int integer(int lo, int hi) const {
        if (!m_v.is_number_integer())
            fail("expected an integer, got " + describeJson(m_v));
        const auto v = m_v.get<long long>();
        if (v < lo || v > hi)
            fail("must be in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
                 std::to_string(v));
        return static_cast<int>(v);
    }
    bool boolean() const {
        if (!m_v.is_boolean())
            fail("expected true or false, got " + describeJson(m_v));
        return m_v.get<bool>();
    }
    void requireArray() const {
        if (!m_v.is_array())
            fail("expected an array, got " + std::string(m_v.type_name()));
    }

private:
    const json& m_v;
    std::string m_path;
    const Ctx& m_ctx;
};

// The value `n` names in `table`; any other name fails, listing the table's names.
template <typename E, std::size_t N> E named(const Node& n, const NameTable<E, N>& table) {
    const std::string s = n.string();
    if (const auto v = valueNamed(table, s))
        return *v;
    n.fail(nameList(table) + ", got '" + s + "'");
}

constexpr NameTable<CheckKind, 3> kCheckKindNames = {{
    {"value", CheckKind::Value},
    {"relation", CheckKind::Relation},
    {"erratum", CheckKind::Erratum},
}};

constexpr NameTable<Relation, 3> kRelationNames = {{
    {"decreasing", Relation::Decreasing},
    {"increasing", Relation::Increasing},
    {"equal", Relation::Equal},
}};

constexpr NameTable<ChartKind, 5> kChartKindNames = {{
    {"memory", ChartKind::Memory},
    {"traffic", ChartKind::Traffic},
    {"step_time", ChartKind::StepTime},
    {"timeline", ChartKind::Timeline},
    {"plan", ChartKind::Plan},
}};

std::string identifier(const Node& n) {
    const std::string s = n.string();
    if (s.empty() || s.size() > 64 ||
        s.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") != std::string::npos)
        n.fail("'" + s + "' is not an id: use 1-64 of a-z, 0-9, '-', '_'");
    return s;
}

// One language of a text, at most kMaxTextBytes.
std::string boundedText(const Node& n) {
    std::string t = n.string();
    if (t.size() > kMaxTextBytes)
        n.fail("a text of " + std::to_string(t.size()) + " bytes, more than the " +
               std::to_string(kMaxTextBytes) + " a lesson text may hold");
    return t;
}

LabText text(const Node& n) {
    n.requireObject({"en", "zh_CN"});
    LabText t;
    t.en = boundedText(n.required("en"));
    if (t.en.empty())
        n.at("en").fail("empty text");
    if (n.has("zh_CN"))
        t.zh_CN = boundedText(n.at("zh_CN"));
    if (n.ctx().both_languages && t.zh_CN.empty())
        n.fail("missing 'zh_CN' (a shipped lesson gives every text in en and zh_CN)");
    return t;
}

std::optional<LabText> optionalText(const Node& parent, const std::string& key) {
    if (!parent.has(key))
        return std::nullopt;
    return text(parent.at(key));
}

double tolerance(const Node& parent, const std::string& key) {
    if (!parent.has(key))
        return 0;
    const double t = parent.at(key).number();
    if (!(t >= 0 && t < 1))
        parent.at(key).fail("a relative tolerance in [0, 1) (0.01 = 1%), got " + std::to_string(t));
    return t;
}

// A lesson is a stranger's file and the Lab may run as root (emulated hosts): its runs
// may not name a file or folder to write or read (config_paths.h). They run in the
// Lab's own folder, so the defaults (checkpoints/, DeepSpeedJobName/) land there.
void refuseConfigPaths(const Node& config) {
    const std::vector<std::string> found = configPathsIn(config.value(), true);
    if (!found.empty())
        throw LessonError(config.ctx().source + ": " + config.path() + "." + found.front() +
                          ": a lesson may not choose where its runs write files or what they "
                          "read: remove it (they run in the Lab's own folder, on synthetic "
                          "data)");
}

// What every lesson run is launched with on top of its config: the experiment's steps,
// a store row and a timeline at every step, no checkpoints; on emulated hosts, the ranks
// of a host for the traffic's link classes.
void applyLabRunSettings(json& config, int steps, int ranks_per_host) {
    json& run = config["run"];
    run["steps"] = steps;
    run["log_every"] = 1;
    run["timeline_every"] = 1;
    run["checkpoint_every"] = 0;
    if (ranks_per_host > 0)
        run["ranks_per_host"] = ranks_per_host;
}

// The lesson's distinct runs while it is read: a launch key (world, hosts, rate, merged
// config) -> the one config object its runs share and the first run's "<step>/<run>".
// Each distinct config is merged, held and validated once.
struct RunPool {
    std::map<std::string, std::pair<std::shared_ptr<const json>, std::string>> by_key;
};

struct RunLaunch {
    const json& base_config;
    int steps;
    int hosts;
    const std::string& rate;
    const std::string& step_id;
};

LessonRun parseRun(const Node& n, const RunLaunch& launch, RunPool& pool) {
    n.requireObject({"id", "world", "config", "label"});
    LessonRun r;
    r.id = identifier(n.required("id"));
    if (r.id == "plan")
        n.at("id").fail("'plan' is reserved for a step's plan");
    r.world = n.required("world").integer(1, kMaxWorldInLesson);
    if (launch.hosts > 1 && r.world % launch.hosts != 0)
        n.at("world").fail("world " + std::to_string(r.world) + " does not split over the " +
                           std::to_string(launch.hosts) + " hosts of the experiment");
    json config = launch.base_config;
    if (n.has("config")) {
        const Node c = n.at("config");
        if (!c.value().is_object())
            c.fail("expected an object of overrides (a JSON merge patch onto base_config)");
        refuseConfigPaths(c);
        config.merge_patch(c.value());
    }
    if (!config.is_object())
        n.fail("base_config with this run's config is not an object");
    const int per_host = launch.hosts > 1 ? r.world / launch.hosts : 0;
    if (per_host > 0 && config.contains("run") && config["run"].is_object() &&
        config["run"].contains("ranks_per_host") && config["run"]["ranks_per_host"] != per_host)
        n.fail("run.ranks_per_host " + config["run"]["ranks_per_host"].dump() + " is not the " +
               std::to_string(per_host) + " ranks a host of the experiment's " +
               std::to_string(launch.hosts) + " hosts runs");
    applyLabRunSettings(config, launch.steps, per_host);
    if (auto t = optionalText(n, "label"))
        r.label = *t;
    std::string text = config.dump();
    if (text.size() > kMaxRunConfigBytes)
        n.fail("its config (base_config + config) is " + std::to_string(text.size()) +
               " bytes of JSON, more than the " + std::to_string(kMaxRunConfigBytes) +
               " a lesson run's config may hold");
    std::string key = std::to_string(r.world) + " " + std::to_string(launch.hosts) + " " +
                      launch.rate + " " + std::move(text);
    if (const auto it = pool.by_key.find(key); it != pool.by_key.end()) {
        r.config = it->second.first;
        r.origin = it->second.second;
        return r;
    }
    const ConfigResult res = parseConfig(config, r.world, n.ctx().source);
    for (const ConfigDiagnostic& d : res.diagnostics)
        if (d.severity == Severity::Error)
            n.fail("its config (base_config + config, world " + std::to_string(r.world) +
                   ") is invalid: " + (d.path.empty() ? "" : d.path + ": ") + d.message);
    r.config = std::make_shared<const json>(std::move(config));
    r.origin = launch.step_id + "/" + r.id;
    pool.by_key.emplace(std::move(key), std::make_pair(r.config, r.origin));
    return r;
}

// "unlimited", or bits per second as scripts/emulated-hosts takes them (200mbit, 1gbit):
// a number with kbit, mbit or gbit from 8kbit to 100gbit, what tc can hold (docs/hosts.md).
bool validRate(const std::string& rate) {
    if (rate == "unlimited")
        return true;
    std::size_t digits = 0;
    while (digits < rate.size() && (std::isdigit(static_cast<unsigned char>(rate[digits])) ||
                                    (rate[digits] == '.' && digits > 0)))
        ++digits;
    const std::string unit = rate.substr(digits);
    const std::string number = rate.substr(0, digits);
    if (digits == 0 || number.back() == '.' || std::count(number.begin(), number.end(), '.') > 1)
        return false;
    const double scale = unit == "kbit" ? 1e3 : unit == "mbit" ? 1e6 : unit == "gbit" ? 1e9 : 0.0;
    const double bits_per_s = std::strtod(number.c_str(), nullptr) * scale;
    return bits_per_s >= 8e3 && bits_per_s <= 100e9;
}

LessonExperiment parseExperiment(const Node& n, const json& base_config, const std::string& step_id,
                                 RunPool& pool) {
    n.requireObject({"steps", "runs", "hosts", "rate", "profile"});
    LessonExperiment e;
    e.steps = n.required("steps").integer(1, kMaxExperimentSteps);
    if (n.has("hosts"))
        e.hosts = n.at("hosts").integer(1, kMaxEmulatedHosts);
    if (n.has("rate")) {
        e.rate = n.at("rate").string();
        if (!validRate(e.rate))
            n.at("rate").fail("'" + e.rate +
                              "': unlimited, or bits per second with kbit, mbit or gbit "
                              "from 8kbit to 100gbit (200mbit, 1gbit)");
        if (e.hosts < 2)
            n.at("rate").fail("a link rate needs \"hosts\": 2 or more");
    } else if (e.hosts > 1) {
        n.fail("emulated hosts need a link 'rate' (unlimited, 200mbit, 1gbit, ...)");
    }
    if (n.has("profile")) {
        const std::string p = n.at("profile").string();
        if (p != "calibrate")
            n.at("profile").fail("'calibrate' (zerolab-calibrate before the runs), got '" + p +
                                 "'");
        e.calibrate = true;
    }
    const Node runs = n.required("runs");
    runs.requireArray();
    if (runs.value().empty() || runs.value().size() > kMaxRuns)
        runs.fail("give 1 to " + std::to_string(kMaxRuns) + " runs");
    const RunLaunch launch{base_config, e.steps, e.hosts, e.rate, step_id};
    std::set<std::string> ids;
    for (std::size_t i = 0; i < runs.value().size(); ++i) {
        LessonRun r = parseRun(runs.at(i), launch, pool);
        if (!ids.insert(r.id).second)
            runs.at(i).at("id").fail("duplicate run id '" + r.id + "'");
        if (e.calibrate) {
            const auto model = r.config->find("model");
            if (model == r.config->end() || !model->is_object() || !model->contains("preset"))
                runs.at(i).fail("\"profile\": \"calibrate\" measures a model preset's "
                                "kernels: give model.preset");
        }
        e.runs.push_back(std::move(r));
    }
    return e;
}

LessonPlan parsePlan(const Node& n) {
    n.requireObject({"params", "world", "stage", "precision", "master_weights", "grad_accum_dtype",
                     "convention", "device", "activation_bytes", "gradient_accumulation_steps",
                     "label"});
    LessonPlan p;
    PlanInput& in = p.input;
    in.params = n.required("params").number();
    if (!(in.params >= 1 && in.params <= 1e15))
        n.at("params").fail("a parameter count in 1..1e15");
    if (n.has("world"))
        in.world = n.at("world").integer(1, kMaxWorld);
    if (n.has("stage"))
        in.stage = n.at("stage").integer(0, 3);
    if (n.has("precision"))
        in.precision = named(n.at("precision"), kPrecisionNames);
    if (n.has("master_weights"))
        in.master_weights = n.at("master_weights").boolean();
    if (n.has("grad_accum_dtype")) {
        const GradAccumDtype dtype = named(n.at("grad_accum_dtype"), kGradAccumDtypeNames);
        if (const auto refusal = gradAccumDtypeRefusal(dtype, in.precision, "precision 'bf16'"))
            n.at("grad_accum_dtype").fail(renderEnglish(*refusal));
        in.grad_accum_fp32 = gradAccumFp32(dtype, in.precision);
    }
    if (n.has("convention"))
        in.convention = named(n.at("convention"), kConventionNames);
    if (n.has("device")) {
        const std::string key = n.at("device").string();
        const auto d = findDevice(key);
        if (!d)
            n.at("device").fail("unknown device '" + key + "' (" + devicePresetKeys() + ")");
        in.device = *d;
    }
    if (n.has("activation_bytes")) {
        const double a = n.at("activation_bytes").number();
        if (!(a >= 0 && a <= 1e18))
            n.at("activation_bytes").fail("bytes in 0..1e18");
        in.activation_bytes = static_cast<long long>(a);
    }
    if (n.has("gradient_accumulation_steps"))
        in.grad_accumulation = n.at("gradient_accumulation_steps").integer(1, 1 << 20);
    if (auto t = optionalText(n, "label"))
        p.label = *t;
    try {
        (void)plan(in);
    } catch (const PlanError& e) {
        n.fail(std::string("the planner refuses it: ") + e.what());
    }
    return p;
}

void checkFormula(const Node& n, const std::string& formula) {
    try {
        const Expr e = Expr::parse(formula);
        for (const std::string& v : e.variables())
            if (std::find(labVariableNames().begin(), labVariableNames().end(), v) ==
                labVariableNames().end()) {
                std::string list;
                for (const std::string& k : labVariableNames())
                    list += (list.empty() ? "" : ", ") + k;
                n.fail("unknown variable '" + v + "' (known: " + list + ")");
            }
    } catch (const ExprError& e) {
        n.fail(std::string("'") + formula + "': " + e.what());
    }
}

const LabQuantity& quantity(const Node& n) {
    const std::string name = n.string();
    const LabQuantity* q = findLabQuantity(name);
    if (!q) {
        std::string list;
        for (const LabQuantity& k : labQuantities())
            list += (list.empty() ? "" : ", ") + std::string(k.name);
        n.fail("unknown quantity '" + name + "' (known: " + list + ")");
    }
    return *q;
}

bool hasRun(const LessonStep& s, const std::string& id) {
    if (id == "plan")
        return s.plan.has_value();
    if (!s.experiment)
        return false;
    return std::any_of(s.experiment->runs.begin(), s.experiment->runs.end(),
                       [&](const LessonRun& r) { return r.id == id; });
}

LessonCheck parseCheck(const Node& n, const LessonStep& step) {
    n.requireObject({"id", "kind", "label", "unit", "prediction", "quantity", "run", "runs",
                     "relation", "rank", "stage", "topic", "formula", "tolerance",
                     "formula_tolerance", "explain"});
    LessonCheck c;
    c.json_path = n.path();
    c.id = identifier(n.required("id"));
    c.kind = n.has("kind") ? named(n.at("kind"), kCheckKindNames) : CheckKind::Value;
    c.label = text(n.required("label"));
    const std::string unit_name = n.required("unit").string();
    const auto unit = findLabUnit(unit_name);
    if (!unit)
        n.at("unit").fail("unknown unit '" + unit_name +
                          "' (known: " + std::string(labUnitNames()) + ")");
    c.unit = unit_name;
    if (n.has("prediction")) {
        c.prediction = n.at("prediction").string();
        if (std::none_of(step.predictions.begin(), step.predictions.end(),
                         [&](const LessonPrediction& p) { return p.id == *c.prediction; }))
            n.at("prediction").fail("no prediction '" + *c.prediction + "' in this step");
    }
    if (n.has("formula")) {
        c.formula = n.at("formula").string();
        checkFormula(n.at("formula"), *c.formula);
    }
    c.tolerance = tolerance(n, "tolerance");
    c.formula_tolerance = tolerance(n, "formula_tolerance");
    if (auto t = optionalText(n, "explain"))
        c.explain = *t;
    if (n.has("rank"))
        c.rank = n.at("rank").integer(0, kMaxWorldInLesson - 1);
    if (n.has("stage"))
        c.stage = n.at("stage").integer(0, 3);

    if (c.kind == CheckKind::Erratum) {
        if (!step.plan || step.plan->input.convention != Convention::Chapter)
            n.fail("an erratum check needs the step's plan with \"convention\": \"chapter\"");
        c.topic = n.required("topic").string();
        c.run = "plan";
        if (!c.formula)
            n.fail("an erratum check needs 'formula': the correct sum");
        const Plan p = plan(step.plan->input);
        if (std::none_of(p.errata.begin(), p.errata.end(),
                         [&](const Erratum& e) { return e.topic == c.topic; })) {
            std::string list;
            for (const Erratum& e : p.errata)
                list += (list.empty() ? "" : ", ") + e.topic;
            n.at("topic").fail("the plan has no erratum '" + c.topic + "' (it has: " + list + ")");
        }
        const auto& e = *std::find_if(p.errata.begin(), p.errata.end(),
                                      [&](const Erratum& x) { return x.topic == c.topic; });
        const LabDimension want = e.unit == "bytes" ? LabDimension::Bytes : LabDimension::Ratio;
        if (e.unit == "text")
            n.at("topic").fail("'" + c.topic +
                               "' is a statement, not a number: say it in the text");
        if (unit->dimension != want)
            n.at("unit").fail("'" + unit_name + "' does not measure the erratum '" + c.topic +
                              "' (in " + e.unit + ")");
        return c;
    }
    const LabQuantity& q = quantity(n.required("quantity"));
    c.quantity = std::string(q.name);
    if (q.dimension != unit->dimension)
        n.at("unit").fail("'" + unit_name + "' does not measure '" + c.quantity + "'");
    // A time is graded against the step-time model on the step's calibrated profile,
    // within the tolerance the step states (docs/lab.md, "Time checks").
    if (q.timing && !(step.experiment && step.experiment->calibrate))
        n.at("quantity")
            .fail("'" + c.quantity +
                  "' is a time: it is checked against the step-time model, which "
                  "needs the experiment's \"profile\": \"calibrate\" (or chart it: "
                  "chart.kind step_time)");
    if (q.timing && c.tolerance <= 0)
        n.fail("a time check states its tolerance (the model's, e.g. \"tolerance\": 0.25): "
               "a time is never exact");
    if (c.kind == CheckKind::Relation) {
        c.relation = named(n.required("relation"), kRelationNames);
        const Node runs = n.required("runs");
        runs.requireArray();
        if (runs.value().size() < 2)
            runs.fail("a relation needs at least two runs");
        for (std::size_t i = 0; i < runs.value().size(); ++i) {
            const std::string id = runs.at(i).string();
            if (id == "plan" || !hasRun(step, id))
                runs.at(i).fail("no run '" + id + "' in this step's experiment");
            c.runs.push_back(id);
        }
        if (c.formula)
            n.at("formula").fail("a relation check has no formula");
        return c;
    }
    c.run = n.has("run") ? n.at("run").string() : (step.plan && !step.experiment ? "plan" : "");
    if (c.run.empty())
        n.fail("missing 'run'");
    if (!hasRun(step, c.run))
        (n.has("run") ? n.at("run") : n).fail("no run '" + c.run + "' in this step");
    if (c.run == "plan" && !q.planned)
        n.at("quantity").fail("'" + c.quantity + "' is measured only; a plan has no run");
    return c;
}

LessonChart parseChart(const Node& n, const LessonStep& step) {
    n.requireObject({"kind", "runs", "categories", "title"});
    LessonChart c;
    c.kind = named(n.required("kind"), kChartKindNames);
    if (c.kind == ChartKind::Plan ? !step.plan : !step.experiment)
        n.at("kind").fail(c.kind == ChartKind::Plan ? "a plan chart needs the step's plan"
                                                    : "this chart needs the step's experiment");
    if (n.has("runs")) {
        const Node runs = n.at("runs");
        runs.requireArray();
        for (std::size_t i = 0; i < runs.value().size(); ++i) {
            const std::string id = runs.at(i).string();
            if (id == "plan" || !hasRun(step, id))
                runs.at(i).fail("no run '" + id + "' in this step's experiment");
            c.runs.push_back(id);
        }
    } else if (step.experiment) {
        for (const LessonRun& r : step.experiment->runs)
            c.runs.push_back(r.id);
    }
    if (n.has("categories")) {
        const Node cats = n.at("categories");
        cats.requireArray();
        for (std::size_t i = 0; i < cats.value().size(); ++i) {
            const std::string name = cats.at(i).string();
            if (!memCategoryFromName(name))
                cats.at(i).fail("unknown ledger category '" + name + "'");
            c.categories.push_back(name);
        }
    }
    if (auto t = optionalText(n, "title"))
        c.title = *t;
    return c;
}

LessonStep parseStep(const Node& n, const json& base_config, RunPool& pool) {
    n.requireObject(
        {"id", "title", "text", "formula", "predictions", "experiment", "plan", "checks", "chart"});
    LessonStep s;
    s.json_path = n.path();
    s.id = identifier(n.required("id"));
    s.title = text(n.required("title"));
    s.text = text(n.required("text"));
    if (n.has("formula"))
        s.formula = n.at("formula").string();
    if (n.has("predictions")) {
        const Node ps = n.at("predictions");
        ps.requireArray();
        for (std::size_t i = 0; i < ps.value().size(); ++i) {
            const Node p = ps.at(i);
            p.requireObject({"id", "prompt", "unit", "grade"});
            LessonPrediction pred{identifier(p.required("id")), text(p.required("prompt")),
                                  p.required("unit").string()};
            if (p.has("grade")) {
                const std::string g = p.at("grade").string();
                if (g != "run" && g != "formula")
                    p.at("grade").fail("'run' or 'formula', got '" + g + "'");
                pred.grade = g == "formula" ? GradeAgainst::Formula : GradeAgainst::Run;
            }
            if (!findLabUnit(pred.unit))
                p.at("unit").fail("unknown unit '" + pred.unit +
                                  "' (known: " + std::string(labUnitNames()) + ")");
            for (const LessonPrediction& q : s.predictions)
                if (q.id == pred.id)
                    p.at("id").fail("duplicate prediction id '" + pred.id + "'");
            s.predictions.push_back(std::move(pred));
        }
    }
    if (n.has("experiment"))
        s.experiment = parseExperiment(n.at("experiment"), base_config, s.id, pool);
    if (n.has("plan"))
        s.plan = parsePlan(n.at("plan"));
    if (n.has("checks")) {
        const Node cs = n.at("checks");
        cs.requireArray();
        std::set<std::string> ids;
        for (std::size_t i = 0; i < cs.value().size(); ++i) {
            LessonCheck c = parseCheck(cs.at(i), s);
            if (!ids.insert(c.id).second)
                cs.at(i).at("id").fail("duplicate check id '" + c.id + "'");
            s.checks.push_back(std::move(c));
        }
    }
    if (n.has("chart"))
        s.chart = parseChart(n.at("chart"), s);
    return s;
}

// "line L, column C" of a byte offset.
std::string lineColumn(const std::string& text, std::size_t byte) {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

} // namespace

Lesson parseLesson(const std::string& source_text, const std::string& source,
                   bool require_both_languages) {
    if (source_text.size() > kMaxLessonBytes)
        throw LessonError(source + ": a lesson of " + std::to_string(source_text.size()) +
                          " bytes, more than the " + std::to_string(kMaxLessonBytes) +
                          " a lesson may hold");
    // Bounded: nesting past kMaxJsonDepth and out-of-range numbers are errors, not crashes.
    JsonText<json> parsed = parseJsonText<json>(source_text);
    if (parsed.error) {
        const JsonTextError& e = *parsed.error;
        throw LessonError(source + ": " +
                          (e.byte ? lineColumn(source_text, *e.byte) + ": not valid JSON: "
                                  : (e.path.empty() ? std::string() : e.path + ": ")) +
                          e.message);
    }
    const json doc = std::move(*parsed.doc);
    const Ctx ctx{source, require_both_languages};
    const Node root(doc, "", ctx);
    root.requireObject({"format", "id", "order", "title", "summary", "base_config", "steps"});
    const int format = root.required("format").integer(0, 1 << 20);
    if (format != kFormat)
        root.at("format").fail("unsupported lesson format " + std::to_string(format) +
                               " (this zerolab reads format 1)");
    Lesson l;
    l.source = source;
    const Node id = root.required("id");
    l.id = id.string();
    if (l.id.empty() || l.id.size() > 64 ||
        l.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
        id.fail("'" + l.id + "' is not a lesson id: use 1-64 of a-z, 0-9 and '-'");
    l.order = root.required("order").integer(0, 1000000);
    l.title = text(root.required("title"));
    l.summary = text(root.required("summary"));
    const Node base = root.required("base_config");
    if (!base.value().is_object())
        base.fail("expected a zerolab config object");
    refuseConfigPaths(base);
    l.base_config = base.value();
    const Node steps = root.required("steps");
    steps.requireArray();
    if (steps.value().empty() || steps.value().size() > kMaxSteps)
        steps.fail("give 1 to " + std::to_string(kMaxSteps) + " steps, got " +
                   std::to_string(steps.value().size()));
    std::set<std::string> ids;
    RunPool pool;
    for (std::size_t i = 0; i < steps.value().size(); ++i) {
        LessonStep s = parseStep(steps.at(i), l.base_config, pool);
        if (!ids.insert(s.id).second)
            steps.at(i).at("id").fail("duplicate step id '" + s.id + "'");
        l.steps.push_back(std::move(s));
    }
    return l;
}

Lesson loadLessonFile(const std::string& path) {
    const BoundedFileText file = readBoundedTextFile(path);
    if (!file.text)
        throw LessonError(path + ": cannot read the lesson file: " + file.error);
    return parseLesson(*file.text, path);
}

Lesson loadLesson(const std::string& id_or_path) {
    const bool is_path =
        id_or_path.find('/') != std::string::npos ||
        (id_or_path.size() > 5 && id_or_path.compare(id_or_path.size() - 5, 5, ".json") == 0);
    return is_path ? loadLessonFile(id_or_path) : shippedLesson(id_or_path);
}

} // namespace zerolab
