// The Setup tab's form: one widget per config knob (ZeRO stage, batch, precision,
// optimizer, schedule, buckets, model, data, device) plus the launcher fields.
// Each edit names the JSON path it changes, so SetupView can patch the document
// without touching keys the form does not know (an imported DeepSpeed file keeps
// everything else).
#pragma once

#include "runtime/config/config.h"

#include "gui/core/json_path.h"

#include <QWidget>

#include <optional>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace zerolab {

// Where and how a run is launched (not part of the training config; kept in QSettings).
struct LauncherSettings {
    QString mpirun = QStringLiteral("mpirun");
    QString hosts;    // "host1:4,host2:4"; empty: local
    QString hostfile; // used when hosts is empty
    QString extraArgs;
};

// UI thread only.
class ConfigForm : public QWidget {
    Q_OBJECT
public:
    explicit ConfigForm(QWidget* parent = nullptr);

    // Shows a document: the resolved config when there is one (every default
    // visible), else whatever the raw JSON holds. Emits nothing.
    void showConfig(const OrderedJson& doc, const std::optional<TrainConfig>& resolved);
    // Writes the form's value for `path` into doc; the batch triple is kept
    // consistent (train_batch_size follows micro-batch x accumulation x N when present).
    void applyEdit(OrderedJson& doc, const QString& path) const;

    int world() const;
    void setWorld(int n);
    int stage() const;
    LauncherSettings launcher() const;
    void setLauncher(const LauncherSettings& s);

    // For tests: the widget bound to a JSON path ("zero_optimization.overlap_comm").
    QWidget* fieldFor(const QString& path) const;

    // Points the model at a Hugging Face config.json: emits edited(model_keys::kHfConfig),
    // whose applyEdit writes the path and removes model.preset and every shape key. The
    // model group's "Open a Hugging Face model config…" asks for the file, then calls this.
    void chooseHfConfig(const QString& path);
    // The shape the form shows: the preset's, the HF config's (as resolved), or the custom
    // GPT-2 shape of the spin boxes.
    ModelShape shownShape() const;
    // For tests: the Llama rows' texts (family, shape, vocabulary and head).
    QString familyText() const;
    QString llamaShapeText() const;
    QString llamaVocabText() const;
    // The training sequence length of a Llama model (model.seq_len, up to its context).
    QSpinBox* trainSeqLen() const { return m_trainSeq; }

signals:
    // The user changed the field bound to `path` ("world" for the rank count).
    void edited(const QString& path);
    void launcherEdited();

protected:
    void changeEvent(QEvent* event) override;

private:
    // Group titles, row labels, check boxes, tooltips and placeholders in the current
    // language, and the derived lines (global batch, ψ); values are not touched.
    void retranslate();
    QWidget* buildZeroGroup();
    QWidget* buildBatchGroup();
    QWidget* buildOptimizerGroup();
    QWidget* buildModelGroup();
    QWidget* buildDataGroup();
    QWidget* buildLauncherGroup();
    void bind(QWidget* w, const QString& path);
    void updateDerived();
    // Shows the Llama rows (and hides GPT-2's shape rows) when the shown shape is a Llama.
    void showShapeRows(const ModelShape& shape);
    void openHfConfigDialog();

    bool m_showing = false; // true while showConfig writes widgets
    QHash<QString, QWidget*> m_fields;

    QButtonGroup* m_stage;
    QSpinBox* m_world;
    QSpinBox* m_micro;
    QSpinBox* m_accum;
    QLabel* m_globalBatch;
    QComboBox* m_precision;
    QComboBox* m_recompute;
    QComboBox* m_optimizer;
    QDoubleSpinBox* m_lr;
    QDoubleSpinBox* m_weightDecay;
    QDoubleSpinBox* m_clip;
    QComboBox* m_scheduler;
    QSpinBox* m_warmup;
    QFormLayout* m_optimizerForm = nullptr; // hides the schedule rows that do not apply
    QCheckBox* m_overlap;
    QCheckBox* m_allgatherPartitions;
    QCheckBox* m_reduceScatter;
    QCheckBox* m_contiguous;
    QSpinBox* m_reduceBucket;
    QSpinBox* m_allgatherBucket;
    QComboBox* m_preset;
    QSpinBox* m_layers;
    QSpinBox* m_heads;
    QSpinBox* m_embd;
    QSpinBox* m_context;
    QSpinBox* m_vocab;
    QLabel* m_paramCount;
    QFormLayout* m_modelForm = nullptr;
    QLabel* m_family;     // "GPT-2" / "Llama" (and the HF file it came from)
    QLabel* m_llamaShape; // layers, heads, KV heads, head dim, FFN width
    QLabel* m_llamaVocab; // vocabulary, tied or untied head, q/k/v bias
    QSpinBox* m_trainSeq; // model.seq_len of a Llama model, 1..its context
    QPushButton* m_openHf;
    QString m_hfConfig;                  // model.hf_config as the document has it
    QString m_shownPreset;               // the preset updateDerived last showed
    std::optional<ModelShape> m_hfShape; // its shape, when the config resolved
    QComboBox* m_dataType;
    QLineEdit* m_dataPath;
    QSpinBox* m_steps;
    QComboBox* m_device;
    QLineEdit* m_mpirun;
    QLineEdit* m_hosts;
    QLineEdit* m_hostfile;
    QLineEdit* m_extraArgs;
    QToolButton* m_browse;
    // Rows of several widgets, and the groups: their labels and titles are retranslated.
    QWidget* m_shapeRow;
    QWidget* m_seqRow;
    QWidget* m_pathRow;
    QGroupBox* m_zeroBox;
    QGroupBox* m_batchBox;
    QGroupBox* m_optimizerBox;
    QGroupBox* m_modelBox;
    QGroupBox* m_dataBox;
    QGroupBox* m_launcherBox;
};

} // namespace zerolab
