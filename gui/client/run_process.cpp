// RunProcess: the child in its own process group (setpgid in the child before exec),
// group signals, and the tail of its output files.
#include "gui/client/run_process.h"

#include "runtime/launch/tagged_line.h"

#include <csignal>
#include <sys/types.h>
#include <unistd.h>

namespace zerolab {

namespace {
constexpr int kTailMs = 100;
constexpr int kStderrKeep = 256 * 1024;
} // namespace

std::pair<int, QString> splitRankPrefix(const QString& line) {
    const auto [rank, text] = splitTaggedLine(line.toStdString());
    return {rank, QString::fromStdString(text)};
}

RunProcess::RunProcess(QObject* parent) : QObject(parent), m_process(new QProcess(this)) {
    qRegisterMetaType<RunExit>();
    m_tail.setInterval(kTailMs);
    connect(&m_tail, &QTimer::timeout, this, &RunProcess::tail);
    m_killTimer.setSingleShot(true);
    connect(&m_killTimer, &QTimer::timeout, this, [this] {
        m_killed = true;
        signalGroup(SIGKILL);
    });
    connect(m_process, &QProcess::finished, this, &RunProcess::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart)
            return;
        m_tail.stop();
        RunExit exit;
        exit.failure = launcherMissing(m_launcher.toStdString());
        emit finished(exit);
    });
}

RunProcess::~RunProcess() {
    // A job still attached when its owner goes is ended, never orphaned silently;
    // detach() is the way to leave one running.
    // Its owner is being destroyed too: nothing may be told about this exit.
    m_process->disconnect(this);
    QObject::disconnect(this, nullptr, nullptr, nullptr);
    m_tail.stop();
    m_killTimer.stop();
    if (isRunning()) {
        signalGroup(SIGKILL);
        m_process->waitForFinished(2000);
    }
}

bool RunProcess::start(const std::vector<std::string>& argv, const QProcessEnvironment& env,
                       const QString& workDir, const QString& stdoutPath, const QString& stderrPath,
                       QString* error) {
    for (QFile* f : {&m_out, &m_err}) {
        f->close();
        f->setFileName(f == &m_out ? stdoutPath : stderrPath);
        QFile create(f->fileName());
        if (!create.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            !(create.close(), f->open(QIODevice::ReadOnly))) {
            if (error)
                *error = tr("cannot create %1: %2").arg(f->fileName(), create.errorString());
            return false;
        }
    }
    m_outPartial.clear();
    m_errPartial.clear();
    m_stderrText.clear();
    m_stopRequested = m_killed = false;
    m_launcher = QString::fromStdString(argv.front());
    QStringList args;
    for (std::size_t i = 1; i < argv.size(); ++i)
        args << QString::fromStdString(argv[i]);
    m_process->setProgram(m_launcher);
    m_process->setArguments(args);
    m_process->setProcessEnvironment(env);
    m_process->setWorkingDirectory(workDir);
    m_process->setStandardInputFile(QProcess::nullDevice());
    m_process->setStandardOutputFile(stdoutPath, QIODevice::Append);
    m_process->setStandardErrorFile(stderrPath, QIODevice::Append);
    // Its own process group, so that Stop and Kill reach mpirun and every local rank
    // and nothing else (the GUI is not in the group).
    m_process->setChildProcessModifier([] { ::setpgid(0, 0); });
    m_process->start();
    m_pgid = m_process->processId();
    m_tail.start();
    return true;
}

void RunProcess::signalGroup(int sig) {
    if (m_pgid > 0)
        ::kill(-pid_t(m_pgid), sig);
}

void RunProcess::stop(int graceMs) {
    if (!isRunning())
        return;
    m_stopRequested = true;
    signalGroup(SIGTERM);
    m_killTimer.start(graceMs);
}

void RunProcess::kill() {
    if (!isRunning())
        return;
    m_killed = true;
    signalGroup(SIGKILL);
}

void RunProcess::detach() {
    m_tail.stop();
    m_killTimer.stop();
    disconnect(m_process, nullptr, this, nullptr);
    // The QProcess would kill the job when destroyed; it is handed to no one and lives
    // until the application ends, while the job writes to its files and the store.
    m_process->setParent(nullptr);
    m_process = new QProcess(this);
    m_pgid = 0;
}

bool RunProcess::isRunning() const {
    return m_process->state() != QProcess::NotRunning;
}

qint64 RunProcess::pid() const {
    return m_process->processId();
}

void RunProcess::tail() {
    const auto drain = [](QFile& f, QByteArray& partial) {
        partial += f.readAll();
        QList<QByteArray> lines;
        qsizetype nl;
        while ((nl = partial.indexOf('\n')) >= 0) {
            lines << partial.left(nl);
            partial.remove(0, nl + 1);
        }
        return lines;
    };
    for (const QByteArray& raw : drain(m_out, m_outPartial)) {
        const auto [rank, text] = splitRankPrefix(QString::fromUtf8(raw));
        if (text.startsWith(QLatin1Char('{')))
            emit metricLine(text.toUtf8());
        else if (!text.isEmpty())
            emit logLine(rank, text);
    }
    for (const QByteArray& raw : drain(m_err, m_errPartial)) {
        const QString line = QString::fromUtf8(raw);
        m_stderrText += line + QLatin1Char('\n');
        const auto [rank, text] = splitRankPrefix(line);
        emit logLine(rank, text);
    }
    if (m_stderrText.size() > kStderrKeep)
        m_stderrText.remove(0, m_stderrText.size() - kStderrKeep);
}

void RunProcess::onFinished(int exitCode, QProcess::ExitStatus status) {
    m_killTimer.stop();
    m_tail.stop();
    tail();
    RunExit exit;
    exit.crashed = status == QProcess::CrashExit;
    exit.exitCode = exit.crashed ? -1 : exitCode;
    exit.stopRequested = m_stopRequested;
    exit.killed = m_killed;
    if (exitCode != 0 || exit.crashed)
        exit.failure = parseLaunchFailure(m_stderrText.toStdString());
    m_pgid = 0;
    emit finished(exit);
}

} // namespace zerolab
