// Builds the Setup form and maps each widget to its JSON path. Tooltips on the
// ZeRO knobs say what each one changes, in one or two sentences.
#include "gui/views/setup/config_form.h"

#include "gui/core/json_path.h"
#include "gui/core/units.h"
#include "gui/widgets/file_dialog.h"
#include "gui/widgets/form_rows.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
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

const QString kCustom = QStringLiteral("custom");

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
    for (const auto& p : modelPresets())
        m_preset->addItem(QString::fromUtf8(p.name.data(), int(p.name.size())));
    m_preset->addItem(kCustom);
    m_layers = intSpin(1, 1024, 4);
    m_heads = intSpin(1, 1024, 4);
    m_embd = intSpin(1, 65536, 256);
    m_context = intSpin(1, 1 << 20, 128);
    m_vocab = intSpin(1, 1 << 24, 256);
    m_paramCount = new QLabel;
    m_paramCount->setObjectName(QStringLiteral("muted"));
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
    m_recompute = new QComboBox;
    for (std::string_view name : kRecomputeNames)
        m_recompute->addItem(QString::fromUtf8(name.data(), int(name.size())));
    for (QWidget* w : {static_cast<QWidget*>(m_preset), m_shapeRow, m_seqRow,
                       static_cast<QWidget*>(m_paramCount), static_cast<QWidget*>(m_recompute)})
        addFormRow(form, w);
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
    if (!custom) {
        if (const auto shape = findModelPreset(m_preset->currentText().toStdString())) {
            const bool was = m_showing;
            m_showing = true;
            m_layers->setValue(shape->n_layer);
            m_heads->setValue(shape->n_head);
            m_embd->setValue(shape->n_embd);
            m_context->setValue(shape->seq_len);
            m_vocab->setValue(shape->vocab_size);
            m_showing = was;
        }
    }
    ModelShape shape{m_layers->value(),  m_heads->value(), m_embd->value(),
                     m_context->value(), m_vocab->value(), padVocab(m_vocab->value())};
    const double psi = double(paramCount(shape));
    m_paramCount->setText(tr("%1  (%2 parameters)").arg(formatCount(psi)).arg(qint64(psi)));
    // warmup_num_steps belongs to every scheduler type and to no schedule at all.
    m_optimizerForm->setRowVisible(m_warmup, m_scheduler->currentIndex() != 0);
}

void ConfigForm::showConfig(const OrderedJson& doc, const std::optional<TrainConfig>& resolved) {
    m_showing = true;
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
        setCombo(m_preset,
                 c.model.preset.empty() ? kCustom : QString::fromStdString(c.model.preset));
        m_layers->setValue(c.model.shape.n_layer);
        m_heads->setValue(c.model.shape.n_head);
        m_embd->setValue(c.model.shape.n_embd);
        m_context->setValue(c.model.shape.seq_len);
        m_vocab->setValue(c.model.shape.vocab_size);
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
    } else if (path == QLatin1String("model.preset")) {
        const QStringList shapeKeys = {QStringLiteral("n_layer"), QStringLiteral("n_head"),
                                       QStringLiteral("n_embd"), QStringLiteral("seq_len"),
                                       QStringLiteral("vocab_size")};
        if (m_preset->currentText() == kCustom) {
            jsonErase(doc, path);
            const QSpinBox* spins[] = {m_layers, m_heads, m_embd, m_context, m_vocab};
            for (int i = 0; i < shapeKeys.size(); ++i)
                jsonSet(doc, QStringLiteral("model.") + shapeKeys[i], spins[i]->value());
        } else {
            for (const QString& k : shapeKeys)
                jsonErase(doc, QStringLiteral("model.") + k);
            jsonSet(doc, path, m_preset->currentText().toStdString());
        }
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
