// LivePanel: buttons enabled by state, the restart dialog, per-rank status and the
// failure banner.
#include "gui/views/run/live_panel.h"

#include "gui/widgets/style.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace zerolab {

namespace {

struct StateLook {
    const char* text;
    QColor colour;
};

StateLook lookOf(LiveController::State s) {
    switch (s) {
    case LiveController::State::Starting:
        return {QT_TRANSLATE_NOOP("zerolab::LivePanel", "starting"), kTextMuted};
    case LiveController::State::Running:
        return {QT_TRANSLATE_NOOP("zerolab::LivePanel", "live"), kLiveColor};
    case LiveController::State::Stopping:
        return {QT_TRANSLATE_NOOP("zerolab::LivePanel", "stopping"), kWarnAccent};
    case LiveController::State::Restarting:
        return {QT_TRANSLATE_NOOP("zerolab::LivePanel", "restarting"), kRestartColor};
    case LiveController::State::Ended:
        return {QT_TRANSLATE_NOOP("zerolab::LivePanel", "ended"), kTextStrong};
    case LiveController::State::Idle:
        break;
    }
    return {QT_TRANSLATE_NOOP("zerolab::LivePanel", "idle"), kTextFaint};
}

} // namespace

LivePanel::LivePanel(LiveController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_state(new QLabel), m_ranks(new QLabel),
      m_banner(new QLabel), m_bannerRow(new QWidget), m_stop(new QPushButton),
      m_kill(new QPushButton), m_pause(new QPushButton), m_resume(new QPushButton),
      m_checkpoint(new QPushButton), m_lr(new QDoubleSpinBox), m_setLr(new QPushButton),
      m_restart(new QPushButton), m_resumeCheckpoint(new QPushButton), m_stallRow(new QWidget),
      m_stall(new QLabel), m_stallKill(new QPushButton), m_stallResume(new QPushButton) {
    setProperty("card", true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 8, 12, 8);
    layout->setSpacing(6);
    auto* row = new QHBoxLayout;
    row->addWidget(m_state);
    row->addSpacing(8);
    m_lr->setDecimals(6);
    m_lr->setRange(0.0, 10.0);
    m_lr->setSingleStep(1e-4);
    m_lr->setValue(6e-4);
    for (QWidget* w : {static_cast<QWidget*>(m_stop), static_cast<QWidget*>(m_kill),
                       static_cast<QWidget*>(m_pause), static_cast<QWidget*>(m_resume),
                       static_cast<QWidget*>(m_checkpoint), static_cast<QWidget*>(m_lr),
                       static_cast<QWidget*>(m_setLr), static_cast<QWidget*>(m_restart)})
        row->addWidget(w);
    row->addStretch(1);
    layout->addLayout(row);
    m_ranks->setTextFormat(Qt::RichText);
    layout->addWidget(m_ranks);

    auto* bannerLayout = new QHBoxLayout(m_bannerRow);
    bannerLayout->setContentsMargins(10, 6, 10, 6);
    m_bannerRow->setStyleSheet(
        QStringLiteral("background:%1; border:1px solid %2; border-radius:6px;")
            .arg(kErrorBannerBackground.name(), kErrorBannerBorder.name()));
    m_banner->setWordWrap(true);
    m_banner->setStyleSheet(QStringLiteral("color:%1; border:none;").arg(kErrorBannerText.name()));
    bannerLayout->addWidget(m_banner, 1);
    bannerLayout->addWidget(m_resumeCheckpoint);
    m_bannerRow->hide();
    layout->addWidget(m_bannerRow);

    auto* stallLayout = new QHBoxLayout(m_stallRow);
    stallLayout->setContentsMargins(10, 6, 10, 6);
    m_stallRow->setObjectName(QStringLiteral("stallRow")); // the frame, not its buttons
    m_stallRow->setAttribute(Qt::WA_StyledBackground);
    m_stallRow->setStyleSheet(
        QStringLiteral("#stallRow { background:%1; border:1px solid %2; border-radius:6px; }")
            .arg(kStallBackground.name(), kStallBorder.name()));
    m_stall->setWordWrap(true);
    m_stall->setTextFormat(Qt::RichText);
    m_stall->setStyleSheet(QStringLiteral("color:%1;").arg(kStallText.name()));
    stallLayout->addWidget(m_stall, 1);
    stallLayout->addWidget(m_stallKill);
    stallLayout->addWidget(m_stallResume);
    m_stallRow->hide();
    layout->addWidget(m_stallRow);

    connect(m_stop, &QPushButton::clicked, m_controller, &LiveController::stop);
    connect(m_kill, &QPushButton::clicked, m_controller, &LiveController::kill);
    connect(m_pause, &QPushButton::clicked, m_controller, &LiveController::pause);
    connect(m_resume, &QPushButton::clicked, m_controller, &LiveController::resume);
    connect(m_checkpoint, &QPushButton::clicked, m_controller, &LiveController::checkpointNow);
    connect(m_setLr, &QPushButton::clicked, this,
            [this] { m_controller->setLearningRate(m_lr->value()); });
    connect(m_restart, &QPushButton::clicked, this, &LivePanel::openRestartDialog);
    connect(m_resumeCheckpoint, &QPushButton::clicked, this, [this] {
        QString error;
        if (m_controller->resumeFromCheckpoint(&error))
            m_bannerRow->hide();
        else
            QMessageBox::warning(this, tr("Resume"), error);
    });
    connect(m_stallKill, &QPushButton::clicked, m_controller, &LiveController::kill);
    connect(m_stallResume, &QPushButton::clicked, m_controller, &LiveController::killAndResume);
    connect(m_controller, &LiveController::stateChanged, this, &LivePanel::onState);
    connect(m_controller, &LiveController::ended, this, &LivePanel::onEnded);
    connect(m_controller, &LiveController::runIdKnown, this, [this] {
        m_deadRank = -1;
        m_bannerRow->hide();
        m_stallRow->hide();
        updateRanks();
    });
    onState(m_controller->state());
    retranslate();
}

void LivePanel::retranslate() {
    m_stop->setText(tr("Stop"));
    m_stop->setToolTip(tr("Graceful: SIGTERM to the job's process group; the ranks finish the "
                          "step and write a checkpoint (status stopped). SIGKILL if they have not "
                          "ended after the timeout."));
    m_kill->setText(tr("Kill"));
    m_kill->setToolTip(tr("SIGKILL to every process of the job at once (status failed)."));
    m_pause->setText(tr("Pause"));
    m_pause->setToolTip(tr("Rank 0 holds every rank before the next step (a store command)."));
    m_resume->setText(tr("Resume"));
    m_checkpoint->setText(tr("Checkpoint now"));
    m_checkpoint->setToolTip(tr("Write a checkpoint after the current step."));
    m_lr->setToolTip(tr("New learning rate, applied from the next step on every rank."));
    m_setLr->setText(tr("Set lr"));
    m_restart->setText(tr("Apply && restart…"));
    m_restart->setToolTip(
        tr("Change ZeRO stage, world size or accumulation mid-run: stop with a checkpoint, "
           "relaunch from it. The optimizer state is re-partitioned; the plots continue as a "
           "new segment."));
    m_resumeCheckpoint->setText(tr("Resume from last checkpoint"));
    m_stallKill->setText(tr("Kill job"));
    m_stallKill->setToolTip(tr("SIGKILL to every process of the job (status failed). A stalled "
                               "rank does not answer a graceful stop."));
    m_stallResume->setText(tr("Kill && resume from last checkpoint"));
    m_stallResume->setToolTip(
        tr("Kill the job, then relaunch it from its newest checkpoint with the same config "
           "(a run started from this window)."));
    showState(m_controller->state());
    if (!m_stallRow->isHidden())
        showStall();
    if (!m_bannerRow->isHidden())
        showBanner();
}

void LivePanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void LivePanel::setShownRun(qint64 runId) {
    m_shownRun = runId;
    onState(m_controller->state());
}

QString LivePanel::bannerText() const {
    return m_bannerRow->isHidden() ? QString() : m_banner->text();
}

void LivePanel::setStall(const QString& why) {
    if (why.isEmpty() || !m_controller->isLive()) {
        m_stallRow->hide();
        return;
    }
    m_stallWhy = why;
    showStall();
    m_stallResume->setVisible(m_controller->ownsProcess() && m_controller->config().has_value());
    m_stallRow->show();
}

void LivePanel::showBanner() {
    m_banner->setText(tr("<b>Run failed.</b> %1").arg(m_failure.toHtmlEscaped()));
}

void LivePanel::showStall() {
    m_stall->setText(tr("<b>Run stalled.</b> %1").arg(m_stallWhy.toHtmlEscaped()));
}

QString LivePanel::stallText() const {
    return m_stallRow->isHidden() ? QString() : m_stall->text();
}

void LivePanel::onState(LiveController::State s) {
    // A live run's controls start from its config's learning rate.
    if (showState(s) && m_controller->config())
        m_lr->setValue(m_controller->config()->optimizer.lr);
}

bool LivePanel::showState(LiveController::State s) {
    const StateLook look = lookOf(s);
    // Before rank 0 names its run, the job being launched is the one to control.
    const bool shown = m_controller->runId() < 0 || m_controller->runId() == m_shownRun;
    m_state->setText(shown ? tr(look.text)
                           : tr("%1: run #%2").arg(tr(look.text)).arg(m_controller->runId()));
    m_state->setStyleSheet(QStringLiteral("color:%1; background:%2; border-radius:9px; "
                                          "padding:2px 10px; font-weight:600;")
                               .arg(kWhite.name(), look.colour.name()));
    const bool live =
        shown && (s == LiveController::State::Running || s == LiveController::State::Starting);
    const bool own = m_controller->ownsProcess();
    for (QWidget* w : {static_cast<QWidget*>(m_pause), static_cast<QWidget*>(m_resume),
                       static_cast<QWidget*>(m_checkpoint), static_cast<QWidget*>(m_lr),
                       static_cast<QWidget*>(m_setLr)})
        w->setEnabled(live && m_controller->runId() >= 0);
    m_stop->setEnabled(live || (shown && s == LiveController::State::Restarting));
    m_kill->setEnabled(shown && m_controller->isLive());
    m_restart->setEnabled(live && own && m_controller->config().has_value());
    // An ended run's strip belongs to that run only; a live one stays in sight.
    setVisible(s != LiveController::State::Idle && (shown || m_controller->isLive()));
    updateRanks();
    return live;
}

void LivePanel::onEnded(int exitCode, const QString& failure) {
    m_stallRow->hide();
    const RunExit& exit = m_controller->lastExit();
    m_deadRank = exit.failure ? exit.failure->rank : -1;
    if (!failure.isEmpty()) {
        m_failure = failure;
        showBanner();
        m_bannerRow->show();
    }
    m_resumeCheckpoint->setVisible(m_controller->config().has_value() && exitCode != 2);
    updateRanks();
}

void LivePanel::updateRanks() {
    const auto& cfg = m_controller->config();
    if (!cfg) {
        m_ranks->clear();
        return;
    }
    const LiveController::State s = m_controller->state();
    QStringList parts;
    for (int r = 0; r < cfg->batch.world; ++r) {
        QColor colour = kLiveColor;
        QString what = tr("running");
        if (r == m_deadRank) {
            const RunExit& exit = m_controller->lastExit();
            colour = kAlarmColor;
            what = tr("died: %1")
                       .arg(exit.failure && exit.failure->signal > 0
                                ? tr("signal %1 (%2)")
                                      .arg(exit.failure->signal)
                                      .arg(QString::fromStdString(exit.failure->signal_name))
                                : tr("exited"));
        } else if (s == LiveController::State::Ended) {
            colour = kTextMuted;
            what = tr("ended");
        } else if (s == LiveController::State::Starting) {
            colour = kTextMuted;
            what = tr("starting");
        }
        parts << tr("<span style='color:%1'>●</span> rank %2 <span "
                    "style='color:%3'>%4</span>")
                     .arg(colour.name())
                     .arg(r)
                     .arg(kTextMuted.name())
                     .arg(what);
    }
    m_ranks->setText(tr("ZeRO %1 · N = %2 · accumulation %3 &nbsp;&nbsp; ")
                         .arg(cfg->zero.stage)
                         .arg(cfg->batch.world)
                         .arg(cfg->batch.grad_accum) +
                     parts.join(QStringLiteral(" &nbsp; ")));
}

void LivePanel::openRestartDialog() {
    const auto& cfg = m_controller->config();
    if (!cfg)
        return;
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Apply & restart"));
    auto* form = new QFormLayout(&dialog);
    auto* stage = new QSpinBox;
    stage->setRange(0, 3);
    stage->setValue(cfg->zero.stage);
    auto* world = new QSpinBox;
    world->setRange(1, 64);
    world->setValue(cfg->batch.world);
    auto* accum = new QSpinBox;
    accum->setRange(1, 1024);
    accum->setValue(cfg->batch.grad_accum);
    form->addRow(tr("ZeRO stage"), stage);
    form->addRow(tr("World size N"), world);
    form->addRow(tr("Accumulation"), accum);
    form->addRow(new QLabel(tr("The global batch (%1) stays the same; the run stops with a "
                               "checkpoint and resumes from it.")
                                .arg(cfg->batch.train_batch_size)));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    if (!m_controller->applyAndRestart(stage->value(), world->value(), accum->value(), &error))
        QMessageBox::warning(this, tr("Apply & restart"), error);
}

} // namespace zerolab
