// The Lab view: the lesson list, the step's cards and what LabClient (gui/client) sends
// back: the progress of a step's runs, then its outcome.

#include "gui/views/lab/lab_view.h"

#include "gui/core/language.h"
#include "gui/views/lab/lab_charts.h"
#include "gui/views/lab/lab_values.h"
#include "gui/widgets/file_dialog.h"
#include "gui/widgets/flow_layout.h"
#include "gui/widgets/side_pane.h"
#include "gui/widgets/style.h"
#include "gui/widgets/wrapped_text.h"
#include "runtime/lab/lesson_parse.h"
#include "runtime/lab/shipped_lessons.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabBar>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace zerolab {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// The step tabs: the mouse wheel scrolls the page under them, it never changes the step
// (a lecturer scrolling through a step would land on another one).
class StepTabBar : public QTabBar {
public:
    using QTabBar::QTabBar;

protected:
    void wheelEvent(QWheelEvent* event) override { event->ignore(); }
};

// Columns 1..5 of the checks table (answer, formula, planner, measured, agrees) at
// most this share of its width; the rest goes to the check's label. Longer cells wrap.
constexpr double kValueColumnsShare = 0.66;
// A cell's margins and grid line around its text, in pixels.
constexpr int kCellPadding = 14;
// The heights of the step's page and of its chart's pane, in parts of the view's.
constexpr int kPageShare = 9;
constexpr int kChartShare = 11;
// A chart's least height in its pane: below it the pane scrolls.
constexpr int kChartMinHeight = 280;

} // namespace

LabView::LabView(QWidget* parent)
    : QWidget(parent),
      m_trainProgram(
          QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("zerolab-train"))),
      m_client(new LabClient(this)) {
    connect(m_client, &LabClient::progress, this, &LabView::showProgress);
    connect(m_client, &LabClient::finished, this, &LabView::requestFinished);
    buildUi();
    fillLessonList();
    retranslate();
}

std::string LabView::language() {
    return languageCode(currentLanguage()).toStdString();
}

void LabView::buildUi() {
    auto* page = new QWidget;
    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setSpacing(10);
    pageLayout->addLayout(buildHeader());
    pageLayout->addWidget(buildStepCard());
    pageLayout->addWidget(buildPredictCard());
    pageLayout->addWidget(buildChecksCard());
    pageLayout->addLayout(buildFooter());
    pageLayout->addStretch(1);

    // The step's chart in a pane of its own under the page, so that a lecture screen
    // (1280x800) shows the step and its chart together without scrolling; the splitter
    // between them moves, and each pane scrolls where its part is taller.
    const auto scrolled = [](QWidget* w) {
        auto* scroll = new QScrollArea;
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(w);
        return scroll;
    };
    QSplitter* split = makeSplitter(Qt::Vertical);
    split->addWidget(scrolled(page));
    m_chartPane = scrolled(buildChartCard());
    split->addWidget(m_chartPane);
    split->setChildrenCollapsible(false);
    split->setStretchFactor(0, kPageShare);
    split->setStretchFactor(1, kChartShare);
    split->setSizes({kPageShare * 100, kChartShare * 100});
    layOutWithSidePane(this, buildLessonList(), split)->setSizes({260, 1000});
    connectUi();
}

QWidget* LabView::buildLessonList() {
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_lessons = new QListWidget;
    m_lessons->setObjectName(QStringLiteral("labLessons"));
    m_lessons->setWordWrap(true);
    m_lessons->setMinimumWidth(220);
    m_openFile = new QPushButton;
    leftLayout->addWidget(m_lessons, 1);
    leftLayout->addWidget(m_openFile);
    return left;
}

QLayout* LabView::buildHeader() {
    auto* header = new QVBoxLayout;
    header->setSpacing(10);
    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("pageTitle"));
    m_title->setStyleSheet(QStringLiteral("font-size: 17pt; font-weight: 600;"));
    m_title->setWordWrap(true);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("muted"));
    m_summary->setWordWrap(true);
    m_steps = new StepTabBar;
    m_steps->setObjectName(QStringLiteral("labSteps"));
    m_steps->setExpanding(false);
    m_steps->setDrawBase(false);
    header->addWidget(m_title);
    header->addWidget(m_summary);
    header->addWidget(m_steps);
    return header;
}

// The step: its text and formula.
QWidget* LabView::buildStepCard() {
    auto* textBox = new QWidget;
    auto* textLayout = new QVBoxLayout(textBox);
    textLayout->setContentsMargins(0, 0, 0, 0);
    m_stepTitle = new QLabel;
    m_stepTitle->setObjectName(QStringLiteral("cardTitle"));
    m_stepText = new WrappedText; // up to 16 KiB: laid out once per width, not per query
    m_stepText->setObjectName(QStringLiteral("labStepText"));
    m_formula = new QLabel;
    m_formula->setObjectName(QStringLiteral("labFormula"));
    m_formula->setStyleSheet(
        QStringLiteral("font-family: 'DejaVu Sans Mono', monospace; font-size: 14pt;"
                       "color: %1; padding: 4px 0;")
            .arg(kAccent.name()));
    m_formula->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_formula->setWordWrap(true);
    m_hideFormula = new QCheckBox;
    m_hideFormula->setObjectName(QStringLiteral("labHideFormula"));
    textLayout->addWidget(m_stepTitle);
    textLayout->addWidget(m_stepText);
    textLayout->addWidget(m_formula);
    textLayout->addWidget(m_hideFormula, 0, Qt::AlignRight);
    return makeCard(textBox);
}

// Predict, then run.
QWidget* LabView::buildPredictCard() {
    auto* predictBox = new QWidget;
    auto* predictLayout = new QVBoxLayout(predictBox);
    predictLayout->setContentsMargins(0, 0, 0, 0);
    m_predictHeading = new QLabel;
    m_predictHeading->setObjectName(QStringLiteral("cardTitle"));
    m_predictHeading->setWordWrap(true);
    m_predictForm = new QFormLayout;
    // The prompt above its field: a long prompt never pushes the field or its unit out.
    m_predictForm->setRowWrapPolicy(QFormLayout::WrapAllRows);
    m_predictError = new QLabel;
    m_predictError->setStyleSheet(QStringLiteral("color: %1;").arg(kErrorColor.name()));
    m_predictError->setWordWrap(true);
    m_predictError->hide();
    auto* runRow = new QHBoxLayout;
    m_run = new QPushButton;
    m_run->setObjectName(QStringLiteral("primary"));
    m_stopButton = new QPushButton;
    m_stopButton->setEnabled(false);
    m_progress = new QProgressBar;
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(10);
    m_progress->hide();
    m_progressText = new QLabel;
    m_progressText->setObjectName(QStringLiteral("muted"));
    m_progressText->setWordWrap(true);
    runRow->addWidget(m_run);
    runRow->addWidget(m_stopButton);
    runRow->addWidget(m_progressText, 1);
    predictLayout->addWidget(m_predictHeading);
    predictLayout->addLayout(m_predictForm);
    predictLayout->addWidget(m_predictError);
    predictLayout->addLayout(runRow);
    predictLayout->addWidget(m_progress);
    return makeCard(predictBox);
}

// Check: the answer, the formula, the planner and the measurement side by side.
QWidget* LabView::buildChecksCard() {
    auto* checkBox = new QWidget;
    auto* checkLayout = new QVBoxLayout(checkBox);
    checkLayout->setContentsMargins(0, 0, 0, 0);
    m_checksHeading = new QLabel;
    m_checksHeading->setObjectName(QStringLiteral("cardTitle"));
    m_checks = new QTableWidget(0, 6);
    m_checks->setObjectName(QStringLiteral("labChecks"));
    m_checks->verticalHeader()->hide();
    m_checks->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_checks->setSelectionMode(QAbstractItemView::NoSelection);
    // Every cell whole: long labels and values wrap at word boundaries, never "...",
    // and the table is as tall as its rows (fitChecks, again on every resize).
    m_checks->setWordWrap(true);
    m_checks->setTextElideMode(Qt::ElideNone);
    m_checks->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_checks->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_checks->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_checks->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_checks->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_checks->viewport()->installEventFilter(this);
    m_explain = new QLabel;
    m_explain->setObjectName(QStringLiteral("labExplain"));
    m_explain->setWordWrap(true);
    m_explain->setTextFormat(Qt::RichText);
    checkLayout->addWidget(m_checksHeading);
    checkLayout->addWidget(m_checks);
    checkLayout->addWidget(m_explain);
    return makeCard(checkBox);
}

QWidget* LabView::buildChartCard() {
    auto* chartBox = new QWidget;
    m_chartBox = new QVBoxLayout(chartBox);
    m_chartBox->setContentsMargins(0, 0, 0, 0);
    m_chartHeading = new QLabel;
    m_chartHeading->setObjectName(QStringLiteral("cardTitle"));
    m_chartBox->addWidget(m_chartHeading);
    return makeCard(chartBox);
}

// Previous and next step, the student's name, Compare and the report.
QLayout* LabView::buildFooter() {
    // Wraps onto a second line where the page is narrow (1280x800 with the runs panel).
    auto* bottom = new FlowLayout(nullptr, 8, 6);
    m_prev = new QPushButton;
    m_next = new QPushButton;
    m_studentLabel = new QLabel;
    m_student = new QLineEdit;
    m_student->setMaximumWidth(220);
    m_compare = new QPushButton;
    m_export = new QPushButton;
    bottom->addWidget(m_prev);
    bottom->addWidget(m_next);
    bottom->addWidget(m_studentLabel);
    bottom->addWidget(m_student);
    bottom->addWidget(m_compare);
    bottom->addWidget(m_export);
    return bottom;
}

void LabView::connectUi() {
    connect(m_lessons, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0)
            return;
        const QString id = m_lessons->item(row)->data(Qt::UserRole).toString();
        if (m_lesson && qs(m_lesson->id) == id)
            return;
        QString error;
        if (!openLesson(id, &error))
            emit statusMessage(error);
    });
    connect(m_openFile, &QPushButton::clicked, this, [this] {
        const QString path = openFileName(this, tr("Open a lesson"), QString(),
                                          tr("Lesson files (*.json);;All files (*)"));
        if (path.isEmpty())
            return;
        QString error;
        if (!openLesson(path, &error))
            QMessageBox::warning(this, tr("Cannot open the lesson"), error);
    });
    connect(m_steps, &QTabBar::currentChanged, this, [this](int index) {
        if (index >= 0 && m_lesson && index != m_step) {
            m_step = index;
            renderStep();
        }
    });
    connect(m_run, &QPushButton::clicked, this, [this] { runCurrentStep(); });
    connect(m_stopButton, &QPushButton::clicked, this, [this] { stop(); });
    connect(m_prev, &QPushButton::clicked, this, [this] { m_steps->setCurrentIndex(m_step - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] { m_steps->setCurrentIndex(m_step + 1); });
    connect(m_compare, &QPushButton::clicked, this, [this] {
        if (const LabStepOutcome* o = outcome(m_step)) {
            QList<qint64> ids;
            for (const auto& [run, id] : o->run_ids)
                ids << id;
            emit compareRequested(ids);
        }
    });
    connect(m_export, &QPushButton::clicked, this, &LabView::exportClicked);
    connect(m_hideFormula, &QCheckBox::toggled, this, [this] { renderFormula(); });
}

void LabView::retranslate() {
    m_openFile->setText(tr("Open lesson file…"));
    m_openFile->setToolTip(tr("A lesson of your own: a JSON file in the format docs/lab.md "
                              "describes"));
    m_predictHeading->setText(tr("1 · Predict"));
    m_checksHeading->setText(tr("3 · Check: your answer, the formula, the planner, the run"));
    m_checks->setHorizontalHeaderLabels(labCheckHeadings());
    m_stopButton->setText(tr("Stop"));
    m_hideFormula->setText(tr("Hide each step's formula until it has run"));
    m_hideFormula->setToolTip(tr("For a class: the students predict before they see the "
                                 "formula; it shows once the step's experiment has run."));
    m_prev->setText(tr("← Previous step"));
    m_next->setText(tr("Next step →"));
    m_studentLabel->setText(tr("Student:"));
    m_student->setPlaceholderText(tr("your name, for the report"));
    m_compare->setText(tr("Open runs in Compare"));
    m_export->setText(tr("Export lab report (PDF)…"));
    fillLessonList();
    showLesson();
}

void LabView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void LabView::fillLessonList() {
    const std::string lang = language();
    QSignalBlocker block(m_lessons);
    const QString current = m_lesson ? qs(m_lesson->id) : QString();
    m_lessons->clear();
    try {
        for (const LessonInfo& info : shippedLessons()) {
            auto* item = new QListWidgetItem(
                QStringLiteral("%1. %2").arg(info.order).arg(qs(info.title.in(lang))));
            item->setData(Qt::UserRole, qs(info.id));
            item->setToolTip(qs(info.summary.in(lang)));
            m_lessons->addItem(item);
            if (qs(info.id) == current)
                m_lessons->setCurrentItem(item);
        }
    } catch (const std::exception& e) {
        emit statusMessage(qs(e.what()));
    }
}

void LabView::setStorePath(const QString& path) {
    if (path == m_storePath)
        return;
    m_storePath = path;
    m_outcomes.clear();
    loadStoredResults();
    renderStep();
}

bool LabView::openLesson(const QString& idOrPath, QString* error) {
    try {
        Lesson lesson = loadLesson(idOrPath.toStdString());
        if (lesson.steps.empty())
            throw LessonError(lesson.source + ": the lesson has no step");
        if (isBusy()) {
            if (error)
                *error = tr("An experiment is running: stop it before opening another lesson.");
            return false;
        }
        m_lesson = std::move(lesson);
    } catch (const std::exception& e) {
        if (error)
            *error = qs(e.what());
        return false;
    }
    m_step = 0;
    m_outcomes.clear();
    m_predictionText.clear();
    {
        QSignalBlocker block(m_lessons);
        m_lessons->clearSelection();
        for (int i = 0; i < m_lessons->count(); ++i)
            if (m_lessons->item(i)->data(Qt::UserRole).toString() == qs(m_lesson->id))
                m_lessons->setCurrentRow(i);
    }
    showLesson();
    loadStoredResults();
    return true;
}

void LabView::showLesson() {
    const bool have = m_lesson.has_value();
    const std::string lang = language();
    m_title->setText(have ? qs(m_lesson->title.in(lang)) : tr("The Lab"));
    m_summary->setText(have ? qs(m_lesson->summary.in(lang))
                            : tr("Choose a lesson: predict a number, run the real experiment, "
                                 "and check your answer against the formula and the run."));
    {
        QSignalBlocker block(m_steps);
        while (m_steps->count() > 0)
            m_steps->removeTab(0);
        if (have)
            for (std::size_t i = 0; i < m_lesson->steps.size(); ++i) {
                const int t = m_steps->addTab(
                    QStringLiteral("%1  %2").arg(i + 1).arg(qs(m_lesson->steps[i].title.in(lang))));
                m_steps->setTabToolTip(t, qs(m_lesson->steps[i].title.in(lang)));
            }
        m_steps->setCurrentIndex(m_step);
    }
    renderStep();
}

void LabView::loadStoredResults() {
    if (!m_lesson || m_storePath.isEmpty() || isBusy())
        return;
    LabRequest request;
    request.lesson = *m_lesson;
    for (std::size_t i = 0; i < m_lesson->steps.size(); ++i)
        request.steps.push_back(int(i));
    request.env.db_path = m_storePath.toStdString();
    startRequest(std::move(request));
}

bool LabView::runCurrentStep() {
    if (!m_lesson || isBusy())
        return false;
    const LessonStep& step = m_lesson->steps[std::size_t(m_step)];
    // The answers are kept as typed; one that is not a number is said, not dropped.
    QString error;
    for (QLineEdit* edit : m_predictEdits) {
        parsePrediction(edit->text(), &error);
        if (!error.isEmpty())
            break;
    }
    m_predictError->setVisible(!error.isEmpty());
    m_predictError->setText(error);
    if (!error.isEmpty())
        return false;
    if (step.experiment && m_storePath.isEmpty()) {
        emit statusMessage(tr("Open a store first (File → Open store): the runs are kept there."));
        return false;
    }
    LabRequest request;
    request.lesson = *m_lesson;
    request.steps = {m_step};
    request.run = true;
    request.env.db_path = m_storePath.toStdString();
    request.env.train_program = m_trainProgram.toStdString();
    // One folder for the runs' configs and logs, re-used by every click (not one per run
    // left in /tmp); a failed run's log stays there to read.
    request.env.work_dir = QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation))
                               .filePath(QStringLiteral("lab"))
                               .toStdString();
    startRequest(std::move(request));
    return true;
}

void LabView::startRequest(LabRequest request) {
    if (request.run && m_lesson) {
        const LessonStep& step = m_lesson->steps[std::size_t(request.steps.front())];
        const int runs = step.experiment ? int(step.experiment->runs.size()) : 0;
        m_progress->setRange(0, std::max(1, runs));
        m_progress->setValue(0);
        m_progress->setVisible(runs > 0);
        m_progressText->setText(runs > 0 ? tr("Starting %n run(s)…", nullptr, runs)
                                         : tr("Asking the planner…"));
    }
    const bool run = request.run;
    if (!m_client->start(std::move(request)))
        return;
    m_run->setEnabled(false);
    m_stopButton->setEnabled(run);
}

void LabView::showProgress(int step, const LabProgress& p) {
    if (m_step != step)
        return;
    m_progress->setRange(0, p.run_count * std::max(1, p.steps));
    m_progress->setValue(p.run_index * std::max(1, p.steps) + int(p.step));
    const QString label = p.label.en.empty() ? qs(p.run_id) : qs(p.label.in(language()));
    m_progressText->setText(tr("Run %1 of %2: %3 · step %4 of %5")
                                .arg(p.run_index + 1)
                                .arg(p.run_count)
                                .arg(label)
                                .arg(p.step)
                                .arg(p.steps));
}

void LabView::requestFinished(const LabResult& result) {
    m_stopButton->setEnabled(false);
    m_progress->hide();
    const bool sameLesson =
        m_lesson && m_lesson->id == result.lesson.id && m_lesson->source == result.lesson.source;
    if (!sameLesson) {
        loadStoredResults(); // the lesson changed while the worker ran
        renderStep();
        return;
    }
    for (const auto& [index, out] : result.outcomes) {
        if (result.run) {
            if (!out.error.isEmpty())
                emit statusMessage(tr("The experiment failed: %1").arg(out.error));
            else if (out.stopped)
                emit statusMessage(tr("Stopped: the runs that finished are in the store."));
        }
        if (out.stopped || (result.run && !out.error.isEmpty() && out.checks.empty())) {
            m_progressText->setText(out.stopped ? tr("Stopped.") : out.error);
            continue;
        }
        m_outcomes[index] = out;
        if (index == m_step)
            m_progressText->clear();
        emit outcomeReady(index);
    }
    renderStep();
}

void LabView::stop() {
    m_client->stop();
}

void LabView::waitIdle() {
    m_client->waitIdle();
}

const LabStepOutcome* LabView::outcome(int step) const {
    auto it = m_outcomes.constFind(step);
    return it == m_outcomes.constEnd() ? nullptr : &*it;
}

bool LabView::showStep(const QString& step) {
    if (!m_lesson)
        return false;
    bool isNumber = false;
    const int number = step.toInt(&isNumber);
    for (std::size_t i = 0; i < m_lesson->steps.size(); ++i)
        if (qs(m_lesson->steps[i].id) == step || (isNumber && number == int(i) + 1)) {
            m_steps->setCurrentIndex(int(i));
            return true;
        }
    return false;
}

bool LabView::setPredictionText(const QString& id, const QString& text) {
    for (QLineEdit* edit : m_predictEdits)
        if (edit->property("predictionId").toString() == id) {
            edit->setText(text);
            return true;
        }
    return false;
}

QString LabView::predictionKey(int step, const std::string& id) const {
    return qs(m_lesson->steps[std::size_t(step)].id) + QLatin1Char('/') + qs(id);
}

std::optional<double> LabView::prediction(int step, const std::string& id) const {
    if (!m_lesson)
        return std::nullopt;
    const auto it = m_predictionText.constFind(predictionKey(step, id));
    if (it == m_predictionText.constEnd())
        return std::nullopt;
    return parsePrediction(*it, nullptr);
}

void LabView::renderStep() {
    const bool have = m_lesson.has_value();
    for (QWidget* w : {static_cast<QWidget*>(m_stepTitle), static_cast<QWidget*>(m_run),
                       static_cast<QWidget*>(m_prev), static_cast<QWidget*>(m_next),
                       static_cast<QWidget*>(m_export)})
        w->setEnabled(have);
    while (m_predictForm->rowCount() > 0)
        m_predictForm->removeRow(0);
    m_predictEdits.clear();
    m_predictError->hide();
    if (!have) {
        m_stepTitle->clear();
        m_stepText->clear();
        m_formula->clear();
        m_hideFormula->hide();
        // Greyed out, but saying what it will do once a lesson is chosen.
        m_run->setText(tr("2 · Run the experiment"));
        m_run->setToolTip(tr("Choose a lesson first"));
        m_stopButton->setEnabled(false);
        renderChecks();
        renderChart();
        return;
    }
    const std::string lang = language();
    const LessonStep& step = m_lesson->steps[std::size_t(m_step)];
    m_stepTitle->setText(tr("Step %1 of %2 · %3")
                             .arg(m_step + 1)
                             .arg(m_lesson->steps.size())
                             .arg(qs(step.title.in(lang))));
    QString html;
    for (const QString& p :
         qs(step.text.in(lang)).split(QStringLiteral("\n\n"), Qt::SkipEmptyParts))
        html += QStringLiteral("<p>%1</p>")
                    .arg(p.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br/>")));
    m_stepText->setHtml(html);
    renderFormula();

    for (const LessonPrediction& p : step.predictions) {
        auto* edit = new QLineEdit;
        edit->setProperty("predictionId", qs(p.id));
        edit->setMaximumWidth(180);
        const QString key = predictionKey(m_step, p.id);
        edit->setText(m_predictionText.value(key));
        edit->setPlaceholderText(tr("a number, or e.g. 4 + 12/4"));
        auto* row = new QHBoxLayout;
        row->addWidget(edit);
        auto* unitLabel = new QLabel(labUnitLabel(p.unit));
        row->addWidget(unitLabel);
        row->addStretch(1);
        auto* prompt = new QLabel(qs(p.prompt.in(lang)));
        prompt->setWordWrap(true);
        m_predictForm->addRow(prompt, row);
        m_predictEdits << edit;
        connect(edit, &QLineEdit::textChanged, this, [this, key](const QString& text) {
            m_predictionText[key] = text;
            QString error;
            parsePrediction(text, &error);
            m_predictError->setVisible(!error.isEmpty());
            m_predictError->setText(error);
            renderChecks();
        });
    }
    m_predictHeading->setText(step.predictions.empty()
                                  ? tr("1 · Run: this step asks for no prediction; run it and "
                                       "read the checks")
                                  : tr("1 · Predict"));
    m_run->setText(step.experiment ? tr("2 · Run the experiment") : tr("2 · Ask the planner"));
    m_run->setToolTip(step.experiment
                          ? tr("%n real run(s) under mpirun, kept in the store and tagged "
                               "lab:%1",
                               nullptr, int(step.experiment->runs.size()))
                                .arg(qs(m_lesson->id))
                          : tr("The planner's numbers and the chapter's sums; no run"));
    m_run->setEnabled(!isBusy());
    m_prev->setEnabled(m_step > 0);
    m_next->setEnabled(m_step + 1 < int(m_lesson->steps.size()));
    m_export->setEnabled(!m_outcomes.isEmpty());
    m_compare->setEnabled(outcome(m_step) && !outcome(m_step)->run_ids.empty());
    if (!isBusy())
        m_progressText->setText(
            outcome(m_step) && !outcome(m_step)->run_ids.empty()
                ? tr("Showing the newest stored runs of this step; run again to repeat it.")
                : QString());
    renderChecks();
    renderChart();
}

void LabView::renderChecks() {
    const LabStepOutcome* o = m_lesson ? outcome(m_step) : nullptr;
    m_checks->setRowCount(0);
    m_checks->setVisible(o != nullptr);
    m_checksHeading->setVisible(true);
    if (!o) {
        const bool planOnly = m_lesson && !m_lesson->steps[std::size_t(m_step)].experiment;
        m_explain->setText(!m_lesson ? QString()
                           : planOnly
                               ? tr("Type your predictions, then ask the planner: the checks "
                                    "appear here.")
                               : tr("Type your predictions, then run the experiment: the checks "
                                    "appear here."));
        return;
    }
    if (!o->error.isEmpty() && o->checks.empty()) {
        m_explain->setText(QStringLiteral("<span style=\"color:%1\">%2</span>")
                               .arg(kErrorColor.name(), o->error.toHtmlEscaped()));
        return;
    }
    const std::string lang = language();
    QString explain;
    for (const CheckResult& c : o->checks) {
        const std::optional<double> p =
            c.prediction_id ? prediction(m_step, *c.prediction_id) : std::nullopt;
        const LabReportRow row = labReportRow(c, p, lang);
        const int r = m_checks->rowCount();
        m_checks->insertRow(r);
        const QStringList cells = {row.label,   row.prediction, row.formula,
                                   row.planner, row.measured,   row.agreement};
        for (int col = 0; col < cells.size(); ++col) {
            auto* item =
                new QTableWidgetItem(cells[col].isEmpty() ? QStringLiteral("—") : cells[col]);
            if (col == 5)
                item->setForeground(row.agrees ? kOkColor : kErrorColor);
            if (col == 1 && row.answerHit) {
                item->setForeground(*row.answerHit ? kOkColor : kErrorColor);
                item->setToolTip(c.grade == GradeAgainst::Formula
                                     ? tr("Graded against the formula (within 2 %); the run "
                                          "is shown beside it")
                                     : tr("Graded against the run (within 2 %); the formula "
                                          "is shown beside it"));
            }
            if (!row.explain.isEmpty())
                item->setToolTip(row.explain);
            m_checks->setItem(r, col, item);
        }
        if (!row.explain.isEmpty())
            explain += QStringLiteral("<p><b>%1.</b> %2</p>")
                           .arg(row.label.toHtmlEscaped(), row.explain.toHtmlEscaped());
    }
    fitChecks();
    m_explain->setText(explain);
}

void LabView::renderFormula() {
    const LessonStep* step = m_lesson ? &m_lesson->steps[std::size_t(m_step)] : nullptr;
    const bool has = step && !step->formula.empty();
    m_hideFormula->setVisible(has);
    m_formula->setVisible(has);
    if (!has)
        return;
    const bool hidden = m_hideFormula->isChecked() && !outcome(m_step);
    m_formula->setText(hidden ? tr("Formula hidden until the step has run") : qs(step->formula));
    m_formula->setEnabled(!hidden);
}

// The label column takes what the values leave; each value column its widest cell up to
// its share, then wraps. Rows grow to their wrapped text, and the table to its rows (the
// page scrolls, the table never does).
void LabView::fitChecks() {
    QHeaderView* header = m_checks->horizontalHeader();
    const int width = m_checks->viewport()->width();
    const int columns = m_checks->columnCount();
    if (width <= 0 || columns < 2)
        return;
    // Each value column at least its heading, at most its widest cell; what they need
    // beyond their headings shrinks in proportion when their share cannot hold it.
    QVector<int> least(columns, 0), natural(columns, 0);
    int leastSum = 0, naturalSum = 0;
    for (int c = 1; c < columns; ++c) {
        least[c] = header->sectionSizeHint(c);
        natural[c] = least[c];
        for (int r = 0; r < m_checks->rowCount(); ++r)
            if (const QTableWidgetItem* item = m_checks->item(r, c))
                natural[c] =
                    std::max(natural[c], m_checks->fontMetrics().horizontalAdvance(item->text()) +
                                             kCellPadding);
        leastSum += least[c];
        naturalSum += natural[c];
    }
    const int share = std::max(leastSum, int(width * kValueColumnsShare));
    const double give =
        naturalSum <= share ? 1.0 : double(share - leastSum) / std::max(1, naturalSum - leastSum);
    int used = 0;
    for (int c = 1; c < columns; ++c) {
        const int w = least[c] + int((natural[c] - least[c]) * give);
        header->resizeSection(c, w);
        used += w;
    }
    header->resizeSection(0, std::max(40, width - used));
    m_checks->resizeRowsToContents();
    int h = header->height() + 2 * m_checks->frameWidth();
    for (int r = 0; r < m_checks->rowCount(); ++r)
        h += m_checks->rowHeight(r);
    if (m_checks->height() != h)
        m_checks->setFixedHeight(h);
}

bool LabView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_checks->viewport() && event->type() == QEvent::Resize &&
        m_checks->rowCount() > 0) {
        const auto* resize = static_cast<QResizeEvent*>(event);
        if (resize->size().width() != resize->oldSize().width())
            fitChecks();
    }
    return QWidget::eventFilter(watched, event);
}

void LabView::renderChart() {
    if (m_chart) {
        m_chartBox->removeWidget(m_chart);
        delete m_chart;
        m_chart = nullptr;
    }
    const std::string lang = language();
    const LessonStep* step = m_lesson ? &m_lesson->steps[std::size_t(m_step)] : nullptr;
    const bool hasChart = step && step->chart;
    m_chartPane->setVisible(hasChart);
    if (!hasChart)
        return;
    const QString title = qs(step->chart->title.in(lang));
    m_chartHeading->setText(title.isEmpty() ? tr("4 · The chart") : title);
    m_chart = LabCharts::build(*step, outcome(m_step), lang);
    const bool charted = m_chart != nullptr;
    if (!charted) {
        auto* empty = new QLabel(tr("The chart appears once the experiment has run."));
        empty->setObjectName(QStringLiteral("muted"));
        m_chart = empty;
    } else {
        m_chart->setObjectName(QStringLiteral("labChart"));
        m_chart->setMinimumHeight(std::max(kChartMinHeight, m_chart->minimumSizeHint().height()));
    }
    m_chartBox->addWidget(m_chart);
    // Until there is a chart its pane holds one line, and the step's page takes the rest.
    m_chartPane->setMaximumHeight(charted ? QWIDGETSIZE_MAX
                                          : m_chartPane->widget()->sizeHint().height());
}

LabReport LabView::report() const {
    LabReport r;
    if (!m_lesson)
        return r;
    const std::string lang = language();
    r.lessonId = qs(m_lesson->id);
    r.title = qs(m_lesson->title.in(lang));
    r.student = m_student->text().trimmed();
    r.created = QDateTime::currentDateTime();
    r.locale = QLocale(languageCode(currentLanguage()));
    for (std::size_t i = 0; i < m_lesson->steps.size(); ++i) {
        const LessonStep& step = m_lesson->steps[i];
        const LabStepOutcome* o = outcome(int(i));
        LabReportStep s;
        s.title = qs(step.title.in(lang));
        s.text = qs(step.text.in(lang));
        s.formula = qs(step.formula);
        if (o) {
            for (const CheckResult& c : o->checks) {
                const std::optional<double> p =
                    c.prediction_id ? prediction(int(i), *c.prediction_id) : std::nullopt;
                s.rows.push_back(labReportRow(c, p, lang));
            }
        }
        if (o || step.plan) {
            if (std::unique_ptr<QWidget> chart{LabCharts::build(step, o, lang)}) {
                s.chart = LabCharts::render(chart.get());
                if (step.chart)
                    s.chartTitle = qs(step.chart->title.in(lang));
            }
        }
        r.steps.push_back(s);
    }
    return r;
}

bool LabView::exportReport(const QString& path, QString* error) const {
    return writeLabReportPdf(report(), path, error);
}

void LabView::exportClicked() {
    if (!m_lesson)
        return;
    const QString path =
        saveFileName(this, tr("Export lab report"),
                     QDir::home().filePath(QStringLiteral("lab-%1.pdf").arg(qs(m_lesson->id))),
                     tr("PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportReport(path, &error))
        QMessageBox::warning(this, tr("Cannot export the lab report"), error);
    else
        emit statusMessage(tr("Lab report written to %1").arg(path));
}

} // namespace zerolab
