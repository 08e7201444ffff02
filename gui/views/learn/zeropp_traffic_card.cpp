// Learn's ZeRO++ card (zeropp_traffic_card.h): plan() for each variant on the paper model's
// shape, its StagePlan's traffic.link drawn as two panels of horizontal bars, across hosts
// on the left (with the share of plain stage 3 at each bar's end) and within a host beside.
#include "gui/views/learn/zeropp_traffic_card.h"

#include "gui/core/palette.h"
#include "gui/core/units.h"
#include "gui/widgets/chart_actions.h"
#include "gui/widgets/style.h"
#include "gui/widgets/titled_card.h"
#include "runtime/config/config.h"
#include "runtime/planner/paper_activations.h"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QShowEvent>
#include <QSpinBox>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace zerolab {

namespace {

constexpr int kPlainStage3 = 3; // variants() index of plain stage 3
constexpr int kAllThree = 7;    // and of stage 3 with qwZ, hpZ and qgZ
constexpr int kGpt2Vocab = 50257;

// The GPT shape of a paper model (GPT-2's vocabulary, as the planner's GPT-3 shapes).
ModelShape shapeOf(const TransformerDims& m) {
    return ModelShape{m.layers, m.heads, m.hidden, m.seq_len, kGpt2Vocab, padVocab(kGpt2Vocab)};
}

// Styles the axes of a second axis rect as stylePlot() styles the first's.
void styleLike(QCPAxisRect* rect, QCustomPlot* plot) {
    for (QCPAxis::AxisType type : {QCPAxis::atBottom, QCPAxis::atLeft}) {
        QCPAxis* from = type == QCPAxis::atBottom ? plot->xAxis : plot->yAxis;
        QCPAxis* to = rect->axis(type);
        to->setBasePen(from->basePen());
        to->setTickPen(from->tickPen());
        to->setSubTickPen(from->subTickPen());
        to->setTickLabelColor(from->tickLabelColor());
        to->setLabelColor(from->labelColor());
        to->setTickLabelFont(from->tickLabelFont());
        to->setLabelFont(from->labelFont());
        to->grid()->setPen(from->grid()->pen());
        to->grid()->setSubGridVisible(false);
        to->grid()->setZeroLinePen(Qt::NoPen);
        to->setTickLength(0, 4);
    }
    for (QCPAxis::AxisType type : {QCPAxis::atTop, QCPAxis::atRight})
        if (QCPAxis* a = rect->axis(type))
            a->setVisible(false);
}

QCPBars* horizontalBars(QCPAxisRect* rect, const QColor& color) {
    auto* bars = new QCPBars(rect->axis(QCPAxis::atLeft), rect->axis(QCPAxis::atBottom));
    bars->setPen(Qt::NoPen);
    bars->setBrush(color);
    bars->setWidth(0.7);
    return bars;
}

} // namespace

const std::vector<TrafficVariant>& ZeroPPTrafficCard::variants() {
    static const std::vector<TrafficVariant> kVariants = {
        {0, false, false, false}, {1, false, false, false}, {2, false, false, false},
        {3, false, false, false}, {3, true, false, false},  {3, false, true, false},
        {3, false, false, true},  {3, true, true, true},
    };
    return kVariants;
}

ZeroPPTrafficCard::ZeroPPTrafficCard(QWidget* parent)
    : QWidget(parent), m_modelLabel(new QLabel), m_model(new QComboBox), m_hostsLabel(new QLabel),
      m_hosts(new QSpinBox), m_perHostLabel(new QLabel), m_perHost(new QSpinBox),
      m_plot(new QCustomPlot), m_verdict(new QLabel) {
    // The plot takes the card's height (Learn's tabs are short at 1280x800); the controls
    // and the verdict stand in a column beside it.
    auto* body = new QWidget;
    auto* layout = new QHBoxLayout(body);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(10);
    for (const TransformerDims& m : kPaperModels)
        m_model->addItem(QString::fromUtf8(m.name.data(), int(m.name.size())));
    m_model->setCurrentIndex(int(kPaperModels.size()) - 1);
    m_hosts->setRange(2, 1024);
    m_hosts->setValue(4);
    m_perHost->setRange(1, 16);
    m_perHost->setValue(8); // the paper's 8 GPUs a node
    auto* side = new QWidget;
    side->setFixedWidth(205);
    auto* column = new QVBoxLayout(side);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(4);
    auto* form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->setVerticalSpacing(3);
    form->addRow(m_modelLabel, m_model);
    form->addRow(m_hostsLabel, m_hosts);
    form->addRow(m_perHostLabel, m_perHost);
    column->addLayout(form);
    m_verdict->setWordWrap(true);
    m_verdict->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    column->addWidget(m_verdict, 1);

    stylePlot(m_plot);
    attachChartActions(m_plot);
    m_plot->setMinimumHeight(155); // eight bars a panel, readable at 1280x800
    m_withinRect = new QCPAxisRect(m_plot);
    m_plot->plotLayout()->addElement(0, 1, m_withinRect);
    styleLike(m_withinRect, m_plot);
    // Across hosts is the point, and its bars carry their ratio: the wider panel.
    m_plot->plotLayout()->setColumnStretchFactor(0, 3);
    m_plot->plotLayout()->setColumnStretchFactor(1, 2);
    m_withinRect->axis(QCPAxis::atLeft)->setTickLabels(false);
    // The two panels' bars on the same rows.
    auto* rows = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    m_withinRect->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    m_plot->xAxis2->setVisible(false);
    m_plot->yAxis2->setVisible(false);
    m_plot->yAxis->grid()->setVisible(false);
    m_withinRect->axis(QCPAxis::atLeft)->grid()->setVisible(false);
    // Few value ticks: a panel may be 150 px wide (zh_CN's wider side pane).
    m_plot->xAxis->ticker()->setTickCount(3);
    m_withinRect->axis(QCPAxis::atBottom)->ticker()->setTickCount(3);
    m_acrossBars = horizontalBars(m_plot->axisRect(), kMeasuredSeries);
    m_withinBars = horizontalBars(m_withinRect, kAccent);
    layout->addWidget(m_plot, 1);
    layout->addWidget(side);

    const TitledCard card = makeTitledCard(body);
    m_title = card.title;
    m_hint = card.hint;
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(card.frame);

    connect(m_model, &QComboBox::currentIndexChanged, this, [this] { replan(); });
    connect(m_hosts, &QSpinBox::valueChanged, this, [this] { replan(); });
    connect(m_perHost, &QSpinBox::valueChanged, this, [this] { replan(); });
    retranslate();
}

void ZeroPPTrafficCard::setModel(int index) {
    m_model->setCurrentIndex(index);
}

void ZeroPPTrafficCard::setHosts(int hosts) {
    m_hosts->setValue(hosts);
}

void ZeroPPTrafficCard::setGpusPerHost(int gpus) {
    m_perHost->setValue(gpus);
}

PlanInput ZeroPPTrafficCard::input(const TrafficVariant& v) const {
    // The variant as a training config would state it, planned as every config is.
    const TransformerDims& m = kPaperModels[std::size_t(std::max(0, m_model->currentIndex()))];
    TrainConfig c;
    c.model.shape = shapeOf(m);
    c.model.seq_len = c.model.shape.seq_len;
    c.batch.micro_batch = 1;
    c.batch.grad_accum = 1;
    c.batch.world = m_hosts->value() * m_perHost->value();
    c.batch.train_batch_size = c.batch.world;
    c.precision = Precision::Bf16Mixed;
    c.zero.stage = v.stage;
    c.zero.quantized_weights = v.qwz;
    c.zero.hpz_partition_size = v.hpz ? m_perHost->value() : 1;
    c.zero.quantized_gradients = v.qgz;
    c.run.ranks_per_host = m_perHost->value();
    return planInputFromConfig(c);
}

std::optional<double> ZeroPPTrafficCard::allThreeRatio() const {
    if (m_traffic.size() != variants().size() || m_traffic[kPlainStage3].across <= 0)
        return std::nullopt;
    return m_traffic[kAllThree].across / m_traffic[kPlainStage3].across;
}

std::vector<double> ZeroPPTrafficCard::acrossBytes() const {
    std::vector<double> out;
    for (auto it = m_acrossBars->data()->constBegin(); it != m_acrossBars->data()->constEnd(); ++it)
        out.push_back(it->value * m_acrossUnit);
    std::reverse(out.begin(), out.end()); // keys run bottom to top
    return out;
}

std::vector<double> ZeroPPTrafficCard::withinBytes() const {
    std::vector<double> out;
    for (auto it = m_withinBars->data()->constBegin(); it != m_withinBars->data()->constEnd(); ++it)
        out.push_back(it->value * m_withinUnit);
    std::reverse(out.begin(), out.end());
    return out;
}

QString ZeroPPTrafficCard::acrossLabel(int i) const {
    return i >= 0 && std::size_t(i) < m_acrossLabels.size() ? m_acrossLabels[std::size_t(i)]
                                                            : QString();
}

QString ZeroPPTrafficCard::verdictText() const {
    return m_verdict->text();
}

QString ZeroPPTrafficCard::variantName(const TrafficVariant& v) const {
    if (v.stage < 3 || !(v.qwz || v.hpz || v.qgz))
        return tr("ZeRO %1").arg(v.stage);
    if (v.qwz && v.hpz && v.qgz)
        return tr("ZeRO++ (all three)");
    return tr("ZeRO 3 + %1")
        .arg(v.qwz   ? QStringLiteral("qwZ")
             : v.hpz ? QStringLiteral("hpZ")
                     : QStringLiteral("qgZ"));
}

void ZeroPPTrafficCard::retranslate() {
    m_title->setText(tr("ZeRO++: bytes a GPU sends across hosts"));
    m_title->setToolTip(tr("ZeRO++: Wang et al. 2023, arXiv:2306.10209. Every bar is the "
                           "planner's traffic by link class, as zerolab-plan --explain prints "
                           "it for a config with these keys."));
    m_modelLabel->setText(tr("Model"));
    m_hostsLabel->setText(tr("Hosts"));
    m_perHostLabel->setText(tr("GPUs a host"));
    m_perHost->setToolTip(tr("hpZ's group: a host's GPUs"));
    if (isVisible())
        replan();
    else
        m_stale = true;
}

void ZeroPPTrafficCard::showEvent(QShowEvent* event) {
    if (m_stale)
        replan();
    QWidget::showEvent(event);
}

void ZeroPPTrafficCard::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void ZeroPPTrafficCard::replan() {
    m_stale = false;
    const std::vector<TrafficVariant>& vs = variants();
    m_traffic.clear();
    m_acrossLabels.clear();
    m_acrossBars->data()->clear();
    m_withinBars->data()->clear();
    m_plot->clearItems();
    const int gpus = m_perHost->value();
    const int world = m_hosts->value() * gpus;
    m_hint->setText(tr("per GPU per step: N = %1 × %2 = %3 GPUs, bf16")
                        .arg(m_hosts->value())
                        .arg(gpus)
                        .arg(world));
    // plan() plans all four stages: one plan per combination of ZeRO++'s parts.
    QString refused;
    std::optional<Plan> plain;
    for (const TrafficVariant& v : vs) {
        try {
            const bool zpp = v.qwz || v.hpz || v.qgz;
            if (!zpp && !plain)
                plain = plan(input(v));
            const Plan p = zpp ? plan(input(v)) : *plain;
            m_traffic.push_back(p.stages[std::size_t(v.stage)].traffic.link);
        } catch (const PlanError& e) {
            refused = QString::fromStdString(e.what());
            break;
        }
    }
    if (!refused.isEmpty()) {
        m_traffic.clear();
        m_verdict->setText(tr("No plan: %1").arg(refused));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    double maxAcross = 0, maxWithin = 0;
    for (const LinkTraffic& t : m_traffic) {
        maxAcross = std::max(maxAcross, t.across);
        maxWithin = std::max(maxWithin, t.within);
    }
    const DisplayUnit across = byteUnitFor(maxAcross);
    const DisplayUnit within = byteUnitFor(maxWithin);
    m_acrossUnit = across.divisor;
    m_withinUnit = within.divisor;
    const double plainAcross = m_traffic[kPlainStage3].across;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int n = int(vs.size());
    for (int i = 0; i < n; ++i) {
        const double key = n - i; // the first variant on top
        const LinkTraffic& t = m_traffic[std::size_t(i)];
        ticker->addTick(key, variantName(vs[std::size_t(i)]));
        m_acrossBars->addData(key, t.across / across.divisor);
        m_withinBars->addData(key, t.within / within.divisor);
        const QString share = plainAcross > 0
                                  ? QStringLiteral("%1×").arg(t.across / plainAcross, 0, 'f', 2)
                                  : QStringLiteral("—");
        m_acrossLabels.push_back(share);
        auto* label = new QCPItemText(m_plot);
        label->setClipAxisRect(m_plot->axisRect());
        label->position->setAxes(m_plot->xAxis, m_plot->yAxis);
        label->position->setCoords(t.across / across.divisor, key);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->setPadding(QMargins(4, 0, 0, 0));
        label->setColor(i == kAllThree ? kTextDarkest : kTextStrong);
        QFont f = m_plot->xAxis->tickLabelFont();
        f.setBold(i == kAllThree);
        label->setFont(f);
        label->setText(m_acrossLabels.back());
    }
    m_plot->yAxis->setTicker(ticker);
    m_withinRect->axis(QCPAxis::atLeft)->setTicker(ticker);
    for (QCPAxis* key : {m_plot->yAxis, m_withinRect->axis(QCPAxis::atLeft)})
        key->setRange(0.4, n + 0.6);
    // Room at the bars' ends for their labels.
    m_plot->xAxis->setRange(0, std::max(1e-9, maxAcross / across.divisor) * 1.8);
    m_withinRect->axis(QCPAxis::atBottom)
        ->setRange(0, std::max(1e-9, maxWithin / within.divisor) * 1.1);
    m_plot->xAxis->setLabel(tr("Across hosts (%1), × plain stage 3").arg(across.name));
    m_withinRect->axis(QCPAxis::atBottom)->setLabel(tr("Within a host (%1)").arg(within.name));
    m_plot->replot(QCustomPlot::rpQueuedReplot);

    if (const auto r = allThreeRatio())
        m_verdict->setText(
            tr("The paper: 3M → 0.75M across nodes (0.25×), M the model at 16 bits. The "
               "planner: %1 → %2 (%3×).")
                .arg(formatBytes(plainAcross), formatBytes(m_traffic[kAllThree].across))
                .arg(*r, 0, 'f', 2));
    else
        m_verdict->setText(tr("No link between hosts: nothing crosses one."));
}

} // namespace zerolab
