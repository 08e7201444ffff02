// The Lab tab: guided lessons (runtime/lab/). A list of lessons; a lesson one step at a
// time: its text and formula, the predictions the student types, one click that runs
// the real experiment into the open store (a worker thread runs the lesson's runs), the
// checks side by side (your answer, formula, planner, measured) and the step's chart.
// A finished lesson exports as one PDF (gui/views/lab/lab_report.h). Opening a lesson shows the
// newest stored results of its steps, so a lesson run earlier (or headless) is reviewable.
#pragma once

#include "gui/views/lab/lab_report.h"
#include "runtime/lab/lab_check.h"
#include "runtime/lab/lab_quantity.h"
#include "runtime/lab/lesson.h"

#include <QList>
#include <QMap>
#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTabBar;
class QTableWidget;
class QThread;
class QVBoxLayout;
class QFormLayout;

namespace zerolab {

struct LabJob;

// What a step has shown: its runs, its checks and the data its chart draws.
struct LabStepOutcome {
    LabRunIds run_ids;
    std::vector<CheckResult> checks;
    std::vector<LabRunData> chart_runs; // the chart's runs, in its order
    QString error;                      // a run failed, or the store could not be read
    bool stopped = false;
};

// UI thread only; the experiment runs on a worker thread that this view owns.
class LabView : public QWidget {
    Q_OBJECT
public:
    explicit LabView(QWidget* parent = nullptr);
    // Stops a running experiment and waits for its worker.
    ~LabView() override;

    void setStorePath(const QString& path);
    // zerolab-train; default: next to this executable.
    void setTrainProgram(const QString& path) { m_trainProgram = path; }
    // A shipped lesson id or a lesson file. False with `error` naming the file / JSON path.
    bool openLesson(const QString& idOrPath, QString* error);
    // Shows the step with this id (or 1-based number); false when there is none.
    bool showStep(const QString& step);
    // Types an answer into the current step's prediction field `id`.
    bool setPredictionText(const QString& id, const QString& text);
    // The run button: runs the current step's experiment (or, for a planner-only step,
    // evaluates it). False when busy, no store is open or there is nothing to do.
    bool runCurrentStep();
    void stop();
    bool isBusy() const { return m_worker != nullptr; }
    // Blocks the UI thread's event loop (tests, screenshots) until the worker is done.
    void waitIdle();

    const Lesson* lesson() const { return m_lesson ? &*m_lesson : nullptr; }
    int currentStep() const { return m_step; }
    const LabStepOutcome* outcome(int step) const;
    // The lesson as a report: every step with an outcome, rows as the view shows them,
    // each chart rendered at print size.
    LabReport report() const;
    bool exportReport(const QString& path, QString* error) const;

    // "en" or "zh_CN": the language lesson texts are shown in (follows the UI's).
    static std::string language();

signals:
    void statusMessage(const QString& text);
    void compareRequested(const QList<qint64>& runIds);
    // A step's outcome arrived (a run finished, or stored results were loaded).
    void outcomeReady(int step);

protected:
    void changeEvent(QEvent* event) override;

private:
    void buildUi();
    void retranslate();
    void fillLessonList();
    void showLesson();
    void renderStep();
    void renderChecks();
    void renderChart();
    void startJob(std::shared_ptr<LabJob> job);
    void jobFinished(std::shared_ptr<LabJob> job);
    void loadStoredResults();
    void exportClicked();
    // "step-id/prediction-id": where the typed answers are kept.
    QString predictionKey(int step, const std::string& id) const;
    std::optional<double> prediction(int step, const std::string& id) const;
    QWidget* buildChart(int step, QWidget* parent) const;
    QString runLabel(const LessonStep& step, const std::string& runId) const;

    std::optional<Lesson> m_lesson;
    int m_step = 0;
    QMap<int, LabStepOutcome> m_outcomes;
    QMap<QString, QString> m_predictionText; // "step/prediction" -> what was typed
    QString m_storePath;
    QString m_trainProgram;

    QThread* m_worker = nullptr;
    std::shared_ptr<std::atomic<bool>> m_stop;

    QListWidget* m_lessons;
    QPushButton* m_openFile;
    QLabel* m_title;
    QLabel* m_summary;
    QTabBar* m_steps;
    QLabel* m_stepTitle;
    QLabel* m_stepText;
    QLabel* m_formula;
    QLabel* m_predictHeading;
    QFormLayout* m_predictForm;
    QList<QLineEdit*> m_predictEdits;
    QLabel* m_predictError;
    QPushButton* m_run;
    QPushButton* m_stopButton;
    QProgressBar* m_progress;
    QLabel* m_progressText;
    QLabel* m_checksHeading;
    QTableWidget* m_checks;
    QLabel* m_explain;
    QLabel* m_chartHeading;
    QWidget* m_chartCard;
    QVBoxLayout* m_chartBox;
    QWidget* m_chart = nullptr;
    QLineEdit* m_student;
    QLabel* m_studentLabel;
    QPushButton* m_compare;
    QPushButton* m_export;
    QPushButton* m_prev;
    QPushButton* m_next;
};

} // namespace zerolab
