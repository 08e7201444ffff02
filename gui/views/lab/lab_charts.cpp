// A lesson step's chart by its kind: memory bars per run (or per stage of a plan), model
// states first where the step is about them; traffic per run; step time with its spread
// beside activations; one run's timeline.

#include "gui/views/lab/lab_charts.h"

#include "gui/timeline/timeline_chart.h"
#include "gui/views/lab/lab_memory_chart.h"
#include "gui/views/lab/lab_step_time_chart.h"
#include "gui/widgets/grouped_bar_chart.h"
#include "gui/widgets/style.h"
#include "runtime/lab/lab_quantity.h"

#include <QImage>

#include <algorithm>
#include <cmath>

namespace zerolab {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// The step-time model's forecast of a run's step (ms): the planner side of the step's
// step_ms check on that run; nullopt where the step does not check its time.
std::optional<double> stepTimeForecast(const LessonStep& step, const LabStepOutcome& o,
                                       std::int64_t storeId) {
    for (const auto& [id, stored] : o.run_ids) {
        if (stored != storeId)
            continue;
        for (const LessonCheck& c : step.checks) {
            if (c.quantity != "step_ms" || c.run != id)
                continue;
            for (const CheckResult& r : o.checks)
                if (r.id == c.id && r.planner)
                    return r.planner;
        }
    }
    return std::nullopt;
}

} // namespace

QString labRunLabel(const LessonStep& step, const std::string& runId, const std::string& lang) {
    if (step.experiment)
        for (const LessonRun& r : step.experiment->runs)
            if (r.id == runId)
                return r.label.en.empty() ? qs(r.id) : qs(r.label.in(lang));
    return qs(runId);
}

bool LabCharts::aboutModelStates(const LessonStep& step) {
    if (step.chart && !step.chart->categories.empty())
        return std::all_of(step.chart->categories.begin(), step.chart->categories.end(),
                           [](const std::string& name) {
                               const std::optional<MemCategory> c = memCategoryFromName(name);
                               return c && isModelState(*c);
                           });
    int states = 0;
    int others = 0;
    for (const LessonCheck& check : step.checks) {
        const std::optional<MemCategory> c = memCategoryFromName(check.quantity);
        if ((c && isModelState(*c)) || check.quantity == "model_states" ||
            check.quantity == "optimizer_states")
            ++states;
        else if (c || check.quantity == "total")
            ++others;
    }
    return states > others;
}

namespace {

// The categories a chart draws (the lesson's list; all when it names none), others zeroed.
MemBreakdown onlyCategories(MemBreakdown b, const std::vector<std::string>& names) {
    if (names.empty())
        return b;
    for (std::size_t c = 0; c < kMemCategoryCount; ++c)
        if (std::find(names.begin(), names.end(), std::string(kMemCategoryNames[c])) == names.end())
            b.bytes[c] = 0;
    return b;
}

} // namespace

QWidget* LabCharts::build(const LessonStep& step, const LabStepOutcome* o, const std::string& lang,
                          QWidget* parent) {
    if (!step.chart)
        return nullptr;
    const LessonChart& chart = *step.chart;
    if (chart.kind == ChartKind::Plan) {
        if (!step.plan)
            return nullptr;
        const Plan p = plan(step.plan->input);
        auto* bars = new LabMemoryChart(parent);
        QVector<LabMemoryBar> groups;
        for (const StagePlan& s : p.stages)
            groups.push_back({tr("stage %1").arg(s.stage), s.per_rank, std::nullopt});
        bars->setSubject(tr("Memory per GPU"));
        bars->setBars(groups);
        bars->setHighlighted(step.plan->input.stage);
        bars->setCapacity(double(step.plan->input.device.usableBytes()),
                          qs(step.plan->input.device.label));
        // Against the device the total is what fits or not: every category, the switch
        // there to split them.
        bars->setStatesOnly(false);
        return bars;
    }
    if (!o || o->chart_runs.empty())
        return nullptr;
    const std::vector<LabRunData>& runs = o->chart_runs;
    auto nameOf = [&](const LabRunData& run) {
        for (const auto& [id, storeId] : o->run_ids)
            if (storeId == run.run_id)
                return labRunLabel(step, id, lang);
        return qs(run.name);
    };
    switch (chart.kind) {
    case ChartKind::Memory: {
        auto* bars = new LabMemoryChart(parent);
        QVector<LabMemoryBar> groups;
        for (const LabRunData& run : runs) {
            LabMemoryBar g;
            g.label = nameOf(run);
            if (!run.last_step.ranks.empty())
                g.bytes = onlyCategories(run.last_step.ranks.front().mem, chart.categories);
            g.predicted = onlyCategories(run.predicted.per_rank, chart.categories);
            groups.push_back(g);
        }
        bars->setSubject(tr("Memory per rank"));
        bars->setBars(groups);
        // Bytes per parameter where the step teaches in ψ: 16, 10, 7 ... reads off the axis.
        // Only when every run has that ψ: runs of two models (lesson 10's tied llama-nano
        // and untied llama-micro) have no common ψ to divide by, so they stay in bytes.
        const bool perPsi = std::any_of(step.checks.begin(), step.checks.end(),
                                        [](const LessonCheck& c) { return c.unit == "psi"; });
        const bool onePsi = std::all_of(runs.begin(), runs.end(), [&](const LabRunData& r) {
            return r.plan.psi == runs.front().plan.psi;
        });
        if (perPsi && onePsi && runs.front().plan.psi > 0)
            bars->setPerParameter(double(runs.front().plan.psi));
        bars->setStatesOnly(aboutModelStates(step));
        return bars;
    }
    case ChartKind::Traffic: {
        auto* bars = new GroupedBarChart(parent);
        QStringList cats;
        BarSeries measured{tr("measured"), kAccent, {}};
        BarSeries planned{tr("planner"), kPlannerSeries, {}};
        for (const LabRunData& run : runs) {
            cats << nameOf(run);
            // Bytes, not elements: ZeRO++ sends int8/int4 payloads with fp32 scales, so only
            // the counted bytes are exact for every run (docs/lab.md).
            const double psi = std::max<double>(1, double(run.plan.psi));
            measured.values << measuredQuantity(run, "traffic_bytes", 0).value_or(NAN) / psi;
            planned.values
                << plannedQuantity(run.plan, run.config.zero.stage, "traffic_bytes").value_or(NAN) /
                       psi;
        }
        bars->setValueUnit(QStringLiteral("B/ψ"));
        bars->setData(cats, {measured, planned}, tr("Traffic per rank per step (B/ψ)"));
        return bars;
    }
    case ChartKind::StepTime: {
        auto* box = new LabStepTimeChart(parent);
        QVector<LabStepTimeRun> rows;
        for (const LabRunData& run : runs) {
            LabStepTimeRun row{
                nameOf(run), measuredQuantity(run, "activations", 0).value_or(NAN) / 1048576.0,
                double(run.predicted.activation_bytes) / 1048576.0, stepTimeSpread(run.steps)};
            row.forecastMs = stepTimeForecast(step, *o, run.run_id);
            const double psi = std::max<double>(1, double(run.plan.psi));
            row.measuredAcrossPsi =
                measuredQuantity(run, "across_traffic_bytes", 0).value_or(NAN) / psi;
            row.plannedAcrossPsi =
                plannedQuantity(run.plan, run.config.zero.stage, "across_traffic_bytes")
                    .value_or(NAN) /
                psi;
            rows.push_back(row);
        }
        box->setRuns(rows);
        return box;
    }
    case ChartKind::Timeline: {
        if (!runs.front().timeline)
            return nullptr;
        auto* tl = new TimelineChart(parent);
        tl->setTimeline(*runs.front().timeline);
        return tl;
    }
    case ChartKind::Plan:
        break;
    }
    return nullptr;
}

QImage LabCharts::render(QWidget* chart) {
    if (auto* memory = qobject_cast<LabMemoryChart*>(chart))
        memory->setPrinted(true);
    chart->resize(kPrintSize);
    chart->ensurePolished();
    return chart->grab().toImage();
}

} // namespace zerolab
