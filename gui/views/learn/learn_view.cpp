// Learn tab: inputs -> plan() -> ForecastPanel; explain() for the selected stage;
// the chapter scenarios set the inputs and switch to the chapter's convention so
// the planner lists each slip next to the correct number.
#include "gui/views/learn/learn_view.h"

#include "gui/core/runtime_text.h"
#include "gui/core/units.h"
#include "gui/views/learn/bandwidth_card.h"
#include "gui/views/learn/zeropp_traffic_card.h"
#include "gui/widgets/forecast_panel.h"
#include "gui/widgets/form_rows.h"
#include "gui/widgets/memory_bar_chart.h"
#include "gui/widgets/side_pane.h"
#include "gui/widgets/style.h"
#include "runtime/model/activation_layout.h"
#include "runtime/planner/planner_layout.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace zerolab {

namespace {

// The world slider is logarithmic: position p stands for N = round(2^(p/10)), 1..1024.
constexpr int kSliderMax = 100;
int worldForSlider(int p) {
    return int(std::lround(std::pow(2.0, p / 10.0)));
}
int sliderForWorld(int n) {
    return int(std::lround(10.0 * std::log2(std::max(1, n))));
}

struct ScenarioText {
    const char* title;
    const char* body;
};

constexpr int kScenarioCount = 7;
constexpr int kChapterScenarios = 4; // the first four; then the Llama family's

const ScenarioText kScenarios[kScenarioCount] = {
    {QT_TRANSLATE_NOOP("zerolab::LearnView", "10B parameters: the optimizer states"),
     QT_TRANSLATE_NOOP(
         "zerolab::LearnView",
         "The chapter: Adam's m and v take 8ψ bytes, 80 GB at ψ = 10B, already a whole A100 80 GB. "
         "That figure is right. What it leaves out is the fp32 master copy, which DeepSpeed shards "
         "together with m and v: the states stage 1 shards are 12ψ = 120 GB, not 8ψ.")},
    {QT_TRANSLATE_NOOP("zerolab::LearnView", "6.7B on 8 × A100 80 GB, stage 1"),
     QT_TRANSLATE_NOOP(
         "zerolab::LearnView",
         "The chapter counts fp32 gradients and a replicated master: 13.4 + 26.8 + 26.8 + 53.6/8 + "
         "10 GB activations = 83.7 GB, then claims that gradient accumulation halves gradient "
         "memory (70.3 GB). Accumulation does not shrink gradients; it lets a smaller micro-batch "
         "reach the same global batch, which shrinks activations. In DeepSpeed's layout (bf16 "
         "grads, master sharded) stage 1 needs 4ψ + 12ψ/8 = 36.9 GB plus activations: it fits "
         "without the trick.")},
    {QT_TRANSLATE_NOOP("zerolab::LearnView", "175B on 64 GPUs, stage 1"),
     QT_TRANSLATE_NOOP(
         "zerolab::LearnView",
         "The chapter's table shards only m and v yet totals 14ψ + 4ψ/N: 2460.9 GB. Its own rows "
         "add up to 10ψ + 8ψ/N = 1771.9 GB, and the saving tends to 44%, not 22%. With the master "
         "sharded too (ZeRO paper, K = 12) stage 1 is 4ψ + 12ψ/N = 732.8 GB per GPU: still far "
         "beyond one device, which is why stages 2 and 3 exist.")},
    {QT_TRANSLATE_NOOP("zerolab::LearnView", "ZeRO-Offload: 13B on one GPU"),
     QT_TRANSLATE_NOOP(
         "zerolab::LearnView",
         "ZeRO-Offload trains 13B parameters on one 32 GB V100. With offload_optimizer on the "
         "CPU, stage 2 at N = 1 keeps only the 16-bit parameters (2ψ = 26 GB) and a reduce bucket "
         "on the GPU; the fp32 master, m, v and the gradients (14ψ = 182 GB) live in host memory. "
         "Without offload the same stage needs 16ψ = 208 GB. The price is PCIe: every step the "
         "gradients go down and the parameters come back, 4ψ = 52 GB, about 2 s at 25 GB/s. "
         "Shown on a V100 32 GB, as in the paper and DeepSpeed's tutorial; zerolab forecasts "
         "offload, it does not run it.")},
    {QT_TRANSLATE_NOOP("zerolab::LearnView", "Llama 3.1 8B on 8 × A100"),
     QT_TRANSLATE_NOOP(
         "zerolab::LearnView",
         "Llama 3.1 8B (ψ = 8.03B: 32 layers, 8 KV heads of 32, FFN 14336, a 128k vocabulary, "
         "untied head) at 4096 tokens. The model states are small at N = 8: 4ψ + 12ψ/8 = 44 GB "
         "at stage 1, 2ψ + 14ψ/8 = 30 GB at stage 2. The activations decide. Without recompute "
         "one sequence keeps about 42 GB: stage 1 does not fit even at b = 1, stage 2 barely "
         "does. Selective recompute (about 30 GB) still leaves stage 1 short. Full recompute "
         "keeps only each block's input, about 8 GB a sequence: stage 1 fits up to b = 3, stage "
         "2 up to b = 5. The forecast assumes flash attention (the Llama family runs flash "
         "attention "
         "only, so there is no s² term) and fp32 activations, as zerolab's CPU engine keeps "
         "them: a bf16 GPU run would keep about half.")},
    {QT_TRANSLATE_NOOP("zerolab::LearnView", "Llama 3.1 70B on 64 × A100"),
     QT_TRANSLATE_NOOP(
         "zerolab::LearnView",
         "Llama 3.1 70B (ψ = 70.6B, 80 layers, C = 8192) needs stage 3: stage 2 keeps the 16-bit "
         "parameters whole, 2ψ = 141 GB. At stage 3 on 64 GPUs the sharded states are "
         "16ψ/64 = 17.6 GB; with full recompute one 4096-token sequence adds about 19 GB, so "
         "b = 2 fits and b = 3 does not. Selective recompute keeps about 127 GB a sequence: "
         "it does not fit at any N, because activations are not sharded by ZeRO. Flash "
         "attention (the Llama family's only kernel) and fp32 activations (zerolab's CPU "
         "engine) are assumed.")},
    {QT_TRANSLATE_NOOP("zerolab::LearnView", "Llama 3.1 405B on 512 × H200"),
     QT_TRANSLATE_NOOP(
         "zerolab::LearnView",
         "Llama 3.1 405B (ψ = 406B, 126 layers, C = 16384): 16ψ = 6.5 TB of model states, "
         "12.7 GB per GPU at stage 3 on 512 GPUs. What does not shrink with N decides: one "
         "4096-token sequence with full recompute keeps about 45 GB, and stage 3 gathers whole "
         "layers (each 3.2B parameters) into buffers of its own. On H100 80 GB it does not fit "
         "at any N; on H200 141 GB it fits at b = 1. Meta trained it with tensor and pipeline "
         "parallelism beside data parallelism, which split the activations and the layers too. "
         "Flash attention (the Llama family's only kernel) and fp32 activations (zerolab's CPU "
         "engine) are assumed.")},
};

struct LlamaScenario {
    const char* preset;
    int world;
    int stage;
    int micro_batch;
    int seq_len;
    Recompute recompute;
    const char* device;
};
// In Scenario order after the chapter's four.
const LlamaScenario kLlamaScenarios[kScenarioCount - kChapterScenarios] = {
    {"llama-3.1-8b", 8, 1, 2, 4096, Recompute::Full, "a100-80"},
    {"llama-3.1-70b", 64, 3, 1, 4096, Recompute::Full, "a100-80"},
    {"llama-3.1-405b", 512, 3, 1, 4096, Recompute::Full, "h200-141"},
};

// ψ as the planner takes it: the count given, else the shape's.
std::int64_t plannedPsi(const PlanInput& in) {
    return in.params >= 0.5 ? std::llround(in.params) : paramCount(*in.shape);
}

} // namespace

LearnView::LearnView(QWidget* parent)
    : QWidget(parent), m_forecast(new ForecastPanel), m_explain(new QPlainTextEdit),
      m_scenarioText(new QLabel), m_errata(new QTableWidget), m_bandwidth(new BandwidthCard),
      m_zeroppTraffic(new ZeroPPTrafficCard), m_tabs(new QTabWidget) {
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(10);
    leftLayout->addWidget(buildControls());
    leftLayout->addWidget(buildScenarios(), 1);
    // In a window shorter than the panes' natural height (an unmaximised 1281x731) the side
    // pane and the tabs' chart pages scroll, rather than the bars losing their axis and
    // stage labels to a squeezed layout.
    const auto scrolling = [](QWidget* content) {
        auto* scroll = new QScrollArea;
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        scroll->setWidget(content);
        return scroll;
    };
    QScrollArea* side = scrolling(left);
    side->setMinimumWidth(300);
    side->setMaximumWidth(400);

    QSplitter* right = makeSplitter(Qt::Vertical);
    right->addWidget(makeCard(m_forecast));
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    mono.setPointSizeF(8.5);
    m_explain->setFont(mono);
    m_explain->setReadOnly(true);
    m_explain->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_tabs->addTab(m_explain, QString());
    m_errata->setColumnCount(3);
    m_errata->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_errata->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_errata->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_errata->verticalHeader()->setVisible(false);
    m_errata->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_errata->setWordWrap(true);
    m_errata->setAlternatingRowColors(true);
    m_tabs->addTab(m_errata, QString());
    m_tabs->addTab(scrolling(m_bandwidth), QString());
    m_tabs->addTab(scrolling(m_zeroppTraffic), QString());
    right->addWidget(m_tabs);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    layOutWithSidePane(this, side, right);

    m_forecast->setDeviceKey(QStringLiteral("a100-80"));
    connect(m_forecast, &ForecastPanel::deviceChanged, this, &LearnView::update);
    connect(m_forecast, &ForecastPanel::stageClicked, this, [this](int s) {
        m_stage = s;
        update();
    });
    retranslate();
}

void LearnView::showTab(int index) {
    m_tabs->setCurrentIndex(index);
}

void LearnView::retranslate() {
    m_forecast->setTitle(tr("Per-GPU memory by ZeRO stage"));
    m_tabs->setTabText(0, tr("How it adds up"));
    m_tabs->setTabText(1, tr("Chapter errata"));
    m_tabs->setTabText(2, tr("Step time vs bandwidth"));
    m_tabs->setTabText(3, tr("ZeRO++ across hosts"));
    m_errata->setHorizontalHeaderLabels({tr("Topic"), tr("The chapter says"), tr("Correct")});

    m_controlsBox->setTitle(tr("Model and cluster"));
    m_params->setSuffix(tr(" B params"));
    for (int i = 0; i < m_presetButtons.size(); ++i)
        m_presetButtons[i]->setToolTip(tr("ψ = %1 × 10⁹ parameters").arg(m_presetValues[i]));
    m_precision->setItemText(0, tr("bf16 mixed (fp32 master, K = 12)"));
    m_precision->setItemText(1, tr("fp32 (no master, K = 8)"));
    m_convention->setItemText(0, tr("ZeRO paper / DeepSpeed"));
    m_convention->setItemText(1, tr("The chapter's layout"));
    m_convention->setToolTip(tr("The chapter keeps fp32 gradients and a replicated fp32 master; "
                                "DeepSpeed shards the master with m and v."));
    m_activationSource->setItemText(kNotCounted, tr("Not counted"));
    m_activationSource->setItemText(kGiven, tr("Given per GPU"));
    for (std::size_t m = 0; m < kRecomputeNames.size(); ++m)
        m_activationSource->setItemText(
            kPaper + int(m),
            tr("Korthikanti et al., recompute %1")
                .arg(QString::fromUtf8(kRecomputeNames[m].data(), int(kRecomputeNames[m].size()))));
    for (std::size_t m = 0; m < kRecomputeNames.size(); ++m)
        m_activationSource->setItemText(
            kExact + int(m),
            tr("zerolab's arena, recompute %1")
                .arg(QString::fromUtf8(kRecomputeNames[m].data(), int(kRecomputeNames[m].size()))));
    m_model->setItemText(0, tr("ψ only (no shape)"));
    m_model->setToolTip(tr("A Llama-family preset: ψ from its tensors, and the exact activation "
                           "arena zerolab allocates for it (activationFootprint)."));
    m_seqLen->setPrefix(tr("s = "));
    m_seqLen->setToolTip(tr("Sequence length (tokens) for the exact arena, up to the model's "
                            "context."));
    setFormRowLabel(m_model, tr("Model"));
    setFormRowLabel(m_seqLen, tr("Sequence"));
    m_activationSource->setToolTip(
        tr("Activations per GPU. Korthikanti et al. 2022 (arXiv:2205.05198), 16-bit activations, "
           "per layer: sbh(34 + 5as/h) without recompute, 34sbh with selective recompute of the "
           "attention core, 2sbh with full recompute; needs the shape of a preset model. "
           "zerolab's arena: what zerolab allocates for the chosen model (fp32, flash attention "
           "for the Llama family), at micro-batch b and sequence length s."));
    m_activations->setSuffix(tr(" GB"));
    m_activations->setToolTip(tr("Activation memory per GPU given directly, e.g. the chapter's "
                                 "10 GB with checkpointing."));
    m_microBatch->setPrefix(tr("b = "));
    m_microBatch->setToolTip(tr("Micro-batch per GPU (sequences) for the formula."));
    m_logScale->setText(tr("Logarithmic memory axis"));
    m_logScale->setToolTip(tr("Bars that differ by orders of magnitude (stage 0 and stage 3 at "
                              "175B on 64 GPUs) all stay visible; segment heights within a bar "
                              "are then not to scale."));
    setFormRowLabel(m_params, tr("Parameters"));
    setFormRowLabel(m_world->parentWidget(), tr("GPUs N"));
    setFormRowLabel(m_precision, tr("Precision"));
    setFormRowLabel(m_convention, tr("Convention"));
    setFormRowLabel(m_activationSource->parentWidget(), tr("Activations"));

    m_scenariosBox->setTitle(tr("The chapter's scenarios"));
    m_llamaHeading->setText(
        QStringLiteral("<b>%1</b>")
            .arg(tr("The Llama family at 4096 tokens, its exact activations").toHtmlEscaped()));
    for (int i = 0; i < m_scenarioButtons.size(); ++i)
        m_scenarioButtons[i]->setText(tr(kScenarios[i].title));
    showScenarioText();
    update();
}

void LearnView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

QWidget* LearnView::buildControls() {
    m_controlsBox = new QGroupBox;
    auto* form = new QFormLayout(m_controlsBox);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    form->setContentsMargins(10, 14, 10, 8);
    m_params = new QDoubleSpinBox;
    m_params->setRange(0.001, 10000);
    m_params->setDecimals(3);
    m_params->setValue(6.7);
    m_params->setObjectName(QStringLiteral("params"));
    m_model = new QComboBox;
    m_model->setObjectName(QStringLiteral("model"));
    m_model->addItem(QString());
    for (const ModelPreset& p : modelPresets())
        if (p.shape.family == Family::Llama) {
            const QString name = QString::fromUtf8(p.name.data(), int(p.name.size()));
            m_model->addItem(name, name);
        }
    auto* presets = new QWidget;
    auto* presetRow = new QHBoxLayout(presets);
    presetRow->setContentsMargins(0, 0, 0, 0);
    presetRow->setSpacing(4);
    for (double b : {1.5, 6.7, 13.0, 175.0}) {
        auto* button = new QPushButton(QStringLiteral("%1B").arg(b));
        button->setStyleSheet(QStringLiteral("padding: 4px 2px;"));
        connect(button, &QPushButton::clicked, this, [this, b] { m_params->setValue(b); });
        presetRow->addWidget(button);
        m_presetButtons << button;
        m_presetValues << b;
    }
    m_worldSlider = new QSlider(Qt::Horizontal);
    m_worldSlider->setRange(0, kSliderMax);
    m_world = new QSpinBox;
    m_world->setRange(1, 1024);
    m_world->setValue(8);
    m_worldSlider->setValue(sliderForWorld(8));
    auto* worldRow = new QWidget;
    auto* worldLayout = new QHBoxLayout(worldRow);
    worldLayout->setContentsMargins(0, 0, 0, 0);
    worldLayout->addWidget(m_worldSlider, 1);
    worldLayout->addWidget(m_world);
    connect(m_worldSlider, &QSlider::valueChanged, this, [this](int p) {
        if (sliderForWorld(m_world->value()) != p)
            m_world->setValue(worldForSlider(p));
    });
    connect(m_world, &QSpinBox::valueChanged, this, [this](int n) {
        QSignalBlocker block(m_worldSlider);
        m_worldSlider->setValue(sliderForWorld(n));
        update();
    });
    // Items named in retranslate(); their order is what input() reads.
    m_precision = new QComboBox;
    m_precision->addItems({QString(), QString()});
    m_convention = new QComboBox;
    m_convention->setObjectName(QStringLiteral("convention"));
    m_convention->addItems({QString(), QString()});
    m_activationSource = new QComboBox;
    m_activationSource->setObjectName(QStringLiteral("activationSource"));
    m_activationSource->addItems({QString(), QString()});
    for (std::size_t m = 0; m < 2 * kRecomputeNames.size(); ++m)
        m_activationSource->addItem(QString());
    // ZeRO runs nearly always recompute activations: the default shows that case.
    m_activationSource->setCurrentIndex(kPaper + static_cast<int>(Recompute::Full));
    m_activations = new QDoubleSpinBox;
    m_activations->setRange(0, 10000);
    m_activations->setDecimals(1);
    m_microBatch = new QSpinBox;
    m_microBatch->setRange(1, 4096);
    m_microBatch->setValue(1);
    m_seqLen = new QSpinBox;
    m_seqLen->setObjectName(QStringLiteral("seqLen"));
    m_seqLen->setRange(1, 1 << 20);
    m_seqLen->setValue(4096);
    auto* activationRow = new QWidget;
    auto* activationLayout = new QHBoxLayout(activationRow);
    activationLayout->setContentsMargins(0, 0, 0, 0);
    activationLayout->setSpacing(4);
    activationLayout->addWidget(m_activationSource, 1);
    activationLayout->addWidget(m_activations);
    activationLayout->addWidget(m_microBatch);
    m_activationFormula = new QLabel;
    m_activationFormula->setObjectName(QStringLiteral("muted"));
    m_activationFormula->setWordWrap(true);
    m_logScale = new QCheckBox;
    addFormRow(form, m_model);
    addFormRow(form, m_params);
    form->addRow(QString(), presets);
    addFormRow(form, worldRow);
    addFormRow(form, m_precision);
    addFormRow(form, m_convention);
    addFormRow(form, activationRow);
    // s on a row of its own: beside the source and b the row would outgrow the side pane.
    addFormRow(form, m_seqLen);
    form->addRow(QString(), m_activationFormula);
    form->addRow(QString(), m_logScale);
    connect(m_params, &QDoubleSpinBox::valueChanged, this, &LearnView::update);
    connect(m_precision, &QComboBox::currentIndexChanged, this, &LearnView::update);
    connect(m_convention, &QComboBox::currentIndexChanged, this, &LearnView::update);
    connect(m_activations, &QDoubleSpinBox::valueChanged, this, &LearnView::update);
    connect(m_activationSource, &QComboBox::currentIndexChanged, this, &LearnView::update);
    connect(m_microBatch, &QSpinBox::valueChanged, this, &LearnView::update);
    connect(m_seqLen, &QSpinBox::valueChanged, this, &LearnView::update);
    connect(m_model, &QComboBox::currentIndexChanged, this, &LearnView::update);
    connect(m_logScale, &QCheckBox::toggled, m_forecast->chart(), &MemoryBarChart::setLogScale);
    return m_controlsBox;
}

QWidget* LearnView::buildScenarios() {
    m_scenariosBox = new QGroupBox;
    auto* layout = new QVBoxLayout(m_scenariosBox);
    layout->setContentsMargins(10, 14, 10, 8);
    for (int i = 0; i < kScenarioCount; ++i) {
        if (i == kChapterScenarios) {
            m_llamaHeading = new QLabel;
            m_llamaHeading->setTextFormat(Qt::RichText);
            m_llamaHeading->setWordWrap(true);
            layout->addWidget(m_llamaHeading);
        }
        auto* b = new QPushButton;
        m_scenarioButtons << b;
        b->setStyleSheet(QStringLiteral("text-align: left; padding: 6px 10px;"));
        const auto s = static_cast<Scenario>(i);
        connect(b, &QPushButton::clicked, this, [this, s] { showScenario(s); });
        layout->addWidget(b);
    }
    m_scenarioText->setWordWrap(true);
    m_scenarioText->setObjectName(QStringLiteral("muted"));
    m_scenarioText->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(m_scenarioText, 1);
    return m_scenariosBox;
}

void LearnView::showScenarioText() {
    if (!m_scenario) {
        m_scenarioText->setText(tr("Pick a scenario to load it in the chapter's convention; the "
                                   "errata tab then shows each slip next to the correct sum."));
        return;
    }
    const int i = static_cast<int>(*m_scenario);
    QString text =
        QStringLiteral("<b>%1</b><br>%2").arg(tr(kScenarios[i].title), tr(kScenarios[i].body));
    if (i >= kChapterScenarios)
        text += QStringLiteral("<br><br>") + llamaScenarioLine().toHtmlEscaped();
    m_scenarioText->setText(text);
}

QString LearnView::llamaScenarioLine() const {
    const auto& memory = m_forecast->currentPlan();
    const auto shape = modelShape();
    if (!memory || !shape)
        return {};
    const PlanInput& in = memory->input;
    const StagePlan& sp = memory->stages[std::size_t(in.stage)];
    const std::string_view mode = recomputeName(in.recompute);
    return tr("Loaded: %1 at stage %2, b = %3, s = %4, recompute %5 on %6 × %7: model states %8 "
              "+ activations %9 + buffers %10 = %11 per GPU, %12.")
        .arg(m_model->currentText())
        .arg(in.stage)
        .arg(in.micro_batch)
        .arg(in.seq_len)
        .arg(QString::fromUtf8(mode.data(), int(mode.size())))
        .arg(in.world)
        .arg(QString::fromStdString(in.device.label))
        .arg(formatBytes(double(sp.model_states_bytes)))
        .arg(formatBytes(double(sp.activation_bytes)))
        .arg(formatBytes(double(sp.comm_buffer_bytes + sp.workspace_bytes)))
        .arg(formatBytes(double(sp.total_bytes)))
        .arg(sp.fits ? tr("fits with %1 to spare").arg(formatBytes(double(sp.margin_bytes)))
                     : tr("short by %1").arg(formatBytes(double(-sp.margin_bytes))));
}

QString LearnView::scenarioText() const {
    return m_scenarioText->text();
}

QString LearnView::activationFormulaText() const {
    return m_activationFormula->text();
}

std::optional<ModelShape> LearnView::modelShape() const {
    if (m_model->currentIndex() <= 0)
        return std::nullopt;
    return findModelPreset(m_model->currentData().toString().toStdString());
}

void LearnView::showScenario(Scenario s) {
    const QSignalBlocker b1(m_params), b2(m_world), b3(m_precision), b4(m_convention),
        b5(m_activations), b6(m_worldSlider), b7(m_activationSource), b8(m_model), b9(m_microBatch),
        b10(m_seqLen);
    m_precision->setCurrentIndex(0);
    m_convention->setCurrentIndex(1);
    m_stage = 1;
    m_offload = OffloadDevice::None;
    QString device = QStringLiteral("a100-80");
    m_model->setCurrentIndex(0);
    switch (s) {
    case Scenario::TenBillionOptimizer:
        m_params->setValue(10);
        m_world->setValue(1);
        m_activationSource->setCurrentIndex(kNotCounted);
        break;
    case Scenario::SixPointSevenOnEight:
        m_params->setValue(6.7);
        m_params->setObjectName(QStringLiteral("params"));
        m_world->setValue(8);
        m_activationSource->setCurrentIndex(kGiven);
        m_activations->setValue(10);
        break;
    case Scenario::OneSeventyFiveOnSixtyFour:
        m_params->setValue(175);
        m_world->setValue(64);
        m_activationSource->setCurrentIndex(kNotCounted);
        break;
    case Scenario::ThirteenBillionOffload:
        m_params->setValue(13);
        m_world->setValue(1);
        m_activationSource->setCurrentIndex(kNotCounted);
        m_convention->setCurrentIndex(0);
        m_stage = 2;
        m_offload = OffloadDevice::Cpu;
        device = QStringLiteral("v100-32");
        break;
    case Scenario::Llama8BOnEight:
    case Scenario::Llama70BOnSixtyFour:
    case Scenario::Llama405BOnH200: {
        const LlamaScenario& l = kLlamaScenarios[static_cast<int>(s) - kChapterScenarios];
        m_model->setCurrentIndex(m_model->findData(QString::fromLatin1(l.preset)));
        m_convention->setCurrentIndex(0);
        m_world->setValue(l.world);
        m_stage = l.stage;
        m_microBatch->setValue(l.micro_batch);
        m_seqLen->setValue(l.seq_len);
        m_activationSource->setCurrentIndex(kExact + static_cast<int>(l.recompute));
        device = QString::fromLatin1(l.device);
        break;
    }
    }
    m_worldSlider->setValue(sliderForWorld(m_world->value()));
    m_forecast->setDeviceKey(device);
    m_scenario = s;
    m_scenarioText->setObjectName(QString());
    update();
}

PlanInput LearnView::input() const {
    PlanInput in;
    in.params = m_params->value() * 1e9;
    const auto shape = modelShape();
    if (shape) {
        // ψ from the model's tensors; its shape sizes the buffers and, with the exact
        // arena chosen, the activations.
        in.params = 0;
        in.shape = shape;
        if (m_activationSource->currentIndex() >= kExact) {
            in.micro_batch = m_microBatch->value();
            in.seq_len = std::min(m_seqLen->value(), shape->seq_len);
            in.recompute = static_cast<Recompute>(m_activationSource->currentIndex() - kExact);
        }
    }
    in.world = m_world->value();
    in.stage = m_stage;
    in.precision = m_precision->currentIndex() == 0 ? Precision::Bf16Mixed : Precision::Fp32;
    in.convention = m_convention->currentIndex() == 0 ? Convention::ZeroPaper : Convention::Chapter;
    if (const auto a = activations(shape ? double(paramCount(*shape)) : in.params); a) {
        in.activation_bytes = static_cast<long long>(std::llround(a->bytes));
        // Not typed in: "How it adds up" names the formula it comes from.
        if (m_activationSource->currentIndex() >= kPaper &&
            m_activationSource->currentIndex() < kExact) {
            const std::string_view mode =
                kRecomputeNames[std::size_t(m_activationSource->currentIndex() - kPaper)];
            in.activation_origin = Message(
                ZEROLAB_TR("PlanExplain", "Korthikanti et al. 2022, L x %1 (%2, micro-batch %3, "
                                          "recompute %4)"),
                {a->per_layer, std::string(paperModelFor(in.params)->name),
                 std::to_string(m_microBatch->value()), std::string(mode)});
        }
    }
    in.device = m_forecast->device(in.world);
    in.offload_optimizer = m_offload;
    return in;
}

std::optional<PaperActivations> LearnView::activations(double psi) const {
    const int source = m_activationSource->currentIndex();
    if (source == kNotCounted)
        return std::nullopt;
    if (source == kGiven)
        return PaperActivations{m_activations->value() * 1e9, {}};
    if (source >= kExact)
        return std::nullopt; // the planner counts the model's own arena
    const auto model = paperModelFor(psi);
    if (!model)
        return std::nullopt;
    return paperActivations(*model, m_microBatch->value(), static_cast<Recompute>(source - kPaper));
}

QString LearnView::explainText() const {
    return m_explain->toPlainText();
}

int LearnView::erratumRows() const {
    return m_errata->rowCount();
}

void LearnView::setLogScale(bool on) {
    m_logScale->setChecked(on);
}

void LearnView::markLayoutSwitch(const PlanInput& in) {
    MemoryBarChart* chart = m_forecast->chart();
    const auto& chapter = m_forecast->currentPlan();
    int stage = 1;
    while (stage < 4 && conventionAt(Convention::Chapter, stage) == Convention::Chapter)
        ++stage;
    if (in.convention != Convention::Chapter || !chapter || stage >= 4) {
        chart->setDropMarker(std::nullopt);
        return;
    }
    PlanInput zeroInput = in;
    zeroInput.convention = Convention::ZeroPaper;
    double via = 0;
    try {
        via = double(plan(zeroInput).stages[stage - 1].total_bytes);
    } catch (const PlanError&) { // no ZeRO plan of this input, no marker
        chart->setDropMarker(std::nullopt);
        return;
    }
    const double before = double(chapter->stages[stage - 1].total_bytes);
    const double after = double(chapter->stages[stage].total_bytes);
    const ShardedBy lower = shardedBy(Convention::ZeroPaper, stage - 1);
    const ShardedBy upper = shardedBy(Convention::ZeroPaper, stage);
    const QString sharded = upper.params && !lower.params ? tr("the parameters")
                            : upper.grads && !lower.grads ? tr("the gradients")
                                                          : tr("the optimizer states");
    DropMarker marker;
    marker.fromGroup = m_forecast->groupOfStage(stage - 1);
    marker.toGroup = m_forecast->groupOfStage(stage);
    marker.viaBytes = via;
    // Where the sharding saves nothing (N = 1) the layout is the whole drop: said so, not
    // "−21.0 GB of the −21.0 GB".
    if (via - after <= 1e-3 * (before - after)) {
        marker.firstLabel = tr("The chapter's layout → ZeRO's: −%1, the whole drop")
                                .arg(formatBytes(before - after));
        marker.secondLabel = tr("then stage %1 shards %2: nothing more at N = %3")
                                 .arg(stage)
                                 .arg(sharded)
                                 .arg(in.world);
    } else {
        marker.firstLabel = tr("The chapter's layout → ZeRO's: −%1 of the −%2 drop")
                                .arg(formatBytes(before - via), formatBytes(before - after));
        marker.secondLabel =
            tr("then stage %1 shards %2: −%3").arg(stage).arg(sharded, formatBytes(via - after));
    }
    marker.viaLabel = tr("stage %1 in ZeRO's layout: %2").arg(stage - 1).arg(formatBytes(via));
    chart->setDropMarker(marker);
}

void LearnView::update() {
    const int source = m_activationSource->currentIndex();
    m_activations->setVisible(source == kGiven);
    m_microBatch->setVisible(source >= kPaper);
    static_cast<QFormLayout*>(m_controlsBox->layout())->setRowVisible(m_seqLen, source >= kExact);
    const auto shape = modelShape();
    m_params->setEnabled(!shape);
    if (shape) {
        const QSignalBlocker block(m_params);
        m_params->setValue(double(paramCount(*shape)) / 1e9);
        m_seqLen->setMaximum(shape->seq_len);
    }
    const PlanInput in = input();
    if (source >= kExact) {
        if (!shape) {
            m_activationFormula->setText(
                tr("zerolab's arena needs a model's shape: pick a Llama model above. Not "
                   "counted."));
        } else {
            const Recompute mode = static_cast<Recompute>(source - kExact);
            const ActivationFootprint f =
                activationFootprint(*shape, in.micro_batch, in.seq_len, mode);
            const std::string_view name = recomputeName(mode);
            m_activationFormula->setText(
                tr("%1 × %2 layers + %3 = %4 at b = %5, s = %6, recompute %7: zerolab's arena "
                   "for %8 (fp32 activations, as zerolab's CPU engine keeps them; flash "
                   "attention, so no s² term)")
                    .arg(formatBytes(double(f.per_layer_bytes)))
                    .arg(shape->n_layer)
                    .arg(formatBytes(double(f.other_bytes)))
                    .arg(formatBytes(double(f.total(shape->n_layer))))
                    .arg(in.micro_batch)
                    .arg(in.seq_len)
                    .arg(QString::fromUtf8(name.data(), int(name.size())))
                    .arg(m_model->currentText()));
        }
    } else if (source < kPaper)
        m_activationFormula->setText(source == kGiven ? tr("Per GPU, as given.")
                                                      : tr("Activations left out of the bars."));
    else if (const auto a = activations(double(plannedPsi(in)))) {
        const TransformerDims m = *paperModelFor(double(plannedPsi(in)));
        const std::string_view mode = kRecomputeNames[std::size_t(source - kPaper)];
        m_activationFormula->setText(
            tr("L × %1 with L = %2, s = %3, b = %4, h = %5, a = %6 = %7 (Korthikanti et al. 2022, "
               "%8, recompute %9, 16-bit activations)")
                .arg(QString::fromStdString(a->per_layer))
                .arg(m.layers)
                .arg(m.seq_len)
                .arg(m_microBatch->value())
                .arg(m.hidden)
                .arg(m.heads)
                .arg(formatBytes(a->bytes))
                .arg(QString::fromUtf8(m.name.data(), int(m.name.size())))
                .arg(QString::fromUtf8(mode.data(), int(mode.size()))));
    } else
        m_activationFormula->setText(
            tr("The formula needs a model's shape: pick 1.5B, 6.7B, 13B or 175B. Not counted."));
    m_forecast->setInput(in);
    markLayoutSwitch(in);
    showScenarioText();
    std::array<bool, 4> fits{true, true, true, true};
    if (const auto& memory = m_forecast->currentPlan())
        for (std::size_t s = 0; s < fits.size() && s < memory->stages.size(); ++s)
            fits[s] = memory->stages[s].fits;
    m_bandwidth->setMemory(m_forecast->deviceKey(), fits);
    m_bandwidth->setInput(in);
    try {
        m_explain->setPlainText(runtimeLines(explainLines(in, m_stage, ByteUnit::GB)));
    } catch (const PlanError& e) {
        m_explain->setPlainText(QString::fromStdString(e.what()));
    }
    const auto& plan = m_forecast->currentPlan();
    m_errata->setRowCount(0);
    if (!plan)
        return;
    for (const Erratum& e : plan->errata) {
        const int row = m_errata->rowCount();
        m_errata->insertRow(row);
        // A statement ("text") has no number to show; the others add their value.
        const auto cell = [&](const Message& said, double v) {
            const QString text = runtimeText(said);
            if (e.unit == "text")
                return text;
            return QStringLiteral("%1\n= %2")
                .arg(text, e.unit == "fraction" ? QStringLiteral("%1%").arg(v * 100, 0, 'f', 1)
                                                : formatBytes(v));
        };
        m_errata->setItem(row, 0, new QTableWidgetItem(runtimeText(e.topic_text)));
        m_errata->setItem(row, 1, new QTableWidgetItem(cell(e.claimed_text, e.claimed_value)));
        auto* correct = new QTableWidgetItem(cell(e.correct_text, e.correct_value));
        correct->setForeground(kOkColor);
        m_errata->setItem(row, 2, correct);
    }
    m_errata->resizeRowsToContents();
}

} // namespace zerolab
