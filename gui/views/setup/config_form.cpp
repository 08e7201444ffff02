// Builds the Setup form and maps each widget to its JSON path. Tooltips on the
// ZeRO knobs say what each one changes, in one or two sentences.
#include "gui/views/setup/config_form.h"

#include "gui/core/json_path.h"
#include "gui/core/units.h"
#include "gui/views/setup/model_keys.h"
#include "gui/widgets/file_dialog.h"
#include "gui/widgets/form_rows.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>

#include <limits>

namespace zerolab {

namespace {

const char* kStageTips[4] = {
    QT_TRANSLATE_NOOP(
        "zerolab::ConfigForm",
        "Stage 0, plain data parallelism: every rank keeps the full params, grads and optimizer "
        "states, and gradients are all-reduced."),
    QT_TRANSLATE_NOOP(
        "zerolab::ConfigForm",
        "Stage 1 shards the optimizer states (Adam m, v and the fp32 master) across ranks; each "
        "rank updates its slice and the slices are all-gathered."),
    QT_TRANSLATE_NOOP(
        "zerolab::ConfigForm",
        "Stage 2 also shards the gradients: buckets are reduce-scattered during backward, so a "
        "rank keeps only the gradient slice it updates."),
    QT_TRANSLATE_NOOP(
        "zerolab::ConfigForm",
        "Stage 3 also shards the parameters: each layer is all-gathered before its forward and "
        "backward and freed after; 1.5x the traffic of stage 0."),
};

// A shape of the user's own, GPT-2's (five numbers). A Llama shape of one's own comes
// from its config.json (kHfItem) or the config's Llama keys; the item says which it is.
const QString kCustom = QStringLiteral("custom GPT-2");
// The preset combo's last item, chosen when the document names model.hf_config (never
// picked by hand: "Open a Hugging Face model config…" sets it).
const QString kHfItem = QStringLiteral("hf_config");

QSpinBox* intSpin(int lo, int hi, int value) {
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setValue(value);
    s->setGroupSeparatorShown(true);
    s->setMinimumWidth(64); // the hint sizes for the range's widest value
    return s;
}

// A group box with a form inside; its title is set in ConfigForm::retranslate().
QGroupBox* group(QFormLayout*& form) {
    auto* box = new QGroupBox;
    form = new QFormLayout(box);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setHorizontalSpacing(10);
    form->setVerticalSpacing(6);
    form->setContentsMargins(10, 14, 10, 8);
    return box;
}

// The value of a JSON number/bool/string at `path`, when it has that type.
std::optional<double> numberAt(const OrderedJson& doc, const QString& path) {
    const auto* v = jsonAt(doc, path);
    return v && v->is_number() ? std::optional<double>(v->get<double>()) : std::nullopt;
}
std::optional<bool> boolAt(const OrderedJson& doc, const QString& path) {
    const auto* v = jsonAt(doc, path);
    return v && v->is_boolean() ? std::optional<bool>(v->get<bool>()) : std::nullopt;
}
std::optional<QString> stringAt(const OrderedJson& doc, const QString& path) {
    const auto* v = jsonAt(doc, path);
    return v && v->is_string()
               ? std::optional<QString>(QString::fromStdString(v->get<std::string>()))
               : std::nullopt;
}

void setCombo(QComboBox* c, const QString& text) {
    const int i = c->findText(text, Qt::MatchFixedString);
    if (i >= 0)
        c->setCurrentIndex(i);
}

} // namespace

ConfigForm::ConfigForm(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    layout->addWidget(buildZeroGroup());
    layout->addWidget(buildBatchGroup());
    layout->addWidget(buildOptimizerGroup());
    layout->addWidget(buildModelGroup());
    layout->addWidget(buildDataGroup());
    layout->addWidget(buildLauncherGroup());
    layout->addStretch(1);
    retranslate();
}

void ConfigForm::bind(QWidget* w, const QString& path) {
    m_fields.insert(path, w);
    auto notify = [this, path] {
        updateDerived();
        if (!m_showing)
            emit edited(path);
    };
    if (auto* s = qobject_cast<QSpinBox*>(w))
        connect(s, &QSpinBox::valueChanged, this, notify);
    else if (auto* d = qobject_cast<QDoubleSpinBox*>(w))
        connect(d, &QDoubleSpinBox::valueChanged, this, notify);
    else if (auto* c = qobject_cast<QComboBox*>(w))
        connect(c, &QComboBox::currentIndexChanged, this, notify);
    else if (auto* b = qobject_cast<QCheckBox*>(w))
        connect(b, &QCheckBox::toggled, this, notify);
    else if (auto* e = qobject_cast<QLineEdit*>(w))
        connect(e, &QLineEdit::textEdited, this, notify);
}

QWidget* ConfigForm::buildZeroGroup() {
    QFormLayout* form = nullptr;
    m_zeroBox = group(form);
    auto* row = new QWidget;
    auto* buttons = new QHBoxLayout(row);
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->setSpacing(4);
    m_stage = new QButtonGroup(this);
    m_stage->setExclusive(true);
    for (int s = 0; s < 4; ++s) {
        auto* b = new QPushButton(QString::number(s));
        b->setCheckable(true);
        b->setMinimumWidth(34);
        b->setMaximumWidth(48);
        b->setObjectName(QStringLiteral("stage%1").arg(s));
        m_stage->addButton(b, s);
        buttons->addWidget(b);
    }
    buttons->addStretch(1);
    m_stage->button(1)->setChecked(true);
    m_fields.insert(QStringLiteral("zero_optimization.stage"), row);
    connect(m_stage, &QButtonGroup::idClicked, this, [this] {
        updateDerived();
        if (!m_showing)
            emit edited(QStringLiteral("zero_optimization.stage"));
    });
    addFormRow(form, row);

    m_overlap = new QCheckBox;
    m_allgatherPartitions = new QCheckBox;
    m_reduceScatter = new QCheckBox;
    m_contiguous = new QCheckBox;
    m_reduceBucket = intSpin(1, 2'000'000'000, 500'000'000);
    m_allgatherBucket = intSpin(1, 2'000'000'000, 500'000'000);
    form->addRow(QString(), m_overlap);
    form->addRow(QString(), m_allgatherPartitions);
    form->addRow(QString(), m_reduceScatter);
    form->addRow(QString(), m_contiguous);
    addFormRow(form, m_reduceBucket);
    addFormRow(form, m_allgatherBucket);
    bind(m_overlap, QStringLiteral("zero_optimization.overlap_comm"));
    bind(m_allgatherPartitions, QStringLiteral("zero_optimization.allgather_partitions"));
    bind(m_reduceScatter, QStringLiteral("zero_optimization.reduce_scatter"));
    bind(m_contiguous, QStringLiteral("zero_optimization.contiguous_gradients"));
    bind(m_reduceBucket, QStringLiteral("zero_optimization.reduce_bucket_size"));
    bind(m_allgatherBucket, QStringLiteral("zero_optimization.allgather_bucket_size"));
    return m_zeroBox;
}

QWidget* ConfigForm::buildBatchGroup() {
    QFormLayout* form = nullptr;
    m_batchBox = group(form);
    m_world = intSpin(1, 1024, 2);
    // The config's bound on each batch number (docs/config.md): up to 2^31-1; a product
    // past it is the config's validation error, said under the JSON.
    m_micro = intSpin(1, std::numeric_limits<int>::max(), 8);
    m_accum = intSpin(1, std::numeric_limits<int>::max(), 1);
    m_globalBatch = new QLabel;
    m_globalBatch->setObjectName(QStringLiteral("muted"));
    m_precision = new QComboBox;
    m_precision->addItems({QStringLiteral("fp32"), QStringLiteral("bf16")});
    for (QWidget* w : {static_cast<QWidget*>(m_world), static_cast<QWidget*>(m_micro),
                       static_cast<QWidget*>(m_accum), static_cast<QWidget*>(m_globalBatch),
                       static_cast<QWidget*>(m_precision)})
        addFormRow(form, w);
    bind(m_world, QStringLiteral("world"));
    bind(m_micro, QStringLiteral("train_micro_batch_size_per_gpu"));
    bind(m_accum, QStringLiteral("gradient_accumulation_steps"));
    bind(m_precision, QStringLiteral("bf16.enabled"));
    return m_batchBox;
}

QWidget* ConfigForm::buildOptimizerGroup() {
    QFormLayout* form = nullptr;
    m_optimizerBox = group(form);
    m_optimizerForm = form;
    m_optimizer = new QComboBox;
    m_optimizer->addItems({QStringLiteral("AdamW"), QStringLiteral("Adam")});
    m_lr = new QDoubleSpinBox;
    m_lr->setDecimals(6);
    m_lr->setRange(0, 10);
    m_lr->setSingleStep(1e-4);
    m_weightDecay = new QDoubleSpinBox;
    m_weightDecay->setDecimals(4);
    m_weightDecay->setRange(0, 10);
    m_weightDecay->setSingleStep(0.01);
    m_clip = new QDoubleSpinBox;
    m_clip->setDecimals(2);
    m_clip->setRange(0, 1000);
    m_scheduler = new QComboBox;
    m_scheduler->addItems({QStringLiteral("None"), QStringLiteral("WarmupLR"),
                           QStringLiteral("WarmupDecayLR"), QStringLiteral("WarmupCosineLR")});
    m_warmup = intSpin(0, 10'000'000, 1000);
    m_steps = intSpin(1, 100'000'000, 100);
    for (QWidget* w : {static_cast<QWidget*>(m_optimizer), static_cast<QWidget*>(m_lr),
                       static_cast<QWidget*>(m_weightDecay), static_cast<QWidget*>(m_clip),
                       static_cast<QWidget*>(m_scheduler), static_cast<QWidget*>(m_warmup),
                       static_cast<QWidget*>(m_steps)})
        addFormRow(form, w);
    bind(m_optimizer, QStringLiteral("optimizer.type"));
    bind(m_lr, QStringLiteral("optimizer.params.lr"));
    bind(m_weightDecay, QStringLiteral("optimizer.params.weight_decay"));
    bind(m_clip, QStringLiteral("gradient_clipping"));
    bind(m_scheduler, QStringLiteral("scheduler.type"));
    bind(m_warmup, QStringLiteral("scheduler.params.warmup_num_steps"));
    bind(m_steps, QStringLiteral("run.steps"));
    return m_optimizerBox;
}

QWidget* ConfigForm::buildModelGroup() {
    QFormLayout* form = nullptr;
    m_modelBox = group(form);
    m_preset = new QComboBox;
    // Sized by a name's length, not by its longest preset ("mistral-7b-v0.1"): the form
    // stretches it, and the window keeps to 1280 px.
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_preset->setMinimumContentsLength(10);
    for (const auto& p : modelPresets())
        m_preset->addItem(QString::fromUtf8(p.name.data(), int(p.name.size())));
    m_preset->addItem(kCustom);
    m_preset->addItem(kHfItem);
    if (auto* items = qobject_cast<QStandardItemModel*>(m_preset->model()))
        items->item(m_preset->count() - 1)->setEnabled(false);
    m_layers = intSpin(1, 1024, 4);
    m_heads = intSpin(1, 1024, 4);
    m_embd = intSpin(1, 65536, 256);
    m_context = intSpin(1, 1 << 20, 128);
    m_vocab = intSpin(1, 1 << 24, 256);
    m_paramCount = new QLabel;
    m_paramCount->setObjectName(QStringLiteral("muted"));
    m_paramCount->setWordWrap(true); // "from the Hugging Face config, …" is a sentence
    m_shapeRow = new QWidget;
    auto* grid = new QHBoxLayout(m_shapeRow);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);
    for (auto [label, spin] : {std::pair{"L", m_layers}, {"H", m_heads}, {"C", m_embd}}) {
        auto* l = new QLabel(QString::fromLatin1(label));
        l->setObjectName(QStringLiteral("muted"));
        grid->addWidget(l);
        grid->addWidget(spin, 1);
    }
    m_seqRow = new QWidget;
    auto* seq = new QHBoxLayout(m_seqRow);
    seq->setContentsMargins(0, 0, 0, 0);
    seq->setSpacing(4);
    for (auto [label, spin] : {std::pair{"T", m_context}, {"V", m_vocab}}) {
        auto* l = new QLabel(QString::fromLatin1(label));
        l->setObjectName(QStringLiteral("muted"));
        seq->addWidget(l);
        seq->addWidget(spin, 1);
    }
    // A Llama model's shape, read-only (its preset or HF config decides it), and its
    // training sequence length.
    m_family = new QLabel;
    m_family->setObjectName(QStringLiteral("modelFamily"));
    m_family->setWordWrap(true);
    m_llamaShape = new QLabel;
    m_llamaShape->setObjectName(QStringLiteral("llamaShape"));
    m_llamaShape->setWordWrap(true);
    m_llamaVocab = new QLabel;
    m_llamaVocab->setObjectName(QStringLiteral("llamaVocab"));
    m_llamaVocab->setWordWrap(true);
    m_trainSeq = intSpin(1, 1 << 20, 4096);
    m_trainSeq->setObjectName(QStringLiteral("trainSeqLen"));
    connect(m_trainSeq, &QSpinBox::valueChanged, this, [this] {
        updateDerived();
        if (!m_showing)
            emit edited(QStringLiteral("model.seq_len"));
    });
    m_openHf = new QPushButton;
    m_openHf->setObjectName(QStringLiteral("openHfConfig"));
    connect(m_openHf, &QPushButton::clicked, this, &ConfigForm::openHfConfigDialog);
    m_recompute = new QComboBox;
    for (std::string_view name : kRecomputeNames)
        m_recompute->addItem(QString::fromUtf8(name.data(), int(name.size())));
    m_modelForm = form;
    for (QWidget* w : {static_cast<QWidget*>(m_preset), static_cast<QWidget*>(m_family), m_shapeRow,
                       m_seqRow, static_cast<QWidget*>(m_llamaShape),
                       static_cast<QWidget*>(m_llamaVocab), static_cast<QWidget*>(m_trainSeq),
                       static_cast<QWidget*>(m_paramCount), static_cast<QWidget*>(m_recompute)})
        addFormRow(form, w);
    // The whole row: beside the labels it would be the form's widest field and push the
    // window past 1280 px (CompareViewTest::fiveRunsFitTheMainWindowAt1280x800).
    form->addRow(m_openHf);
    bind(m_recompute, QStringLiteral("model.recompute"));
    bind(m_preset, QStringLiteral("model.preset"));
    bind(m_layers, QStringLiteral("model.n_layer"));
    bind(m_heads, QStringLiteral("model.n_head"));
    bind(m_embd, QStringLiteral("model.n_embd"));
    bind(m_context, QStringLiteral("model.seq_len"));
    bind(m_vocab, QStringLiteral("model.vocab_size"));
    return m_modelBox;
}

QWidget* ConfigForm::buildDataGroup() {
    QFormLayout* form = nullptr;
    m_dataBox = group(form);
    m_dataType = new QComboBox;
    m_dataType->addItems(
        {QStringLiteral("synthetic"), QStringLiteral("text"), QStringLiteral("llmc")});
    m_pathRow = new QWidget;
    auto* row = new QHBoxLayout(m_pathRow);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(4);
    m_dataPath = new QLineEdit;
    m_browse = new QToolButton;
    m_browse->setText(QStringLiteral("…"));
    row->addWidget(m_dataPath, 1);
    row->addWidget(m_browse);
    connect(m_browse, &QToolButton::clicked, this, [this] {
        const QString path = openFileName(this, tr("Data file"));
        if (path.isEmpty())
            return;
        m_dataPath->setText(path);
        emit edited(QStringLiteral("data.path"));
    });
    m_device = new QComboBox;
    m_device->addItems({QStringLiteral("cpu"), QStringLiteral("cuda")});
    for (QWidget* w :
         {static_cast<QWidget*>(m_dataType), m_pathRow, static_cast<QWidget*>(m_device)})
        addFormRow(form, w);
    bind(m_dataType, QStringLiteral("data.type"));
    bind(m_dataPath, QStringLiteral("data.path"));
    bind(m_device, QStringLiteral("run.device"));
    return m_dataBox;
}

QWidget* ConfigForm::buildLauncherGroup() {
    QFormLayout* form = nullptr;
    m_launcherBox = group(form);
    m_mpirun = new QLineEdit(QStringLiteral("mpirun"));
    m_hosts = new QLineEdit;
    m_hostfile = new QLineEdit;
    m_extraArgs = new QLineEdit;
    for (QLineEdit* e : {m_mpirun, m_hosts, m_hostfile, m_extraArgs}) {
        addFormRow(form, e);
        connect(e, &QLineEdit::textEdited, this, &ConfigForm::launcherEdited);
    }
    return m_launcherBox;
}

void ConfigForm::retranslate() {
    m_zeroBox->setTitle(tr("ZeRO"));
    m_preset->setItemData(m_preset->findText(kCustom),
                          tr("A GPT-2 shape of your own: layers, heads, hidden size, context and "
                             "vocabulary. For a Llama shape of your own, open its Hugging Face "
                             "config.json, or write model.family \"llama\" and its keys in the "
                             "JSON."),
                          Qt::ToolTipRole);
    for (int s = 0; s < 4; ++s)
        m_stage->button(s)->setToolTip(tr(kStageTips[s]));
    setFormRowLabel(m_fields.value(QStringLiteral("zero_optimization.stage")), tr("Stage"));
    m_overlap->setText(tr("Overlap comm with backward"));
    m_overlap->setToolTip(tr("overlap_comm: start each bucket's collective as soon as backward "
                             "has filled it, hiding communication behind compute at the cost of "
                             "bucket buffers."));
    m_allgatherPartitions->setText(tr("All-gather partitions"));
    m_allgatherPartitions->setToolTip(
        tr("allgather_partitions: after the update, all-gather the parameter shards in one "
           "collective (on), or broadcast each owner's shard in turn (off)."));
    m_reduceScatter->setText(tr("Reduce-scatter gradients"));
    m_reduceScatter->setToolTip(
        tr("reduce_scatter: reduce gradients so that each rank receives only the shard it "
           "updates (on), instead of a full all-reduce (off)."));
    m_contiguous->setText(tr("Contiguous gradients"));
    m_contiguous->setToolTip(tr("contiguous_gradients: copy gradients into one contiguous buffer "
                                "as they are produced, avoiding fragmentation."));
    m_reduceBucket->setToolTip(tr("reduce_bucket_size, in elements: larger buckets mean fewer, "
                                  "more efficient collectives but bigger comm buffers."));
    m_allgatherBucket->setToolTip(tr("allgather_bucket_size, in elements: how much is gathered "
                                     "per all-gather call; trades buffer memory for fewer calls."));
    setFormRowLabel(m_reduceBucket, tr("Reduce bucket"));
    setFormRowLabel(m_allgatherBucket, tr("All-gather bucket"));

    m_batchBox->setTitle(tr("Batch and precision"));
    m_world->setToolTip(tr("Data-parallel ranks (mpirun -np N). Sharded states are divided by "
                           "N; the global batch grows with it."));
    m_micro->setToolTip(tr("train_micro_batch_size_per_gpu: samples per rank per micro-step; "
                           "activation memory grows linearly with it."));
    m_accum->setToolTip(tr("gradient_accumulation_steps: micro-steps per optimizer step. A "
                           "smaller micro-batch reaches the same global batch, shrinking "
                           "activations; it does not shrink gradient memory."));
    m_precision->setToolTip(tr("bf16: bf16 params and grads with an fp32 master copy and fp32 "
                               "Adam states (16 bytes per parameter); fp32: no master copy."));
    setFormRowLabel(m_world, tr("Ranks N"));
    setFormRowLabel(m_micro, tr("Micro-batch"));
    setFormRowLabel(m_accum, tr("Accumulation"));
    setFormRowLabel(m_globalBatch, tr("Global batch"));
    setFormRowLabel(m_precision, tr("Precision"));

    m_optimizerBox->setTitle(tr("Optimizer and schedule"));
    m_clip->setSpecialValueText(tr("off"));
    m_clip->setToolTip(tr("gradient_clipping: global L2 norm; under sharding each rank squares "
                          "its own shard and one float is all-reduced."));
    setFormRowLabel(m_optimizer, tr("Optimizer"));
    setFormRowLabel(m_lr, tr("Learning rate"));
    setFormRowLabel(m_weightDecay, tr("Weight decay"));
    setFormRowLabel(m_clip, tr("Grad clipping"));
    setFormRowLabel(m_scheduler, tr("Schedule"));
    setFormRowLabel(m_warmup, tr("Warmup steps"));
    setFormRowLabel(m_steps, tr("Steps"));

    m_modelBox->setTitle(tr("Model"));
    setFormRowLabel(m_preset, tr("Preset"));
    setFormRowLabel(m_shapeRow, tr("Shape"));
    setFormRowLabel(m_seqRow, tr("Context, vocab"));
    setFormRowLabel(m_paramCount, tr("Parameters ψ"));
    setFormRowLabel(m_family, tr("Family"));
    setFormRowLabel(m_llamaShape, tr("Layers, heads"));
    setFormRowLabel(m_llamaVocab, tr("Vocab, head"));
    setFormRowLabel(m_trainSeq, tr("Sequence T"));
    m_openHf->setText(tr("Open a Hugging Face model config…"));
    m_openHf->setToolTip(tr("Reads a Hugging Face config.json (Llama, Mistral, Qwen2) into a "
                            "Llama shape: writes model.hf_config and removes model.preset and "
                            "the shape keys."));
    m_recompute->setToolTip(
        tr("model.recompute: which activations each layer keeps for backward.\n"
           "none: all of them (64sbh + 4as²b bytes per layer in fp32).\n"
           "selective: drop the attention probabilities and the layernorm and GELU outputs and "
           "recompute them in backward (40sbh per layer; a few percent more time).\n"
           "full: keep only each block's input (4sbh per layer) and run the block's forward "
           "again in backward: about one more forward, 4/3 of the compute."));
    setFormRowLabel(m_recompute, tr("Recompute"));

    m_dataBox->setTitle(tr("Data and device"));
    m_dataType->setToolTip(tr("synthetic: built-in seeded text, no download; text: any file, "
                              "bytes as tokens; llmc: llm.c token shards."));
    m_dataPath->setPlaceholderText(tr("file for text / llmc"));
    m_browse->setToolTip(tr("Choose a data file"));
    setFormRowLabel(m_dataType, tr("Data"));
    setFormRowLabel(m_pathRow, tr("Path"));
    setFormRowLabel(m_device, tr("Device"));

    m_launcherBox->setTitle(tr("Launcher"));
    m_hosts->setPlaceholderText(tr("local; or host1:4,host2:4"));
    m_hostfile->setPlaceholderText(tr("used when hosts is empty"));
    m_extraArgs->setPlaceholderText(tr("e.g. --bind-to core"));
    setFormRowLabel(m_mpirun, tr("mpirun"));
    setFormRowLabel(m_hosts, tr("Hosts"));
    setFormRowLabel(m_hostfile, tr("Hostfile"));
    setFormRowLabel(m_extraArgs, tr("Extra args"));
    updateDerived();
}

void ConfigForm::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void ConfigForm::updateDerived() {
    const long long global = 1LL * m_micro->value() * m_accum->value() * m_world->value();
    m_globalBatch->setText(tr("%1 samples  (%2 × %3 × %4)")
                               .arg(global)
                               .arg(m_micro->value())
                               .arg(m_accum->value())
                               .arg(m_world->value()));
    const bool custom = m_preset->currentText() == kCustom;
    for (QSpinBox* s : {m_layers, m_heads, m_embd, m_context, m_vocab})
        s->setEnabled(custom);
    const QString presetName = m_preset->currentText();
    if (!custom) {
        if (const auto shape = findModelPreset(presetName.toStdString())) {
            const bool was = m_showing;
            m_showing = true;
            m_layers->setValue(shape->n_layer);
            m_heads->setValue(shape->n_head);
            m_embd->setValue(shape->n_embd);
            m_context->setValue(shape->seq_len);
            m_vocab->setValue(shape->vocab_size);
            // Another preset: the document has no model.seq_len (applyEdit removed it), so
            // T is the new preset's context.
            m_trainSeq->setMaximum(shape->seq_len);
            if (presetName != m_shownPreset)
                m_trainSeq->setValue(shape->seq_len);
            m_showing = was;
        }
    }
    m_shownPreset = presetName;
    const ModelShape shape = shownShape();
    showShapeRows(shape);
    if (const auto psi = shape.n_layer > 0 ? checkedParamCount(shape) : std::nullopt)
        m_paramCount->setText(
            tr("%1  (%2 parameters)").arg(formatCount(double(*psi))).arg(qint64(*psi)));
    else
        m_paramCount->setText(tr("from the Hugging Face config, once it validates"));
    // warmup_num_steps belongs to every scheduler type and to no schedule at all.
    m_optimizerForm->setRowVisible(m_warmup, m_scheduler->currentIndex() != 0);
}

ModelShape ConfigForm::shownShape() const {
    const QString name = m_preset->currentText();
    if (name == kHfItem)
        return m_hfShape.value_or(ModelShape{});
    if (name != kCustom)
        if (const auto shape = findModelPreset(name.toStdString()))
            return *shape;
    return ModelShape{m_layers->value(),  m_heads->value(), m_embd->value(),
                      m_context->value(), m_vocab->value(), padVocab(m_vocab->value())};
}

QString ConfigForm::familyText() const {
    return m_family->text();
}
QString ConfigForm::llamaShapeText() const {
    return m_llamaShape->text();
}
QString ConfigForm::llamaVocabText() const {
    return m_llamaVocab->text();
}

void ConfigForm::showShapeRows(const ModelShape& shape) {
    const bool hf = m_preset->currentText() == kHfItem;
    const bool llama = shape.family == Family::Llama;
    const bool known = shape.n_layer > 0;
    m_modelForm->setRowVisible(m_shapeRow, !llama && !hf);
    m_modelForm->setRowVisible(m_seqRow, !llama && !hf);
    m_modelForm->setRowVisible(m_llamaShape, llama && known);
    m_modelForm->setRowVisible(m_llamaVocab, llama && known);
    m_modelForm->setRowVisible(m_trainSeq, llama && known);
    const QString file = QFileInfo(m_hfConfig).fileName();
    if (hf)
        m_family->setText(known ? tr("Llama, from the Hugging Face config %1").arg(file)
                                : tr("Hugging Face config %1: its shape shows once the "
                                     "config validates")
                                      .arg(file));
    else
        m_family->setText(llama ? tr("Llama (Hugging Face LlamaForCausalLM: RMSNorm, RoPE, "
                                     "SwiGLU, grouped-query flash attention)")
                                : tr("GPT-2 (llm.c)"));
    m_family->setToolTip(hf ? m_hfConfig : QString());
    if (!llama || !known)
        return;
    m_llamaShape->setText(tr("%1 layers · %2 heads · %3 KV heads · head dim %4 · FFN %5")
                              .arg(shape.n_layer)
                              .arg(shape.n_head)
                              .arg(shape.kvHeads())
                              .arg(shape.headDim())
                              .arg(QLocale().toString(shape.ffn_dim)));
    m_llamaVocab->setText(
        tr("vocabulary %1 · %2 · %3")
            .arg(QLocale().toString(shape.vocab_size))
            .arg(shape.tied_head ? tr("tied head") : tr("untied head (its own lm_head)"))
            .arg(shape.qkv_bias ? tr("q/k/v bias") : tr("no q/k/v bias")));
    m_trainSeq->setToolTip(tr("model.seq_len: tokens per sequence in training, up to the "
                              "model's context (%1)")
                               .arg(QLocale().toString(shape.seq_len)));
}

void ConfigForm::openHfConfigDialog() {
    const QString path =
        openFileName(this, tr("Open a Hugging Face model config"), {},
                     tr("Hugging Face config (config.json *.json);;All files (*)"));
    if (!path.isEmpty())
        chooseHfConfig(path);
}

void ConfigForm::chooseHfConfig(const QString& path) {
    m_hfConfig = path;
    m_hfShape.reset();
    m_showing = true;
    setCombo(m_preset, kHfItem);
    m_showing = false;
    updateDerived();
    emit edited(QString(model_keys::kHfConfig));
}

void ConfigForm::showConfig(const OrderedJson& doc, const std::optional<TrainConfig>& resolved) {
    m_showing = true;
    const auto hf = stringAt(doc, QString(model_keys::kHfConfig));
    m_hfConfig = hf.value_or(QString());
    m_hfShape.reset();
    if (hf && resolved && resolved->model.preset.empty())
        m_hfShape = resolved->model.shape;
    if (resolved) {
        const TrainConfig& c = *resolved;
        m_stage->button(std::clamp(c.zero.stage, 0, 3))->setChecked(true);
        m_world->setValue(c.batch.world);
        m_micro->setValue(c.batch.micro_batch);
        m_accum->setValue(c.batch.grad_accum);
        m_precision->setCurrentIndex(c.precision == Precision::Bf16Mixed ? 1 : 0);
        setCombo(m_optimizer, QString::fromUtf8(toString(c.optimizer.type).data()));
        m_lr->setValue(c.optimizer.lr);
        m_weightDecay->setValue(c.optimizer.weight_decay);
        m_clip->setValue(c.gradient_clipping);
        setCombo(m_scheduler, c.scheduler.type == SchedulerType::None
                                  ? QStringLiteral("None")
                                  : QString::fromUtf8(toString(c.scheduler.type).data()));
        m_warmup->setValue(c.scheduler.warmup_num_steps);
        m_overlap->setChecked(c.zero.overlap_comm);
        m_allgatherPartitions->setChecked(c.zero.allgather_partitions);
        m_reduceScatter->setChecked(c.zero.reduce_scatter);
        m_contiguous->setChecked(c.zero.contiguous_gradients);
        m_reduceBucket->setValue(
            int(std::min<std::int64_t>(c.zero.reduce_bucket_size, 2'000'000'000)));
        m_allgatherBucket->setValue(
            int(std::min<std::int64_t>(c.zero.allgather_bucket_size, 2'000'000'000)));
        setCombo(m_preset, hf                       ? kHfItem
                           : c.model.preset.empty() ? kCustom
                                                    : QString::fromStdString(c.model.preset));
        m_layers->setValue(c.model.shape.n_layer);
        m_heads->setValue(c.model.shape.n_head);
        m_embd->setValue(c.model.shape.n_embd);
        m_context->setValue(c.model.shape.seq_len);
        m_vocab->setValue(c.model.shape.vocab_size);
        m_trainSeq->setMaximum(std::max(1, c.model.shape.seq_len));
        m_trainSeq->setValue(c.model.seq_len);
        setCombo(m_recompute, QString::fromUtf8(recomputeName(c.model.recompute).data()));
        setCombo(m_dataType, QString::fromUtf8(toString(c.data.type).data()));
        m_dataPath->setText(QString::fromStdString(c.data.path));
        m_steps->setValue(c.run.steps);
        setCombo(m_device, QString::fromUtf8(toString(c.run.device).data()));
    } else {
        if (auto v = numberAt(doc, QStringLiteral("zero_optimization.stage"));
            v && *v >= 0 && *v <= 3)
            m_stage->button(int(*v))->setChecked(true);
        const std::pair<QSpinBox*, const char*> ints[] = {
            {m_micro, "train_micro_batch_size_per_gpu"},
            {m_accum, "gradient_accumulation_steps"},
            {m_warmup, "scheduler.params.warmup_num_steps"},
            {m_reduceBucket, "zero_optimization.reduce_bucket_size"},
            {m_allgatherBucket, "zero_optimization.allgather_bucket_size"},
            {m_layers, "model.n_layer"},
            {m_heads, "model.n_head"},
            {m_embd, "model.n_embd"},
            {m_context, "model.seq_len"},
            {m_vocab, "model.vocab_size"},
            {m_steps, "run.steps"}};
        for (auto [spin, path] : ints)
            if (auto v = numberAt(doc, QString::fromLatin1(path)))
                spin->setValue(int(*v));
        if (auto v = numberAt(doc, QStringLiteral("optimizer.params.lr")))
            m_lr->setValue(*v);
        if (auto v = numberAt(doc, QStringLiteral("optimizer.params.weight_decay")))
            m_weightDecay->setValue(*v);
        if (auto v = numberAt(doc, QStringLiteral("gradient_clipping")))
            m_clip->setValue(*v);
        if (auto v = boolAt(doc, QStringLiteral("bf16.enabled")))
            m_precision->setCurrentIndex(*v ? 1 : 0);
        const std::pair<QCheckBox*, const char*> bools[] = {
            {m_overlap, "zero_optimization.overlap_comm"},
            {m_allgatherPartitions, "zero_optimization.allgather_partitions"},
            {m_reduceScatter, "zero_optimization.reduce_scatter"},
            {m_contiguous, "zero_optimization.contiguous_gradients"}};
        for (auto [box, path] : bools)
            if (auto v = boolAt(doc, QString::fromLatin1(path)))
                box->setChecked(*v);
        const std::pair<QComboBox*, const char*> strings[] = {
            {m_optimizer, "optimizer.type"}, {m_scheduler, "scheduler.type"},
            {m_preset, "model.preset"},      {m_recompute, "model.recompute"},
            {m_dataType, "data.type"},       {m_device, "run.device"}};
        for (auto [combo, path] : strings)
            if (auto v = stringAt(doc, QString::fromLatin1(path)))
                setCombo(combo, *v);
        if (auto v = stringAt(doc, QStringLiteral("data.path")))
            m_dataPath->setText(*v);
        if (hf)
            setCombo(m_preset, kHfItem);
        if (auto v = numberAt(doc, QStringLiteral("model.seq_len")))
            m_trainSeq->setValue(int(*v));
    }
    updateDerived();
    m_showing = false;
}

void ConfigForm::applyEdit(OrderedJson& doc, const QString& path) const {
    const auto keepBatchConsistent = [&] {
        if (const auto* tbs = jsonAt(doc, QStringLiteral("train_batch_size"));
            tbs && tbs->is_number())
            doc["train_batch_size"] = 1LL * m_micro->value() * m_accum->value() * m_world->value();
    };
    if (path == QLatin1String("world")) {
        keepBatchConsistent();
    } else if (path == QLatin1String("zero_optimization.stage")) {
        jsonSet(doc, path, m_stage->checkedId());
    } else if (path == QLatin1String("train_micro_batch_size_per_gpu") ||
               path == QLatin1String("gradient_accumulation_steps")) {
        jsonSet(doc, path, static_cast<QSpinBox*>(m_fields.value(path))->value());
        keepBatchConsistent();
    } else if (path == QLatin1String("bf16.enabled")) {
        jsonSet(doc, path, m_precision->currentIndex() == 1);
    } else if (path == QLatin1String("scheduler.type")) {
        if (m_scheduler->currentIndex() == 0) {
            jsonErase(doc, QStringLiteral("scheduler"));
        } else {
            jsonSet(doc, path, m_scheduler->currentText().toStdString());
            jsonSet(doc, QStringLiteral("scheduler.params.warmup_num_steps"), m_warmup->value());
        }
    } else if (path == QLatin1String("scheduler.params.warmup_num_steps")) {
        if (m_scheduler->currentIndex() != 0)
            jsonSet(doc, path, m_warmup->value());
    } else if (path == model_keys::kHfConfig) {
        // The HF config decides the shape: no preset, no shape key beside it.
        jsonErase(doc, QString(model_keys::kPreset));
        for (QLatin1StringView k : model_keys::kShapeKeys)
            jsonErase(doc, QString(k));
        jsonSet(doc, path, m_hfConfig.toStdString());
    } else if (path == QLatin1String("model.preset")) {
        if (m_preset->currentText() == kHfItem)
            return; // set by chooseHfConfig only
        jsonErase(doc, QString(model_keys::kHfConfig));
        for (QLatin1StringView k : model_keys::kShapeKeys)
            jsonErase(doc, QString(k));
        if (m_preset->currentText() == kCustom) {
            jsonErase(doc, path);
            const std::pair<const char*, const QSpinBox*> spins[] = {{"model.n_layer", m_layers},
                                                                     {"model.n_head", m_heads},
                                                                     {"model.n_embd", m_embd},
                                                                     {"model.seq_len", m_context},
                                                                     {"model.vocab_size", m_vocab}};
            for (auto [key, spin] : spins)
                jsonSet(doc, QString::fromLatin1(key), spin->value());
        } else {
            jsonSet(doc, path, m_preset->currentText().toStdString());
        }
    } else if (path == QLatin1String("model.seq_len") && m_preset->currentText() != kCustom) {
        // A Llama model's training T (its context is the preset's or the HF config's).
        if (shownShape().family == Family::Llama)
            jsonSet(doc, path, m_trainSeq->value());
    } else if (path == QLatin1String("model.recompute")) {
        jsonSet(doc, path, m_recompute->currentText().toStdString());
    } else if (path.startsWith(QLatin1String("model."))) {
        if (m_preset->currentText() == kCustom)
            jsonSet(doc, path, static_cast<QSpinBox*>(m_fields.value(path))->value());
    } else if (path == QLatin1String("data.path")) {
        if (m_dataPath->text().isEmpty())
            jsonErase(doc, path);
        else
            jsonSet(doc, path, m_dataPath->text().toStdString());
    } else if (auto* w = m_fields.value(path)) {
        if (auto* s = qobject_cast<QSpinBox*>(w))
            jsonSet(doc, path, s->value());
        else if (auto* d = qobject_cast<QDoubleSpinBox*>(w))
            jsonSet(doc, path, d->value());
        else if (auto* c = qobject_cast<QComboBox*>(w))
            jsonSet(doc, path, c->currentText().toStdString());
        else if (auto* b = qobject_cast<QCheckBox*>(w))
            jsonSet(doc, path, b->isChecked());
    }
}

int ConfigForm::world() const {
    return m_world->value();
}

void ConfigForm::setWorld(int n) {
    m_showing = true;
    m_world->setValue(n);
    m_showing = false;
    updateDerived();
}

int ConfigForm::stage() const {
    return m_stage->checkedId();
}

LauncherSettings ConfigForm::launcher() const {
    return {m_mpirun->text(), m_hosts->text(), m_hostfile->text(), m_extraArgs->text()};
}

void ConfigForm::setLauncher(const LauncherSettings& s) {
    m_mpirun->setText(s.mpirun);
    m_hosts->setText(s.hosts);
    m_hostfile->setText(s.hostfile);
    m_extraArgs->setText(s.extraArgs);
}

QWidget* ConfigForm::fieldFor(const QString& path) const {
    return m_fields.value(path);
}

} // namespace zerolab
