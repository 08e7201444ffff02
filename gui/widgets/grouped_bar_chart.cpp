// Grouped bars with QCPBarsGroup; the legend sits above the plot, never over a bar.
#include "gui/widgets/grouped_bar_chart.h"

#include "gui/widgets/chart_actions.h"
#include "gui/widgets/style.h"

#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace zerolab {

GroupedBarChart::GroupedBarChart(QWidget* parent) : QWidget(parent), m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    stylePlot(m_plot);
    attachChartActions(m_plot);
    m_plot->setMinimumHeight(150);
    m_plot->setMouseTracking(true);
    placeLegendAbove(m_plot);
    connect(m_plot, &QCustomPlot::mouseMove, this, &GroupedBarChart::showTooltip);
}

void GroupedBarChart::setData(const QStringList& categories, const QVector<BarSeries>& series,
                              const QString& axisTitle) {
    m_categories = categories;
    m_series = series;
    m_plot->clearPlottables();
    m_plot->clearItems();
    auto* group = new QCPBarsGroup(m_plot);
    group->setSpacing(1);
    const double width = 0.8 / std::max<qsizetype>(1, series.size());
    double maxValue = 0;
    bool spread = false;
    QVector<double> keys;
    for (int i = 0; i < categories.size(); ++i)
        keys << i;
    for (const auto& s : series) {
        auto* bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setName(s.name);
        bars->setBrush(s.color);
        bars->setPen(Qt::NoPen);
        bars->setWidth(width);
        bars->setBarsGroup(group);
        QVector<double> values = s.values;
        for (double& v : values) {
            if (std::isnan(v))
                v = 0;
            maxValue = std::max(maxValue, v);
        }
        bars->setData(keys, values, true);
        const int index = int(&s - series.data());
        if (m_spread && m_spread->series == index && m_spread->low.size() == categories.size() &&
            m_spread->high.size() == categories.size()) {
            auto* whiskers = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis);
            whiskers->setName(m_spread->name);
            whiskers->setDataPlottable(bars);
            whiskers->setPen(QPen(kTextStrong, 1.4));
            whiskers->setSymbolGap(0);
            QVector<double> minus, plus;
            for (int i = 0; i < categories.size(); ++i) {
                const double lo = m_spread->low[i];
                const double hi = m_spread->high[i];
                const bool known = std::isfinite(lo) && std::isfinite(hi);
                minus << (known ? std::max(0.0, values[i] - lo) : 0);
                plus << (known ? std::max(0.0, hi - values[i]) : 0);
                if (known)
                    maxValue = std::max(maxValue, hi);
            }
            whiskers->setData(minus, plus);
            spread = true;
        }
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < categories.size(); ++i)
        ticker->addTick(i, categories[i]);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setTickLength(0, 0);
    m_plot->xAxis->setRange(-0.6, std::max<qsizetype>(1, categories.size()) - 0.4);
    m_plot->yAxis->setLabel(axisTitle);
    m_plot->yAxis->setRange(0, maxValue > 0 ? maxValue * 1.25 : 1);
    m_plot->legend->setVisible(series.size() > 1 || spread);
    if (categories.isEmpty() && !m_emptyText.isEmpty()) {
        auto* text = new QCPItemText(m_plot);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(0.5, 0.5);
        text->setText(m_emptyText);
        text->setColor(kTextMuted);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void GroupedBarChart::showTooltip(QMouseEvent* event) {
    const double key = m_plot->xAxis->pixelToCoord(event->position().x());
    const int i = int(std::lround(key));
    if (i < 0 || i >= m_categories.size() || std::fabs(key - i) > 0.45) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), tooltipHtml(i), m_plot);
}

QString GroupedBarChart::tooltipHtml(int i) const {
    if (i < 0 || i >= m_categories.size())
        return {};
    const auto value = [&](double v) {
        const QString n = QString::number(v, 'g', 4);
        return m_valueUnit.isEmpty() ? n : n + QLatin1Char(' ') + m_valueUnit;
    };
    QString html = QStringLiteral("<b>%1</b><table>").arg(m_categories[i].toHtmlEscaped());
    for (int k = 0; k < m_series.size(); ++k) {
        const BarSeries& s = m_series[k];
        if (i >= s.values.size())
            continue;
        QString text = value(s.values[i]);
        if (m_spread && m_spread->series == k && i < m_spread->low.size() &&
            i < m_spread->high.size())
            text += QStringLiteral(" (%1: %2 – %3)")
                        .arg(m_spread->name.toHtmlEscaped(), value(m_spread->low[i]),
                             value(m_spread->high[i]));
        html += QStringLiteral("<tr><td><span style='color:%1'>&#9632;</span> %2</td>"
                               "<td align='right'>&nbsp;%3</td></tr>")
                    .arg(s.color.name(), s.name.toHtmlEscaped(), text);
    }
    return html + QStringLiteral("</table>");
}

} // namespace zerolab
