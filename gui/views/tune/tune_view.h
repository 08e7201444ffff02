// The Tune view (issue 15, docs/tune.md): define a sweep over the Setup config (axes,
// strategy, capacity, measurement), see the planned grid with the planner's forecast
// and what it prunes before anything runs, start, stop and resume it (zerolab-sweep in
// a child process), and watch its trials fill in: a Pareto chart of tokens/s against
// peak memory per rank and a sortable table of every axis and metric. A trial opens in
// the Run view or loads its config into Setup.
//
// Everything about a sweep goes through runtime/tune (parseSweepJson, initialTrials,
// describePoint) and storage/sweep_store.h: the view plans and reads, it
// never decides what fits or how a trial is measured. The store's reads and the
// zerolab-sweep process go through SweepClient (gui/client/sweep_client.h), off the UI
// thread.
#pragma once

#include "gui/client/sweep_client.h"
#include "gui/core/step_forecast.h"
#include "storage/sweep_store.h"

#include <QString>
#include <QWidget>

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QStandardItemModel;
class QTableView;
class QTableWidget;

namespace zerolab {

class ParetoChart;
class TimeSourceCombo;

// UI thread only.
class TuneView : public QWidget {
    Q_OBJECT
public:
    explicit TuneView(QWidget* parent = nullptr);

    void setStorePath(const QString& path);
    // The base of a new sweep: the Setup editor's config text and its name.
    void setBaseConfig(const QString& json, const QString& name);
    // zerolab-sweep to launch (default: beside this executable).
    void setSweepProgram(const QString& path) { m_program = path; }

    // The sweep the editor describes, as the sweep file's JSON. nullopt with the
    // problem in *error (a row of the axes table, a value that is not JSON).
    std::optional<nlohmann::json> sweepDocument(QString* error) const;
    // Plans the editor's sweep (no run): the table lists every candidate with the
    // planner's forecast, pruned and invalid ones with the reason.
    bool preview(QString* error);
    // Writes the sweep file next to the store and starts `zerolab-sweep run` on it.
    bool startSweep(QString* error);
    // Asks the running zerolab-sweep to stop (SIGTERM): the trial in flight is ended
    // and runs again on resume.
    void stopSweep();
    bool resumeSweep(QString* error);
    bool sweepRunning() const;

    // Asks for a stored sweep's trials; they show when the client answers (false when
    // no store is open).
    bool showSweep(std::int64_t sweep_id);
    // Asks the client for the store's sweeps again (it does so every second while the
    // view is shown).
    void refresh();
    // Runs the event loop until the client has answered every request (tests).
    void waitIdle();
    // A read of the store is in flight.
    bool isBusy() const { return m_client->pending() > 0; }

    QStandardItemModel* trialsModel() const { return m_model; }
    QTableView* table() const { return m_table; }
    ParetoChart* chart() const { return m_chart; }
    QTableWidget* axesTable() const { return m_axes; }
    QString summaryText() const;
    QString verdictText() const;

    // This machine's calibrated profile for the forecast step time (nullopt: presets only).
    void setMachineProfile(const std::optional<MachineProfile>& profile);
    TimeSourceCombo* timeSource() const { return m_timeSource; }
    // The step-time model's forecast of a shown trial (by idx) on the chosen profile;
    // nullopt where its config cannot be forecast.
    std::optional<StepTimeForecast> forecastOf(int idx) const;
    // The table's "Forecast step" and "Forecast tokens/s" columns, and ordering by the
    // forecast tokens/s (fastest first; trials that do not fit after those that do, the
    // trials without a forecast last).
    int forecastColumn() const { return m_forecastColumn; }
    int forecastTokensColumn() const { return m_forecastTokensColumn; }
    void orderByForecast();

signals:
    void openRunRequested(qint64 runId);
    void useConfigRequested(const QString& json);
    void statusMessage(const QString& text);

protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    // Every text of the view in the current language; the sweep picker and the shown
    // sweep read again (or the preview planned again). The axes being edited, the
    // selection and the sort are kept.
    void retranslate();
    void showBaseLabel();
    QWidget* buildEditor();
    QWidget* buildResults();
    // The client's answers.
    void sweepsListed(const QVector<SweepRecord>& sweeps);
    void sweepLoaded(const SweepRecord& sweep, const QVector<TrialRecord>& trials);
    void showTrials(const std::vector<TrialRecord>& trials, const QString& summary);
    // The editor set to a stored sweep's definition (axes, strategy, measurement).
    void showDefinition(const SweepRecord& sweep);
    // A decided sweep's verdict, best config and the command that runs it (empty while
    // it runs or for a preview).
    void showVerdict(const SweepRecord& sweep, const std::vector<TrialRecord>& trials);
    void updateButtons();
    const TrialRecord* selectedTrial() const;
    void launch(const QStringList& args);

    QString m_storePath;
    SweepClient* m_client;
    bool m_pickNewest = false; // show the newest sweep once the list arrives
    QString m_baseJson;
    QString m_baseName;
    bool m_baseSet = false; // setBaseConfig was called
    QString m_program;
    QString m_sweepFile; // the file of the sweep this view started, to find its id

    QLabel* m_editorTitle;
    QLabel* m_sweepLabel;
    QPushButton* m_addAxis;
    QPushButton* m_removeAxis;
    QWidget* m_capacityRow;
    QTableWidget* m_axes;
    QComboBox* m_strategy;
    QComboBox* m_capacityKind;
    QDoubleSpinBox* m_capacityGb;
    QSpinBox* m_warmup;
    QSpinBox* m_measure;
    QDoubleSpinBox* m_timeout;
    QCheckBox* m_holdBatch;
    QLabel* m_baseLabel;
    QPushButton* m_previewButton;
    QPushButton* m_startButton;
    QPushButton* m_stopButton;
    QPushButton* m_resumeButton;

    QComboBox* m_sweeps;
    QLabel* m_summary;
    QLabel* m_verdict; // best, noise, winner; the best config and its command
    ParetoChart* m_chart;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QPushButton* m_openButton;
    QPushButton* m_useButton;
    QLabel* m_timeLabel;
    TimeSourceCombo* m_timeSource;
    QPushButton* m_orderButton;
    int m_forecastColumn = -1;
    int m_forecastTokensColumn = -1;
    std::map<int, StepTimeForecast> m_forecasts; // by trial idx, for the shown trials

    std::optional<std::int64_t> m_shown;            // the sweep in the table; nullopt: a preview
    std::optional<SweepStatus> m_shownStatus;       // its status when last read
    std::optional<std::int64_t> m_editorOf;         // the sweep whose definition the editor shows
    std::map<std::int64_t, SweepStatus> m_statuses; // every stored sweep's, last read
    QString m_listSignature;                        // the picker's sweeps and statuses
    std::vector<TrialRecord> m_trials;              // the table's rows, by trial idx
};

} // namespace zerolab
