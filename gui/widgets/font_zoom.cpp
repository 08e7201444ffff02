// The font zoom: the application font and style sheet scaled, every widget's own font
// size, style-sheet and rich-text font sizes scaled from what it was set to, every tracked
// chart's fonts scaled from their nominal sizes (remembered on each font's holder).
#include "gui/widgets/font_zoom.h"

#include <QApplication>
#include <QEvent>
#include <QLabel>
#include <QRegularExpression>
#include <QWidget>
#include <qcustomplot.h>

#include <algorithm>

namespace zerolab {

namespace {

// Each font's nominal size, and the size the zoom last gave it, live on the font's holder
// as dynamic properties: a size that is not the one last given was set by the chart (or
// view) since, and is its new nominal size.
QFont zoomedFont(QObject* holder, const QByteArray& key, const QFont& current, double factor) {
    const QByteArray baseKey = "zerolabZoomBase_" + key;
    const QByteArray setKey = "zerolabZoomSet_" + key;
    const bool points = current.pointSizeF() > 0;
    const double size = points ? current.pointSizeF() : double(current.pixelSize());
    const QVariant last = holder->property(setKey.constData());
    const double nominal = last.isValid() && qFuzzyCompare(last.toDouble(), size)
                               ? holder->property(baseKey.constData()).toDouble()
                               : size;
    QFont out = current;
    double applied = nominal * factor;
    if (points) {
        out.setPointSizeF(applied);
    } else {
        out.setPixelSize(std::max(1, qRound(applied)));
        applied = out.pixelSize();
    }
    holder->setProperty(baseKey.constData(), nominal);
    holder->setProperty(setKey.constData(), applied);
    return out;
}

// Every "font-size: Npt" (or px) of a style sheet times `factor`.
QString scaledSheet(const QString& sheet, double factor) {
    if (factor == 1.0)
        return sheet; // as written
    static const QRegularExpression size(QStringLiteral("(font-size\\s*:\\s*)([0-9.]+)(pt|px)"));
    QString out;
    qsizetype at = 0;
    for (auto it = size.globalMatch(sheet); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += sheet.mid(at, m.capturedStart(2) - at);
        const double scaled = m.captured(2).toDouble() * factor;
        out += m.captured(3) == QLatin1String("px") ? QString::number(qRound(scaled))
                                                    : QString::number(scaled, 'f', 2);
        at = m.capturedEnd(2);
    }
    return out + sheet.mid(at);
}

// `current` (a style sheet, a rich text) with its font sizes at the factor; the nominal
// text is remembered on `holder` as zoomedFont() remembers a size.
QString zoomedSizes(QObject* holder, const QByteArray& key, const QString& current, double factor) {
    const QByteArray baseKey = "zerolabZoomBase" + key;
    const QByteArray setKey = "zerolabZoomSet" + key;
    const QString nominal = current == holder->property(setKey.constData()).toString()
                                ? holder->property(baseKey.constData()).toString()
                                : current;
    const QString target = scaledSheet(nominal, factor);
    holder->setProperty(baseKey.constData(), nominal);
    holder->setProperty(setKey.constData(), target);
    return target;
}

} // namespace

FontZoom& FontZoom::instance() {
    static FontZoom* zoom = new FontZoom; // lives as long as the process, like qApp's fonts
    return *zoom;
}

double fontZoomFactor() {
    return FontZoom::instance().factor();
}

QFont FontZoom::baseFont() const {
    return m_haveBase ? m_baseFont : QApplication::font();
}

void FontZoom::setStep(int step) {
    step = std::clamp(step, 0, kStepCount - 1);
    if (step == m_step)
        return;
    if (!m_haveBase) {
        m_baseFont = QApplication::font();
        m_baseSheet = qApp->styleSheet();
        m_haveBase = true;
    }
    m_step = step;
    const double f = factor();
    QFont font = m_baseFont;
    if (m_baseFont.pointSizeF() > 0)
        font.setPointSizeF(m_baseFont.pointSizeF() * f);
    else
        font.setPixelSize(std::max(1, qRound(m_baseFont.pixelSize() * f)));
    QApplication::setFont(font);
    if (!m_baseSheet.isEmpty())
        qApp->setStyleSheet(scaledSheet(m_baseSheet, f));
    for (QWidget* w : QApplication::allWidgets())
        applyTo(w);
    m_plots.removeAll(nullptr);
    for (const QPointer<QCustomPlot>& plot : std::as_const(m_plots)) {
        applyTo(plot);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
    // Widgets made while zoomed take the factor when first shown.
    if (m_step == kNormalStep)
        qApp->removeEventFilter(this);
    else
        qApp->installEventFilter(this);
    emit changed(f);
}

void FontZoom::track(QCustomPlot* plot) {
    // Text a chart derives from the plot's font starts at the nominal size.
    plot->setFont(baseFont());
    m_plots.removeAll(nullptr);
    m_plots.append(plot);
    connect(plot, &QCustomPlot::beforeReplot, plot, [this, plot] {
        if (m_step != kNormalStep || plot->property("zerolabZoomed").toBool())
            applyTo(plot);
    });
    applyTo(plot);
}

void FontZoom::applyTo(QCustomPlot* plot) const {
    const double f = factor();
    plot->setProperty("zerolabZoomed", m_step != kNormalStep);
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            axis->setTickLabelFont(zoomedFont(axis, "tick", axis->tickLabelFont(), f));
            axis->setLabelFont(zoomedFont(axis, "label", axis->labelFont(), f));
        }
    // The legend's own font stays nominal: items added later copy it.
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = plot->legend->item(i))
            item->setFont(zoomedFont(item, "font", item->font(), f));
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        if (auto* text = qobject_cast<QCPTextElement*>(element))
            text->setFont(zoomedFont(text, "font", text->font(), f));
        else if (auto* item = qobject_cast<QCPAbstractLegendItem*>(element))
            item->setFont(zoomedFont(item, "font", item->font(), f));
    }
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)))
            text->setFont(zoomedFont(text, "font", text->font(), f));
}

void FontZoom::applyTo(QWidget* widget) const {
    const double f = factor();
    // A rich-text label's own "font-size: 14pt" (the empty views' headings).
    if (auto* label = qobject_cast<QLabel*>(widget);
        label && label->text().contains(QLatin1String("font-size"))) {
        const QString target = zoomedSizes(label, "Text", label->text(), f);
        if (target != label->text())
            label->setText(target);
    }
    const QString sheet = widget->styleSheet();
    if (sheet.contains(QLatin1String("font-size"))) {
        const QString target = zoomedSizes(widget, "Sheet", sheet, f);
        if (target != sheet)
            widget->setStyleSheet(target);
        return; // its font size is the sheet's
    }
    if (qobject_cast<QCustomPlot*>(widget) || !widget->testAttribute(Qt::WA_SetFont) ||
        !(widget->font().resolveMask() & QFont::SizeResolved))
        return; // follows the application font (a plot's font stays nominal)
    const QFont zoomed = zoomedFont(widget, "font", widget->font(), f);
    if (zoomed != widget->font())
        widget->setFont(zoomed);
}

bool FontZoom::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Show && watched->isWidgetType())
        applyTo(static_cast<QWidget*>(watched));
    return QObject::eventFilter(watched, event);
}

} // namespace zerolab
