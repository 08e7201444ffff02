// Setup tab wiring: form edit -> patch JSON -> rewrite text -> validate; text
// edit -> (after 300 ms of quiet) validate -> refresh form; either -> forecast.
#include "gui/views/setup/setup_view.h"

#include "gui/client/calibrate_client.h"
#include "gui/views/setup/config_form.h"
#include "gui/widgets/file_dialog.h"
#include "gui/widgets/forecast_panel.h"
#include "gui/widgets/json_editor.h"
#include "gui/widgets/side_pane.h"
#include "gui/widgets/step_time_card.h"
#include "gui/widgets/style.h"
#include "runtime/files/bounded_file.h"
#include "runtime/planner/plan_devices.h"

#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>

namespace zerolab {

namespace {
constexpr int kDebounceMs = 300;
}

QString SetupView::defaultConfigText() {
    return QStringLiteral(R"({
  "train_micro_batch_size_per_gpu": 8,
  "gradient_accumulation_steps": 1,
  "optimizer": {
    "type": "AdamW",
    "params": { "lr": 0.0006, "weight_decay": 0.1 }
  },
  "gradient_clipping": 1.0,
  "bf16": { "enabled": false },
  "zero_optimization": {
    "stage": 1,
    "overlap_comm": true,
    "reduce_bucket_size": 500000000
  },
  "model": { "preset": "micro" },
  "data": { "type": "synthetic" },
  "run": { "steps": 200, "device": "cpu", "log_every": 1 }
}
)");
}

SetupView::SetupView(QWidget* parent)
    : QWidget(parent), m_form(new ConfigForm), m_editor(new JsonEditor),
      m_forecast(new ForecastPanel), m_stepTime(new StepTimeCard), m_forecastTabs(new QTabWidget),
      m_calibrateClient(new CalibrateClient(this)), m_problems(new QListWidget),
      m_status(new QLabel), m_pathLabel(new QLabel), m_editorTitle(new QLabel),
      m_open(new QPushButton), m_import(new QPushButton), m_save(new QPushButton),
      m_saveAs(new QPushButton) {
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_form);
    m_form->setMaximumWidth(560);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Wide enough for the form's own minimum, so the form never clips sideways.
    scroll->setMinimumWidth(m_form->minimumSizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width() + 6);

    QSplitter* right = makeSplitter(Qt::Vertical);
    // Memory and step time, one tab each: at 1280x800 both charts get the card's height.
    m_forecastTabs->addTab(makeCard(m_forecast), QString());
    m_forecastTabs->addTab(makeCard(m_stepTime), QString());
    m_forecastTabs->setDocumentMode(true);
    right->addWidget(m_forecastTabs);

    auto* editorPane = new QWidget;
    auto* editorLayout = new QVBoxLayout(editorPane);
    editorLayout->setContentsMargins(12, 10, 12, 10);
    editorLayout->setSpacing(6);
    auto* bar = new QHBoxLayout;
    m_editorTitle->setObjectName(QStringLiteral("cardTitle"));
    bar->addWidget(m_editorTitle);
    m_pathLabel->setObjectName(QStringLiteral("muted"));
    bar->addWidget(m_pathLabel, 1);
    for (QPushButton* b : {m_open, m_import, m_save, m_saveAs})
        bar->addWidget(b);
    editorLayout->addLayout(bar);
    editorLayout->addWidget(m_editor, 3);
    m_status->setTextFormat(Qt::RichText);
    m_status->setWordWrap(true); // one line can be wider than the pane under a font zoom
    editorLayout->addWidget(m_status);
    m_problems->setMaximumHeight(96);
    m_problems->setAlternatingRowColors(true);
    editorLayout->addWidget(m_problems, 1);
    right->addWidget(makeCard(editorPane));
    right->setStretchFactor(0, 5);
    right->setStretchFactor(1, 3);
    layOutWithSidePane(this, scroll, right)->setSizes({scroll->minimumWidth(), 700});

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, [this] { applyValidation(true); });
    connect(m_editor, &QPlainTextEdit::textChanged, this, &SetupView::onTextChanged);
    connect(m_form, &ConfigForm::edited, this, &SetupView::onFormEdited);
    connect(m_forecast, &ForecastPanel::stageClicked, this, [this](int stage) {
        if (auto* b = m_form->findChild<QPushButton*>(QStringLiteral("stage%1").arg(stage))) {
            b->click();
        }
    });
    connect(m_problems, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        m_editor->goToLine(item->data(Qt::UserRole).toInt());
    });
    connect(m_problems, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        m_editor->goToLine(item->data(Qt::UserRole).toInt());
    });
    connect(m_open, &QPushButton::clicked, this, [this] { openDialog(false); });
    connect(m_import, &QPushButton::clicked, this, [this] { openDialog(true); });
    connect(m_save, &QPushButton::clicked, this, [this] {
        if (m_path.isEmpty())
            saveAsDialog();
        else
            saveFile(m_path);
    });
    connect(m_saveAs, &QPushButton::clicked, this, &SetupView::saveAsDialog);
    connect(m_stepTime, &StepTimeCard::calibrateRequested, this, &SetupView::startCalibration);
    connect(m_stepTime, &StepTimeCard::cancelCalibrationRequested, m_calibrateClient,
            &CalibrateClient::cancel);
    connect(m_calibrateClient, &CalibrateClient::progressed, this,
            [this](const CalibrationStep& step) {
                m_stepTime->showCalibrationProgress(step.fraction, calibrationStepText(step));
            });
    connect(m_calibrateClient, &CalibrateClient::finished, this, [this] {
        m_stepTime->showCalibrationEnded(
            tr("Calibrated: the profile is kept in the run store and the forecast uses it."));
        emit calibrated();
    });
    connect(m_calibrateClient, &CalibrateClient::cancelled, this, [this] {
        m_stepTime->showCalibrationEnded(
            tr("Calibration cancelled: nothing was written to the run store."));
    });
    connect(m_calibrateClient, &CalibrateClient::failed, this, [this](const QString& message) {
        m_stepTime->showCalibrationEnded(tr("Calibration failed: %1").arg(message));
    });
    setText(defaultConfigText());
    retranslate();
}

void SetupView::retranslate() {
    m_forecast->setTitle(tr("Per-rank memory forecast"));
    m_stepTime->setTitle(tr("Step-time forecast"));
    m_forecastTabs->setTabText(0, tr("Memory per rank"));
    m_forecastTabs->setTabText(1, tr("Step time"));
    m_editorTitle->setText(tr("Config JSON"));
    m_open->setText(tr("Open…"));
    m_import->setText(tr("Import…"));
    m_import->setToolTip(
        tr("Import any DeepSpeed JSON: keys zerolab does not implement are listed as "
           "warnings and ignored."));
    m_save->setText(tr("Save"));
    m_saveAs->setText(tr("Save as…"));
    setStorePath(m_storePath); // the calibrate button's reason, in this language
    showPathLabel();
    // The findings rendered again; typing not yet validated is validated now rather
    // than leave the last findings in the old language until its pause ends.
    if (m_debounce.isActive())
        validateNow();
    else
        applyValidation(false);
}

void SetupView::setStorePath(const QString& path) {
    m_storePath = path;
    m_stepTime->setCalibrationAvailable(!path.isEmpty(),
                                        tr("Open a run store first: the profile is kept there."));
}

void SetupView::startCalibration() {
    if (m_storePath.isEmpty() || !m_calibrateClient->start(m_storePath))
        return;
    m_stepTime->showCalibrationProgress(0, tr("Starting zerolab-calibrate…"));
}

void SetupView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void SetupView::showPathLabel() {
    if (!m_importedFrom.isEmpty())
        m_pathLabel->setText(tr("imported from %1").arg(m_importedFrom));
    else
        m_pathLabel->setText(m_path.isEmpty() ? QString() : QFileInfo(m_path).fileName());
}

void SetupView::setText(const QString& json) {
    m_editor->setPlainText(json);
    validateNow();
}

QString SetupView::text() const {
    return m_editor->toPlainText();
}

void SetupView::validateNow() {
    m_debounce.stop();
    applyValidation(true);
}

bool SetupView::loadFile(const QString& path) {
    const BoundedFileText file = readBoundedTextFile(path.toStdString());
    if (!file.text) {
        emit statusMessage(tr("Cannot read %1: %2").arg(path, QString::fromStdString(file.error)));
        return false;
    }
    m_path = path;
    m_importedFrom.clear();
    showPathLabel();
    m_pathLabel->setToolTip(path);
    m_settingText = true;
    m_editor->setPlainText(QString::fromStdString(*file.text));
    m_settingText = false;
    const ConfigValidation syntax = validateConfigText(m_editor->toPlainText(), std::nullopt);
    if (syntax.doc)
        adoptImpliedWorld(*syntax.doc);
    validateNow();
    emit pathChanged(path);
    return true;
}

bool SetupView::saveFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        f.write(m_editor->toPlainText().toUtf8()) < 0) {
        emit statusMessage(tr("Cannot write %1: %2").arg(path, f.errorString()));
        return false;
    }
    m_path = path;
    m_importedFrom.clear();
    showPathLabel();
    m_pathLabel->setToolTip(path);
    emit pathChanged(path);
    emit statusMessage(tr("Saved %1").arg(path));
    return true;
}

void SetupView::openDialog(bool import) {
    const QString path =
        openFileName(this, import ? tr("Import a DeepSpeed config") : tr("Open a zerolab config"),
                     {}, tr("JSON (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    loadFile(path);
    if (import) {
        // An imported file is a starting point: saving asks where, never overwrites it.
        m_path.clear();
        m_importedFrom = QFileInfo(path).fileName();
        showPathLabel();
    }
}

void SetupView::saveAsDialog() {
    QString path = saveFileName(this, tr("Save config"), m_path, tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QStringLiteral(".json")))
        path += QStringLiteral(".json");
    saveFile(path);
}

// A DeepSpeed file with all three batch numbers decides N; show that N in the form
// so the validator checks the file as it was written.
void SetupView::adoptImpliedWorld(const OrderedJson& doc) {
    const auto get = [&](const char* key) -> long long {
        const auto it = doc.find(key);
        return it != doc.end() && it->is_number_integer() ? it->get<long long>() : 0;
    };
    const long long tbs = get("train_batch_size");
    const long long micro = get("train_micro_batch_size_per_gpu");
    const long long accum = get("gradient_accumulation_steps");
    if (tbs > 0 && micro > 0 && accum > 0 && tbs % (micro * accum) == 0)
        m_form->setWorld(int(std::clamp<long long>(tbs / (micro * accum), 1, 1024)));
}

void SetupView::followRunDevice(Device device) {
    if (m_runDevice == device)
        return;
    m_runDevice = device;
    const bool onHost = m_forecast->deviceKey() == QLatin1String("host");
    if (device == Device::Cuda && onHost)
        m_forecast->setDeviceKey(
            QString::fromUtf8(kDefaultGpuKey.data(), int(kDefaultGpuKey.size())));
    else if (device == Device::Cpu && !onHost)
        m_forecast->setDeviceKey(QStringLiteral("host"));
}

void SetupView::onFormEdited(const QString& path) {
    // Typing not yet validated: the patch must start from the text as it is now.
    if (m_debounce.isActive()) {
        m_debounce.stop();
        applyValidation(false);
    }
    if (!m_validation.doc)
        return; // the text does not parse: the user is fixing it by hand
    const OrderedJson before = m_doc;
    m_form->applyEdit(m_doc, path);
    m_settingText = true;
    const int scroll = m_editor->verticalScrollBar()->value();
    m_editor->setPlainText(patchJsonText(m_editor->toPlainText(), before, m_doc));
    m_editor->verticalScrollBar()->setValue(scroll);
    m_settingText = false;
    m_debounce.stop();
    applyValidation(false);
}

void SetupView::onTextChanged() {
    if (!m_settingText)
        m_debounce.start();
}

void SetupView::applyValidation(bool updateForm) {
    m_validation = validateConfigText(m_editor->toPlainText(), m_form->world());
    if (m_validation.doc) {
        m_doc = *m_validation.doc;
        if (updateForm)
            m_form->showConfig(m_doc, m_validation.config);
    }
    m_editor->setDiagnostics(m_validation.diagnostics);
    m_problems->clear();
    int errors = 0, warnings = 0;
    for (const auto& d : m_validation.diagnostics) {
        (d.error ? errors : warnings)++;
        QString text = d.line > 0 ? tr("line %1  ").arg(d.line) : QString();
        text += d.path.isEmpty() ? d.message : d.path + QStringLiteral(": ") + d.message;
        auto* item =
            new QListWidgetItem(style()->standardIcon(d.error ? QStyle::SP_MessageBoxCritical
                                                              : QStyle::SP_MessageBoxWarning),
                                text, m_problems);
        item->setData(Qt::UserRole, d.line);
        item->setForeground(d.error ? kErrorColor : kWarnColor);
    }
    m_problems->setVisible(!m_validation.diagnostics.isEmpty());
    if (errors == 0)
        m_status->setText(
            tr("<span style='color:%1'>&#10003; Valid</span> <span style='color:%2'>"
               "— checked by the same validator as <code>zerolab-train --check-config</code>"
               "%3</span>")
                .arg(kOkColor.name(), kTextMuted.name(),
                     warnings ? tr(", %n warning(s)", nullptr, warnings) : QString()));
    else
        m_status->setText(tr("<span style='color:%1'>%n error(s)</span>", nullptr, errors)
                              .arg(kErrorColor.name()) +
                          (warnings ? tr(", %n warning(s)", nullptr, warnings) : QString()) +
                          tr(" <span style='color:%1'>— the forecast is greyed: it is the "
                             "last valid config's</span>")
                              .arg(kTextMuted.name()));
    m_forecast->setStale(errors > 0 || !m_validation.config);
    if (m_validation.config && errors == 0) {
        followRunDevice(m_validation.config->run.device);
        PlanInput in = planInputFromConfig(*m_validation.config);
        m_forecast->setInput(in);
    }
    m_stepTime->setConfig(errors == 0 ? m_validation.config : std::nullopt);
}

} // namespace zerolab
