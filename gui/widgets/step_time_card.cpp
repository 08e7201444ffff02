// The step-time card (step_time_card.h): forecastStep for each stage on every change of
// the config or the profile, drawn as two stacked QCPBars (compute under exposed
// communication), one row per stage, with the step time and tokens/s at the end of each bar.
#include "gui/widgets/step_time_card.h"

#include "gui/core/units.h"
#include "gui/widgets/chart_actions.h"
#include "gui/widgets/link_meaning_label.h"
#include "gui/widgets/style.h"
#include "gui/widgets/time_source_combo.h"
#include "runtime/planner/planner.h"
#include "runtime/planner/planner_units.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace zerolab {

namespace {

QString seconds(double s) {
    return QString::fromStdString(formatSeconds(s));
}

// Tokens/s as a whole number below a thousand, else "5.3K".
QString tokens(double t) {
    return t < 1000 ? QString::number(std::lround(t)) : formatCount(t);
}

} // namespace

StepTimeCard::StepTimeCard(QWidget* parent)
    : QWidget(parent), m_heading(new QLabel(this)), m_sourceLabel(new QLabel(this)),
      m_source(new TimeSourceCombo(this)), m_summary(new QLabel(this)),
      m_plot(new QCustomPlot(this)), m_profile(new QLabel(this)),
      m_calibrate(new QPushButton(this)), m_calibrationBar(new QProgressBar(this)),
      m_cancelCalibration(new QPushButton(this)), m_calibrationText(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 10, 12, 10);
    layout->setSpacing(6);
    // Title and profile on one row: Setup's three cards share 800 pixels of height.
    m_heading->setObjectName(QStringLiteral("cardTitle"));
    auto* row = new QHBoxLayout;
    row->addWidget(m_heading);
    m_sourceLabel->setObjectName(QStringLiteral("muted"));
    row->addWidget(m_sourceLabel);
    row->addWidget(m_source, 1);
    layout->addLayout(row);
    layout->addWidget(new LinkMeaningLabel(m_source, this)); // what the preset's link means
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    stylePlot(m_plot);
    attachChartActions(m_plot);
    placeLegendAbove(m_plot);
    m_plot->setMinimumHeight(110); // four rows, each with its label, and the time axis
    layout->addWidget(m_plot, 1);
    m_profile->setWordWrap(true);
    m_profile->setObjectName(QStringLiteral("muted"));
    layout->addWidget(m_profile);
    auto* calibration = new QHBoxLayout;
    calibration->addWidget(m_calibrate);
    m_calibrationBar->setRange(0, 1000);
    m_calibrationBar->setTextVisible(true);
    m_calibrationBar->setFormat(QStringLiteral("%p%"));
    m_calibrationBar->hide();
    calibration->addWidget(m_calibrationBar, 1);
    m_cancelCalibration->hide();
    calibration->addWidget(m_cancelCalibration);
    calibration->addStretch();
    layout->addLayout(calibration);
    m_calibrationText->setWordWrap(true);
    m_calibrationText->setObjectName(QStringLiteral("muted"));
    m_calibrationText->hide();
    layout->addWidget(m_calibrationText);
    connect(m_calibrate, &QPushButton::clicked, this, &StepTimeCard::calibrateRequested);
    connect(m_cancelCalibration, &QPushButton::clicked, this,
            &StepTimeCard::cancelCalibrationRequested);
    connect(m_source, &QComboBox::currentIndexChanged, this, [this] { reforecast(); });
    retranslate();
}

void StepTimeCard::setTitle(const QString& title) {
    m_heading->setText(title);
}

void StepTimeCard::setConfig(const std::optional<TrainConfig>& config) {
    m_config = config;
    m_source->setWorld(config ? std::max(1, config->batch.world) : 0);
    reforecast();
}

void StepTimeCard::setMachineProfile(const std::optional<MachineProfile>& profile,
                                     const QString& missing) {
    m_missing = missing;
    m_source->setMachineProfile(profile); // reforecasts when the choice changes
    reforecast();
}

double StepTimeCard::barSeconds(int stage, int layer) const {
    return m_bars[std::size_t(std::clamp(stage, 0, 3))][std::size_t(std::clamp(layer, 0, 1))];
}

QString StepTimeCard::profileText() const {
    return m_profile->text();
}

QString StepTimeCard::summaryText() const {
    return m_summary->text();
}

QString StepTimeCard::calibrationText() const {
    return m_calibrationText->text();
}

void StepTimeCard::setCalibrationAvailable(bool available, const QString& why) {
    m_calibrationUnavailable = available ? QString() : why;
    m_calibrate->setEnabled(available && !m_calibrationBar->isVisible());
    retranslate();
}

void StepTimeCard::showCalibrationProgress(double fraction, const QString& text) {
    m_calibrate->setEnabled(false);
    m_calibrationBar->show();
    m_cancelCalibration->show();
    m_calibrationBar->setValue(int(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000)));
    m_calibrationText->setText(text);
    m_calibrationText->show();
}

void StepTimeCard::showCalibrationEnded(const QString& text) {
    m_calibrationBar->hide();
    m_cancelCalibration->hide();
    m_calibrate->setEnabled(m_calibrationUnavailable.isEmpty());
    m_calibrationText->setText(text);
    m_calibrationText->setVisible(!text.isEmpty());
}

void StepTimeCard::retranslate() {
    m_sourceLabel->setText(tr("Profile"));
    m_source->setToolTip(
        tr("The machine profile of the step-time model: this machine as zerolab-calibrate "
           "measured it (kept in the run store), or a cluster of datasheet GPUs "
           "(docs/planner.md)."));
    m_calibrate->setText(tr("Calibrate this machine…"));
    m_calibrate->setToolTip(m_calibrationUnavailable.isEmpty()
                                ? tr("Runs zerolab-calibrate: this machine's kernel rates and "
                                     "collective times, kept in the run store as its profile "
                                     "(at most two minutes).")
                                : m_calibrationUnavailable);
    m_cancelCalibration->setText(tr("Cancel"));
    m_cancelCalibration->setToolTip(
        tr("Stops the calibration; nothing is written to the run store."));
    reforecast();
}

void StepTimeCard::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void StepTimeCard::reforecast() {
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_forecasts = {};
    m_bars = {};
    for (QString& e : m_errors)
        e.clear();
    if (!m_config) {
        m_summary->setText(tr("No step-time forecast until the config is valid."));
        m_profile->clear();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const TimeSource source = m_source->source();
    for (int s = 0; s < 4; ++s) {
        TrainConfig c = *m_config;
        c.zero.stage = s;
        try {
            m_forecasts[std::size_t(s)] = forecastStep(c, source);
            const StepTimeForecast& f = *m_forecasts[std::size_t(s)];
            m_bars[std::size_t(s)] = {f.compute_s, f.comm_exposed_s};
        } catch (const PlanError& e) {
            m_errors[std::size_t(s)] = QString::fromStdString(e.what());
        }
    }
    // The axis in the unit of the largest step, so a small model reads in ms or us.
    double top = 0;
    for (const auto& f : m_forecasts)
        if (f)
            top = std::max(top, f->step_s);
    const double unit = top >= 1 ? 1 : top >= 1e-3 ? 1e-3 : 1e-6;
    const QString unitName = unit == 1 ? tr("s") : unit == 1e-3 ? tr("ms") : tr("µs");
    QVector<double> keys = {0, 1, 2, 3}, compute, exposed;
    for (int s = 0; s < 4; ++s) {
        compute << barSeconds(s, 0) / unit;
        exposed << barSeconds(s, 1) / unit;
    }
    // Horizontal bars, stage 0 on top: four rows stay readable in a short card, and each
    // row's label (step time, tokens/s) sits at the end of its bar.
    auto* below = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    below->setName(tr("compute"));
    below->setBrush(kAccent);
    below->setPen(Qt::NoPen);
    below->setWidth(0.6);
    below->setData(keys, compute, true);
    auto* above = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    above->setName(tr("exposed communication"));
    above->setBrush(kMeasuredSeries);
    above->setPen(Qt::NoPen);
    above->setWidth(0.6);
    above->setData(keys, exposed, true);
    above->moveAbove(below);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int chosen = std::clamp(m_config->zero.stage, 0, 3);
    for (int s = 0; s < 4; ++s) {
        const auto& f = m_forecasts[std::size_t(s)];
        ticker->addTick(s,
                        s == chosen ? tr("Stage %1 (this config)").arg(s) : tr("Stage %1").arg(s));
        auto* label = new QCPItemText(m_plot);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->position->setCoords(f ? f->step_s / unit : 0, s);
        label->setPadding(QMargins(6, 0, 0, 0));
        label->setText(f ? tr("%1 · %2 tokens/s").arg(seconds(f->step_s), tokens(f->tokens_per_s))
                         : tr("cannot forecast"));
        label->setColor(s == chosen ? kAccent : kTextStrong);
        label->setClipToAxisRect(false);
    }
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setTickLength(0, 0);
    m_plot->yAxis->setRange(-0.6, 3.6);
    m_plot->yAxis->setRangeReversed(true); // stage 0 on top
    m_plot->yAxis->setLabel(QString());
    m_plot->xAxis->setLabel(tr("Step time per rank (%1)").arg(unitName));
    // Room on the right for the longest row's label.
    m_plot->xAxis->setRange(0, top > 0 ? top / unit * 1.55 : 1);
    m_plot->legend->setVisible(true);
    m_plot->replot(QCustomPlot::rpQueuedReplot);

    const auto& mine = m_forecasts[std::size_t(chosen)];
    if (mine)
        m_summary->setText(tr("Stage %1: %2 a step, %3 tokens/s (compute %4, exposed "
                              "communication %5 of %6 in flight).")
                               .arg(chosen)
                               .arg(seconds(mine->step_s), tokens(mine->tokens_per_s),
                                    seconds(mine->compute_s), seconds(mine->comm_exposed_s),
                                    seconds(mine->comm_in_flight_s)));
    else
        m_summary->setText(tr("Stage %1: no step-time forecast: %2")
                               .arg(chosen)
                               .arg(m_errors[std::size_t(chosen)]));
    QString profile = tr("Forecast from %1.").arg(sourceLabel(source, *m_config));
    if (!source.isMachine() && !m_source->hasMachineProfile())
        profile += QLatin1Char(' ') +
                   (m_missing.isEmpty()
                        ? tr("No profile of this machine in the run store yet (zerolab-calibrate "
                             "--db adds one).")
                        : tr("This machine's stored profile is refused: %1").arg(m_missing));
    m_profile->setText(profile);
}

} // namespace zerolab
