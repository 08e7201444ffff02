// A lesson step's chart by its kind: memory bars per run (or per stage of a plan), traffic
// per run, step time beside activations, one run's timeline.

#include "gui/views/lab/lab_charts.h"

#include "gui/timeline/timeline_chart.h"
#include "gui/widgets/grouped_bar_chart.h"
#include "gui/widgets/memory_bar_chart.h"
#include "gui/widgets/style.h"
#include "runtime/lab/lab_quantity.h"

#include <QHBoxLayout>

#include <algorithm>
#include <cmath>

namespace zerolab {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

QString labRunLabel(const LessonStep& step, const std::string& runId, const std::string& lang) {
    if (step.experiment)
        for (const LessonRun& r : step.experiment->runs)
            if (r.id == runId)
                return r.label.en.empty() ? qs(r.id) : qs(r.label.in(lang));
    return qs(runId);
}

QWidget* LabCharts::build(const LessonStep& step, const LabStepOutcome* o, const std::string& lang,
                          QWidget* parent) {
    if (!step.chart)
        return nullptr;
    const LessonChart& chart = *step.chart;
    if (chart.kind == ChartKind::Plan) {
        if (!step.plan)
            return nullptr;
        const Plan p = plan(step.plan->input);
        auto* bars = new MemoryBarChart(parent);
        QVector<MemoryBarGroup> groups;
        for (const StagePlan& s : p.stages)
            groups.push_back({tr("stage %1").arg(s.stage), s.per_rank, std::nullopt});
        bars->setGroups(groups);
        bars->setHighlighted(step.plan->input.stage);
        bars->setCapacity(double(step.plan->input.device.usableBytes()),
                          qs(step.plan->input.device.label));
        bars->setValueAxisTitle(tr("Memory per GPU"));
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
        auto* bars = new MemoryBarChart(parent);
        QVector<MemoryBarGroup> groups;
        for (const LabRunData& run : runs) {
            MemoryBarGroup g;
            g.label = nameOf(run);
            if (!run.last_step.ranks.empty())
                g.bytes = run.last_step.ranks.front().mem;
            MemBreakdown predicted = run.predicted.per_rank;
            if (!chart.categories.empty()) {
                for (std::size_t c = 0; c < kMemCategoryCount; ++c) {
                    const auto cat = static_cast<MemCategory>(c);
                    if (std::find(chart.categories.begin(), chart.categories.end(),
                                  std::string(memCategoryName(cat))) == chart.categories.end()) {
                        g.bytes[cat] = 0;
                        predicted[cat] = 0;
                    }
                }
            }
            g.predictedBytes = double(predicted.total());
            groups.push_back(g);
        }
        bars->setGroups(groups);
        // Bytes per parameter where the step teaches in ψ: 16, 10, 7 ... reads off the axis.
        const bool perPsi = std::any_of(step.checks.begin(), step.checks.end(),
                                        [](const LessonCheck& c) { return c.unit == "psi"; });
        if (perPsi && runs.front().plan.psi > 0)
            bars->setPerParameter(double(runs.front().plan.psi));
        bars->setValueAxisTitle(perPsi ? tr("Bytes per parameter (ψ) per rank")
                                       : tr("Memory per rank"));
        return bars;
    }
    case ChartKind::Traffic: {
        auto* bars = new GroupedBarChart(parent);
        QStringList cats;
        BarSeries measured{tr("measured"), kAccent, {}};
        BarSeries planned{tr("planner"), kPlannerSeries, {}};
        for (const LabRunData& run : runs) {
            cats << nameOf(run);
            const double psi = std::max<double>(1, double(run.plan.psi));
            measured.values << measuredQuantity(run, "traffic_elements", 0).value_or(NAN) / psi;
            planned.values << plannedQuantity(run.plan, run.config.zero.stage, "traffic_elements")
                                      .value_or(NAN) /
                                  psi;
        }
        bars->setData(cats, {measured, planned}, tr("Traffic per rank per step (elements / ψ)"));
        return bars;
    }
    case ChartKind::StepTime: {
        auto* box = new QWidget(parent);
        auto* row = new QHBoxLayout(box);
        row->setContentsMargins(0, 0, 0, 0);
        auto* act = new GroupedBarChart;
        auto* time = new GroupedBarChart;
        QStringList cats;
        BarSeries actMeasured{tr("activations, measured"), kMeasuredSeries, {}};
        BarSeries actPlanned{tr("planner"), kPlannerSeries, {}};
        BarSeries ms{tr("median step time"), kAccent, {}};
        for (const LabRunData& run : runs) {
            cats << nameOf(run);
            actMeasured.values << measuredQuantity(run, "activations", 0).value_or(NAN) / 1048576.0;
            actPlanned.values << double(run.predicted.activation_bytes) / 1048576.0;
            std::vector<double> times;
            for (const StepRecord& s : run.steps)
                if (std::isfinite(s.step_ms))
                    times.push_back(s.step_ms);
            std::sort(times.begin(), times.end());
            ms.values << (times.empty() ? NAN : times[times.size() / 2]);
        }
        act->setData(cats, {actMeasured, actPlanned}, tr("Activations per rank (MiB)"));
        time->setData(cats, {ms}, tr("Step time (ms, median)"));
        row->addWidget(act);
        row->addWidget(time);
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

} // namespace zerolab
