// The Lab's worker: runs (or looks up) each requested step's runs, then evaluates its
// checks and reads back what its chart draws, all off the UI thread.
#include "gui/client/lab_client.h"

#include "gui/client/store_thread.h"

#include <QCoreApplication>
#include <QEventLoop>

namespace zerolab {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// Evaluates the checks of a step whose runs are known and reads its chart's runs.
void evaluate(const Lesson& lesson, int index, const std::string& db, LabStepOutcome& out) {
    const LessonStep& step = lesson.steps[std::size_t(index)];
    try {
        out.checks = evaluateStepChecks(lesson, step, out.run_ids, db);
        if (step.chart && step.experiment && !out.run_ids.empty()) {
            std::vector<std::string> ids = step.chart->runs;
            if (ids.empty())
                for (const LessonRun& r : step.experiment->runs)
                    ids.push_back(r.id);
            std::map<std::string, LabRunData> runs = readStepRuns(out.run_ids, db);
            for (const std::string& id : ids)
                if (auto it = runs.find(id); it != runs.end())
                    out.chart_runs.push_back(std::move(it->second));
        }
    } catch (const std::exception& e) {
        out.error = qs(e.what());
    }
}

} // namespace

void LabWorker::work(const LabRequest& request) {
    LabResult result;
    result.lesson = request.lesson;
    result.run = request.run;
    for (int index : request.steps) {
        const LessonStep& step = request.lesson.steps[std::size_t(index)];
        LabStepOutcome out;
        try {
            requireOffGuiThread("the Lab");
        } catch (const std::exception& e) {
            out.error = qs(e.what());
            result.outcomes[index] = std::move(out);
            continue;
        }
        if (request.run) {
            try {
                const LabStepRuns runs = runStepExperiment(
                    request.lesson, step, request.env,
                    [this, index](const LabProgress& p) { emit progress(index, p); });
                out.run_ids = runs.run_ids;
                out.stopped = runs.stopped;
            } catch (const std::exception& e) {
                out.error = qs(e.what());
            }
            if (out.error.isEmpty() && !out.stopped)
                evaluate(request.lesson, index, request.env.db_path, out);
        } else {
            if (!step.experiment)
                continue; // a planner-only step waits for the student's click
            try {
                out.run_ids = findStoredStepRuns(request.lesson, step, request.env.db_path);
            } catch (const std::exception& e) {
                out.error = qs(e.what());
            }
            if (!out.error.isEmpty() || out.run_ids.size() != step.experiment->runs.size())
                continue; // not (completely) run yet: nothing to show
            evaluate(request.lesson, index, request.env.db_path, out);
        }
        result.outcomes[index] = std::move(out);
    }
    emit finished(result);
}

LabClient::LabClient(QObject* parent) : QObject(parent), m_worker(new LabWorker) {
    qRegisterMetaType<LabProgress>();
    qRegisterMetaType<LabResult>();
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &LabWorker::progress, this, &LabClient::progress);
    connect(m_worker, &LabWorker::finished, this, [this](const LabResult& result) {
        m_busy = false;
        emit finished(result);
    });
    m_thread.start();
}

LabClient::~LabClient() {
    stop();
    m_thread.quit();
    m_thread.wait();
}

bool LabClient::start(LabRequest request) {
    if (m_busy)
        return false;
    m_busy = true;
    m_stop.store(false);
    request.env.stop = &m_stop;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, request = std::move(request)] { w->work(request); },
        Qt::QueuedConnection);
    return true;
}

void LabClient::stop() {
    m_stop.store(true);
}

void LabClient::waitIdle() {
    while (m_busy)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
}

} // namespace zerolab
