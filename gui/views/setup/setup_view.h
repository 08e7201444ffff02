// The Setup tab: the config form, the JSON editor and the live forecast, kept in
// sync both ways. The JSON document is the source of truth; the form patches it
// one path at a time (and the text only where the value changed, so the user's key
// order and layout survive) and the editor's text replaces it once it parses.
#pragma once

#include "gui/core/config_validation.h"

#include <QTimer>
#include <QWidget>

#include <optional>

class QLabel;
class QListWidget;
class QPushButton;
class QTabWidget;

namespace zerolab {

class CalibrateClient;
class ConfigForm;
class ForecastPanel;
class JsonEditor;
class StepTimeCard;

// UI thread only.
class SetupView : public QWidget {
    Q_OBJECT
public:
    explicit SetupView(QWidget* parent = nullptr);

    // Replaces the editor's text and validates at once. Returns false (and says why
    // in the diagnostics) when the file cannot be read.
    bool loadFile(const QString& path);
    bool saveFile(const QString& path);
    void setText(const QString& json);
    QString text() const;
    QString currentPath() const { return m_path; }

    // Validates the current text now instead of after the typing pause.
    void validateNow();
    const ConfigValidation& validation() const { return m_validation; }

    ConfigForm* form() const { return m_form; }
    JsonEditor* editor() const { return m_editor; }
    ForecastPanel* forecast() const { return m_forecast; }
    // The step time of the config's stages 0-3 (its profile set by the main window).
    StepTimeCard* stepTime() const { return m_stepTime; }
    QTabWidget* forecastTabs() const { return m_forecastTabs; }
    // The run store a calibration keeps its profile in (the step-time card's "Calibrate
    // this machine…" is off until one is set).
    void setStorePath(const QString& path);
    // Runs zerolab-calibrate for the card (its program and options can be set).
    CalibrateClient* calibrateClient() const { return m_calibrateClient; }

    // A small valid starting config (micro preset, stage 1, two ranks).
    static QString defaultConfigText();

signals:
    void pathChanged(const QString& path);
    void statusMessage(const QString& text);
    // A calibration kept a new profile in the store: read it again.
    void calibrated();

protected:
    void changeEvent(QEvent* event) override;

private:
    // Every text of the view in the current language; the validator's findings and
    // the forecast rendered again (the config and the editor are not touched).
    void retranslate();
    void showPathLabel();
    void onFormEdited(const QString& path);
    void onTextChanged();
    void applyValidation(bool updateForm);
    void adoptImpliedWorld(const OrderedJson& doc);
    // The memory forecast's device follows the config's run.device when that changes: a
    // GPU preset (zerolab-plan's default, A100 80 GB) for "cuda" while it shows host RAM,
    // host RAM for "cpu" while it shows a GPU. A device picked by hand stays otherwise.
    void followRunDevice(Device device);
    void openDialog(bool import);
    void saveAsDialog();
    void startCalibration();

    ConfigForm* m_form;
    JsonEditor* m_editor;
    ForecastPanel* m_forecast;
    StepTimeCard* m_stepTime;
    QTabWidget* m_forecastTabs; // memory per rank, step time
    CalibrateClient* m_calibrateClient;
    QString m_storePath;
    QListWidget* m_problems;
    QLabel* m_status;
    QLabel* m_pathLabel;
    QLabel* m_editorTitle;
    QPushButton* m_open;
    QPushButton* m_import;
    QPushButton* m_save;
    QPushButton* m_saveAs;
    QTimer m_debounce;
    OrderedJson m_doc = OrderedJson::object();
    ConfigValidation m_validation;
    QString m_path;
    QString m_importedFrom; // the file name an unsaved import came from
    bool m_settingText = false;
    std::optional<Device> m_runDevice; // the last valid config's run.device
};

} // namespace zerolab
