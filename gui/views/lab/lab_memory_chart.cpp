// Two MemoryBarCharts side by side (the model states, the rest) on one scale, a category
// legend of what they draw and a line on the outline and the unit.

#include "gui/views/lab/lab_memory_chart.h"

#include "gui/widgets/category_colors.h"
#include "gui/widgets/memory_bar_chart.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace zerolab {

namespace {

// What is not a model state: activations, comm buffers, workspace.
MemBreakdown notModelStates(const MemBreakdown& b) {
    MemBreakdown m;
    for (std::size_t i = 0; i < kMemCategoryCount; ++i)
        m.bytes[i] = isModelState(static_cast<MemCategory>(i)) ? 0 : b.bytes[i];
    return m;
}

QLabel* titleLabel() {
    auto* l = new QLabel;
    l->setWordWrap(true);
    QFont f = l->font();
    f.setBold(true);
    l->setFont(f);
    return l;
}

} // namespace

LabMemoryChart::LabMemoryChart(QWidget* parent)
    : QWidget(parent), m_statesOnly(new QCheckBox), m_mainTitle(titleLabel()),
      m_restTitle(titleLabel()), m_restBox(new QWidget), m_main(new MemoryBarChart),
      m_rest(new MemoryBarChart), m_legend(new CategoryLegend(nullptr, 0)), m_note(new QLabel) {
    m_main->setObjectName(QStringLiteral("labMemoryMain"));
    m_rest->setObjectName(QStringLiteral("labMemoryRest"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    layout->addWidget(m_statesOnly);

    auto* row = new QHBoxLayout;
    row->setSpacing(12);
    auto* mainBox = new QWidget;
    auto* mainLayout = new QVBoxLayout(mainBox);
    mainLayout->setContentsMargins(0, 0, 0, 0);
    mainLayout->addWidget(m_mainTitle);
    mainLayout->addWidget(m_main, 1);
    auto* restLayout = new QVBoxLayout(m_restBox);
    restLayout->setContentsMargins(0, 0, 0, 0);
    restLayout->addWidget(m_restTitle);
    restLayout->addWidget(m_rest, 1);
    row->addWidget(mainBox, 3);
    row->addWidget(m_restBox, 2);
    layout->addLayout(row, 1);

    layout->addWidget(m_legend);
    m_note->setObjectName(QStringLiteral("muted"));
    m_note->setWordWrap(true);
    layout->addWidget(m_note);
    connect(m_statesOnly, &QCheckBox::toggled, this, [this] { rebuild(); });
    retranslate();
}

void LabMemoryChart::setBars(const QVector<LabMemoryBar>& bars) {
    m_bars = bars;
    rebuild();
}

void LabMemoryChart::setPerParameter(double psi) {
    m_psi = psi > 0 ? psi : 0;
    rebuild();
}

void LabMemoryChart::setCapacity(std::optional<double> bytes, const QString& label) {
    m_capacity = bytes;
    m_capacityLabel = label;
    rebuild();
}

void LabMemoryChart::setHighlighted(int index) {
    m_highlighted = index;
    rebuild();
}

void LabMemoryChart::setSubject(const QString& subject) {
    m_subject = subject;
    rebuild();
}

void LabMemoryChart::setStatesOnly(bool on) {
    m_statesOnly->setChecked(on); // toggled rebuilds
    rebuild();
}

void LabMemoryChart::setPrinted(bool printed) {
    m_statesOnly->setHidden(printed);
}

bool LabMemoryChart::statesOnly() const {
    return m_statesOnly->isChecked();
}

bool LabMemoryChart::restShown() const {
    return !m_restBox->isHidden();
}

void LabMemoryChart::rebuild() {
    const bool split = m_statesOnly->isChecked();
    QVector<MemoryBarGroup> main, rest;
    QVector<MemCategory> drawn;
    bool anyRest = false;
    bool anyPredicted = false;
    double top = 0;
    const auto note = [&](const MemBreakdown& b) {
        for (std::size_t i = 0; i < kMemCategoryCount; ++i)
            if (b.bytes[i] != 0 && !drawn.contains(static_cast<MemCategory>(i)))
                drawn << static_cast<MemCategory>(i);
    };
    for (const LabMemoryBar& bar : m_bars) {
        const MemBreakdown others = notModelStates(bar.bytes);
        anyRest = anyRest || others.total() > 0;
        const MemBreakdown shown = split ? bar.bytes.modelStatesOnly() : bar.bytes;
        std::optional<double> predicted;
        std::optional<double> predictedRest;
        if (bar.predicted) {
            anyPredicted = true;
            predicted =
                double(split ? bar.predicted->modelStatesOnly().total() : bar.predicted->total());
            predictedRest = double(notModelStates(*bar.predicted).total());
        }
        main.push_back({bar.label, shown, predicted});
        // The narrower plot breaks "stage 1, N = 4" into two lines, so labels never overlap.
        QString restLabel = bar.label;
        restLabel.replace(QStringLiteral(", "), QStringLiteral("\n"))
            .replace(QStringLiteral("，"), QStringLiteral("\n"));
        rest.push_back({restLabel, others, predictedRest});
        note(shown);
        top = std::max({top, double(shown.total()), predicted.value_or(0)});
        if (split) {
            note(others);
            top = std::max({top, double(others.total()), predictedRest.value_or(0)});
        }
    }
    const bool restShown = split && anyRest;
    m_statesOnly->setEnabled(anyRest);

    m_main->setPerParameter(m_psi);
    m_main->setCapacity(m_capacity, m_capacityLabel);
    m_main->setValueAxisTitle(split ? tr("Model states per rank") : m_subject);
    m_main->setScaleFloor(top > 0 ? std::optional<double>(top) : std::nullopt);
    m_main->setGroups(main);
    m_main->setHighlighted(m_highlighted);
    m_mainTitle->setText(split ? tr("Model states: what ZeRO shards (params, master, grads, "
                                    "Adam m and v)")
                               : tr("%1: every ledger category").arg(m_subject));

    m_restBox->setVisible(restShown);
    if (restShown) {
        // Short, so both plots start at one height; the legend names the categories.
        m_restTitle->setText(tr("Apart: not model states (ZeRO does not shard them)"));
        m_rest->setPerParameter(m_psi);
        m_rest->setValueAxisTitle(tr("Not model states"));
        // The same scale as the model states beside it, so the two compare by eye.
        m_rest->setScaleFloor(m_main->scaleTopBytes());
        m_rest->setGroups(rest);
        m_rest->setHighlighted(m_highlighted);
    }

    std::sort(drawn.begin(), drawn.end());
    m_legend->setCategories(drawn);
    QStringList lines;
    if (anyPredicted)
        lines << tr("Filled: measured (the ledger of rank 0). Dashed outline: the planner's "
                    "forecast.");
    lines << (m_psi > 0 ? tr("Values in bytes per parameter (B/ψ), per rank.")
                        : tr("Values in bytes (1 MB = 10⁶ B), per rank."));
    m_note->setText(lines.join(QLatin1Char(' ')));
}

void LabMemoryChart::retranslate() {
    m_statesOnly->setText(tr("Model states only"));
    m_statesOnly->setToolTip(tr("The bars hold params, master, grads and Adam m and v, what "
                                "ZeRO shards; activations, comm buffers and the CPU engine's "
                                "workspace stand apart beside them, on the same scale."));
    if (m_subject.isEmpty())
        m_subject = tr("Memory per rank");
    rebuild();
}

void LabMemoryChart::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace zerolab
