#include "gui/views/tune/tune_view.h"

#include "gui/core/config_validation.h"
#include "gui/core/display_text.h"
#include "gui/core/runtime_text.h"
#include "gui/core/status_label.h"
#include "gui/core/units.h"
#include "gui/widgets/form_rows.h"
#include "gui/widgets/link_meaning_label.h"
#include "gui/widgets/pareto_chart.h"
#include "gui/widgets/style.h"
#include "gui/widgets/time_source_combo.h"
#include "runtime/planner/plan_devices.h"
#include "runtime/planner/planner_units.h"
#include "runtime/tune/sweep_candidates.h"
#include "runtime/tune/sweep_driver.h"
#include "runtime/tune/sweep_report.h"
#include "runtime/tune/sweep_spec.h"
#include "runtime/tune/sweep_strategy.h"
#include "runtime/tune/sweep_texts.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <exception>
#include <limits>
#include <set>

namespace zerolab {

namespace {

constexpr int kIdxRole = Qt::UserRole + 1; // column 0: the trial's idx
constexpr int kSortRole = Qt::UserRole;    // numbers sort as numbers

struct AxisDefault {
    const char* axis;
    const char* values;
};
// What a first sweep on a workstation asks: which stage, how many ranks, how large a
// micro-batch, and whether recompute pays for itself.
constexpr AxisDefault kDefaultAxes[] = {
    {"zero_optimization.stage", "0, 1, 2, 3"},
    {"world", "1, 2"},
    {"train_micro_batch_size_per_gpu", "2, 4, 8"},
    {"model.recompute", "\"none\", \"full\""},
};

QStandardItem* textItem(const QString& text) {
    auto* item = new QStandardItem(text);
    item->setData(text, kSortRole);
    item->setEditable(false);
    return item;
}

// A number shown formatted and sorted by value; unknown shows "—" and sorts first.
QStandardItem* numberItem(double value, const QString& text) {
    const bool known = std::isfinite(value) && value >= 0;
    auto* item = new QStandardItem(known ? text : QStringLiteral("—"));
    item->setData(known ? value : -1.0, kSortRole);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setEditable(false);
    return item;
}

QString jsonScalarText(const nlohmann::json& v) {
    return v.is_string() ? QString::fromStdString(v.get<std::string>())
                         : QString::fromStdString(v.dump());
}

int trialStage(const TrialRecord& t) {
    const auto doc = nlohmann::json::parse(t.config_json, nullptr, false);
    if (doc.is_object() && doc.contains("zero_optimization") &&
        doc["zero_optimization"].is_object() && doc["zero_optimization"].contains("stage") &&
        doc["zero_optimization"]["stage"].is_number_integer())
        return doc["zero_optimization"]["stage"].get<int>();
    return 0;
}

QString statusText(TrialStatus s, bool preview) {
    if (preview && s == TrialStatus::Pending)
        return QCoreApplication::translate("zerolab::TuneView", "to run");
    return statusLabel(trialStatusName(s));
}

} // namespace

TuneView::TuneView(QWidget* parent)
    : QWidget(parent),
      m_program(QDir(QCoreApplication::applicationDirPath()).filePath("zerolab-sweep")),
      m_client(new SweepClient(this)) {
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(buildEditor());
    split->addWidget(buildResults());
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(split);
    connect(m_client, &SweepClient::sweepsListed, this, &TuneView::sweepsListed);
    connect(m_client, &SweepClient::sweepLoaded, this, &TuneView::sweepLoaded);
    connect(m_client, &SweepClient::failed, this, [this](const QString& message) {
        m_summary->setText(shownText(message.toStdString(), 500));
    });
    connect(m_client, &SweepClient::processOutput, this, [this](const QString& line) {
        emit statusMessage(shownText(line.toStdString(), 300));
    });
    connect(m_client, &SweepClient::processEnded, this, [this](int code, const QString& last) {
        emit statusMessage(
            tr("zerolab-sweep ended (exit %1)%2")
                .arg(code)
                .arg(last.isEmpty() ? QString() : ": " + shownText(last.toStdString(), 300)));
        refresh();
        updateButtons();
    });
    connect(m_client, &SweepClient::processFailedToStart, this, [this](const QString& why) {
        emit statusMessage(tr("cannot start %1: %2").arg(m_program, why));
        updateButtons();
    });
    retranslate();
    m_axes->resizeColumnToContents(0);
    updateButtons();
}

void TuneView::retranslate() {
    m_editorTitle->setText(tr("Sweep"));
    showBaseLabel();
    m_axes->setHorizontalHeaderLabels({tr("Axis (config JSON path, or world)"), tr("Values")});
    m_axes->setToolTip(
        tr("Each row is an axis: a JSON path into the config (zero_optimization.stage, "
           "train_micro_batch_size_per_gpu, model.recompute, zero_optimization.overlap_comm, "
           "zero_optimization.reduce_bucket_size, …) or world for N, and its values as JSON "
           "separated by commas (strings in quotes)."));
    m_addAxis->setText(tr("Add axis"));
    m_removeAxis->setText(tr("Remove axis"));
    m_strategy->setItemText(0, tr("Guided (DeepSpeed's order)"));
    m_strategy->setItemText(1, tr("Grid (every point)"));
    m_strategy->setToolTip(
        tr("Guided: per stage, raise the micro-batch while the forecast fits and throughput "
           "rises, then tune the bucket sizes at the best point. Grid: every point that fits."));
    m_capacityKind->setItemText(0, tr("Host RAM ÷ N"));
    m_capacityKind->setItemText(1, tr("Fixed, per rank"));
    m_capacityGb->setSuffix(tr(" GB"));
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setToolTip(tr("A trial still running after this long is killed (its whole process "
                             "group) and recorded as timeout; the sweep goes on."));
    m_holdBatch->setText(tr("Hold the global batch (accumulation follows)"));
    setFormRowLabel(m_strategy, tr("Strategy"));
    setFormRowLabel(m_capacityRow, tr("Capacity"));
    setFormRowLabel(m_warmup, tr("Warm-up steps"));
    setFormRowLabel(m_measure, tr("Measured steps"));
    setFormRowLabel(m_timeout, tr("Trial timeout"));
    m_previewButton->setText(tr("Preview"));
    m_previewButton->setToolTip(tr("Plan every candidate now: the table shows what would run "
                                   "and what the planner prunes, before anything is launched."));
    m_startButton->setText(tr("▶  Start sweep"));
    m_stopButton->setText(tr("Stop"));
    m_stopButton->setToolTip(tr("Stop the sweep; the trial in flight is ended and runs again "
                                "on Resume."));
    m_resumeButton->setText(tr("Resume"));

    m_sweeps->setPlaceholderText(tr("No sweep in this store yet"));
    m_sweepLabel->setText(tr("Sweep"));
    m_chart->setToolTip(tr("Each finished trial: tokens/s against peak memory per rank. The "
                           "staircase is the Pareto frontier; double-click a point to open "
                           "its run."));
    m_openButton->setText(tr("Open in Run view"));
    m_useButton->setText(tr("Use this config"));
    m_timeLabel->setText(tr("Step time on"));
    m_orderButton->setText(tr("Order by forecast tokens/s"));
    m_orderButton->setToolTip(
        tr("Sort the trials by the step-time model's tokens/s on the chosen profile, fastest "
           "first: what to run first, before measuring. Time per step would rank the smallest "
           "micro-batch first; tokens/s compares the work done. Trials that do not fit "
           "(pruned, out of memory, invalid) come last."));
    m_useButton->setToolTip(tr("Load the trial's config into Setup"));

    // The sweeps' status words and the shown sweep (or preview), rendered again when
    // the client answers.
    m_listSignature.clear();
    m_shownStatus.reset();
    refresh();
    if (!m_shown && !m_trials.empty())
        preview(nullptr);
}

void TuneView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void TuneView::showEvent(QShowEvent* event) {
    m_client->setPolling(true);
    QWidget::showEvent(event);
}

void TuneView::hideEvent(QHideEvent* event) {
    m_client->setPolling(false);
    QWidget::hideEvent(event);
}

QWidget* TuneView::buildEditor() {
    auto* box = new QWidget;
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 6, 0);

    m_editorTitle = new QLabel;
    m_editorTitle->setObjectName(QStringLiteral("cardTitle"));
    m_baseLabel = new QLabel;
    m_baseLabel->setObjectName(QStringLiteral("muted"));
    m_baseLabel->setWordWrap(true);

    m_axes = new QTableWidget(0, 2);
    m_axes->horizontalHeader()->setStretchLastSection(true);
    m_axes->verticalHeader()->hide();
    for (const AxisDefault& a : kDefaultAxes) {
        const int row = m_axes->rowCount();
        m_axes->insertRow(row);
        m_axes->setItem(row, 0, new QTableWidgetItem(QString::fromLatin1(a.axis)));
        m_axes->setItem(row, 1, new QTableWidgetItem(QString::fromLatin1(a.values)));
    }
    m_axes->setMinimumHeight(150);
    m_addAxis = new QPushButton;
    m_removeAxis = new QPushButton;
    connect(m_addAxis, &QPushButton::clicked, this, [this] {
        m_axes->insertRow(m_axes->rowCount());
        m_axes->editItem(nullptr);
    });
    connect(m_removeAxis, &QPushButton::clicked, this, [this] {
        if (m_axes->currentRow() >= 0)
            m_axes->removeRow(m_axes->currentRow());
    });
    auto* axisButtons = new QHBoxLayout;
    axisButtons->addWidget(m_addAxis);
    axisButtons->addWidget(m_removeAxis);
    axisButtons->addStretch(1);

    // Items named in retranslate().
    m_strategy = new QComboBox;
    m_strategy->addItem(QString(), QStringLiteral("guided"));
    m_strategy->addItem(QString(), QStringLiteral("grid"));
    // Host RAM / N, a fixed size, then the device presets (their memory less the default
    // reserve: a sweep planned for a GPU cluster from this machine).
    m_capacityKind = new QComboBox;
    m_capacityKind->addItem(QString(), QStringLiteral("host"));
    m_capacityKind->addItem(QString(), QStringLiteral("bytes"));
    for (const DevicePreset& d : kDevicePresets)
        m_capacityKind->addItem(QString::fromUtf8(d.label.data(), int(d.label.size())),
                                QString::fromUtf8(d.key.data(), int(d.key.size())));
    m_capacityGb = new QDoubleSpinBox;
    m_capacityGb->setRange(0.001, 100000);
    m_capacityGb->setDecimals(3);
    m_capacityGb->setValue(1.0);
    m_capacityGb->setEnabled(false);
    connect(m_capacityKind, &QComboBox::currentIndexChanged, this,
            [this] { m_capacityGb->setEnabled(m_capacityKind->currentData() == "bytes"); });
    m_capacityRow = new QWidget;
    auto* capacity = new QHBoxLayout(m_capacityRow);
    capacity->setContentsMargins(0, 0, 0, 0);
    capacity->addWidget(m_capacityKind, 1);
    capacity->addWidget(m_capacityGb);
    m_warmup = new QSpinBox;
    m_warmup->setRange(0, 10000);
    m_warmup->setValue(3);
    m_measure = new QSpinBox;
    m_measure->setRange(1, 100000);
    m_measure->setValue(10);
    m_timeout = new QDoubleSpinBox;
    m_timeout->setRange(1, 7 * 86400);
    m_timeout->setDecimals(0);
    m_timeout->setValue(300);
    m_holdBatch = new QCheckBox;

    auto* form = new QFormLayout;
    for (QWidget* w :
         {static_cast<QWidget*>(m_strategy), m_capacityRow, static_cast<QWidget*>(m_warmup),
          static_cast<QWidget*>(m_measure), static_cast<QWidget*>(m_timeout)})
        addFormRow(form, w);
    form->addRow(m_holdBatch);

    m_previewButton = new QPushButton;
    m_startButton = new QPushButton;
    m_stopButton = new QPushButton;
    m_resumeButton = new QPushButton;
    auto report = [this](bool ok, const QString& error) {
        if (!ok)
            emit statusMessage(error);
    };
    connect(m_previewButton, &QPushButton::clicked, this, [this, report] {
        QString e;
        report(preview(&e), e);
    });
    connect(m_startButton, &QPushButton::clicked, this, [this, report] {
        QString e;
        report(startSweep(&e), e);
    });
    connect(m_stopButton, &QPushButton::clicked, this, &TuneView::stopSweep);
    connect(m_resumeButton, &QPushButton::clicked, this, [this, report] {
        QString e;
        report(resumeSweep(&e), e);
    });
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_previewButton);
    buttons->addWidget(m_startButton);
    buttons->addWidget(m_stopButton);
    buttons->addWidget(m_resumeButton);

    v->addWidget(m_editorTitle);
    v->addWidget(m_baseLabel);
    v->addWidget(m_axes, 1);
    v->addLayout(axisButtons);
    v->addLayout(form);
    v->addLayout(buttons);
    return makeCard(box);
}

QWidget* TuneView::buildResults() {
    auto* box = new QWidget;
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(6, 0, 0, 0);

    m_sweeps = new QComboBox;
    m_sweeps->setMinimumContentsLength(30);
    connect(m_sweeps, &QComboBox::activated, this, [this](int i) {
        if (i >= 0)
            showSweep(m_sweeps->itemData(i).toLongLong());
    });
    auto* top = new QHBoxLayout;
    m_sweepLabel = new QLabel;
    m_sweepLabel->setObjectName(QStringLiteral("cardTitle"));
    top->addWidget(m_sweepLabel);
    top->addWidget(m_sweeps, 1);
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("muted"));
    m_verdict = new QLabel;
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdict->setVisible(false);

    m_chart = new ParetoChart;
    connect(m_chart, &ParetoChart::trialActivated, this, [this](long long idx) {
        for (const TrialRecord& t : m_trials)
            if (t.idx == idx && t.run_id >= 0)
                emit openRunRequested(t.run_id);
    });

    m_model = new QStandardItemModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(kSortRole);
    m_table = new QTableView;
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(0, Qt::AscendingOrder); // trial order until the user sorts
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setMinimumHeight(160);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &TuneView::updateButtons);
    connect(m_table, &QTableView::doubleClicked, this, [this] {
        if (const TrialRecord* t = selectedTrial(); t && t->run_id >= 0)
            emit openRunRequested(t->run_id);
    });

    m_openButton = new QPushButton;
    m_useButton = new QPushButton;
    connect(m_openButton, &QPushButton::clicked, this, [this] {
        if (const TrialRecord* t = selectedTrial(); t && t->run_id >= 0)
            emit openRunRequested(t->run_id);
    });
    connect(m_useButton, &QPushButton::clicked, this, [this] {
        if (const TrialRecord* t = selectedTrial()) {
            const auto doc = nlohmann::json::parse(t->config_json, nullptr, false);
            emit useConfigRequested(
                QString::fromStdString(doc.is_discarded() ? t->config_json : doc.dump(2)));
        }
    });
    // The step-time model beside the measured: its profile, and the table ordered by it.
    m_timeLabel = new QLabel;
    m_timeLabel->setObjectName(QStringLiteral("muted"));
    m_timeSource = new TimeSourceCombo;
    m_orderButton = new QPushButton;
    connect(m_timeSource, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_trials.empty())
            showTrials(std::vector<TrialRecord>(m_trials), m_summary->text());
    });
    connect(m_orderButton, &QPushButton::clicked, this, &TuneView::orderByForecast);
    auto* timing = new QHBoxLayout;
    timing->addWidget(m_timeLabel);
    timing->addWidget(m_timeSource, 1);
    timing->addWidget(m_orderButton);
    // What the chosen preset's link between hosts means, under its picker.
    auto* actions = new QHBoxLayout;
    actions->addWidget(new LinkMeaningLabel(m_timeSource, box), 1);
    actions->addWidget(m_openButton);
    actions->addWidget(m_useButton);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_chart);
    auto* lower = new QWidget;
    auto* lv = new QVBoxLayout(lower);
    lv->setContentsMargins(0, 0, 0, 0);
    lv->addWidget(m_table, 1);
    lv->addLayout(timing);
    lv->addLayout(actions);
    split->addWidget(lower);
    split->setChildrenCollapsible(false);

    v->addLayout(top);
    v->addWidget(m_summary);
    v->addWidget(m_verdict);
    v->addWidget(split, 1);
    return makeCard(box);
}

void TuneView::setStorePath(const QString& path) {
    m_storePath = path;
    m_client->setPath(path);
    m_shown.reset();
    m_shownStatus.reset();
    m_listSignature.clear();
    m_trials.clear();
    m_model->clear();
    m_summary->clear();
    m_verdict->clear();
    m_verdict->setVisible(false);
    m_editorOf.reset();
    m_chart->setTrials({});
    m_pickNewest = true;
    m_client->listSweeps();
    updateButtons();
}

void TuneView::setBaseConfig(const QString& json, const QString& name) {
    m_baseJson = json;
    m_baseName = name;
    m_baseSet = true;
    showBaseLabel();
}

void TuneView::showBaseLabel() {
    if (m_baseSet)
        m_baseLabel->setText(tr("Base: the Setup config (%1). Each axis below overrides one key.")
                                 .arg(m_baseName.isEmpty()
                                          ? tr("unsaved")
                                          : shownText(m_baseName.toStdString(), 60)));
}

std::optional<nlohmann::json> TuneView::sweepDocument(QString* error) const {
    auto fail = [error](const QString& why) -> std::optional<nlohmann::json> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    const auto base = nlohmann::ordered_json::parse(m_baseJson.toStdString(), nullptr, false);
    if (base.is_discarded() || !base.is_object())
        return fail(tr("the Setup config is not a JSON object: fix it in Setup first"));
    nlohmann::ordered_json axes = nlohmann::ordered_json::object();
    for (int row = 0; row < m_axes->rowCount(); ++row) {
        const auto cell = [&](int c) {
            const QTableWidgetItem* item = m_axes->item(row, c);
            return item ? item->text().trimmed() : QString();
        };
        const QString name = cell(0);
        const QString values = cell(1);
        if (name.isEmpty() && values.isEmpty())
            continue;
        if (name.isEmpty())
            return fail(tr("axes row %1: no axis name for the values %2").arg(row + 1).arg(values));
        const auto parsed =
            nlohmann::ordered_json::parse("[" + values.toStdString() + "]", nullptr, false);
        if (parsed.is_discarded() || parsed.empty())
            return fail(tr("axes row %1 (%2): the values must be JSON separated by commas "
                           "(strings in quotes), got '%3'")
                            .arg(row + 1)
                            .arg(name, shownText(values.toStdString(), 60)));
        if (axes.contains(name.toStdString()))
            return fail(tr("axes row %1: the axis %2 appears twice").arg(row + 1).arg(name));
        axes[name.toStdString()] = parsed;
    }
    nlohmann::ordered_json doc = {
        {"name", (m_baseName.isEmpty() ? QStringLiteral("sweep") : m_baseName).toStdString()},
        {"base", base},
        {"axes", axes},
        {"strategy", m_strategy->currentData().toString().toStdString()},
        {"warmup_steps", m_warmup->value()},
        {"measure_steps", m_measure->value()},
        {"trial_timeout_s", m_timeout->value()},
        {"hold_global_batch", m_holdBatch->isChecked()}};
    const QString capacity = m_capacityKind->currentData().toString();
    if (capacity == QLatin1String("bytes"))
        doc["capacity"] = std::llround(m_capacityGb->value() * 1e9);
    else
        doc["capacity"] = capacity.toStdString(); // "host" or a device preset's key
    // Plain json sorts keys: axis_order keeps the rows' order (the last varies fastest).
    nlohmann::ordered_json order = nlohmann::ordered_json::array();
    for (const auto& [name, values] : axes.items())
        order.push_back(name);
    doc["axis_order"] = order;
    return nlohmann::json::parse(doc.dump());
}

bool TuneView::preview(QString* error) {
    const auto doc = sweepDocument(error);
    if (!doc)
        return false;
    try {
        const SweepSpec spec = parseSweepJson(*doc, "Tune view");
        // The candidates zerolab-sweep would store, planned the same way (guided: the
        // bucket axes are tuned later, at the best point).
        std::vector<TrialRecord> trials = initialTrials(spec);
        for (std::size_t i = 0; i < trials.size(); ++i)
            trials[i].idx = int(i);
        int run = 0, pruned = 0, invalid = 0;
        for (const TrialRecord& t : trials)
            (t.status == TrialStatus::Pending  ? run
             : t.status == TrialStatus::Pruned ? pruned
                                               : invalid)++;
        m_shown.reset();
        m_editorOf.reset();
        m_verdict->setVisible(false);
        m_shownStatus.reset();
        m_pickNewest = false;
        QString summary =
            tr("Preview of %1 candidates: %2 fit and would run, %3 pruned by the planner "
               "(forecast above the capacity), %4 invalid. Nothing has run.")
                .arg(trials.size())
                .arg(run)
                .arg(pruned)
                .arg(invalid);
        if (spec.strategy == SweepStrategy::Guided)
            summary += tr(" Guided: at most %1 run; it stops raising the micro-batch where "
                          "throughput stops rising.")
                           .arg(run);
        showTrials(trials, summary);
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        m_summary->setText(shownText(e.what(), 500));
        return false;
    }
}

void TuneView::launch(const QStringList& args) {
    m_client->startProcess(m_program, args);
    updateButtons();
}

bool TuneView::startSweep(QString* error) {
    if (m_storePath.isEmpty()) {
        if (error)
            *error = tr("no run store is open");
        return false;
    }
    if (sweepRunning()) {
        if (error)
            *error = tr("a sweep is already running: trials share the machine, one at a time");
        return false;
    }
    const auto doc = sweepDocument(error);
    if (!doc)
        return false;
    try {
        parseSweepJson(*doc, "Tune view"); // every problem named before a file is written
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    const QDir dir(QFileInfo(m_storePath).absoluteDir().filePath(QStringLiteral("sweeps")));
    if (!QDir().mkpath(dir.path())) {
        if (error)
            *error = tr("cannot create %1").arg(dir.path());
        return false;
    }
    m_sweepFile = dir.filePath(
        QStringLiteral("tune-%1.json")
            .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"))));
    QFile f(m_sweepFile);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        f.write(QByteArray::fromStdString(doc->dump(2))) < 0) {
        if (error)
            *error = tr("cannot write %1: %2").arg(m_sweepFile, f.errorString());
        return false;
    }
    f.close();
    m_shown.reset();
    m_editorOf.reset();
    m_verdict->setVisible(false);
    m_shownStatus.reset();
    launch({QStringLiteral("run"), m_sweepFile, QStringLiteral("--db"), m_storePath});
    return true;
}

void TuneView::stopSweep() {
    m_client->stopProcess();
}

bool TuneView::resumeSweep(QString* error) {
    if (!m_shown || m_storePath.isEmpty()) {
        if (error)
            *error = tr("pick a stored sweep to resume");
        return false;
    }
    if (sweepRunning()) {
        if (error)
            *error = tr("a sweep is already running");
        return false;
    }
    launch(
        {QStringLiteral("resume"), QString::number(*m_shown), QStringLiteral("--db"), m_storePath});
    return true;
}

bool TuneView::sweepRunning() const {
    return m_client->processRunning();
}

void TuneView::sweepsListed(const QVector<SweepRecord>& sweeps) {
    std::optional<std::int64_t> select = m_shown;
    QString signature;
    m_statuses.clear();
    for (const SweepRecord& s : sweeps) {
        signature += QStringLiteral("%1:%2;").arg(s.id).arg(int(s.status));
        m_statuses[s.id] = s.status;
        if (!select && !m_sweepFile.isEmpty() && s.source == m_sweepFile.toStdString())
            select = s.id; // the sweep this view just started
    }
    if (!select && m_pickNewest && !sweeps.isEmpty())
        select = sweeps.front().id;
    m_pickNewest = false;
    // Rebuilt only when a sweep appeared or changed status, so an open picker stays open.
    if (signature != m_listSignature) {
        m_listSignature = signature;
        m_sweeps->clear();
        for (const SweepRecord& s : sweeps)
            m_sweeps->addItem(tr("#%1 %2 · %3")
                                  .arg(s.id)
                                  .arg(shownText(s.name, 40))
                                  .arg(statusLabel(sweepStatusName(s.status))),
                              qlonglong(s.id));
    }
    if (!select)
        return; // a preview stays until a sweep is picked or started
    const int i = m_sweeps->findData(qlonglong(*select));
    if (i >= 0)
        m_sweeps->setCurrentIndex(i);
    m_shown = select;
    // The shown sweep is read again while it runs, or when its status changed.
    const auto it = m_statuses.find(*m_shown);
    const bool running =
        sweepRunning() || (it != m_statuses.end() && it->second == SweepStatus::Running);
    if (running || it == m_statuses.end() || !m_shownStatus || *m_shownStatus != it->second)
        m_client->loadSweep(*m_shown);
}

bool TuneView::showSweep(std::int64_t sweep_id) {
    if (m_storePath.isEmpty())
        return false;
    m_shown = sweep_id;
    m_shownStatus.reset();
    const int i = m_sweeps->findData(qlonglong(sweep_id));
    if (i >= 0)
        m_sweeps->setCurrentIndex(i);
    m_client->loadSweep(sweep_id);
    return true;
}

void TuneView::sweepLoaded(const SweepRecord& sweep, const QVector<TrialRecord>& trials) {
    if (m_shown != sweep.id)
        return; // another sweep was picked meanwhile
    int ran = 0, pruned = 0, pending = 0, failed = 0;
    for (const TrialRecord& t : trials) {
        if (t.status == TrialStatus::Finished)
            ++ran;
        else if (t.status == TrialStatus::Pruned)
            ++pruned;
        else if (t.status == TrialStatus::Pending || t.status == TrialStatus::Running)
            ++pending;
        else if (trialRan(t.status))
            ++failed;
    }
    QString summary = tr("%1 · %2 candidates: %3 finished, %4 failed or timed out, %5 pruned "
                         "by the planner, %6 to run")
                          .arg(statusLabel(sweepStatusName(sweep.status)))
                          .arg(trials.size())
                          .arg(ran)
                          .arg(failed)
                          .arg(pruned)
                          .arg(pending);
    if (!sweep.message.empty())
        summary +=
            " · " + shownText(runtimeText(sweepReasonMessage(sweep.message)).toStdString(), 400);
    m_shownStatus = sweep.status;
    if (m_editorOf != sweep.id)
        showDefinition(sweep);
    const std::vector<TrialRecord> rows(trials.begin(), trials.end());
    showTrials(rows, summary);
    showVerdict(sweep, rows);
}

void TuneView::showDefinition(const SweepRecord& sweep) {
    const auto doc = nlohmann::json::parse(sweep.definition, nullptr, false);
    if (doc.is_discarded())
        return;
    try {
        const SweepSpec spec = parseSweepJson(doc, sweep.source);
        m_axes->setRowCount(0);
        for (const SweepAxis& a : spec.axes) {
            QStringList values;
            for (const nlohmann::json& v : a.values)
                values << QString::fromStdString(v.dump());
            const int row = m_axes->rowCount();
            m_axes->insertRow(row);
            m_axes->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(a.name)));
            m_axes->setItem(row, 1, new QTableWidgetItem(values.join(QStringLiteral(", "))));
        }
        m_strategy->setCurrentIndex(
            m_strategy->findData(QString::fromLatin1(strategyName(spec.strategy).data())));
        m_warmup->setValue(spec.warmup_steps);
        m_measure->setValue(spec.measure_steps);
        m_timeout->setValue(spec.trial_timeout_s);
        m_holdBatch->setChecked(spec.hold_global_batch);
        m_editorOf = sweep.id;
    } catch (const SweepError&) {
        // A definition this build cannot read: the editor keeps what it shows.
    }
}

void TuneView::showVerdict(const SweepRecord& sweep, const std::vector<TrialRecord>& trials) {
    const bool decided =
        sweep.status == SweepStatus::Finished || sweep.status == SweepStatus::Failed;
    m_verdict->setVisible(decided);
    if (!decided) {
        m_verdict->clear();
        return;
    }
    const SweepVerdict v = sweepVerdict(trials);
    if (!v.best) {
        m_verdict->setText(tr("<b>No trial finished</b>: no best config (the reasons are in the "
                              "table)."));
        return;
    }
    const TrialRecord& b = trials[std::size_t(*v.best)];
    const QString point =
        QString::fromStdString(describePoint(nlohmann::json::parse(b.axes_json, nullptr, false)));
    QString text = tr("<b>Best: trial %1</b> (%2): %3 tokens/s ± %4")
                       .arg(b.idx)
                       .arg(point.toHtmlEscaped())
                       .arg(std::lround(b.tokens_per_s))
                       .arg(std::lround(b.spread_tokens_per_s));
    if (v.winner_unknown) {
        const TrialMeasurements m = measurementsOf(b, trials);
        text += QStringLiteral("<br>") +
                tr("<span style='color:%1'><b>The winner is unknown</b></span>: its %2 runs "
                   "measured %3 to %4 tokens/s, further apart than their spread (± %5).")
                    .arg(kErrorColor.name())
                    .arg(m.medians.size())
                    .arg(std::lround(m.low()))
                    .arg(std::lround(m.high()))
                    .arg(std::lround(m.spread));
    } else if (v.runner_up) {
        text += QStringLiteral("<br>") +
                (v.within_noise
                     ? tr("Runner-up trial %1: margin %2 vs noise %3 tokens/s: within the noise, "
                          "not a clear win.")
                     : tr("Runner-up trial %1: margin %2 vs noise %3 tokens/s: a clear win."))
                    .arg(*v.runner_up)
                    .arg(std::lround(v.margin_tokens_per_s))
                    .arg(std::lround(v.noise_tokens_per_s));
    }
    const std::string dir = sweepWorkDir(m_storePath.toStdString(), sweep.id);
    const std::string path = bestConfigPath(dir, sweep.id);
    try {
        const SweepSpec spec =
            parseSweepJson(nlohmann::json::parse(sweep.definition), sweep.source);
        const QString train = QFileInfo(m_program).dir().filePath(QStringLiteral("zerolab-train"));
        text += QStringLiteral("<br>") +
                (QFileInfo::exists(QString::fromStdString(path))
                     ? tr("Best config: <code>%1</code>")
                     : tr("Best config (not written: the sweep was not finished by zerolab-sweep "
                          "run or resume): <code>%1</code>"))
                    .arg(QString::fromStdString(path).toHtmlEscaped()) +
                QStringLiteral("<br>") +
                tr("Run it with: <code>%1</code>")
                    .arg(QString::fromStdString(
                             bestConfigCommand(spec, train.toStdString(), b.world, path))
                             .toHtmlEscaped());
    } catch (const std::exception&) {
        // A definition this build cannot read: the verdict without the command.
    }
    m_verdict->setText(text);
}

void TuneView::refresh() {
    if (!m_storePath.isEmpty())
        m_client->listSweeps();
}

void TuneView::waitIdle() {
    m_client->waitIdle();
}

void TuneView::showTrials(const std::vector<TrialRecord>& trials, const QString& summary) {
    // Keep the user's selection and sort across refreshes.
    const TrialRecord* selected = selectedTrial();
    const int keepIdx = selected ? selected->idx : -1;
    m_trials = trials;
    m_summary->setText(summary);

    std::vector<std::string> axes;
    std::set<std::string> seen;
    for (const TrialRecord& t : trials) {
        const auto a = nlohmann::ordered_json::parse(t.axes_json, nullptr, false);
        if (a.is_object())
            for (const auto& [k, v] : a.items())
                if (seen.insert(k).second)
                    axes.push_back(k);
    }
    const bool preview = !m_shown;
    QStringList headers = {tr("#"), tr("Phase")};
    for (const std::string& a : axes)
        headers << QString::fromStdString(axisLabel(a));
    const bool threadsAxis = std::find(axes.begin(), axes.end(), kThreadsAxis) != axes.end();
    if (!threadsAxis)
        headers << tr("Threads / rank");
    headers << tr("Status") << tr("Forecast / rank") << tr("Forecast step")
            << tr("Forecast tokens/s") << tr("Tokens/s") << tr("± spread") << tr("Peak RSS / rank")
            << tr("Exposed comm (ms)") << tr("Run") << tr("Reason");
    m_model->clear();
    m_model->setHorizontalHeaderLabels(headers);
    for (int c = 0; c < int(axes.size()); ++c)
        m_model->horizontalHeaderItem(2 + c)->setToolTip(QString::fromStdString(axes[c]));

    m_forecastColumn = int(headers.indexOf(tr("Forecast step")));
    m_model->horizontalHeaderItem(m_forecastColumn)
        ->setToolTip(tr("The step-time model's step per rank for the trial's config on the "
                        "profile chosen below (docs/planner.md, Step time)"));
    m_forecastTokensColumn = int(headers.indexOf(tr("Forecast tokens/s")));
    m_model->horizontalHeaderItem(m_forecastTokensColumn)
        ->setToolTip(tr("The step-time model's tokens/s (global batch tokens / forecast step) "
                        "on the profile chosen below; trials that do not fit sort last"));
    const TimeSource source = m_timeSource->source();
    m_forecasts.clear();
    QVector<TrialPoint> points, forecastPoints;
    std::int64_t capacity = -1;
    bool oneCapacity = true;
    for (const TrialRecord& t : trials) {
        QList<QStandardItem*> row;
        auto* idx = numberItem(t.idx, QString::number(t.idx));
        idx->setData(t.idx, kIdxRole);
        row << idx << textItem(runtimeText(sweepPhaseMessage(t.phase)));
        const auto a = nlohmann::json::parse(t.axes_json, nullptr, false);
        for (const std::string& axis : axes) {
            if (a.is_object() && a.contains(axis)) {
                const nlohmann::json& v = a[axis];
                QStandardItem* item = v.is_number() ? numberItem(v.get<double>(), jsonScalarText(v))
                                                    : textItem(jsonScalarText(v));
                row << item;
            } else {
                row << textItem(QString());
            }
        }
        if (!threadsAxis)
            row << (trialThreads(t) > 0
                        ? numberItem(trialThreads(t), QString::number(trialThreads(t)))
                        : textItem(tr("auto")));
        auto* status = textItem(statusText(t.status, preview));
        if (t.status == TrialStatus::Failed || t.status == TrialStatus::Timeout ||
            t.status == TrialStatus::Oom || t.status == TrialStatus::Invalid)
            status->setForeground(kErrorColor);
        else if (t.status == TrialStatus::Finished)
            status->setForeground(kOkColor);
        else if (t.status == TrialStatus::Pruned || t.status == TrialStatus::Skipped)
            status->setForeground(kTextMuted);
        row << status;
        row << numberItem(double(t.forecast_bytes), formatBytes(double(t.forecast_bytes)));
        std::optional<StepTimeForecast> forecast;
        if (const auto config = storedConfig(t.config_json, t.world)) {
            try {
                forecast = forecastStep(*config, source);
            } catch (const PlanError&) {
                // A config the profile cannot forecast: no number, sorted last.
            }
        }
        {
            auto* item =
                new QStandardItem(forecast ? QString::fromStdString(formatSeconds(forecast->step_s))
                                           : QStringLiteral("—"));
            item->setData(forecast ? forecast->step_s : std::numeric_limits<double>::max(),
                          kSortRole);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setEditable(false);
            row << item;
        }
        {
            // Sorted by forecast tokens/s among the trials that fit; those that do not
            // (pruned by the memory forecast, out of memory, invalid) sort below every one
            // that fits in the descending order, and those without a forecast below them.
            const bool fits = t.status != TrialStatus::Pruned && t.status != TrialStatus::Oom &&
                              t.status != TrialStatus::Invalid;
            auto* item =
                new QStandardItem(forecast ? QString::number(std::lround(forecast->tokens_per_s))
                                           : QStringLiteral("—"));
            item->setData(!forecast ? -2.0 : fits ? forecast->tokens_per_s : -1.0, kSortRole);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setEditable(false);
            if (forecast && !fits)
                item->setForeground(kTextMuted);
            row << item;
        }
        if (forecast) {
            m_forecasts[t.idx] = *forecast;
            // Beside the measured points only when forecast for the machine they ran on.
            if (source.isMachine() && t.repeat_of < 0 && t.forecast_bytes > 0)
                forecastPoints.push_back(
                    {t.idx, trialStage(t), double(t.forecast_bytes), forecast->tokens_per_s,
                     QString::fromStdString(
                         describePoint(nlohmann::json::parse(t.axes_json, nullptr, false)))});
        }
        row << numberItem(t.tokens_per_s, QString::number(std::lround(t.tokens_per_s)));
        row << numberItem(t.spread_tokens_per_s,
                          QString::number(std::lround(t.spread_tokens_per_s)));
        row << numberItem(double(t.peak_bytes), formatBytes(double(t.peak_bytes)));
        row << numberItem(t.exposed_ms, QString::number(t.exposed_ms, 'f', 1));
        row << numberItem(double(t.run_id), QString::number(t.run_id));
        const std::string said = runtimeText(sweepReasonMessage(t.reason)).toStdString();
        auto* reason = textItem(shownText(said, 200));
        reason->setToolTip(shownText(said, 2000));
        row << reason;
        m_model->appendRow(row);

        if (t.capacity_bytes > 0) {
            oneCapacity = oneCapacity && (capacity < 0 || capacity == t.capacity_bytes);
            capacity = t.capacity_bytes;
        }
        // A repeat measures a point again for the noise: one dot per point.
        if (t.status == TrialStatus::Finished && t.repeat_of < 0 && t.peak_bytes > 0 &&
            t.tokens_per_s > 0)
            points.push_back({t.idx, trialStage(t), double(t.peak_bytes), t.tokens_per_s,
                              QString::fromStdString(describePoint(
                                  nlohmann::json::parse(t.axes_json, nullptr, false)))});
    }
    m_chart->setTrials(points);
    m_chart->setForecasts(forecastPoints);
    if (capacity > 0 && oneCapacity)
        m_chart->setCapacity(double(capacity),
                             tr("capacity %1 per rank").arg(formatBytes(double(capacity))));
    else
        m_chart->setCapacity(std::nullopt);
    m_table->resizeColumnsToContents();
    if (keepIdx >= 0)
        for (int r = 0; r < m_proxy->rowCount(); ++r)
            if (m_proxy->index(r, 0).data(kIdxRole).toInt() == keepIdx)
                m_table->selectRow(r);
    updateButtons();
}

const TrialRecord* TuneView::selectedTrial() const {
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return nullptr;
    const int idx = rows.front().siblingAtColumn(0).data(kIdxRole).toInt();
    for (const TrialRecord& t : m_trials)
        if (t.idx == idx)
            return &t;
    return nullptr;
}

void TuneView::updateButtons() {
    const bool running = sweepRunning();
    m_startButton->setEnabled(!running);
    m_stopButton->setEnabled(running);
    m_resumeButton->setEnabled(!running && m_shown.has_value());
    const TrialRecord* t = selectedTrial();
    m_openButton->setEnabled(t && t->run_id >= 0);
    m_useButton->setEnabled(t && !t->config_json.empty());
}

void TuneView::setMachineProfile(const std::optional<MachineProfile>& profile) {
    m_timeSource->setMachineProfile(profile); // shows the trials again when the choice changes
}

std::optional<StepTimeForecast> TuneView::forecastOf(int idx) const {
    const auto it = m_forecasts.find(idx);
    return it == m_forecasts.end() ? std::nullopt : std::optional<StepTimeForecast>(it->second);
}

void TuneView::orderByForecast() {
    if (m_forecastTokensColumn >= 0)
        m_table->sortByColumn(m_forecastTokensColumn, Qt::DescendingOrder);
}

QString TuneView::summaryText() const {
    return m_summary->text();
}

QString TuneView::verdictText() const {
    return m_verdict->text();
}

} // namespace zerolab
