// Two GroupedBarCharts side by side (activations, step time with its spread) and the words
// under them.

#include "gui/views/lab/lab_step_time_chart.h"

#include "gui/widgets/grouped_bar_chart.h"
#include "gui/widgets/style.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace zerolab {

StepTimeSpread stepTimeSpread(const std::vector<StepRecord>& steps) {
    std::vector<double> ms;
    for (const StepRecord& s : steps)
        if (std::isfinite(s.step_ms))
            ms.push_back(s.step_ms);
    StepTimeSpread t;
    if (ms.empty())
        return t;
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    t.steps = int(n);
    t.min = ms.front();
    t.max = ms.back();
    t.median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
    return t;
}

std::vector<StepTimeTie> stepTimeTies(const std::vector<StepTimeSpread>& spreads) {
    std::vector<StepTimeTie> ties;
    for (std::size_t a = 0; a < spreads.size(); ++a)
        for (std::size_t b = a + 1; b < spreads.size(); ++b) {
            const StepTimeSpread& x = spreads[a];
            const StepTimeSpread& y = spreads[b];
            if (x.steps == 0 || y.steps == 0)
                continue;
            if (std::fabs(x.median - y.median) <= std::max(x.width(), y.width()))
                ties.push_back({int(a), int(b)});
        }
    return ties;
}

LabStepTimeChart::LabStepTimeChart(QWidget* parent)
    : QWidget(parent), m_activations(new GroupedBarChart), m_time(new GroupedBarChart),
      m_warning(new QLabel), m_note(new QLabel) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    auto* row = new QHBoxLayout;
    row->addWidget(m_activations);
    row->addWidget(m_time);
    layout->addLayout(row, 1);
    m_warning->setObjectName(QStringLiteral("verdictBad"));
    m_warning->setWordWrap(true);
    m_note->setObjectName(QStringLiteral("muted"));
    m_note->setWordWrap(true);
    layout->addWidget(m_warning);
    layout->addWidget(m_note);
}

void LabStepTimeChart::setRuns(const QVector<LabStepTimeRun>& runs) {
    m_runs = runs;
    rebuild();
}

QString LabStepTimeChart::noteText() const {
    return (m_warning->isHidden() ? QString() : m_warning->text() + QLatin1Char('\n')) +
           m_note->text();
}

void LabStepTimeChart::rebuild() {
    QStringList cats;
    BarSeries actMeasured{tr("activations, measured"), kMeasuredSeries, {}};
    BarSeries actPlanned{tr("activations, planner"), kPlannerSeries, {}};
    BarSeries acrossMeasured{tr("across the link, measured"), kMeasuredSeries, {}};
    BarSeries acrossPlanned{tr("across the link, planner"), kPlannerSeries, {}};
    BarSeries time{tr("median step time"), kAccent, {}};
    BarSeries forecast{tr("forecast (step-time model)"), kPlannerSeries, {}};
    BarSpread spread{0, {}, {}, tr("fastest to slowest")};
    std::vector<StepTimeSpread> spreads;
    int fewest = -1;
    const bool checked = std::any_of(m_runs.begin(), m_runs.end(), [](const LabStepTimeRun& r) {
        return r.forecastMs.has_value();
    });
    for (const LabStepTimeRun& r : m_runs) {
        cats << r.label;
        actMeasured.values << r.measuredActivationMiB;
        actPlanned.values << r.plannedActivationMiB;
        acrossMeasured.values << r.measuredAcrossPsi;
        acrossPlanned.values << r.plannedAcrossPsi;
        const bool known = r.time.steps > 0;
        time.values << (known ? r.time.median : NAN);
        forecast.values << r.forecastMs.value_or(NAN);
        spread.low << (known ? r.time.min : NAN);
        spread.high << (known ? r.time.max : NAN);
        spreads.push_back(r.time);
        fewest = fewest < 0 ? r.time.steps : std::min(fewest, r.time.steps);
    }
    // Lesson 9's point (time checked): the forecast beside each measured step, and the bytes
    // across the slow link that make stage 3's step longer. Else activations (lesson 5).
    if (checked) {
        m_activations->setValueUnit(QStringLiteral("B/ψ"));
        m_activations->setData(cats, {acrossMeasured, acrossPlanned},
                               tr("Across the link per step (B/ψ)"));
    } else {
        m_activations->setValueUnit(QStringLiteral("MiB"));
        m_activations->setData(cats, {actMeasured, actPlanned}, tr("Activations per rank (MiB)"));
    }
    m_time->setValueUnit(tr("ms"));
    m_time->setSpread(spread);
    m_time->setData(cats, checked ? QVector<BarSeries>{time, forecast} : QVector<BarSeries>{time},
                    tr("Step time per run (ms)"));
    const std::vector<StepTimeTie> ties = stepTimeTies(spreads);
    double widest = 0;
    for (const StepTimeSpread& t : spreads)
        widest = std::max(widest, t.width());
    const std::size_t pairCount = spreads.size() * (spreads.size() - 1) / 2;
    m_warns = !ties.empty() || (fewest >= 0 && fewest < 2);
    QString warning;
    if (fewest >= 0 && fewest < 2) {
        warning = tr("⚠ A run logged a single step: there is no spread to tell a difference "
                     "from noise.");
    } else if (!ties.empty() && ties.size() == pairCount) {
        warning = tr("⚠ Inside the noise: every difference between these step times is smaller "
                     "than the spread of a run's own steps (up to %1 ms). The chart does not "
                     "show that one is faster; timing depends on the machine and its load.")
                      .arg(widest, 0, 'f', 0);
    } else if (!ties.empty()) {
        QStringList pairs;
        for (const StepTimeTie& t : ties) {
            const StepTimeSpread& x = spreads[std::size_t(t.a)];
            const StepTimeSpread& y = spreads[std::size_t(t.b)];
            pairs << tr("%1 ≈ %2 (%3 ms apart, their steps spread up to %4 ms)")
                         .arg(m_runs[t.a].label, m_runs[t.b].label)
                         .arg(std::fabs(x.median - y.median), 0, 'f', 0)
                         .arg(std::max(x.width(), y.width()), 0, 'f', 0);
        }
        warning = tr("⚠ Inside the noise: %1. A difference smaller than the spread of a run's "
                     "own steps does not show that one is faster.")
                      .arg(pairs.join(QStringLiteral("; ")));
    }
    m_warning->setText(warning);
    m_warning->setVisible(m_warns);
    const QString bars =
        checked ? tr("Bars: the median over each run's logged steps (n = %1), whiskers its "
                     "fastest to its slowest step, beside the step-time model's forecast. The "
                     "checks above hold each forecast to its median within their tolerance.")
                : tr("Bars: the median over each run's logged steps (n = %1); whiskers: its "
                     "fastest to its slowest step. Time is charted, not checked in this step.");
    m_note->setText(
        (m_warns ? QString() : tr("The differences exceed the spread of each run's own steps. ")) +
        bars.arg(std::max(0, fewest)));
}

void LabStepTimeChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        rebuild();
    QWidget::changeEvent(event);
}

} // namespace zerolab
