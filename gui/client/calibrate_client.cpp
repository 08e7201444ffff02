// zerolab-calibrate as the GUI's child process (calibrate_client.h): argv, never a shell;
// stdout read line by line as progress, stderr kept for the message of a failure.
#include "gui/client/calibrate_client.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>

namespace zerolab {

namespace {

// After SIGTERM, the tool stops its mpirun job within a second or two; past this, kill.
constexpr int kKillAfterMs = 10000;
constexpr int kExitStopped = 3;

} // namespace

std::optional<CalibrationStep> parseCalibrationStep(const QByteArray& line) {
    const QJsonDocument doc = QJsonDocument::fromJson(line);
    const QJsonObject o = doc.object();
    if (!doc.isObject() || o.value(QStringLiteral("type")).toString() != QStringLiteral("progress"))
        return std::nullopt;
    CalibrationStep s;
    s.fraction = std::clamp(o.value(QStringLiteral("fraction")).toDouble(), 0.0, 1.0);
    s.done = o.value(QStringLiteral("done")).toInteger();
    s.total = o.value(QStringLiteral("total")).toInteger();
    s.phase = o.value(QStringLiteral("phase")).toString();
    s.measures = o.value(QStringLiteral("measures")).toString();
    s.link = o.value(QStringLiteral("link")).toString();
    s.ranks = o.value(QStringLiteral("ranks")).toInt();
    return s;
}

QString calibrationStepText(const CalibrationStep& step) {
    const QString where = step.link == QStringLiteral("inter_host")
                              ? CalibrateClient::tr("across hosts")
                              : CalibrateClient::tr("within the host");
    QString phase;
    if (step.phase == QStringLiteral("plan"))
        phase = CalibrateClient::tr("Planned %n measurement(s)", nullptr, int(step.total));
    else if (step.phase == QStringLiteral("kernels"))
        phase = CalibrateClient::tr("Kernels");
    else if (step.phase == QStringLiteral("pieces"))
        phase = CalibrateClient::tr("A step's pieces in situ");
    else if (step.phase == QStringLiteral("collectives"))
        phase = CalibrateClient::tr("Collectives over %1 ranks %2").arg(step.ranks).arg(where);
    else if (step.phase == QStringLiteral("sharing"))
        phase = CalibrateClient::tr("Compute with %1 ranks at once %2").arg(step.ranks).arg(where);
    else if (step.phase == QStringLiteral("profile"))
        phase = CalibrateClient::tr("Profile written");
    else
        phase = step.phase;
    return CalibrateClient::tr("%1 (%2 of %3): %4")
        .arg(phase)
        .arg(step.done)
        .arg(step.total)
        .arg(step.measures);
}

CalibrateClient::CalibrateClient(QObject* parent)
    : QObject(parent), m_program(QDir(QCoreApplication::applicationDirPath())
                                     .filePath(QStringLiteral("zerolab-calibrate"))),
      m_killTimer(new QTimer(this)) {
    qRegisterMetaType<CalibrationStep>();
    m_killTimer->setSingleShot(true);
    m_killTimer->setInterval(kKillAfterMs);
    connect(m_killTimer, &QTimer::timeout, this, [this] {
        if (running())
            m_process->kill();
    });
}

CalibrateClient::~CalibrateClient() {
    if (running()) {
        m_process->disconnect(this);
        m_process->terminate();
        if (!m_process->waitForFinished(kKillAfterMs))
            m_process->kill();
        m_process->waitForFinished(1000);
    }
}

bool CalibrateClient::running() const {
    return m_process && m_process->state() != QProcess::NotRunning;
}

bool CalibrateClient::start(const QString& storePath) {
    if (running())
        return false;
    if (m_process)
        m_process->deleteLater();
    m_dir = std::make_unique<QTemporaryDir>(
        QDir::temp().filePath(QStringLiteral("zerolab-calibrate-XXXXXX")));
    m_pending.clear();
    m_lastError.clear();
    m_toolMessage.clear();
    m_cancelling = false;
    m_process = new QProcess(this);
    // The tool's own temp files (its mpirun jobs' fragments) go in the client's folder.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TMPDIR"), m_dir->path());
    m_process->setProcessEnvironment(env);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &CalibrateClient::readProgress);
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        for (const QByteArray& line : m_process->readAllStandardError().split('\n')) {
            const QString text = QString::fromUtf8(line).trimmed();
            // The tool's message ("zerolab-calibrate: ..."), else mpirun's last line; never
            // a progress line ("zerolab-calibrate [ 1.2 s] ...").
            if (text.startsWith(QStringLiteral("zerolab-calibrate: ")))
                m_toolMessage = text;
            else if (!text.isEmpty() && !text.startsWith(QStringLiteral("zerolab-calibrate [")))
                m_lastError = text;
        }
    });
    connect(m_process, &QProcess::finished, this, &CalibrateClient::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            emit failed(tr("%1 did not start: %2").arg(m_program, m_process->errorString()));
    });
    QStringList args = m_options;
    args << QStringLiteral("--out") << m_dir->filePath(QStringLiteral("profile.json"))
         << QStringLiteral("--db") << storePath << QStringLiteral("--progress-json");
    m_process->start(m_program, args);
    emit started();
    return true;
}

void CalibrateClient::cancel() {
    if (!running())
        return;
    m_cancelling = true;
    m_process->terminate();
    m_killTimer->start();
}

void CalibrateClient::readProgress() {
    m_pending += m_process->readAllStandardOutput();
    for (qsizetype end = m_pending.indexOf('\n'); end >= 0; end = m_pending.indexOf('\n')) {
        const QByteArray line = m_pending.left(end);
        m_pending.remove(0, end + 1);
        if (const auto step = parseCalibrationStep(line))
            emit progressed(*step);
    }
}

void CalibrateClient::onFinished(int code, QProcess::ExitStatus status) {
    m_killTimer->stop();
    readProgress();
    m_dir.reset();
    if (status == QProcess::NormalExit && code == 0)
        emit finished(); // ended well, even where a cancel came too late to stop it
    else if (m_cancelling && (status == QProcess::CrashExit || code == kExitStopped))
        emit cancelled();
    else if (status == QProcess::CrashExit)
        emit failed(tr("zerolab-calibrate was killed (%1)").arg(m_process->errorString()));
    else
        emit failed(tr("zerolab-calibrate failed (exit %1): %2")
                        .arg(code)
                        .arg(!m_toolMessage.isEmpty() ? m_toolMessage
                             : !m_lastError.isEmpty() ? m_lastError
                                                      : tr("no message")));
}

} // namespace zerolab
