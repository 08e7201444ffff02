// LiveController: launch folder and argv, metric-line progress, control commands,
// graceful stop / kill, restart from the newest checkpoint, failure recording.
#include "gui/client/live_controller.h"

#include "gui/client/store_client.h"
#include "storage/metric_line_reader.h"

#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QSettings>

#include <csignal>
#include <fstream>
#include <unistd.h>

namespace zerolab {

namespace {

QString stateSettingsKey(const char* key) {
    return QStringLiteral("launcher/%1").arg(QLatin1String(key));
}

} // namespace

LauncherOptions LauncherOptions::load() {
    QSettings s;
    LauncherOptions o;
    o.kind = s.value(stateSettingsKey("kind")).toString() == QLatin1String("srun")
                 ? LauncherKind::Srun
                 : LauncherKind::Mpirun;
    o.launcher = s.value(stateSettingsKey("path"), o.launcher).toString();
    o.hosts = s.value(stateSettingsKey("hosts")).toString();
    o.hostfile = s.value(stateSettingsKey("hostfile")).toString();
    o.extraArgs = s.value(stateSettingsKey("extraArgs")).toString();
    o.oversubscribe = s.value(stateSettingsKey("oversubscribe"), o.oversubscribe).toBool();
    o.rootOverrides = s.value(stateSettingsKey("rootOverrides"), o.rootOverrides).toBool();
    o.stopGraceMs = s.value(stateSettingsKey("stopGraceMs"), o.stopGraceMs).toInt();
    return o;
}

void LauncherOptions::save() const {
    QSettings s;
    s.setValue(stateSettingsKey("kind"),
               kind == LauncherKind::Srun ? QStringLiteral("srun") : QStringLiteral("mpirun"));
    s.setValue(stateSettingsKey("path"), launcher);
    s.setValue(stateSettingsKey("hosts"), hosts);
    s.setValue(stateSettingsKey("hostfile"), hostfile);
    s.setValue(stateSettingsKey("extraArgs"), extraArgs);
    s.setValue(stateSettingsKey("oversubscribe"), oversubscribe);
    s.setValue(stateSettingsKey("rootOverrides"), rootOverrides);
    s.setValue(stateSettingsKey("stopGraceMs"), stopGraceMs);
}

LiveController::LiveController(StoreClient* store, QObject* parent)
    : QObject(parent), m_store(store),
      m_program(
          QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("zerolab-train"))) {
    qRegisterMetaType<LiveProgress>();
    connect(&m_process, &RunProcess::metricLine, this, &LiveController::onMetricLine);
    connect(&m_process, &RunProcess::logLine, this, &LiveController::logLine);
    connect(&m_process, &RunProcess::finished, this, &LiveController::onFinished);
    connect(m_store, &StoreClient::checkpointFound, this, &LiveController::onCheckpoint);
}

LiveController::~LiveController() = default;

bool LiveController::isLive() const {
    return m_state == State::Starting || m_state == State::Running || m_state == State::Stopping ||
           m_state == State::Restarting;
}

void LiveController::setState(State s) {
    if (m_state == s)
        return;
    m_state = s;
    emit stateChanged(s);
}

bool LiveController::start(const TrainConfig& config, QString* error) {
    if (isLive()) {
        if (error)
            *error = tr("a run is already live; stop it first");
        return false;
    }
    m_runId = -1;
    m_attachedPid = 0;
    const QString storeDir = QFileInfo(m_store->path()).absolutePath();
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    QDir root(m_store->path().isEmpty() ? QDir::tempPath() : storeDir);
    const QString name =
        QStringLiteral("launches/%1-%2").arg(stamp).arg(QCoreApplication::applicationPid());
    if (!root.mkpath(name)) {
        if (error)
            *error = tr("cannot create the launch folder %1").arg(root.filePath(name));
        return false;
    }
    m_launchDir = root.filePath(name);
    m_launches = 0;
    return launch(config, {}, error);
}

bool LiveController::launch(const TrainConfig& config, const QString& resumeFrom, QString* error) {
    ++m_launches;
    TrainConfig cfg = config;
    // Checkpoints in the launch folder, by absolute path: the store records it and a
    // restart finds it whatever the working directory.
    if (QFileInfo(QString::fromStdString(cfg.run.checkpoint_dir)).isRelative())
        cfg.run.checkpoint_dir =
            QDir(m_launchDir).filePath(QStringLiteral("checkpoints")).toStdString();
    const QDir dir(m_launchDir);
    const QString configPath = dir.filePath(QStringLiteral("config-%1.json").arg(m_launches));
    {
        std::ofstream out(configPath.toStdString());
        out << toJson(cfg).dump(2) << '\n';
        if (!out) {
            if (error)
                *error = tr("cannot write %1").arg(configPath);
            return false;
        }
    }
    LaunchSpec spec;
    spec.kind = m_options.kind;
    spec.launcher = m_options.launcher.toStdString();
    spec.np = cfg.batch.world;
    spec.hosts = m_options.hosts.toStdString();
    spec.hostfile = m_options.hostfile.toStdString();
    spec.oversubscribe = m_options.oversubscribe;
    spec.program = m_program.toStdString();
    spec.program_args = {"--config", configPath.toStdString(), "--db",
                         m_store->path().toStdString()};
    if (!resumeFrom.isEmpty())
        spec.program_args.insert(spec.program_args.end(), {"--resume", resumeFrom.toStdString()});
    std::vector<std::string> argv;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    try {
        spec.extra_args = splitArguments(m_options.extraArgs.toStdString());
        argv = launchArgv(spec);
        for (const auto& [k, v] :
             launchEnvironment(spec, m_options.rootOverrides && ::geteuid() == 0))
            env.insert(QString::fromStdString(k), QString::fromStdString(v));
    } catch (const LaunchError& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    m_lastCommand.clear();
    for (const std::string& a : argv)
        m_lastCommand << QString::fromStdString(a);
    emit logLine(-1, tr("$ %1").arg(m_lastCommand.join(QLatin1Char(' '))));
    if (!m_process.start(argv, env, m_launchDir,
                         dir.filePath(QStringLiteral("stdout-%1.jsonl").arg(m_launches)),
                         dir.filePath(QStringLiteral("stderr-%1.log").arg(m_launches)), error))
        return false;
    m_config = cfg;
    m_progress = {};
    m_progress.totalSteps = cfg.run.steps;
    m_segmentFirstStep = -1;
    setState(State::Starting);
    return true;
}

void LiveController::attach(qint64 runId, qint64 rank0Pid) {
    if (m_process.isRunning())
        return;
    m_runId = runId;
    m_attachedPid = rank0Pid;
    m_config.reset();
    setState(State::Running);
    emit runIdKnown(runId);
}

void LiveController::attachedRunEnded(RunStatus status) {
    if (m_process.isRunning() || m_state != State::Running)
        return;
    setState(State::Ended);
    emit ended(status == RunStatus::Finished ? 0 : status == RunStatus::Stopped ? 3 : 1, {});
}

void LiveController::onMetricLine(const QByteArray& json) {
    const std::optional<MetricLineFields> line =
        readMetricLine(std::string_view(json.constData(), std::size_t(json.size())));
    if (!line)
        return;
    if (line->type == MetricLineType::Run) {
        m_runId = line->run_id.value_or(-1);
        m_progress.totalSteps = line->total_steps.value_or(m_progress.totalSteps);
        if (m_state == State::Starting)
            setState(State::Running);
        emit runIdKnown(m_runId);
    } else if (line->type == MetricLineType::Step) {
        const qint64 step = line->step.value_or(0);
        const double wall = line->wall_time_s.value_or(0.0);
        if (m_segmentFirstStep < 0 || wall < m_lastWall) {
            m_segmentFirstStep = step;
            m_segmentFirstWall = wall;
        }
        m_lastWall = wall;
        m_progress.step = step;
        if (line->tokens_per_s)
            m_progress.tokensPerS = *line->tokens_per_s;
        if (line->loss)
            m_progress.loss = *line->loss;
        const qint64 done = step - m_segmentFirstStep;
        m_progress.etaS = done > 0 ? (wall - m_segmentFirstWall) / double(done) *
                                         double(std::max<qint64>(0, m_progress.totalSteps - step))
                                   : -1;
        emit progressed(m_progress);
    }
}

void LiveController::stop() {
    if (m_process.isRunning()) {
        setState(State::Stopping);
        m_process.stop(m_options.stopGraceMs);
    } else if (m_runId >= 0) {
        m_store->postCommand(m_runId, CommandKind::Stop);
        emit message(tr("Asked run %1 to stop after its current step").arg(m_runId));
    }
}

void LiveController::kill() {
    m_pendingRestart.reset();
    if (m_process.isRunning()) {
        m_process.kill();
    } else if (m_attachedPid > 0) {
        ::kill(pid_t(m_attachedPid), SIGKILL);
        emit message(tr("Sent SIGKILL to rank 0 (pid %1)").arg(m_attachedPid));
    }
}

void LiveController::killAndResume() {
    kill();
    m_resumeAfterKill = m_config.has_value() && m_process.isRunning();
}

void LiveController::pause() {
    if (m_runId >= 0)
        m_store->postCommand(m_runId, CommandKind::Pause);
}

void LiveController::resume() {
    if (m_runId >= 0)
        m_store->postCommand(m_runId, CommandKind::Resume);
}

void LiveController::checkpointNow() {
    if (m_runId >= 0)
        m_store->postCommand(m_runId, CommandKind::Checkpoint);
}

void LiveController::setLearningRate(double lr) {
    if (m_runId >= 0)
        m_store->postCommand(m_runId, CommandKind::SetLr, lr);
}

bool LiveController::applyAndRestart(int stage, int world, int accumulation, QString* error) {
    if (!m_config || !m_process.isRunning() || m_runId < 0) {
        if (error)
            *error = tr("Apply & restart needs a run started from this window");
        return false;
    }
    TrainConfig next = *m_config;
    const int global = next.batch.train_batch_size;
    if (world < 1 || accumulation < 1 || global % (world * accumulation) != 0) {
        if (error)
            *error = tr("the global batch %1 cannot be split into %2 ranks × %3 micro-steps")
                         .arg(global)
                         .arg(world)
                         .arg(accumulation);
        return false;
    }
    next.zero.stage = stage;
    next.batch.world = world;
    next.batch.grad_accum = accumulation;
    next.batch.micro_batch = global / (world * accumulation);
    m_pendingRestart = next;
    emit message(tr("Stopping with a checkpoint, then restarting with ZeRO %1, N = %2, "
                    "accumulation %3")
                     .arg(stage)
                     .arg(world)
                     .arg(accumulation));
    setState(State::Restarting);
    m_process.stop(m_options.stopGraceMs);
    return true;
}

bool LiveController::resumeFromCheckpoint(QString* error) {
    if (isLive() || m_runId < 0 || !m_config) {
        if (error)
            *error = tr("nothing to resume: no ended run was started from this window");
        return false;
    }
    m_pendingRestart = *m_config;
    m_awaitingCheckpoint = true;
    setState(State::Restarting);
    m_store->findCheckpoint(m_runId);
    return true;
}

void LiveController::detach() {
    m_pendingRestart.reset();
    m_process.detach();
    setState(State::Idle);
}

void LiveController::onFinished(const RunExit& exit) {
    m_lastExit = exit;
    // mpirun is in the signalled group too and may end by SIGTERM itself, so a stop
    // we asked for that needed no SIGKILL counts as graceful whatever its exit code.
    const bool graceful = exit.exitCode == 3 || (exit.stopRequested && !exit.killed);
    if (m_pendingRestart && graceful && m_runId >= 0) {
        m_awaitingCheckpoint = true;
        m_store->findCheckpoint(m_runId);
        return;
    }
    m_pendingRestart.reset();
    QString failure;
    int code = exit.crashed ? -1 : exit.exitCode;
    if (graceful && exit.exitCode != 0) {
        code = 3;
        emit message(tr("Run %1 stopped with a checkpoint").arg(m_runId));
    } else if (exit.exitCode != 0) {
        if (exit.failure)
            failure = QString::fromStdString(exit.failure->summary);
        else if (exit.killed)
            failure = tr("Killed from zerolab (SIGKILL to the process group).");
        else if (exit.exitCode == 2)
            failure = tr("The runtime rejected its input (exit 2); the log says why.");
        else
            failure =
                tr("The launcher ended with %1; the log has its messages.")
                    .arg(exit.crashed ? tr("a signal") : tr("exit code %1").arg(exit.exitCode));
        if (m_runId >= 0)
            m_store->recordFailure(m_runId, exit.failure ? exit.failure->rank : -1,
                                   tr("launcher: %1").arg(failure));
        emit logLine(-1, tr("error: %1").arg(failure));
    }
    setState(State::Ended);
    emit ended(code, failure);
    if (std::exchange(m_resumeAfterKill, false)) {
        QString error;
        if (!resumeFromCheckpoint(&error))
            emit message(error);
    }
}

void LiveController::onCheckpoint(qint64 runId, qint64 step, const QString& path) {
    if (!m_awaitingCheckpoint || runId != m_runId)
        return;
    m_awaitingCheckpoint = false;
    const std::optional<TrainConfig> next = std::move(m_pendingRestart);
    m_pendingRestart.reset();
    QString error;
    if (!next || step < 0) {
        error = tr("run %1 has no checkpoint to resume from").arg(runId);
    } else {
        emit message(tr("Resuming run %1 from step %2").arg(runId).arg(step));
        if (launch(*next, path, &error))
            return;
    }
    emit logLine(-1, tr("error: %1").arg(error));
    setState(State::Ended);
    emit ended(1, error);
}

} // namespace zerolab
