// Compare tab: a checklist of stored runs drives which runs are loaded; the
// overlay, diff table and memory bars redraw once every chosen run has arrived.
#include "gui/compare_view.h"

#include "gui/category_colors.h"
#include "gui/config_validation.h"
#include "gui/json_path.h"
#include "gui/memory_bar_chart.h"
#include "gui/store_client.h"
#include "gui/style.h"
#include "gui/time_series_plot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <set>

namespace zerolab {

namespace {
const QColor kRunColors[] = {QColor(0x2F, 0x6D, 0xB5), QColor(0xE4, 0x57, 0x56),
                             QColor(0x15, 0x80, 0x3D), QColor(0xF5, 0x85, 0x18),
                             QColor(0x7C, 0x3A, 0xED), QColor(0x0F, 0x76, 0x6E),
                             QColor(0x9D, 0x75, 0x5D), QColor(0xD9, 0x46, 0xEF)};

QWidget* titled(const QString& title, QWidget* body, QWidget* extra = nullptr) {
    auto* frame = new QFrame;
    frame->setProperty("card", true);
    auto* layout = new QVBoxLayout(frame);
    layout->setContentsMargins(12, 10, 12, 10);
    auto* header = new QHBoxLayout;
    auto* t = new QLabel(title);
    t->setObjectName(QStringLiteral("cardTitle"));
    header->addWidget(t);
    header->addStretch(1);
    if (extra)
        header->addWidget(extra);
    layout->addLayout(header);
    layout->addWidget(body, 1);
    return frame;
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
    : QWidget(parent), m_store(store), m_stack(new QStackedWidget), m_runList(new QListWidget),
      m_metric(new QComboBox), m_xAxis(new QComboBox),
      m_diffOnly(new QCheckBox(tr("Differences only"))), m_plot(new TimeSeriesPlot),
      m_diff(new QTableWidget), m_memory(new MemoryBarChart) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    auto* split = new QSplitter(Qt::Horizontal);
    split->setHandleWidth(10);
    split->setChildrenCollapsible(false);

    auto* listPane = new QWidget;
    auto* listLayout = new QVBoxLayout(listPane);
    listLayout->setContentsMargins(0, 0, 0, 0);
    auto* listTitle = new QLabel(tr("Runs to compare"));
    listTitle->setObjectName(QStringLiteral("cardTitle"));
    listLayout->addWidget(listTitle);
    listLayout->addWidget(m_runList, 1);
    auto* hint = new QLabel(tr("Tick two or more runs, or select them in the Runs panel and "
                               "press Compare."));
    hint->setObjectName(QStringLiteral("muted"));
    hint->setWordWrap(true);
    listLayout->addWidget(hint);
    listPane->setMinimumWidth(170);
    listPane->setMaximumWidth(220);
    split->addWidget(listPane);

    auto* empty = new QLabel(
        tr("<p style='font-size:14pt; font-weight:600; color:#374151'>Nothing to compare yet</p>"
           "<p style='color:#6B7280'>Tick at least two runs on the left.</p>"));
    empty->setAlignment(Qt::AlignCenter);
    m_stack->addWidget(empty);

    auto* content = new QSplitter(Qt::Vertical);
    content->setHandleWidth(10);
    auto* controls = new QWidget;
    auto* controlRow = new QHBoxLayout(controls);
    controlRow->setContentsMargins(0, 0, 0, 0);
    for (int m = int(Metric::Loss); m < kMetricCount; ++m)
        m_metric->addItem(QString::fromUtf8(metricInfo(static_cast<Metric>(m)).label), m);
    m_xAxis->addItem(tr("Step"), int(Metric::Step));
    m_xAxis->addItem(tr("Wall time"), int(Metric::WallTime));
    m_xAxis->addItem(tr("Tokens"), int(Metric::Tokens));
    auto* metricLabel = new QLabel(tr("Metric"));
    metricLabel->setObjectName(QStringLiteral("muted"));
    auto* xLabel = new QLabel(tr("x axis"));
    xLabel->setObjectName(QStringLiteral("muted"));
    controlRow->addWidget(metricLabel);
    controlRow->addWidget(m_metric);
    controlRow->addWidget(xLabel);
    controlRow->addWidget(m_xAxis);
    content->addWidget(titled(tr("Overlay"), m_plot, controls));

    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->setHandleWidth(10);
    m_diff->verticalHeader()->setVisible(false);
    m_diff->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_diff->setAlternatingRowColors(true);
    m_diff->setShowGrid(false);
    m_diff->verticalHeader()->setDefaultSectionSize(22);
    m_diffOnly->setChecked(true);
    bottom->addWidget(titled(tr("Config"), m_diff, m_diffOnly));
    auto* memBody = new QWidget;
    auto* memLayout = new QVBoxLayout(memBody);
    memLayout->setContentsMargins(0, 0, 0, 0);
    memLayout->addWidget(m_memory, 1);
    memLayout->addWidget(new CategoryLegend(memBody, 2));
    bottom->addWidget(titled(tr("Memory, rank 0 at the last step"), memBody));
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    bottom->setSizes({600, 360});
    content->addWidget(bottom);
    content->setStretchFactor(0, 1);
    content->setStretchFactor(1, 1);
    m_stack->addWidget(content);
    split->addWidget(m_stack);
    split->setStretchFactor(1, 1);
    layout->addWidget(split);

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
}

void CompareView::syncChecklist() {
    const QSignalBlocker block(m_runList);
    m_runList->clear();
    for (const RunSummary& r : m_store->runs()) {
        auto* item = new QListWidgetItem(QStringLiteral("#%1 %2  (stage %3, N=%4)")
                                             .arg(r.id)
                                             .arg(QString::fromStdString(r.name))
                                             .arg(r.stage)
                                             .arg(r.world),
                                         m_runList);
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
    refresh();
    if (allLoaded())
        emit loaded();
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
    m_stack->setCurrentIndex(m_ids.size() >= 2 ? 1 : 0);
    const auto metric = static_cast<Metric>(m_metric->currentData().toInt());
    const auto x = static_cast<Metric>(m_xAxis->currentData().toInt());
    QVector<PlotSeries> series;
    QVector<MemoryBarGroup> groups;
    QVector<std::map<std::string, std::string>> configs;
    QStringList headers{tr("Key")};
    for (int i = 0; i < runs.size(); ++i) {
        const RunChunk& c = *runs[i];
        const QString name =
            QStringLiteral("#%1 %2").arg(c.runId).arg(QString::fromStdString(c.record.info.name));
        series.push_back({name, kRunColors[i % 8], c.steps[x], c.steps[metric]});
        MemBreakdown mem;
        if (!c.ranks.empty())
            mem = c.ranks.front().mem;
        groups.push_back(
            {QStringLiteral("#%1").arg(c.runId), mem,
             predictedTotal(c.record.info, c.segments.empty() ? nullptr : &c.segments.back())});
        const auto doc = nlohmann::json::parse(c.record.info.config_json, nullptr, false);
        auto flat = doc.is_discarded() ? std::map<std::string, std::string>{} : flattenJson(doc);
        flat["(run) world"] = std::to_string(c.record.info.world);
        flat["(run) stage"] = std::to_string(c.record.info.stage);
        flat["(run) precision"] = c.record.info.precision;
        configs.push_back(std::move(flat));
        headers << name;
    }
    m_plot->setLines(series);
    m_plot->setAxisLabels(metricAxisTitle(x), metricAxisTitle(metric));
    m_memory->setGroups(groups);

    const QVector<ConfigDiffRow> rows = configDiff(configs, m_diffOnly->isChecked());
    m_diff->clear();
    m_diff->setColumnCount(int(headers.size()));
    m_diff->setHorizontalHeaderLabels(headers);
    m_diff->setRowCount(int(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
        auto* key = new QTableWidgetItem(rows[r].key);
        if (rows[r].differs)
            key->setFont([&] {
                QFont f = m_diff->font();
                f.setBold(true);
                return f;
            }());
        m_diff->setItem(r, 0, key);
        for (int c = 0; c < rows[r].values.size(); ++c) {
            auto* item = new QTableWidgetItem(rows[r].values[c]);
            if (rows[r].differs)
                item->setBackground(QColor(0xFE, 0xF3, 0xC7));
            m_diff->setItem(r, c + 1, item);
        }
    }
    m_diff->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_diff->resizeColumnsToContents();
    for (int c = 0; c < m_diff->columnCount(); ++c)
        m_diff->setColumnWidth(c, std::min(m_diff->columnWidth(c), c == 0 ? 190 : 110));
    m_diff->horizontalHeader()->setStretchLastSection(true);
}

} // namespace zerolab
