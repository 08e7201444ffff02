// Compare tab: a checklist of stored runs drives which runs are loaded; the
// overlay, run table, diff table and memory bars redraw once every chosen run has
// arrived. Columns, rows and bars follow the order of the runs being compared.
#include "gui/views/compare/compare_view.h"

#include "gui/client/store_client.h"
#include "gui/core/config_validation.h"
#include "gui/core/display_text.h"
#include "gui/core/ema_smooth.h"
#include "gui/core/json_path.h"
#include "gui/core/step_forecast.h"
#include "gui/core/units.h"
#include "gui/widgets/category_colors.h"
#include "gui/widgets/memory_bar_chart.h"
#include "gui/widgets/style.h"
#include "gui/widgets/time_series_plot.h"
#include "runtime/planner/planner.h"
#include "runtime/planner/planner_units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSlider>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

namespace zerolab {

namespace {

// A card headed by `title` (the view names it in retranslate()).
QWidget* titled(QLabel* title, QWidget* body, QWidget* extra = nullptr) {
    auto* frame = new QFrame;
    frame->setProperty("card", true);
    auto* layout = new QVBoxLayout(frame);
    layout->setContentsMargins(12, 10, 12, 10);
    auto* header = new QHBoxLayout;
    title->setObjectName(QStringLiteral("cardTitle"));
    header->addWidget(title);
    header->addStretch(1);
    if (extra)
        header->addWidget(extra);
    layout->addLayout(header);
    layout->addWidget(body, 1);
    return frame;
}

// "#3 zero1-n8": the legend's, the run table's and the config header's name of a run.
QString displayName(const RunChunk& c) {
    return QStringLiteral("#%1 %2").arg(c.runId).arg(
        shownText(c.record.info.name, kShownNameChars));
}

// What one column of the comparison shows: a run, or one segment of a run that was
// restarted with other settings.
struct RunPart {
    const RunChunk* run = nullptr;
    int runIndex = 0;                    // in the compared runs: picks the colour
    const Segment* segment = nullptr;    // null for a run without segments
    const SegmentRanks* ranks = nullptr; // the segment's last logged step, null if none

    bool segmented() const { return run->segments.size() > 1; }
    QString runName() const { return displayName(*run); }
    // "#3 seg 1" for a segment of a restarted run, else "#3".
    QString shortName() const {
        const QString id = QStringLiteral("#%1").arg(run->runId);
        return segmented() ? CompareView::tr("%1 seg %2").arg(id).arg(segment->index) : id;
    }
    int stage() const { return segment ? segment->stage : run->record.info.stage; }
    int world() const { return segment ? segment->world : run->record.info.world; }
    // The segment's resolved config; the run's where the store kept none per segment.
    const std::string& configJson() const {
        return segment && !segment->config_json.empty() ? segment->config_json
                                                        : run->record.info.config_json;
    }
};

QVector<RunPart> runParts(const QList<const RunChunk*>& runs) {
    QVector<RunPart> parts;
    for (int i = 0; i < runs.size(); ++i) {
        const RunChunk& c = *runs[i];
        if (c.segments.empty()) {
            parts.push_back({&c, i});
            continue;
        }
        for (const Segment& seg : c.segments) {
            RunPart part{&c, i, &seg};
            for (const SegmentRanks& sr : c.segmentRanks)
                if (sr.segment == seg.index)
                    part.ranks = &sr;
            parts.push_back(part);
        }
    }
    return parts;
}

// Params, master params, grads and optimizer m, v: what ZeRO shards.
QTableWidgetItem* cell(const QString& text, Qt::Alignment align = Qt::AlignRight) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(align | Qt::AlignVCenter);
    return item;
}

// Rows at their natural height, so the table takes no more room than it needs.
void fitHeight(QTableWidget* table) {
    int h = table->horizontalHeader()->sizeHint().height() + 2 * table->frameWidth();
    for (int r = 0; r < table->rowCount(); ++r)
        h += table->rowHeight(r);
    table->setFixedHeight(h);
}

// The median of a metric over the part's logged steps (its segment's, where it has one);
// NaN when none logged it (a run before traffic by link class, schema v11).
double partMedian(const RunPart& p, Metric m) {
    const QVector<double>& steps = p.run->steps[Metric::Step];
    const QVector<double>& values = p.run->steps[m];
    const double from = p.segment ? double(p.segment->start_step) : -1;
    const double to = p.ranks ? double(p.ranks->step) : std::numeric_limits<double>::infinity();
    std::vector<double> in;
    for (qsizetype i = 0; i < steps.size(); ++i)
        if (steps[i] >= from && steps[i] <= to && !std::isnan(values[i]))
            in.push_back(values[i]);
    if (in.empty())
        return kUnknown;
    std::nth_element(in.begin(), in.begin() + in.size() / 2, in.end());
    return in[in.size() / 2];
}

// The run table's columns, in order.
enum RunColumn {
    NameColumn,
    SegmentColumn,
    StageColumn,
    WorldColumn,
    AccumColumn,
    MicroColumn,
    TokensColumn,
    StepColumn,
    ExposedColumn,
    ForecastColumn,
    StatesColumn,
    PeakColumn,
    WithinColumn,
    AcrossColumn,
    kRunColumns
};

QString dash() {
    return QStringLiteral("—");
}

// "123 ms", "1.2 s": a time in ms as the planner writes seconds.
QString millis(double ms) {
    return std::isnan(ms) ? dash() : QString::fromStdString(formatSeconds(ms / 1e3));
}

// The step-time model's step for the part's config on this machine's profile; NaN (in
// `why`, the reason) where there is no profile or the model cannot forecast it.
double forecastMs(const RunPart& p, const std::optional<MachineProfile>& profile, QString* why) {
    if (!profile) {
        *why = CompareView::tr("no calibrated profile in the store (zerolab-calibrate --db)");
        return kUnknown;
    }
    const auto config = storedConfig(p.configJson(), p.world());
    if (!config) {
        *why = CompareView::tr("the run's stored config cannot be read");
        return kUnknown;
    }
    TimeSource machine;
    machine.machine = profile;
    try {
        return forecastStep(*config, machine).step_s * 1e3;
    } catch (const PlanError& e) {
        *why = QString::fromStdString(e.what());
        return kUnknown;
    }
}

void fillRunTable(QTableWidget* table, const QVector<RunPart>& parts,
                  const std::optional<MachineProfile>& profile) {
    table->setRowCount(int(parts.size()));
    for (int r = 0; r < parts.size(); ++r) {
        const RunPart& p = parts[r];
        auto* name = cell(p.runName(), Qt::AlignLeft);
        name->setData(Qt::DecorationRole, kRunColors[std::size_t(p.runIndex) % kRunColors.size()]);
        table->setItem(r, NameColumn, name);
        QString segment = dash();
        if (p.segmented())
            segment = p.ranks ? CompareView::tr("seg %1: %2–%3")
                                    .arg(p.segment->index)
                                    .arg(p.segment->start_step)
                                    .arg(p.ranks->step)
                              : CompareView::tr("seg %1: from %2")
                                    .arg(p.segment->index)
                                    .arg(p.segment->start_step);
        table->setItem(r, SegmentColumn, cell(segment, Qt::AlignLeft));
        table->setItem(r, StageColumn, cell(QString::number(p.stage())));
        table->setItem(r, WorldColumn, cell(QString::number(p.world())));
        table->setItem(r, AccumColumn,
                       cell(p.segment ? QString::number(p.segment->grad_accum) : dash()));
        table->setItem(r, MicroColumn,
                       cell(p.segment ? QString::number(p.segment->micro_batch) : dash()));
        const double tokens = partMedian(p, Metric::TokensPerS);
        table->setItem(r, TokensColumn, cell(std::isnan(tokens) ? dash() : formatCount(tokens)));
        table->setItem(r, StepColumn, cell(millis(partMedian(p, Metric::StepMs))));
        table->setItem(r, ExposedColumn, cell(millis(partMedian(p, Metric::ExposedMs))));
        QString why;
        auto* forecast = cell(millis(forecastMs(p, profile, &why)));
        forecast->setToolTip(why);
        table->setItem(r, ForecastColumn, forecast);
        long long states = 0;
        std::int64_t peak = 0;
        if (p.ranks)
            for (const RankRecord& rr : p.ranks->ranks) {
                states = std::max(states, rr.mem.modelStatesOnly().total());
                peak = std::max(peak, rr.peak);
            }
        table->setItem(r, StatesColumn, cell(states > 0 ? formatBytes(double(states)) : dash()));
        table->setItem(r, PeakColumn, cell(peak > 0 ? formatBytes(double(peak)) : dash()));
        for (const auto& [column, metric] : {std::pair{WithinColumn, Metric::WithinTrafficBytes},
                                             std::pair{AcrossColumn, Metric::AcrossTrafficBytes}}) {
            const double v = partMedian(p, metric);
            table->setItem(r, column, cell(std::isnan(v) ? dash() : formatBytes(v)));
        }
    }
    // A segment column only where a run was restarted: its width goes to the run's name.
    table->setColumnHidden(
        SegmentColumn,
        std::none_of(parts.begin(), parts.end(), [](const RunPart& p) { return p.segmented(); }));
    fitHeight(table);
}

QVector<MemoryBarGroup> memoryGroups(const QVector<RunPart>& parts) {
    QVector<MemoryBarGroup> groups;
    for (const RunPart& p : parts) {
        if (!p.ranks || p.ranks->ranks.empty())
            continue;
        groups.push_back(
            {CompareView::tr("%1\nZeRO %2\nN=%3").arg(p.shortName()).arg(p.stage()).arg(p.world()),
             p.ranks->ranks.front().mem, predictedTotal(p.run->record.info, p.segment)});
    }
    return groups;
}

// Every run's column in view (at 1280 px five runs showed two): the values share what the
// key's least width (120 px) leaves, each at most 110 px and at least 56 px (the run's
// "#id" header, a cut value ends in "…"); the key takes the rest and, where that is short,
// loses its start (the table's ElideLeft), never its leaf. Again on every resize. The table
// asks for the key's and every run's least width, so that its card is never narrower.
constexpr int kKeyMin = 120, kValueMin = 56, kValueMax = 110;

void fitDiffColumns(QTableWidget* table) {
    const int runs = table->columnCount() - 1;
    if (runs < 1)
        return;
    table->resizeColumnsToContents();
    const int room = table->viewport()->width();
    const int cap = std::clamp((room - kKeyMin) / runs, kValueMin, kValueMax);
    int values = 0;
    for (int c = 1; c < table->columnCount(); ++c) {
        table->setColumnWidth(c, std::min(table->columnWidth(c), cap));
        values += table->columnWidth(c);
    }
    table->setColumnWidth(0, std::min(table->columnWidth(0), std::max(kKeyMin, room - values)));
}

void fillDiff(QTableWidget* table, const QVector<RunPart>& parts, bool differencesOnly) {
    QVector<std::map<std::string, std::string>> configs;
    QStringList headers{CompareView::tr("Key")};
    QStringList fullNames;
    for (const RunPart& p : parts) {
        const auto doc = nlohmann::json::parse(p.configJson(), nullptr, false);
        auto flat = doc.is_discarded() ? std::map<std::string, std::string>{} : flattenJson(doc);
        flat["(run) precision"] = p.run->record.info.precision;
        flat["(segment) stage"] = std::to_string(p.stage());
        flat["(segment) world"] = std::to_string(p.world());
        configs.push_back(std::move(flat));
        // "#3" (its full name in the tooltip): every run's column fits the panel.
        headers << p.shortName();
        fullNames << (p.segmented()
                          ? CompareView::tr("%1\nseg %2").arg(p.runName()).arg(p.segment->index)
                          : p.runName());
    }
    const QVector<ConfigDiffRow> rows = configDiff(configs, differencesOnly);
    table->clear();
    table->setColumnCount(int(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    for (int c = 0; c < fullNames.size(); ++c)
        table->horizontalHeaderItem(c + 1)->setToolTip(fullNames[c]);
    table->setRowCount(int(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
        // The rows zerolab adds to the config's own keys carry a translated prefix.
        QString keyText = rows[r].key;
        if (keyText.startsWith(QLatin1String("(run) ")))
            keyText.replace(0, 5, CompareView::tr("(run)"));
        else if (keyText.startsWith(QLatin1String("(segment) ")))
            keyText.replace(0, 9, CompareView::tr("(segment)"));
        auto* key = new QTableWidgetItem(keyText);
        key->setToolTip(keyText); // the whole JSON path where the column cuts it
        if (rows[r].differs)
            key->setFont([&] {
                QFont f = table->font();
                f.setBold(true);
                return f;
            }());
        table->setItem(r, 0, key);
        for (int c = 0; c < rows[r].values.size(); ++c) {
            auto* item = new QTableWidgetItem(rows[r].values[c]);
            if (rows[r].differs)
                item->setBackground(kWarnBackground);
            table->setItem(r, c + 1, item);
        }
    }
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->horizontalHeader()->setStretchLastSection(false);
    table->setMinimumWidth(kKeyMin + int(parts.size()) * kValueMin + 2 * table->frameWidth() +
                           table->verticalScrollBar()->sizeHint().width());
    fitDiffColumns(table);
}

} // namespace

QVector<ConfigDiffRow> configDiff(const QVector<std::map<std::string, std::string>>& configs,
                                  bool differencesOnly) {
    std::set<std::string> keys;
    for (const auto& c : configs)
        for (const auto& [k, v] : c)
            keys.insert(k);
    QVector<ConfigDiffRow> rows;
    for (const std::string& key : keys) {
        ConfigDiffRow row{QString::fromStdString(key), {}, false};
        for (const auto& c : configs) {
            const auto it = c.find(key);
            row.values << (it == c.end() ? QString() : QString::fromStdString(it->second));
        }
        for (const QString& v : row.values)
            row.differs = row.differs || v != row.values.front();
        if (row.differs || !differencesOnly)
            rows << row;
    }
    return rows;
}

CompareView::CompareView(StoreClient* store, QWidget* parent)
    : QWidget(parent), m_store(store), m_stack(new QStackedWidget), m_empty(new QLabel),
      m_listTitle(new QLabel), m_hint(new QLabel), m_metricLabel(new QLabel), m_xLabel(new QLabel),
      m_overlayTitle(new QLabel), m_configTitle(new QLabel), m_memoryTitle(new QLabel),
      m_runList(new QListWidget), m_metric(new QComboBox), m_xAxis(new QComboBox),
      m_diffOnly(new QCheckBox), m_plot(new TimeSeriesPlot), m_runTable(new QTableWidget),
      m_diff(new QTableWidget), m_memory(new MemoryBarChart) {
    // The checklist sits beside the overlay only: the run table and the config diff below
    // take the view's whole width (beside the zh Runs panel, at 1280 px, the diff showed
    // 3.5 of 5 run columns and the run table cut its last column).
    auto* layout = new QVBoxLayout(this);
    // Thin margins and handles: at 1280x800 the overlay, the run table and the seven rows
    // of a five-run diff share about 700 px.
    layout->setContentsMargins(12, 8, 12, 8);
    auto* content = new QSplitter(Qt::Vertical);
    content->setHandleWidth(6);
    content->setChildrenCollapsible(false);
    auto* split = new QSplitter(Qt::Horizontal);
    split->setHandleWidth(10);
    split->setChildrenCollapsible(false);

    auto* listPane = new QWidget;
    auto* listLayout = new QVBoxLayout(listPane);
    listLayout->setContentsMargins(0, 0, 0, 0);
    m_listTitle->setObjectName(QStringLiteral("cardTitle"));
    listLayout->addWidget(m_listTitle);
    listLayout->addWidget(m_runList, 1);
    m_hint->setObjectName(QStringLiteral("muted"));
    m_hint->setWordWrap(true);
    listLayout->addWidget(m_hint);
    listPane->setMinimumWidth(170);
    listPane->setMaximumWidth(220);
    split->addWidget(listPane);

    m_empty->setAlignment(Qt::AlignCenter);
    m_stack->addWidget(m_empty);

    auto* controls = new QWidget;
    auto* controlRow = new QHBoxLayout(controls);
    controlRow->setContentsMargins(0, 0, 0, 0);
    // Items named in retranslate().
    for (int m = int(Metric::Loss); m < kMetricCount; ++m)
        m_metric->addItem(QString(), m);
    for (Metric m : {Metric::Step, Metric::WallTime, Metric::Tokens})
        m_xAxis->addItem(QString(), int(m));
    m_metricLabel->setObjectName(QStringLiteral("muted"));
    m_xLabel->setObjectName(QStringLiteral("muted"));
    controlRow->addWidget(m_metricLabel);
    controlRow->addWidget(m_metric);
    controlRow->addWidget(m_xLabel);
    controlRow->addWidget(m_xAxis);
    // Smoothing as on the Run view's loss chart: five noisy step times read as five lines.
    m_smoothingLabel = new QLabel;
    m_smoothingLabel->setObjectName(QStringLiteral("muted"));
    m_smoothingSlider = new QSlider(Qt::Horizontal);
    m_smoothingSlider->setRange(0, 999);
    m_smoothingSlider->setValue(int(m_smoothing * 1000));
    m_smoothingSlider->setFixedWidth(110);
    m_smoothingValue = new QLabel(QString::number(m_smoothing, 'f', 2));
    controlRow->addWidget(m_smoothingLabel);
    controlRow->addWidget(m_smoothingSlider);
    controlRow->addWidget(m_smoothingValue);
    auto* overlay = new QWidget;
    auto* overlayLayout = new QVBoxLayout(overlay);
    overlayLayout->setContentsMargins(0, 0, 0, 0);
    // Tall enough to tell five runs apart at 1280x800 (it was about 100 px).
    m_plot->setMinimumHeight(kOverlayMinHeight);
    overlayLayout->addWidget(m_plot, 1);
    m_runTable->setColumnCount(kRunColumns);
    m_runTable->verticalHeader()->setVisible(false);
    m_runTable->verticalHeader()->setDefaultSectionSize(20);
    m_runTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_runTable->setSelectionMode(QAbstractItemView::NoSelection);
    m_runTable->setShowGrid(false);
    m_runTable->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_runTable->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Numbers at their width; the run's name takes the rest and elides when short of room.
    m_runTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_runTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_stack->addWidget(titled(m_overlayTitle, overlay, controls));
    split->addWidget(m_stack);
    split->setStretchFactor(1, 1);
    content->addWidget(split);
    // The run table's swatches are the overlay's colours; its own card, the view's width.
    m_runCard = new QFrame;
    m_runCard->setProperty("card", true);
    auto* runLayout = new QVBoxLayout(m_runCard);
    runLayout->setContentsMargins(12, 4, 12, 4);
    runLayout->addWidget(m_runTable);
    content->addWidget(m_runCard);

    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->setHandleWidth(10);
    m_diff->verticalHeader()->setVisible(false);
    // A key cut short loses its start, never its leaf: zero_optimization's
    // reduce_bucket_size and allgather_bucket_size differ only there (the whole key is
    // its tooltip).
    m_diff->setTextElideMode(Qt::ElideLeft);
    m_diff->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_diff->setAlternatingRowColors(true);
    m_diff->setShowGrid(false);
    // fitDiffColumns fits every column to the width (a long key loses its start).
    m_diff->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_diff->verticalHeader()->setDefaultSectionSize(22);
    // Left-aligned and elided on the right, so a narrow column keeps the run's "#id".
    m_diff->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_diff->horizontalHeader()->setTextElideMode(Qt::ElideRight);
    m_diffOnly->setChecked(true);
    m_diff->viewport()->installEventFilter(this); // its columns refit to its width
    bottom->addWidget(titled(m_configTitle, m_diff, m_diffOnly));
    auto* memBody = new QWidget;
    auto* memLayout = new QHBoxLayout(memBody);
    memLayout->setContentsMargins(0, 0, 0, 0);
    memLayout->addWidget(m_memory, 1);
    // One column beside the bars, long labels wrapped ("CPU engine workspace (not in
    // DeepSpeed)", longer in zh): the chart keeps the card's height at 1280x800, and no
    // label holds the card wide.
    m_legend = new CategoryLegend(memBody, 1);
    m_legend->wrapLabels(kLegendWidth);
    memLayout->addWidget(m_legend, 0, Qt::AlignVCenter);
    bottom->addWidget(titled(m_memoryTitle, memBody));
    // The config diff at every run's column at its least width (fitDiffColumns), the memory
    // bars and their legend take the rest: side by side they need the room.
    bottom->setChildrenCollapsible(false);
    bottom->setStretchFactor(0, 0);
    bottom->setStretchFactor(1, 1);
    m_bottom = bottom;
    content->addWidget(bottom);
    content->setStretchFactor(0, 1);
    content->setStretchFactor(1, 0);
    content->setStretchFactor(2, 1);
    layout->addWidget(content);

    m_partialRefresh = new QTimer(this);
    m_partialRefresh->setSingleShot(true);
    m_partialRefresh->setInterval(kPartialRefreshMs);
    connect(m_partialRefresh, &QTimer::timeout, this, &CompareView::refresh);
    connect(store, &StoreClient::runsListed, this, &CompareView::syncChecklist);
    connect(store, &StoreClient::runLoaded, this, &CompareView::onChunk);
    connect(m_runList, &QListWidget::itemChanged, this, [this] {
        QList<qint64> ids;
        for (int i = 0; i < m_runList->count(); ++i)
            if (m_runList->item(i)->checkState() == Qt::Checked)
                ids << m_runList->item(i)->data(Qt::UserRole).toLongLong();
        if (ids != m_ids)
            setRuns(ids);
    });
    connect(m_metric, &QComboBox::currentIndexChanged, this, &CompareView::refresh);
    connect(m_xAxis, &QComboBox::currentIndexChanged, this, &CompareView::refresh);
    connect(m_diffOnly, &QCheckBox::toggled, this, &CompareView::refresh);
    connect(m_smoothingSlider, &QSlider::valueChanged, this,
            [this](int v) { setSmoothing(v / 1000.0); });
    connect(store, &StoreClient::profileChanged, this, &CompareView::refresh);
    retranslate();
}

bool CompareView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_diff->viewport() && event->type() == QEvent::Resize)
        fitDiffColumns(m_diff);
    return QWidget::eventFilter(watched, event);
}

void CompareView::setSmoothing(double alpha) {
    m_smoothing = std::clamp(alpha, 0.0, 0.999);
    m_smoothingValue->setText(QString::number(m_smoothing, 'f', 2));
    if (m_smoothingSlider->value() != int(std::lround(m_smoothing * 1000))) {
        const QSignalBlocker block(m_smoothingSlider);
        m_smoothingSlider->setValue(int(std::lround(m_smoothing * 1000)));
    }
    refresh();
}

void CompareView::retranslate() {
    m_listTitle->setText(tr("Runs to compare"));
    m_hint->setText(tr("Tick two or more runs, or select them in the Runs panel and "
                       "press Compare."));
    m_empty->setText(
        tr("<p style='font-size:14pt; font-weight:600; color:%1'>Nothing to compare yet</p>"
           "<p style='color:%2'>Tick at least two runs on the left.</p>")
            .arg(kTextStrong.name(), kTextMuted.name()));
    {
        // Renaming items keeps the chosen metric and x axis; nothing is redrawn twice.
        const QSignalBlocker b1(m_metric), b2(m_xAxis);
        for (int i = 0; i < m_metric->count(); ++i)
            m_metric->setItemText(i,
                                  metricLabel(static_cast<Metric>(m_metric->itemData(i).toInt())));
        const QString xNames[] = {tr("Step"), tr("Wall time"), tr("Tokens")};
        for (int i = 0; i < m_xAxis->count(); ++i)
            m_xAxis->setItemText(i, xNames[i]);
    }
    m_metricLabel->setText(tr("Metric"));
    m_xLabel->setText(tr("x axis"));
    m_runTable->setHorizontalHeaderLabels({tr("Run"), tr("Segment"), tr("Stage"), tr("N"),
                                           tr("Accum."), tr("Micro"), tr("Tokens/s"), tr("Step"),
                                           tr("Exposed"), tr("Forecast"), tr("States/rank"),
                                           tr("Peak/rank"), tr("Within"), tr("Across")});
    m_runTable->horizontalHeaderItem(MicroColumn)
        ->setToolTip(tr("Micro-batch: samples per rank per micro-step"));
    m_runTable->horizontalHeaderItem(TokensColumn)
        ->setToolTip(tr("Throughput: median tokens/s of the logged steps"));
    m_runTable->horizontalHeaderItem(StepColumn)
        ->setToolTip(tr("Median step time of the logged steps (rank 0)"));
    m_runTable->horizontalHeaderItem(ExposedColumn)
        ->setToolTip(tr("Exposed communication: median time a step's compute waited on "
                        "collectives (mean over ranks)"));
    m_runTable->horizontalHeaderItem(ForecastColumn)
        ->setToolTip(tr("The step-time model's step for this config on this machine's "
                        "calibrated profile; a cell's tooltip says why one is missing"));
    m_runTable->horizontalHeaderItem(StatesColumn)
        ->setToolTip(tr("Model states: params, master params, grads and optimizer m, v of the "
                        "largest rank at the segment's last logged step"));
    m_runTable->horizontalHeaderItem(PeakColumn)
        ->setToolTip(tr("Peak memory per rank: the largest rank's at the segment's last "
                        "logged step"));
    m_runTable->horizontalHeaderItem(WithinColumn)
        ->setToolTip(
            tr("Bytes a rank sent per step to ranks of its own host (median of the logged steps)"));
    m_runTable->horizontalHeaderItem(AcrossColumn)
        ->setToolTip(
            tr("Bytes a rank sent per step to ranks of other hosts (median of the logged steps)"));
    m_smoothingLabel->setText(tr("Smoothing"));
    m_smoothingSlider->setToolTip(
        tr("Exponential moving average of each run's line, as on the Run view's loss chart; 0 "
           "shows the raw values."));
    m_overlayTitle->setText(tr("Overlay"));
    m_configTitle->setText(tr("Config"));
    m_diffOnly->setText(tr("Differences only"));
    m_memoryTitle->setText(tr("Memory, rank 0 at the last step"));
    syncChecklist();
    const QCPRange x = m_plot->plot()->xAxis->range(), y = m_plot->plot()->yAxis->range();
    refresh();
    if (!m_ids.isEmpty()) {
        m_plot->plot()->xAxis->setRange(x);
        m_plot->plot()->yAxis->setRange(y);
        m_plot->plot()->replot(QCustomPlot::rpQueuedReplot);
    }
}

void CompareView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void CompareView::syncChecklist() {
    const QSignalBlocker block(m_runList);
    m_runList->clear();
    for (const RunSummary& r : m_store->runs()) {
        // Two lines, so the pane's width holds the name and its settings.
        auto* item = new QListWidgetItem(tr("#%1 %2\nstage %3, N=%4")
                                             .arg(r.id)
                                             .arg(shownText(r.name, kShownNameChars))
                                             .arg(r.stage)
                                             .arg(r.world),
                                         m_runList);
        item->setToolTip(item->text());
        item->setData(Qt::UserRole, qint64(r.id));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(m_ids.contains(r.id) ? Qt::Checked : Qt::Unchecked);
    }
}

void CompareView::setRuns(const QList<qint64>& runIds) {
    m_ids = runIds;
    syncChecklist();
    for (qint64 id : runIds) {
        if (!m_chunks.contains(id) && !m_requested.contains(id)) {
            m_requested.insert(id);
            m_store->loadRun(id);
        }
    }
    refresh();
}

void CompareView::setMetric(Metric m) {
    const int i = m_metric->findData(int(m));
    if (i >= 0)
        m_metric->setCurrentIndex(i);
}

void CompareView::setDifferencesOnly(bool on) {
    m_diffOnly->setChecked(on);
}

void CompareView::onChunk(const RunChunk& chunk) {
    if (chunk.incremental || !m_requested.contains(chunk.runId))
        return;
    m_requested.remove(chunk.runId);
    m_chunks.insert(chunk.runId, chunk);
    // A hundred runs arrive one chunk at a time: refresh once they are all in, and
    // meanwhile at most every kPartialRefreshMs (each refresh rebuilds the plot, the
    // tables and the config diff over every run so far).
    if (allLoaded()) {
        m_partialRefresh->stop();
        refresh();
        emit loaded();
    } else if (!m_partialRefresh->isActive()) {
        m_partialRefresh->start();
    }
}

bool CompareView::allLoaded() const {
    for (qint64 id : m_ids)
        if (!m_chunks.contains(id))
            return false;
    return true;
}

void CompareView::refresh() {
    QList<const RunChunk*> runs;
    for (qint64 id : m_ids)
        if (m_chunks.contains(id))
            runs << &m_chunks[id];
    const bool comparing = m_ids.size() >= 2;
    m_stack->setCurrentIndex(comparing ? 1 : 0);
    m_runCard->setVisible(comparing);
    m_bottom->setVisible(comparing);
    const auto metric = static_cast<Metric>(m_metric->currentData().toInt());
    const auto x = static_cast<Metric>(m_xAxis->currentData().toInt());
    QVector<PlotSeries> series;
    for (int i = 0; i < runs.size(); ++i) {
        const RunChunk& c = *runs[i];
        series.push_back(
            {displayName(c), kRunColors[std::size_t(i) % kRunColors.size()], c.steps[x],
             m_smoothing > 0 ? emaSmoothSteps(c.steps[Metric::Step], c.steps[metric], m_smoothing)
                             : c.steps[metric]});
    }
    m_plot->setLines(series);
    m_plot->setAxisLabels(
        metricAxisTitle(x),
        m_smoothing > 0 ? tr("%1, EMA %2").arg(metricAxisTitle(metric)).arg(m_smoothing, 0, 'f', 2)
                        : metricAxisTitle(metric));

    const QVector<RunPart> parts = runParts(runs);
    fillRunTable(m_runTable, parts, m_store->machineProfile());
    const QVector<MemoryBarGroup> groups = memoryGroups(parts);
    m_memory->setGroups(groups);
    // The legend names only what a bar draws: no "CPU engine workspace" row beside
    // DeepSpeed-like runs.
    QVector<MemCategory> drawn;
    for (std::size_t i = 0; i < kMemCategoryCount; ++i)
        if (std::any_of(groups.begin(), groups.end(),
                        [i](const MemoryBarGroup& g) { return g.bytes.bytes[i] != 0; }))
            drawn << static_cast<MemCategory>(i);
    m_legend->setCategories(drawn);
    fillDiff(m_diff, parts, m_diffOnly->isChecked());
}

} // namespace zerolab
