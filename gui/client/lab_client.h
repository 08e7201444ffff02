// The Lab's background work (the Lab view's client): a lesson step's experiment run into
// the store, or a lesson's stored results read back, on a worker thread of its own. As
// with StoreClient, the view sends a request and gets typed signals back on its thread:
// progress while runs go, then one LabResult with every step's outcome.
#pragma once

#include "runtime/lab/lab_check.h"
#include "runtime/lab/lab_experiment.h"
#include "runtime/lab/lab_quantity.h"
#include "runtime/lab/lesson.h"

#include <QObject>
#include <QString>
#include <QThread>

#include <atomic>
#include <map>
#include <vector>

namespace zerolab {

// What a step has shown: its runs, its checks and the data its chart draws.
struct LabStepOutcome {
    LabRunIds run_ids;
    std::vector<CheckResult> checks;
    std::vector<LabRunData> chart_runs; // the chart's runs, in its order
    QString error;                      // a run failed, or the store could not be read
    bool stopped = false;
};

// One piece of work: run one step's experiment (run = true, then evaluate its checks),
// or only read what the store holds for `steps` (a step whose runs are not all stored
// is left out of the result).
struct LabRequest {
    Lesson lesson;
    std::vector<int> steps; // indices into lesson.steps
    bool run = false;
    LabEnvironment env; // env.stop is the client's
};

struct LabResult {
    Lesson lesson; // the request's
    bool run = false;
    std::map<int, LabStepOutcome> outcomes;
};

// Lives on the client's worker thread; work() blocks there until the request is done.
class LabWorker : public QObject {
    Q_OBJECT
public:
    void work(const zerolab::LabRequest& request);

signals:
    void progress(int step, const zerolab::LabProgress& progress);
    void finished(const zerolab::LabResult& result);
};

// UI thread. One request at a time; destroying the client stops the experiment and
// waits for its worker.
class LabClient : public QObject {
    Q_OBJECT
public:
    explicit LabClient(QObject* parent = nullptr);
    ~LabClient() override;

    // False (and nothing sent) while a request is in flight.
    bool start(LabRequest request);
    // Asks the running experiment to stop: its job gets SIGTERM, the step comes back
    // stopped.
    void stop();
    bool isBusy() const { return m_busy; }
    // Runs the UI thread's event loop (tests, screenshots) until the request is done.
    void waitIdle();

signals:
    void progress(int step, const zerolab::LabProgress& progress);
    void finished(const zerolab::LabResult& result);

private:
    QThread m_thread;
    LabWorker* m_worker;
    std::atomic<bool> m_stop{false};
    bool m_busy = false;
};

} // namespace zerolab

Q_DECLARE_METATYPE(zerolab::LabProgress)
Q_DECLARE_METATYPE(zerolab::LabResult)
