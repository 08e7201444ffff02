// Step picker, follow box and summary around the timeline chart; see timeline_panel.h.
#include "gui/timeline/timeline_panel.h"

#include "gui/timeline/timeline_chart.h"
#include "gui/timeline/timeline_style.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace zerolab {

namespace {

// The config key that turns the recording on (runtime/config).
constexpr const char* kTimelineKey = "run.timeline_every";

} // namespace

TimelinePanel::TimelinePanel(QWidget* parent)
    : QWidget(parent), m_combo(new QComboBox), m_follow(new QCheckBox), m_stepLabel(new QLabel),
      m_summary(new QLabel), m_chart(new TimelineChart), m_forecastLabel(new QLabel),
      m_forecastChart(new TimelineChart) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    auto* controls = new QHBoxLayout;
    m_stepLabel->setObjectName(QStringLiteral("muted"));
    m_combo->setMinimumContentsLength(10);
    m_combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_follow->setChecked(true);
    m_summary->setObjectName(QStringLiteral("muted"));
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true); // never wider than the card
    controls->addWidget(m_stepLabel);
    controls->addWidget(m_combo);
    controls->addWidget(m_follow);
    controls->addSpacing(16);
    controls->addWidget(m_summary, 1);
    layout->addLayout(controls);
    layout->addWidget(m_chart, 1);
    m_forecastLabel->setObjectName(QStringLiteral("muted"));
    m_forecastLabel->setWordWrap(true);
    layout->addWidget(m_forecastLabel);
    layout->addWidget(m_forecastChart);

    // One time axis: a zoom or pan of either chart is the other's.
    for (const auto& [from, to] :
         {std::pair{m_chart, m_forecastChart}, std::pair{m_forecastChart, m_chart}})
        connect(from->plot()->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
                [this, to](const QCPRange& r) {
                    if (m_syncing || !showsForecast())
                        return;
                    m_syncing = true;
                    to->setXRange(r.lower, r.upper);
                    m_syncing = false;
                });
    connect(m_combo, &QComboBox::activated, this, [this](int i) {
        if (i >= 0 && i < int(m_steps.size()))
            pickStep(m_steps[std::size_t(i)]);
    });
    connect(m_follow, &QCheckBox::toggled, this, [this](bool on) {
        if (on && !m_steps.empty())
            request(m_steps.back());
    });
    clear();
    retranslate();
}

void TimelinePanel::retranslate() {
    m_stepLabel->setText(tr("Step"));
    m_combo->setToolTip(tr("The steps this run sampled (%1 in its config).")
                            .arg(QString::fromLatin1(kTimelineKey)));
    m_follow->setText(tr("Follow latest"));
    m_follow->setToolTip(tr("Show each newly sampled step as the run records it."));
    for (std::size_t i = 0; i < m_steps.size(); ++i)
        m_combo->setItemText(int(i), tr("step %1").arg(m_steps[i]));
    if (m_steps.empty())
        showNoTimeline();
    m_summary->setText(summary());
    showForecast();
}

void TimelinePanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

bool TimelinePanel::following() const {
    return m_follow->isChecked();
}

void TimelinePanel::setFollowing(bool on) {
    m_follow->setChecked(on);
}

void TimelinePanel::clear() {
    m_steps.clear();
    m_requested = m_shown = -1;
    {
        const QSignalBlocker block(m_combo);
        m_combo->clear();
    }
    m_combo->setEnabled(false);
    {
        const QSignalBlocker block(m_follow);
        m_follow->setChecked(true);
    }
    m_summary->clear();
    showNoTimeline();
    showForecast();
}

void TimelinePanel::showNoTimeline() {
    m_chart->showMessage(tr("No timeline recorded"),
                         tr("This run sampled no step timeline. Set <code>%1</code> &gt; 0 in "
                            "the config (e.g. 50: every 50th step) to record what every rank "
                            "computes and communicates inside a step.")
                             .arg(QString::fromLatin1(kTimelineKey)));
}

void TimelinePanel::setSteps(std::vector<long long> steps) {
    if (steps.empty()) {
        clear();
        return;
    }
    if (steps != m_steps) {
        m_steps = std::move(steps);
        const QSignalBlocker block(m_combo);
        m_combo->clear();
        for (long long s : m_steps)
            m_combo->addItem(tr("step %1").arg(s));
        m_combo->setEnabled(true);
    }
    const bool known = std::find(m_steps.begin(), m_steps.end(), m_requested) != m_steps.end();
    if (following() || !known)
        request(m_steps.back());
    else
        selectInCombo(m_requested);
}

void TimelinePanel::pickStep(long long step) {
    if (m_steps.empty())
        return;
    if (step != m_steps.back()) {
        const QSignalBlocker block(m_follow);
        m_follow->setChecked(false);
    }
    request(step);
}

void TimelinePanel::request(long long step) {
    selectInCombo(step);
    if (step == m_requested)
        return;
    m_requested = step;
    emit stepRequested(step);
}

void TimelinePanel::selectInCombo(long long step) {
    const auto it = std::find(m_steps.begin(), m_steps.end(), step);
    if (it == m_steps.end())
        return;
    const QSignalBlocker block(m_combo);
    m_combo->setCurrentIndex(int(it - m_steps.begin()));
}

void TimelinePanel::setTimeline(const StepTimeline& timeline) {
    if (m_requested >= 0 && timeline.step != m_requested)
        return;
    // Following a live run keeps the user's zoom from one sampled step to the next.
    m_chart->setTimeline(timeline, following() && m_shown >= 0);
    m_shown = timeline.step;
    selectInCombo(timeline.step);
    m_summary->setText(summary());
    showForecast();
}

void TimelinePanel::setForecast(const std::optional<StepTimeline>& forecast) {
    m_forecast = forecast;
    showForecast();
}

bool TimelinePanel::showsForecast() const {
    return m_forecast && m_shown >= 0 && !m_chart->showsMessage();
}

void TimelinePanel::showForecast() {
    const bool shown = showsForecast();
    m_forecastLabel->setVisible(shown);
    m_forecastChart->setVisible(shown);
    if (!shown) {
        shareTimeAxis();
        return;
    }
    StepTimeline forecast = *m_forecast;
    forecast.step = m_shown;
    // The lanes of the ranks it forecasts (rank 0's), not empty rows for the others.
    forecast.world = 1;
    for (const TimelineSpan& span : forecast.spans)
        forecast.world = std::max(forecast.world, span.rank + 1);
    m_forecastChart->setTimeline(forecast);
    m_forecastLabel->setText(
        tr("Forecast of this step by the step-time model (rank 0's lanes, this machine's "
           "profile): %1 a step, against %2 measured.")
            .arg(formatMicros(m_forecastChart->layout().endUs()),
                 formatMicros(m_chart->layout().endUs())));
    shareTimeAxis();
}

void TimelinePanel::shareTimeAxis() {
    const bool shared = showsForecast();
    const double end =
        shared ? std::max(m_chart->layout().endUs(), m_forecastChart->layout().endUs()) / 1000 : 0;
    for (TimelineChart* c : {m_chart, m_forecastChart}) {
        c->setAxisEndMs(end);
        c->plot()->axisRect()->setMinimumMargins(QMargins());
    }
    if (!shared)
        return;
    {
        const QSignalBlocker block(m_forecastChart->plot()->xAxis);
        m_forecastChart->setXRange(m_chart->xRange().lower, m_chart->xRange().upper);
    }
    // The plot areas from the same pixel to the same pixel: each chart's margins laid out
    // (its lane names decide the left one), then both at the wider.
    int left = 0, right = 0;
    for (TimelineChart* c : {m_chart, m_forecastChart}) {
        c->plot()->replot(QCustomPlot::rpImmediateRefresh);
        left = std::max(left, c->plot()->axisRect()->margins().left());
        right = std::max(right, c->plot()->axisRect()->margins().right());
    }
    for (TimelineChart* c : {m_chart, m_forecastChart}) {
        c->plot()->axisRect()->setMinimumMargins(QMargins(left, 0, right, 0));
        c->plot()->replot(QCustomPlot::rpQueuedReplot);
    }
}

void TimelinePanel::setFailed(long long step, const QString& message) {
    if (m_requested >= 0 && step != m_requested)
        return;
    m_chart->showMessage(tr("The timeline of step %1 cannot be shown").arg(step),
                         message.toHtmlEscaped());
    m_shown = step;
    selectInCombo(step);
    m_summary->setText(summary());
    showForecast();
}

QString TimelinePanel::summary() const {
    const TimelineLayout& layout = m_chart->layout();
    if (m_chart->showsMessage() || layout.empty())
        return {};
    const auto& wait = layout.waitUs();
    QString waits;
    if (wait.size() <= 4) {
        QStringList parts;
        for (std::size_t r = 0; r < wait.size(); ++r)
            parts << tr("rank %1 <b>%2</b>").arg(r).arg(formatMicros(wait[r]));
        waits = parts.join(QStringLiteral(", "));
    } else {
        // Many ranks: the extremes, which is where a slow rank shows.
        const auto [lo, hi] = std::minmax_element(wait.begin(), wait.end());
        waits = tr("least rank %1 <b>%2</b>, most rank %3 <b>%4</b>")
                    .arg(lo - wait.begin())
                    .arg(formatMicros(*lo))
                    .arg(hi - wait.begin())
                    .arg(formatMicros(*hi));
    }
    return tr("Step %1 · %2 ranks · %3 · compute waiting on collectives: %4")
        .arg(layout.step())
        .arg(layout.world())
        .arg(formatMicros(layout.endUs()))
        .arg(waits);
}

} // namespace zerolab
