// Run tab: header with the run's facts and controls, then cards of plots. Series
// plots are rebuilt from StepColumns (adaptive sampling keeps 100k points cheap; a
// longer run comes as a level of detail, refined where the user zooms); per-rank
// charts show the rank rows of one step (the latest unless chosen).
#include "gui/views/run/run_view.h"
#include "gui/views/run/comms_summary_dialog.h"

#include "gui/client/store_client.h"
#include "gui/core/config_validation.h"
#include "gui/core/csv_export.h"
#include "gui/core/display_text.h"
#include "gui/core/runs_model.h"
#include "gui/core/status_label.h"
#include "gui/core/step_detail.h"
#include "gui/core/units.h"
#include "gui/timeline/timeline_panel.h"
#include "gui/views/run/step_parts.h"
#include "gui/widgets/category_colors.h"
#include "gui/widgets/file_dialog.h"
#include "gui/widgets/grouped_bar_chart.h"
#include "gui/widgets/memory_bar_chart.h"
#include "gui/widgets/style.h"
#include "gui/widgets/time_series_plot.h"
#include "gui/widgets/titled_card.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <nlohmann/json.hpp>
#include <qcustomplot.h>

#include <cmath>
#include <limits>

namespace zerolab {

namespace {

// The "run" section of the run's resolved config; an empty object when there is none.
nlohmann::json runSection(const RunInfo& info) {
    const auto doc = nlohmann::json::parse(info.config_json, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("run") || !doc["run"].is_object())
        return nlohmann::json::object();
    return doc["run"];
}

// run.device of the run's resolved config ("cpu" or "cuda"), empty when unknown.
QString runDevice(const RunInfo& info) {
    const nlohmann::json run = runSection(info);
    if (!run.contains("device") || !run["device"].is_string())
        return {};
    return QString::fromStdString(run["device"].get<std::string>());
}

// run.steps of the run's resolved config: the step it runs to; nullopt when unknown.
std::optional<long long> runSteps(const RunInfo& info) {
    const nlohmann::json run = runSection(info);
    if (!run.contains("steps") || !run["steps"].is_number_integer())
        return std::nullopt;
    return run["steps"].get<long long>();
}

// The stored end message in the header: a line, not an essay.
constexpr int kShownEndChars = 160;

const QColor kLossRaw(0xB8, 0xC4, 0xD6);
const QColor kFwd(0x4C, 0x78, 0xA8);
const QColor kBwd(0x72, 0xB7, 0xB2);
const QColor kExposed(0xE4, 0x57, 0x56);
const QColor kOptim(0xEE, 0xCA, 0x3B);
const QColor kAllreduce(0x4C, 0x78, 0xA8);
const QColor kReduceScatter(0xF5, 0x85, 0x18);
const QColor kAllgather(0x54, 0xA2, 0x4B);
const QColor kBroadcast(0xB2, 0x79, 0xA2);

double commTotal(const CommTimes& c) {
    return c.allreduce_ms + c.reduce_scatter_ms + c.allgather_ms + c.broadcast_ms;
}

} // namespace

RunView::RunView(StoreClient* store, QWidget* parent)
    : QWidget(parent), m_store(store), m_stack(new QStackedWidget(this)),
      m_loss(new TimeSeriesPlot), m_throughput(new TimeSeriesPlot), m_breakdown(new TimeSeriesPlot),
      m_traffic(new TimeSeriesPlot), m_linkTraffic(new TimeSeriesPlot),
      m_memory(new MemoryBarChart), m_comm(new GroupedBarChart), m_parts(new GroupedBarChart),
      m_busbw(new GroupedBarChart), m_rss(new GroupedBarChart), m_events(new EventsModel(this)) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_stack);

    m_empty = new QLabel;
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_stack->addWidget(m_empty);

    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(10);
    layout->addWidget(buildHeader());
    layout->addLayout(buildCards(), 1);

    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(content);
    m_stack->addWidget(scroll);
    retranslate();
    setSmoothing(m_smoothing);
    connectStore();
    setUpZoomDetail();
}

// The cards in their grid: two columns, the wide ones spanning both.
QGridLayout* RunView::buildCards() {
    auto* grid = new QGridLayout;
    grid->setSpacing(10);
    m_traffic->setMinimumHeight(200);
    grid->addWidget(card(LossCard, buildLossCard()), 0, 0);
    grid->addWidget(card(ThroughputCard, m_throughput), 0, 1);
    grid->addWidget(card(BreakdownCard, buildBreakdownCard()), 1, 0);
    grid->addWidget(card(CommCard, m_comm), 1, 1);
    grid->addWidget(card(MemoryCard, buildMemoryCard()), 2, 0, 1, 2);
    grid->addWidget(card(BusbwCard, m_busbw), 3, 0);
    grid->addWidget(card(RssCard, m_rss), 3, 1);
    grid->addWidget(card(TrafficCard, m_traffic), 4, 0);
    m_linkTraffic->setMinimumHeight(200);
    grid->addWidget(card(LinkTrafficCard, m_linkTraffic), 4, 1);
    m_timeline = new TimelinePanel;
    grid->addWidget(card(TimelineCard, m_timeline), 5, 0, 1, 2);
    grid->addWidget(card(EventsCard, buildEventsTable()), 6, 0, 1, 2);
    for (int r = 0; r < 4; ++r)
        grid->setRowMinimumHeight(r, 270);
    grid->setRowMinimumHeight(4, 200);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    return grid;
}

// The stacked step-time breakdown, and under it its parts measured beside the forecast's.
QWidget* RunView::buildBreakdownCard() {
    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_breakdown, 1);
    m_parts->setValueUnit(QStringLiteral("ms"));
    m_parts->setMinimumHeight(170);
    m_parts->hide();
    layout->addWidget(m_parts);
    return body;
}

// The loss plot under its smoothing slider.
QWidget* RunView::buildLossCard() {
    auto* lossBody = new QWidget;
    auto* lossLayout = new QVBoxLayout(lossBody);
    lossLayout->setContentsMargins(0, 0, 0, 0);
    auto* emaRow = new QHBoxLayout;
    m_emaTitle = new QLabel;
    m_emaTitle->setObjectName(QStringLiteral("muted"));
    m_ema = new QSlider(Qt::Horizontal);
    m_ema->setRange(0, 999);
    m_ema->setValue(int(m_smoothing * 1000));
    m_emaLabel = new QLabel;
    m_emaLabel->setMinimumWidth(36);
    emaRow->addWidget(m_emaTitle);
    emaRow->addWidget(m_ema, 1);
    emaRow->addWidget(m_emaLabel);
    lossLayout->addLayout(emaRow);
    lossLayout->addWidget(m_loss, 1);
    connect(m_ema, &QSlider::valueChanged, this, [this](int v) { setSmoothing(v / 1000.0); });

    return lossBody;
}

// The per-rank memory bars, their view options and the category legend.
QWidget* RunView::buildMemoryCard() {
    auto* memBody = new QWidget;
    auto* memLayout = new QVBoxLayout(memBody);
    memLayout->setContentsMargins(0, 0, 0, 0);
    // Views that let two runs, or two stages, be compared by eye.
    auto* memOptions = new QHBoxLayout;
    m_holdScale = new QCheckBox;
    m_perParameter = new QCheckBox;
    m_statesOnly = new QCheckBox;
    for (QCheckBox* box : {m_holdScale, m_perParameter, m_statesOnly})
        memOptions->addWidget(box);
    for (QCheckBox* box : {m_perParameter, m_statesOnly})
        connect(box, &QCheckBox::toggled, this, [this] { replotRanks(); });
    connect(m_holdScale, &QCheckBox::toggled, this, [this](bool on) {
        m_heldTop = on ? std::optional<double>(m_memory->scaleTopBytes()) : std::nullopt;
        replotRanks();
    });
    memOptions->addStretch(1);
    memLayout->addLayout(memOptions);
    memLayout->addWidget(m_memory, 1);
    memLayout->addWidget(new CategoryLegend(memBody, 8));

    return memBody;
}

QTableView* RunView::buildEventsTable() {
    auto* events = new QTableView;
    events->setModel(m_events);
    events->setSelectionBehavior(QAbstractItemView::SelectRows);
    events->setAlternatingRowColors(true);
    events->setShowGrid(false);
    events->setWordWrap(false);
    events->verticalHeader()->setVisible(false);
    events->verticalHeader()->setDefaultSectionSize(22);
    events->horizontalHeader()->setStretchLastSection(true);
    events->setColumnWidth(EventsModel::Time, 150);
    events->setColumnWidth(EventsModel::Level, 60);
    events->setColumnWidth(EventsModel::Rank, 50);
    return events;
}

// The store's answers: chunks of the run, rank rows, zoomed detail, the CSV export,
// the sampled step's timeline, and a commit by another connection.
void RunView::connectStore() {
    connect(m_timeline, &TimelinePanel::stepRequested, this,
            [this](long long step) { m_store->loadTimeline(m_runId, step); });
    connect(m_store, &StoreClient::timelineLoaded, this,
            [this](qint64 runId, const StepTimeline& t) {
                if (runId == m_runId)
                    m_timeline->setTimeline(t);
            });
    connect(m_store, &StoreClient::timelineFailed, this,
            [this](qint64 runId, qint64 step, const QString& message) {
                if (runId == m_runId)
                    m_timeline->setFailed(step, message);
            });
    connect(m_store, &StoreClient::commsSummaryLoaded, this,
            [this](qint64 runId, qint64 sampledSteps, const QString& table, const QString& error) {
                if (runId != m_runId)
                    return;
                if (!m_commsDialog)
                    m_commsDialog = new CommsSummaryDialog(this);
                m_commsDialog->setSummary(QString::fromStdString(m_record.info.name), sampledSteps,
                                          table, error);
                m_commsDialog->show();
                m_commsDialog->raise();
            });
    connect(m_store, &StoreClient::runLoaded, this, &RunView::onChunk);
    connect(m_store, &StoreClient::profileChanged, this, [this] {
        updateStepForecast();
        drawForecastLine();
    });
    connect(m_store, &StoreClient::ranksLoaded, this, &RunView::onRanks);
    connect(m_store, &StoreClient::detailLoaded, this, &RunView::onDetail);
    connect(m_store, &StoreClient::csvExported, this,
            [this](qint64, const QString& path, const QString& error) {
                emit statusMessage(error.isEmpty() ? tr("Wrote %1").arg(path) : error);
            });
    // A run whose heartbeat falls silent changes nothing in the store: its status follows
    // each listing (StoreClient::silentRuns).
    connect(m_store, &StoreClient::runsListed, this, [this] {
        if (m_runId >= 0 && m_record.id == m_runId)
            updateHeader();
    });
    connect(m_store, &StoreClient::changed, this, [this] {
        if (m_runId >= 0 && !m_loading)
            m_store->loadNewer(m_runId, m_steps.isEmpty() ? -1 : qint64(m_steps.last(Metric::Step)),
                               m_lastEventId);
    });
}

void RunView::setUpZoomDetail() {
    // Zoom and pan of a long run ask the store for the visible range once the wheel or
    // the drag pauses, not at every intermediate range.
    m_zoomTimer = new QTimer(this);
    m_zoomTimer->setSingleShot(true);
    m_zoomTimer->setInterval(120);
    connect(m_zoomTimer, &QTimer::timeout, this, [this] {
        if (m_runId < 0 || !m_lod)
            return;
        const auto steps = visibleSteps(m_steps, m_xAxis, m_zoom.first, m_zoom.second);
        if (!steps) {
            if (m_detailFirst >= 0) {
                m_detail = {};
                m_detailFirst = m_detailLast = -1;
                replotKeepingView();
            }
            return;
        }
        if (steps->first == m_detailFirst && steps->second == m_detailLast)
            return;
        m_store->loadDetail(m_runId, steps->first, steps->second, kLodBuckets);
    });
    for (TimeSeriesPlot* p : {m_loss, m_throughput, m_breakdown, m_traffic, m_linkTraffic})
        connect(p->plot()->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
                [this](const QCPRange& r) { onXRange(r.lower, r.upper); });
}

void RunView::retranslate() {
    m_empty->setText(
        tr("<p style='font-size:14pt; font-weight:600; color:%1'>No run open</p>"
           "<p style='color:%2'>Pick a run in the <b>Runs</b> panel to see its loss, "
           "throughput, communication and per-rank memory.</p>"
           "<p style='color:%2'>No runs yet? Start one with <code>make run</code>, or<br>"
           "<code>mpirun -np 2 build/bin/zerolab-train --config FILE</code></p>")
            .arg(kTextStrong.name(), kTextMuted.name()));
    const std::pair<QString, QString> cards[kCardCount] = {
        {tr("Loss"), tr("Mean over the global batch")},
        {tr("Throughput"), tr("Global tokens / step time")},
        {tr("Step time breakdown"), tr("Stacked, per step")},
        {tr("Collective time per rank"), QString()},
        {tr("Memory per rank"), tr("Ledger categories; dashed outline: the planner's prediction")},
        {tr("Bus bandwidth per rank"), QString()},
        {tr("Memory in use per rank"), QString()},
        {tr("Traffic per rank per step"), tr("Sent under ring algorithms; dashed: forecast")},
        {tr("Step timeline"), tr("Inside one sampled step: each rank's compute and communication")},
        {tr("Events"), tr("Start, checkpoints, commands, data epochs, errors")},
        {tr("Traffic by link"),
         tr("Bytes per rank per step sent within its host and across hosts")}};
    for (int c = 0; c < kCardCount; ++c) {
        m_cardTitles[c]->setText(cards[c].first);
        m_cardHints[c]->setText(cards[c].second);
        m_cardHints[c]->setVisible(!cards[c].second.isEmpty());
    }
    updateStepForecast(); // the breakdown's hint names the forecast's profile
    m_csvButton->setText(tr("Export CSV…"));
    m_plotsButton->setText(tr("Export plots…"));
    m_commsButton->setText(tr("Comms summary…"));
    m_commsButton->setToolTip(tr("The comms logger's log_summary table of this run, from its "
                                 "stored step timelines"));
    m_plotsButton->setToolTip(tr("Every plot as PNG and PDF into a folder. Right-click a plot to "
                                 "export just that one."));
    m_xLabel->setText(tr("x axis"));
    const QString xNames[] = {tr("Step"), tr("Wall time"), tr("Tokens")};
    for (int i = 0; i < m_xCombo->count(); ++i)
        m_xCombo->setItemText(i, xNames[i]);
    m_rankLabel->setText(tr("Per-rank charts at"));
    m_rankStep->setToolTip(tr("Choose the logged step the per-rank charts show; the far right "
                              "follows the latest step."));
    m_rankStepLabel->setText(m_ranksStep >= 0 ? tr("step %1").arg(m_ranksStep) : QString());
    m_emaTitle->setText(tr("Smoothing"));
    m_ema->setToolTip(tr("Exponential moving average of the loss; 0 shows the raw curve only."));
    m_holdScale->setText(tr("Hold scale"));
    m_holdScale->setToolTip(tr("Keep the value axis at its current top while you open other "
                               "runs, so their bars compare by eye."));
    m_perParameter->setText(tr("Bytes per parameter"));
    m_perParameter->setToolTip(tr("Divide by ψ: a bf16 run at N = 2 reads 16, 10, 9 and 8 "
                                  "bytes per parameter at stages 0-3."));
    m_statesOnly->setText(tr("Model states only"));
    m_statesOnly->setToolTip(tr("Hide activations, comm buffers and workspace: what ZeRO "
                                "shards (params, master, grads, Adam m and v)."));
    for (TimeSeriesPlot* p : {m_loss, m_throughput, m_breakdown, m_traffic, m_linkTraffic})
        p->setEmptyText(tr("No steps logged yet"));
    m_comm->setEmptyText(tr("No rank rows yet"));
    m_events->retranslate();
    replotKeepingView();
    if (m_runId >= 0 && !m_loading) {
        updateHeader();
        replotRanks();
    }
}

void RunView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

QWidget* RunView::card(Card which, QWidget* body) {
    const TitledCard c = makeTitledCard(body);
    m_cardTitles[which] = c.title;
    m_cardHints[which] = c.hint;
    return c.frame;
}

QWidget* RunView::buildHeader() {
    auto* frame = new QFrame;
    frame->setProperty("card", true);
    auto* layout = new QVBoxLayout(frame);
    layout->setContentsMargins(14, 10, 14, 10);
    layout->setSpacing(6);
    auto* top = new QHBoxLayout;
    m_title = new QLabel;
    m_title->setTextFormat(Qt::PlainText); // a run's name is never markup
    m_title->setMinimumWidth(1);           // a long name is clipped, never widens the window
    m_title->setStyleSheet(QStringLiteral("font-size:14pt; font-weight:600;"));
    m_status = new QLabel;
    top->addWidget(m_title);
    top->addWidget(m_status);
    top->addStretch(1);
    m_csvButton = new QPushButton;
    m_plotsButton = new QPushButton;
    top->addWidget(m_csvButton);
    top->addWidget(m_plotsButton);
    m_commsButton = new QPushButton;
    top->addWidget(m_commsButton);
    connect(m_commsButton, &QPushButton::clicked, this, &RunView::showCommsSummary);
    layout->addLayout(top);
    m_facts = new QLabel;
    m_facts->setObjectName(QStringLiteral("muted"));
    m_facts->setTextFormat(Qt::RichText);
    layout->addWidget(m_facts);

    auto* controls = new QHBoxLayout;
    m_xLabel = new QLabel;
    m_xLabel->setObjectName(QStringLiteral("muted"));
    m_xCombo = new QComboBox; // items named in retranslate()
    for (Metric m : {Metric::Step, Metric::WallTime, Metric::Tokens})
        m_xCombo->addItem(QString(), int(m));
    controls->addWidget(m_xLabel);
    controls->addWidget(m_xCombo);
    controls->addSpacing(24);
    m_rankLabel = new QLabel;
    m_rankLabel->setObjectName(QStringLiteral("muted"));
    m_rankStep = new QSlider(Qt::Horizontal);
    m_rankStep->setMinimumWidth(120);
    m_rankStepLabel = new QLabel;
    m_ranksProblem = new QLabel;
    m_ranksProblem->setObjectName(QStringLiteral("verdictBad"));
    m_ranksProblem->setTextFormat(Qt::PlainText); // names the store and its values
    m_ranksProblem->setWordWrap(true);
    m_ranksProblem->hide();
    controls->addWidget(m_rankLabel);
    controls->addWidget(m_rankStep, 1);
    controls->addWidget(m_rankStepLabel);
    layout->addLayout(controls);
    layout->addWidget(m_ranksProblem);

    connect(m_xCombo, &QComboBox::currentIndexChanged, this,
            [this] { setXAxis(static_cast<Metric>(m_xCombo->currentData().toInt())); });
    connect(m_rankStep, &QSlider::valueChanged, this, [this](int i) {
        if (i >= 0 && i < m_steps.size())
            m_rankStepLabel->setText(tr("step %1").arg(qint64(m_steps[Metric::Step][i])));
    });
    connect(m_rankStep, &QSlider::sliderReleased, this, [this] {
        const int i = m_rankStep->value();
        if (m_runId >= 0 && i >= 0 && i < m_steps.size())
            m_store->loadRanks(m_runId, qint64(m_steps[Metric::Step][i]));
    });
    connect(m_csvButton, &QPushButton::clicked, this, [this] {
        const QString path =
            saveFileName(this, tr("Export metrics"), QStringLiteral("run-%1.csv").arg(m_runId),
                         tr("CSV (*.csv)"));
        QString error;
        if (path.isEmpty())
            return;
        if (!exportCsv(path, &error))
            emit statusMessage(error);
        else if (!m_lod)
            emit statusMessage(tr("Wrote %1").arg(path));
    });
    connect(m_plotsButton, &QPushButton::clicked, this, [this] {
        const QString dir = existingDirectory(this, tr("Export plots into"));
        if (!dir.isEmpty())
            emit statusMessage(tr("Wrote %1 files to %2").arg(exportPlots(dir).size()).arg(dir));
    });
    return frame;
}

void RunView::showCommsSummary() {
    if (m_runId >= 0)
        m_store->loadCommsSummary(m_runId);
}

void RunView::openRun(qint64 runId) {
    m_runId = runId;
    m_loading = true;
    m_steps = {};
    m_shown = {};
    m_lod = false;
    m_loggedSteps = 0;
    m_detail = {};
    m_detailFirst = m_detailLast = -1;
    m_ranks.clear();
    showRanksProblem({});
    m_ranksStep = -1;
    m_lastEventId = 0;
    m_events->clear();
    m_timeline->clear();
    m_store->loadRun(runId);
}

void RunView::onChunk(const RunChunk& chunk) {
    if (chunk.runId != m_runId)
        return;
    if (!chunk.incremental) {
        if (!m_loading)
            return; // a full load requested by another view
        m_loading = false;
        m_steps = chunk.steps;
        m_lod = chunk.lod;
        m_loggedSteps = chunk.loggedSteps;
    } else {
        if (m_loading)
            return;
        if (chunk.segments.size() != m_segments.size()) {
            // A resume rewinds the run to its checkpoint and starts a segment: reload it.
            openRun(m_runId);
            return;
        }
        if (chunk.steps.isEmpty()) {
            if (chunk.record.status != m_record.status) {
                m_record = chunk.record;
                updateHeader();
            }
            return;
        }
        if (!m_steps.isEmpty() && chunk.steps[Metric::Step].front() <= m_steps.last(Metric::Step))
            return; // a duplicate answer to an overlapping poll
        m_steps.append(chunk.steps);
        m_loggedSteps += chunk.steps.size();
    }
    m_record = chunk.record;
    const bool newSegments = chunk.segments.size() != m_segments.size() || !chunk.incremental;
    m_segments = chunk.segments;
    if (newSegments)
        updateStepForecast();
    if (!chunk.events.empty()) {
        m_events->append(chunk.events);
        m_lastEventId = chunk.events.back().id;
    }
    const bool following = m_ranksStep < 0 || m_rankStep->value() >= m_rankStep->maximum();
    if (chunk.ranksStep >= 0 && following) {
        m_ranksStep = chunk.ranksStep;
        m_ranks = chunk.ranks;
        showRanksProblem(QString::fromStdString(chunk.ranksProblem));
    }
    {
        const QSignalBlocker block(m_rankStep);
        m_rankStep->setRange(0, std::max(0, m_steps.size() - 1));
        if (following)
            m_rankStep->setValue(m_rankStep->maximum());
    }
    m_rankStepLabel->setText(m_ranksStep >= 0 ? tr("step %1").arg(m_ranksStep) : QString());
    m_timeline->setSteps(chunk.timelineSteps);
    m_stack->setCurrentIndex(1);
    updateHeader();
    replotSeries();
    replotRanks();
    if (!chunk.incremental)
        emit loaded(m_runId);
}

void RunView::onRanks(qint64 runId, qint64 step, const QVector<RankRecord>& ranks,
                      const QString& problem) {
    if (runId != m_runId)
        return;
    showRanksProblem(problem);
    m_ranksStep = step;
    m_ranks.assign(ranks.begin(), ranks.end());
    m_rankStepLabel->setText(tr("step %1").arg(step));
    replotRanks();
}

void RunView::showRanksProblem(const QString& problem) {
    m_ranksProblem->setText(problem.isEmpty() ? QString() : tr("Rank rows: %1").arg(problem));
    m_ranksProblem->setVisible(!problem.isEmpty());
}

QString RunView::factsText() const {
    return m_facts->text();
}

QString RunView::breakdownHint() const {
    return m_cardHints[BreakdownCard]->text();
}

QString RunView::ranksProblem() const {
    return m_ranksProblem->text();
}

void RunView::updateHeader() {
    const RunInfo& info = m_record.info;
    m_title->setText(
        QStringLiteral("#%1  %2").arg(m_record.id).arg(shownText(info.name, kShownNameChars)));
    const SilentRuns& silent = m_store->silentRuns();
    const QColor c = runStatusColor(shownRunStatus(m_record.id, m_record.status, silent));
    m_status->setText(shownRunStatusText(m_record.id, m_record.status, silent));
    m_status->setStyleSheet(QStringLiteral("color:%1; background:%2; border-radius:9px; "
                                           "padding:2px 10px; font-weight:600;")
                                .arg(kWhite.name(), c.name()));
    // The store's clock, or the logged wall time when that is longer (a run
    // imported or replayed into the store has a short store lifetime).
    const double stored =
        (std::isnan(m_record.ended_at) ? m_record.heartbeat_at : m_record.ended_at) -
        m_record.started_at;
    const double logged = m_steps.last(Metric::WallTime);
    const double duration = std::isnan(stored)   ? logged
                            : std::isnan(logged) ? stored
                                                 : std::max(stored, logged);
    QStringList facts;
    facts << tr("ZeRO stage <b>%1</b>").arg(info.stage) << tr("N = <b>%1</b>").arg(info.world)
          << QString::fromStdString(info.precision);
    const QString device = runDevice(info);
    if (!device.isEmpty())
        facts << (device == QLatin1String("cuda") ? tr("<b>GPU</b> (cuda)") : device);
    facts << tr("ψ = %1").arg(formatCount(double(info.params)));
    // How far it got: the last logged step of the step it runs to ("step 20 of 40").
    const std::optional<long long> planned = runSteps(info);
    if (planned && !m_steps.isEmpty())
        facts << tr("step <b>%1</b> of %2")
                     .arg(qint64(m_steps.last(Metric::Step)))
                     .arg(qint64(*planned));
    else
        facts << tr("%1 steps logged").arg(m_loggedSteps);
    if (!m_steps.isEmpty())
        facts << tr("last loss <b>%1</b>").arg(m_steps.last(Metric::Loss), 0, 'f', 4);
    if (!std::isnan(duration))
        facts << formatDuration(duration);
    if (!info.host.empty())
        facts << shownText(info.host, kShownNameChars).toHtmlEscaped();
    const Segment* last = m_segments.empty() ? nullptr : &m_segments.back();
    if (const auto predicted = predictedTotal(m_record.info, last))
        facts << tr("planner: %1 per rank").arg(formatBytes(*predicted));
    // Why it ended, as stored ("stopped by request (the Stop command) after step 20 of 40").
    QString ended;
    if (m_record.status != RunStatus::Running && !m_record.end_message.empty())
        ended = QStringLiteral("<br>") +
                shownText(m_record.end_message, kShownEndChars).toHtmlEscaped();
    m_facts->setText(facts.join(QStringLiteral("  ·  ")) + ended);
}

void RunView::setXAxis(Metric m) {
    m_xAxis = m;
    const int i = m_xCombo->findData(int(m));
    if (i >= 0 && m_xCombo->currentIndex() != i) {
        const QSignalBlocker block(m_xCombo);
        m_xCombo->setCurrentIndex(i);
    }
    replotSeries();
}

void RunView::setSmoothing(double alpha) {
    m_smoothing = std::clamp(alpha, 0.0, 0.999);
    m_emaLabel->setText(QString::number(m_smoothing, 'f', 2));
    replotSeries();
}

void RunView::replotSeries() {
    m_shown =
        m_detailFirst >= 0 ? mergeDetail(m_steps, m_detail, m_detailFirst, m_detailLast) : m_steps;
    const StepColumns& shown = m_shown;
    const QVector<double>& x = shown[m_xAxis];
    const QString xTitle = metricAxisTitle(m_xAxis);
    QVector<PlotSeries> loss;
    if (m_smoothing > 0) {
        loss.push_back({tr("loss (raw)"), kLossRaw, x, shown[Metric::Loss]});
        loss.push_back({tr("loss (EMA %1)").arg(m_smoothing, 0, 'f', 2), kAccent, x,
                        emaSmoothSteps(shown[Metric::Step], shown[Metric::Loss], m_smoothing)});
    } else {
        loss.push_back({tr("loss"), kAccent, x, shown[Metric::Loss]});
    }
    m_loss->setLines(loss);
    m_loss->setAxisLabels(xTitle, tr("Loss"));
    m_throughput->setLines({{tr("tokens/s"), kThroughputSeries, x, shown[Metric::TokensPerS]}});
    m_throughput->setAxisLabels(xTitle, tr("Throughput (tokens/s)"));
    m_breakdown->setStacked({{tr("forward"), kFwd, x, shown[Metric::FwdMs]},
                             {tr("backward"), kBwd, x, shown[Metric::BwdMs]},
                             {tr("exposed comm"), kExposed, x, shown[Metric::ExposedMs]},
                             {tr("optimizer"), kOptim, x, shown[Metric::OptimMs]}});
    m_breakdown->setAxisLabels(xTitle, tr("Step time (ms)"));
    drawForecastLine();
    replotTraffic();
    updateMarkers();
}

// Traffic in units of psi elements: every collective of a run moves elements of the
// run's dtype (2 bytes in bf16, 4 in fp32), so bytes / (psi x that) reads as the ZeRO
// paper's 2 psi and 3 psi, scaled by (N-1)/N.
void RunView::replotTraffic() {
    const QVector<double>& x = m_shown[m_xAxis];
    const QVector<double>& steps = m_shown[Metric::Step];
    const double perPsi =
        double(m_record.info.params) * (m_record.info.precision == "bf16" ? 2.0 : 4.0);
    QVector<double> measured, forecast;
    for (qsizetype i = 0; i < steps.size(); ++i) {
        measured << (perPsi > 0 ? m_shown[Metric::TrafficBytes][i] / perPsi : kUnknown);
        const Segment* seg = segmentAt(m_segments, std::int64_t(steps[i]));
        forecast << (seg && perPsi > 0 ? seg->predicted_traffic_bytes / perPsi : kUnknown);
    }
    m_traffic->setLines({{tr("measured"), kAccent, x, measured},
                         {tr("forecast"), kForecastSeries, x, forecast, true}});
    m_traffic->setAxisLabels(metricAxisTitle(m_xAxis), tr("Traffic per step (ψ elements)"));
    replotLinkTraffic();
}

void RunView::replotLinkTraffic() {
    const QVector<double>& x = m_shown[m_xAxis];
    QVector<double> within, across;
    for (qsizetype i = 0; i < x.size(); ++i) {
        within << m_shown[Metric::WithinTrafficBytes][i] / 1e6;
        across << m_shown[Metric::AcrossTrafficBytes][i] / 1e6;
    }
    m_linkTraffic->setLines({{tr("within a host"), kAccent, x, within},
                             {tr("across hosts"), kMeasuredSeries, x, across}});
    m_linkTraffic->setAxisLabels(metricAxisTitle(m_xAxis), tr("Traffic per rank per step (MB)"));
}

void RunView::updateStepForecast() {
    m_stepForecasts.assign(m_segments.size(), std::nullopt);
    const auto& profile = m_store->machineProfile();
    QString refused; // why the last segment the profile cannot forecast has no line
    if (profile) {
        TimeSource machine;
        machine.machine = profile;
        for (std::size_t i = 0; i < m_segments.size(); ++i) {
            const Segment& seg = m_segments[i];
            const auto config = storedConfig(
                seg.config_json.empty() ? m_record.info.config_json : seg.config_json, seg.world);
            if (!config)
                continue;
            try {
                m_stepForecasts[i] = forecastStep(*config, machine);
            } catch (const PlanError& e) {
                // A config the profile cannot forecast (a world it has no collective fit
                // for, a kernel it did not measure): no line, and the hint says why.
                refused = QString::fromStdString(e.what());
            }
        }
    }
    // The timeline's step belongs to one segment; the forecast of the last one is drawn
    // beside it (a resumed run's sampled steps are of its latest segment).
    const std::optional<StepTimeForecast>* last = nullptr;
    for (const auto& f : m_stepForecasts)
        if (f)
            last = &f;
    m_timeline->setForecast(last ? std::optional<StepTimeline>((*last)->timeline) : std::nullopt);
    QString hint = tr("Stacked, per step");
    if (last)
        hint += tr("; dashed: the step-time model on this machine's profile (calibrated %1)")
                    .arg(QString::fromStdString(profile->date.substr(0, 10)));
    else if (!profile)
        hint +=
            tr("; no forecast line: no calibrated profile in the store (zerolab-calibrate --db)");
    else if (!refused.isEmpty())
        hint += tr("; no forecast line: this machine's profile cannot forecast this run: %1")
                    .arg(shownText(refused.toStdString(), kShownMessageChars));
    m_cardHints[BreakdownCard]->setText(hint);
}

void RunView::drawForecastLine() {
    QVector<double> x, y;
    const QVector<double>& steps = m_shown[Metric::Step];
    const QVector<double>& shownX = m_shown[m_xAxis];
    for (std::size_t i = 0; i < m_segments.size() && i < m_stepForecasts.size(); ++i) {
        if (!m_stepForecasts[i])
            continue;
        const double from = double(m_segments[i].start_step);
        const double to = i + 1 < m_segments.size() ? double(m_segments[i + 1].start_step)
                                                    : std::numeric_limits<double>::infinity();
        const auto lo = std::lower_bound(steps.begin(), steps.end(), from);
        const auto hi = std::lower_bound(steps.begin(), steps.end(), to);
        if (lo == hi)
            continue;
        if (!x.isEmpty()) { // a gap between segments
            x << shownX[int(lo - steps.begin())];
            y << std::numeric_limits<double>::quiet_NaN();
        }
        const double ms = m_stepForecasts[i]->step_s * 1e3;
        x << shownX[int(lo - steps.begin())] << shownX[int(hi - steps.begin()) - 1];
        y << ms << ms;
    }
    QVector<PlotSeries> overlay;
    if (!x.isEmpty())
        overlay.push_back({tr("forecast step time"), kForecastSeries, x, y, true});
    m_breakdown->setOverlay(overlay);
    drawForecastParts();
}

void RunView::drawForecastParts() {
    // The newest segment with a forecast, and the steps it logged.
    std::size_t i = std::min(m_segments.size(), m_stepForecasts.size());
    while (i > 0 && !m_stepForecasts[i - 1])
        --i;
    const StepParts measured =
        i > 0 ? measuredParts(m_steps, double(m_segments[i - 1].start_step),
                              i < m_segments.size() ? double(m_segments[i].start_step)
                                                    : std::numeric_limits<double>::infinity())
              : StepParts{};
    m_parts->setVisible(measured.steps > 0);
    if (measured.steps == 0)
        return;
    const StepParts forecast = forecastParts(*m_stepForecasts[i - 1]);
    QVector<double> measuredMs, forecastMs;
    for (int p = 0; p < kStepPartCount; ++p) {
        measuredMs << measured.ms[std::size_t(p)];
        forecastMs << forecast.ms[std::size_t(p)];
    }
    m_parts->setData(
        {tr("forward"), tr("backward"), tr("exposed comm"), tr("optimizer")},
        {{tr("measured (median of %n step(s))", nullptr, measured.steps), kAccent, measuredMs},
         {tr("forecast"), kForecastSeries, forecastMs}},
        tr("Time per step (ms)"));
}

void RunView::updateMarkers() {
    QVector<PlotMarker> markers;
    const QVector<double>& steps = m_shown[Metric::Step];
    const QVector<double>& x = m_shown[m_xAxis];
    for (const Segment& seg : m_segments) {
        if (seg.index == 0)
            continue;
        const auto it = std::lower_bound(steps.begin(), steps.end(), double(seg.start_step));
        if (it == steps.end())
            continue;
        markers.push_back(
            {x[int(it - steps.begin())],
             tr("segment %1: ZeRO %2, N=%3").arg(seg.index).arg(seg.stage).arg(seg.world)});
    }
    for (TimeSeriesPlot* p : {m_loss, m_throughput, m_breakdown, m_traffic, m_linkTraffic})
        p->setMarkers(markers);
}

void RunView::onXRange(double lower, double upper) {
    if (m_replotting || !m_lod)
        return;
    m_zoom = {lower, upper};
    m_zoomTimer->start();
}

void RunView::onDetail(qint64 runId, qint64 firstStep, qint64 lastStep, const StepColumns& steps) {
    if (runId != m_runId || !m_lod)
        return;
    m_detail = steps;
    m_detailFirst = firstStep;
    m_detailLast = lastStep;
    replotKeepingView();
    emit detailShown(runId, firstStep, lastStep);
}

void RunView::replotKeepingView() {
    const TimeSeriesPlot* plots[] = {m_loss, m_throughput, m_breakdown, m_traffic, m_linkTraffic};
    std::vector<std::pair<QCPRange, QCPRange>> ranges;
    for (const TimeSeriesPlot* p : plots)
        ranges.emplace_back(p->plot()->xAxis->range(), p->plot()->yAxis->range());
    m_replotting = true;
    replotSeries();
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        QCustomPlot* plot = plots[i]->plot();
        plot->xAxis->setRange(ranges[i].first);
        plot->yAxis->setRange(ranges[i].second);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
    m_replotting = false;
}

void RunView::replotRanks() {
    QVector<MemoryBarGroup> groups;
    QStringList ranks;
    BarSeries ar{tr("all-reduce"), kAllreduce, {}}, rs{tr("reduce-scatter"), kReduceScatter, {}},
        ag{tr("all-gather"), kAllgather, {}}, bc{tr("broadcast"), kBroadcast, {}},
        ex{tr("exposed"), kExposed, {}}, bw{tr("busbw"), kAccent, {}},
        rss{tr("rss"), kRssSeries, {}}, peak{tr("peak"), kForecastSeries, {}};
    double stepComm = 0, stepBusbw = 0;
    // The outline is the prediction of the segment the shown step belongs to: a restart
    // with another stage, world or accumulation has its own.
    const std::optional<MemBreakdown> predictedMem = predictedMemory(
        m_record.info, segmentAt(m_segments, std::max<std::int64_t>(m_ranksStep, 0)));
    if (m_ranksStep >= 0) {
        const auto& stepsCol = m_steps[Metric::Step];
        const auto it = std::lower_bound(stepsCol.begin(), stepsCol.end(), double(m_ranksStep));
        if (it != stepsCol.end() && *it == double(m_ranksStep)) {
            const int i = int(it - stepsCol.begin());
            stepComm = m_steps[Metric::AllreduceMs][i] + m_steps[Metric::ReduceScatterMs][i] +
                       m_steps[Metric::AllgatherMs][i] + m_steps[Metric::BroadcastMs][i];
            stepBusbw = m_steps[Metric::BusbwGbps][i];
        }
    }
    double maxRss = 0;
    bool onGpu = false; // a GPU run: device_used and the step's device peak, not host RSS
    for (const RankRecord& r : m_ranks) {
        maxRss = std::max({maxRss, double(r.rss), double(r.peak), double(r.device_used)});
        onGpu = onGpu || r.device_used > 0;
    }
    // cudaMemGetInfo counts the whole GPU (every process on it, the CUDA context
    // included), not the rank's own bytes: ranks sharing a GPU each show its total.
    if (onGpu)
        rss.name = tr("device used (whole GPU)");
    m_rss->setToolTip(
        onGpu ? tr("device used: the bytes in use on the rank's whole GPU (cudaMemGetInfo: every "
                   "process on it, the CUDA context included), not the rank's own. Ranks that "
                   "share a GPU (the host-staged path; the run's \"rank 0 runs on\" event says "
                   "how many ranks are on its GPU) each show that GPU's total: do not add them "
                   "up. peak: the highest such reading in the step.")
              : QString());
    const DisplayUnit unit = byteUnitFor(maxRss);
    const bool statesOnly = m_statesOnly->isChecked();
    std::optional<double> outline;
    if (predictedMem)
        outline =
            double(statesOnly ? predictedMem->modelStatesOnly().total() : predictedMem->total());
    for (const RankRecord& r : m_ranks) {
        const QString label = tr("rank %1").arg(r.rank);
        groups.push_back({label, statesOnly ? r.mem.modelStatesOnly() : r.mem, outline});
        ranks << QString::number(r.rank);
        ar.values << r.comm.allreduce_ms;
        rs.values << r.comm.reduce_scatter_ms;
        ag.values << r.comm.allgather_ms;
        bc.values << r.comm.broadcast_ms;
        ex.values << r.comm.exposed_ms;
        // Same bytes as the step, this rank's own collective time (nccl-tests factors
        // are already in the step's busbw).
        const double own = commTotal(r.comm);
        bw.values << (own > 0 && stepComm > 0 && !std::isnan(stepBusbw) ? stepBusbw * stepComm / own
                                                                        : 0.0);
        rss.values << double(r.device_used > 0 ? r.device_used : r.rss) / unit.divisor;
        peak.values << double(r.peak) / unit.divisor;
    }
    m_memory->setScaleFloor(m_heldTop);
    m_memory->setPerParameter(m_perParameter->isChecked() ? double(m_record.info.params) : 0.0);
    m_memory->setGroups(groups);
    if (m_heldTop)
        m_heldTop = std::max(*m_heldTop, m_memory->scaleTopBytes());
    QVector<BarSeries> comm;
    for (const BarSeries* s : {&ar, &rs, &ag, &bc, &ex}) {
        bool any = false;
        for (double v : s->values)
            any = any || v > 0;
        if (any)
            comm << *s;
    }
    m_comm->setData(ranks, comm, tr("Time per step (ms) · rank"));
    m_busbw->setData(ranks, {bw}, tr("Bus bandwidth (GB/s) · rank"));
    m_rss->setData(
        ranks, {rss, peak},
        (onGpu ? tr("GPU memory (%1) · rank") : tr("Resident (%1) · rank")).arg(unit.name));
}

bool RunView::exportCsv(const QString& path, QString* error) const {
    if (m_lod) {
        m_store->exportCsv(m_runId, path);
        return true;
    }
    return writeMetricsCsv(path, m_steps, error);
}

QStringList RunView::exportPlots(const QString& folder) const {
    QStringList written;
    const QString base = QStringLiteral("run-%1-").arg(m_runId);
    const std::pair<const char*, QCustomPlot*> plots[] = {{"loss", m_loss->plot()},
                                                          {"throughput", m_throughput->plot()},
                                                          {"breakdown", m_breakdown->plot()},
                                                          {"memory", m_memory->plot()},
                                                          {"comm", m_comm->plot()},
                                                          {"busbw", m_busbw->plot()},
                                                          {"rss", m_rss->plot()}};
    const QDir dir(folder);
    for (auto [name, plot] : plots) {
        const QString png = dir.filePath(base + QLatin1String(name) + QStringLiteral(".png"));
        const QString pdf = dir.filePath(base + QLatin1String(name) + QStringLiteral(".pdf"));
        if (plot->savePng(png, 0, 0, 2.0))
            written << png;
        if (plot->savePdf(pdf))
            written << pdf;
    }
    return written;
}

} // namespace zerolab
