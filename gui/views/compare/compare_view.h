// The Compare tab: two or more runs overlaid on any per-step metric with a table of
// their settings and memory, their resolved configs side by side (optionally only
// the keys that differ) and their rank-0 memory breakdowns next to each other; a run
// restarted with other settings takes one column (and one bar) per segment.
#pragma once

#include "gui/core/run_data.h"

#include <QMap>
#include <QStringList>
#include <QWidget>

#include <map>
#include <string>

class QCheckBox;
class QComboBox;
class QFrame;
class QLabel;
class QListWidget;
class QSlider;
class QSplitter;
class QStackedWidget;
class QTableWidget;
class QTimer;

namespace zerolab {

class CategoryLegend;
class MemoryBarChart;
class StoreClient;
class TimeSeriesPlot;

// One row of the config diff: a dotted key and its value in each run ("" when absent).
struct ConfigDiffRow {
    QString key;
    QStringList values;
    bool differs = false;
};
// Rows for the union of keys of the flattened configs, sorted by key.
QVector<ConfigDiffRow> configDiff(const QVector<std::map<std::string, std::string>>& configs,
                                  bool differencesOnly);

// UI thread only.
class CompareView : public QWidget {
    Q_OBJECT
public:
    CompareView(StoreClient* store, QWidget* parent = nullptr);

    // Loads and overlays these runs (in this order).
    void setRuns(const QList<qint64>& runIds);
    QList<qint64> runIds() const { return m_ids; }
    void setMetric(Metric m);
    void setDifferencesOnly(bool on);
    // The overlay's EMA smoothing, as on the Run view's loss chart (0: raw values).
    void setSmoothing(double alpha);
    double smoothing() const { return m_smoothing; }
    QTableWidget* diffTable() const { return m_diff; }
    // One row per run, or per segment of a run that has several.
    QTableWidget* runTable() const { return m_runTable; }
    TimeSeriesPlot* plot() const { return m_plot; }
    MemoryBarChart* memoryChart() const { return m_memory; }
    QListWidget* checklist() const { return m_runList; }

signals:
    void loaded();

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Every text of the view in the current language; the checklist, tables, plot (zoom
    // kept) and bars drawn again from the loaded runs.
    void retranslate();
    void onChunk(const RunChunk& chunk);
    void syncChecklist();
    void refresh();
    bool allLoaded() const;

    StoreClient* m_store;
    QList<qint64> m_ids;
    static constexpr int kOverlayMinHeight = 220;
    static constexpr int kLegendWidth = 155; // the memory legend's labels wrap beyond it
    double m_smoothing = 0.9;
    QLabel* m_smoothingLabel = nullptr;
    QSlider* m_smoothingSlider = nullptr;
    QLabel* m_smoothingValue = nullptr;
    static constexpr int kPartialRefreshMs = 150;
    QTimer* m_partialRefresh;
    QMap<qint64, RunChunk> m_chunks;
    QSet<qint64> m_requested;
    QStackedWidget* m_stack;
    QLabel* m_empty;
    QLabel* m_listTitle;
    QLabel* m_hint;
    QLabel* m_metricLabel;
    QLabel* m_xLabel;
    QLabel* m_overlayTitle;
    QLabel* m_configTitle;
    QLabel* m_memoryTitle;
    QListWidget* m_runList;
    QComboBox* m_metric;
    QComboBox* m_xAxis;
    QCheckBox* m_diffOnly;
    TimeSeriesPlot* m_plot;
    QTableWidget* m_runTable;
    QFrame* m_runCard = nullptr;   // the run table, the view's width
    QSplitter* m_bottom = nullptr; // the config diff beside the memory bars
    QTableWidget* m_diff;
    MemoryBarChart* m_memory;
    CategoryLegend* m_legend = nullptr; // the categories the bars draw
};

} // namespace zerolab
