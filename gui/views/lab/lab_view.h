// The Lab tab: guided lessons (runtime/lab/). A list of lessons; a lesson one step at a
// time: its text and formula, the predictions the student types, one click that runs
// the real experiment into the open store (LabClient runs the lesson's runs off the UI
// thread), the
// checks side by side (your answer, formula, planner, measured) and, in a pane under
// them that a lecture screen shows with the step, the step's chart.
// A finished lesson exports as one PDF (gui/views/lab/lab_report.h). Opening a lesson shows the
// newest stored results of its steps, so a lesson run earlier (or headless) is reviewable.
#pragma once

#include "gui/client/lab_client.h"
#include "gui/views/lab/lab_report.h"
#include "runtime/lab/lab_check.h"
#include "runtime/lab/lab_quantity.h"
#include "runtime/lab/lesson.h"

#include <QList>
#include <QMap>
#include <QWidget>

#include <optional>
#include <vector>

class QCheckBox;
class QLabel;
class QLayout;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QTabBar;
class QTableWidget;
class QVBoxLayout;
class QFormLayout;

namespace zerolab {

class WrappedText;

// UI thread only; the experiment runs in its LabClient.
class LabView : public QWidget {
    Q_OBJECT
public:
    explicit LabView(QWidget* parent = nullptr);

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
    bool isBusy() const { return m_client->isBusy(); }
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
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // The view's parts, one function a card or row; connectUi wires their signals.
    void buildUi();
    QWidget* buildLessonList();
    QLayout* buildHeader();
    QWidget* buildStepCard();
    QWidget* buildPredictCard();
    QWidget* buildChecksCard();
    QWidget* buildChartCard();
    QLayout* buildFooter();
    void connectUi();
    void retranslate();
    void fillLessonList();
    void showLesson();
    void renderStep();
    void renderChecks();
    // The step's formula, or a placeholder while "hide until it has run" holds it back.
    void renderFormula();
    // The checks table's column widths, row heights and height for its current width.
    void fitChecks();
    void renderChart();
    void startRequest(LabRequest request);
    void showProgress(int step, const LabProgress& progress);
    void requestFinished(const LabResult& result);
    void loadStoredResults();
    void exportClicked();
    // "step-id/prediction-id": where the typed answers are kept.
    QString predictionKey(int step, const std::string& id) const;
    std::optional<double> prediction(int step, const std::string& id) const;

    std::optional<Lesson> m_lesson;
    int m_step = 0;
    QMap<int, LabStepOutcome> m_outcomes;
    QMap<QString, QString> m_predictionText; // "step/prediction" -> what was typed
    QString m_storePath;
    QString m_trainProgram;

    LabClient* m_client;

    QListWidget* m_lessons;
    QPushButton* m_openFile;
    QLabel* m_title;
    QLabel* m_summary;
    QTabBar* m_steps;
    QLabel* m_stepTitle;
    WrappedText* m_stepText;
    QLabel* m_formula;
    QCheckBox* m_hideFormula;
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
    QScrollArea* m_chartPane; // the chart's card in its scroll area, under the page
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
