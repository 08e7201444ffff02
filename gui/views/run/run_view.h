// The Run tab: one run from the store. Loss (with EMA smoothing), throughput,
// the step-time breakdown, per-rank collective times and bus bandwidth, per-rank
// memory by ledger category with the planner's prediction outlined, rss / peak.
// A finished run and a live one are the same view: on every store change it asks
// for the steps after its last one (StoreClient polls data_version).
#pragma once

#include "gui/core/ema_smooth.h"
#include "gui/core/events_model.h"
#include "gui/core/run_data.h"
#include "gui/core/step_forecast.h"

#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QPushButton;
class QSlider;
class QStackedWidget;
class QTableView;
class QTimer;

namespace zerolab {

class CommsSummaryDialog;
class GroupedBarChart;
class MemoryBarChart;
class StoreClient;
class TimeSeriesPlot;
class TimelinePanel;
struct StagePlan;

// UI thread only.
class RunView : public QWidget {
    Q_OBJECT
public:
    RunView(StoreClient* store, QWidget* parent = nullptr);

    // Loads the run asynchronously; loaded() fires when it is on screen.
    void openRun(qint64 runId);
    qint64 runId() const { return m_runId; }
    // The steps as read: every step, or for a run of more than kFullDetailSteps a level
    // of detail (isLevelOfDetail) followed by the steps logged since.
    const StepColumns& steps() const { return m_steps; }
    // What the series plots draw: steps() with the zoomed range refined from the store.
    const StepColumns& shownSteps() const { return m_shown; }
    bool isLevelOfDetail() const { return m_lod; }
    std::int64_t loggedSteps() const { return m_loggedSteps; }
    const EventsModel* events() const { return m_events; }
    const RunRecord& record() const { return m_record; }
    const std::vector<Segment>& segments() const { return m_segments; }
    // x axis: Metric::Step, WallTime or Tokens.
    void setXAxis(Metric m);
    // EMA weight of the previous value, 0 (raw) .. 0.999.
    void setSmoothing(double alpha);
    // Every logged step as CSV. A level-of-detail run is read and written on the store
    // thread: true means started, and statusMessage tells the outcome.
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    // Every plot as PNG and PDF into a folder; returns the files written.
    QStringList exportPlots(const QString& folder) const;
    // The comms logger's log_summary of the shown run, read on the store thread: the
    // dialog shows it when it comes (commsSummaryDialog(), nullptr before the first).
    void showCommsSummary();
    CommsSummaryDialog* commsSummaryDialog() const { return m_commsDialog; }
    // What the shown step's rank rows left out (empty: they are its world's), for tests.
    QString ranksProblem() const;
    // The header's facts under the title (rich text): stage, N, how far the run got of its
    // steps, why it ended.
    QString factsText() const;
    // The step-time breakdown card's hint: what the chart shows, and why it has no forecast
    // line when it has none.
    QString breakdownHint() const;

    TimeSeriesPlot* lossPlot() const { return m_loss; }
    TimeSeriesPlot* breakdownPlot() const { return m_breakdown; }
    // The breakdown's parts (forward, backward, exposed comm, optimizer): the median of
    // the newest forecast segment's steps beside the forecast's; hidden without a forecast.
    GroupedBarChart* partsChart() const { return m_parts; }
    // Traffic per rank per step within a host and across hosts, in MB.
    TimeSeriesPlot* linkTrafficPlot() const { return m_linkTraffic; }
    // The step-time model's forecast for each segment (m_segments' order) on this
    // machine's calibrated profile (StoreClient::machineProfile); nullopt for a segment
    // without a config it can forecast, all nullopt without a profile. The breakdown
    // chart draws each as a dashed line over its steps, in ms.
    const std::vector<std::optional<StepTimeForecast>>& stepForecasts() const {
        return m_stepForecasts;
    }
    TimelinePanel* timelinePanel() const { return m_timeline; }
    MemoryBarChart* memoryChart() const { return m_memory; }
    // Resident memory per rank (host RSS, or the GPU's bytes in use for a CUDA run).
    GroupedBarChart* residentChart() const { return m_rss; }

signals:
    void loaded(qint64 runId);
    // A zoomed range of a level-of-detail run came back refined and is drawn.
    void detailShown(qint64 runId, qint64 firstStep, qint64 lastStep);
    void statusMessage(const QString& text);

protected:
    void changeEvent(QEvent* event) override;

private:
    // The cards of the grid, in the order they are laid out.
    enum Card {
        LossCard = 0,
        ThroughputCard,
        BreakdownCard,
        CommCard,
        MemoryCard,
        BusbwCard,
        RssCard,
        TrafficCard,
        TimelineCard,
        EventsCard,
        LinkTrafficCard,
        kCardCount
    };
    // Every text of the view in the current language; the shown run's header, series
    // (zoom kept) and per-rank charts drawn again from what is loaded.
    void retranslate();
    // The view's parts, one function a card; connectStore and setUpZoomDetail wire them.
    QWidget* buildHeader();
    QGridLayout* buildCards();
    QWidget* buildLossCard();
    QWidget* buildBreakdownCard();
    QWidget* buildMemoryCard();
    QTableView* buildEventsTable();
    void connectStore();
    // Zoom and pan of a long run ask the store for the visible range's detail.
    void setUpZoomDetail();
    // A card around `body` with a title and a muted hint, named in retranslate().
    QWidget* card(Card which, QWidget* body);
    void onChunk(const RunChunk& chunk);
    void onRanks(qint64 runId, qint64 step, const QVector<RankRecord>& ranks,
                 const QString& problem);
    void showRanksProblem(const QString& problem);
    void replotSeries();
    void replotTraffic();
    // The traffic card by link class: within one host and across hosts (ZeRO++'s target).
    void replotLinkTraffic();
    void updateMarkers();
    // m_stepForecasts from the segments and the store's profile, the timeline's forecast
    // lanes, and the breakdown's dashed forecast line.
    void updateStepForecast();
    void drawForecastLine();
    // The breakdown's parts measured and forecast side by side (partsChart()).
    void drawForecastParts();
    // A plot's x range changed: refine that range of a level-of-detail run.
    void onXRange(double lower, double upper);
    void onDetail(qint64 runId, qint64 firstStep, qint64 lastStep, const StepColumns& steps);
    // replotSeries with every series plot's zoom kept as it was.
    void replotKeepingView();
    void replotRanks();
    void updateHeader();

    StoreClient* m_store;
    qint64 m_runId = -1;
    bool m_loading = false;
    RunRecord m_record;
    std::vector<Segment> m_segments;
    std::vector<std::optional<StepTimeForecast>> m_stepForecasts;
    StepColumns m_steps;
    bool m_lod = false;
    std::int64_t m_loggedSteps = 0;
    StepColumns m_detail; // steps m_detailFirst..m_detailLast, refined
    std::int64_t m_detailFirst = -1;
    std::int64_t m_detailLast = -1;
    StepColumns m_shown;
    bool m_replotting = false; // range changes while replotting are not the user's
    std::pair<double, double> m_zoom;
    QTimer* m_zoomTimer;
    std::int64_t m_lastEventId = 0;
    std::int64_t m_ranksStep = -1;
    std::vector<RankRecord> m_ranks;
    Metric m_xAxis = Metric::Step;
    double m_smoothing = 0.9;

    QStackedWidget* m_stack;
    QLabel* m_empty;
    QLabel* m_cardTitles[kCardCount] = {};
    QLabel* m_cardHints[kCardCount] = {};
    QPushButton* m_csvButton;
    QPushButton* m_plotsButton;
    QPushButton* m_commsButton;
    CommsSummaryDialog* m_commsDialog = nullptr;
    QLabel* m_xLabel;
    QLabel* m_rankLabel;
    QLabel* m_emaTitle;
    QLabel* m_title;
    QLabel* m_status;
    QLabel* m_facts;
    QComboBox* m_xCombo;
    QSlider* m_ema;
    QLabel* m_emaLabel;
    QSlider* m_rankStep;
    QLabel* m_rankStepLabel;
    QLabel* m_ranksProblem; // the shown step's rank rows against its world (rank_rows.h)
    TimeSeriesPlot* m_loss;
    TimeSeriesPlot* m_throughput;
    TimeSeriesPlot* m_breakdown;
    TimeSeriesPlot* m_traffic;
    TimeSeriesPlot* m_linkTraffic;
    TimelinePanel* m_timeline;

public:
    // The memory card's view options (tests and screenshots toggle them).
    QCheckBox* holdScaleBox() const { return m_holdScale; }
    QCheckBox* perParameterBox() const { return m_perParameter; }
    QCheckBox* statesOnlyBox() const { return m_statesOnly; }

private:
    QCheckBox* m_holdScale = nullptr;
    QCheckBox* m_perParameter = nullptr;
    QCheckBox* m_statesOnly = nullptr;
    std::optional<double> m_heldTop; // the held top of the memory axis, in bytes
    MemoryBarChart* m_memory;
    GroupedBarChart* m_comm;
    GroupedBarChart* m_parts;
    GroupedBarChart* m_busbw;
    GroupedBarChart* m_rss;
    EventsModel* m_events;
};

} // namespace zerolab
