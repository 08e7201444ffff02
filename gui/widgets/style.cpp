// Application palette and style sheet. Widgets opt into the card look with
// setProperty("card", true) and into secondary text with objectName "muted".
#include "gui/widgets/style.h"

#include <QApplication>
#include <QFont>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace zerolab {

namespace {

const char* kStyleSheet = R"(
QMainWindow, QDialog { background: #F4F5F7; }
QTabWidget::pane { border: none; background: #F4F5F7; }
QTabBar::tab {
    background: transparent; color: #4B5563; padding: 8px 18px; margin-right: 2px;
    border: none; border-bottom: 2px solid transparent; font-weight: 600;
}
QTabBar::tab:selected { color: #1F2937; border-bottom: 2px solid #2F6DB5; }
QTabBar::tab:hover:!selected { color: #1F2937; }
QFrame[card="true"] {
    background: #FFFFFF; border: 1px solid #E3E5E8; border-radius: 8px;
}
QLabel#cardTitle { font-size: 11pt; font-weight: 600; color: #1F2937; }
QLabel#muted { color: #6B7280; }
QLabel#verdictOk { color: #15803D; font-weight: 600; }
QLabel#verdictBad { color: #C2410C; font-weight: 600; }
QLabel#emptyTitle { font-size: 14pt; font-weight: 600; color: #374151; }
QLabel#emptyBody { color: #6B7280; }
QGroupBox {
    background: #FFFFFF; border: 1px solid #E3E5E8; border-radius: 8px;
    margin-top: 14px; padding: 10px 8px 8px 8px; font-weight: 600;
}
QGroupBox::title { subcontrol-origin: margin; left: 10px; padding: 0 4px; color: #374151; }
QPlainTextEdit, QTextEdit {
    background: #FFFFFF; border: 1px solid #D1D5DB; border-radius: 6px;
    selection-background-color: #BFD7F2;
}
QLineEdit, QSpinBox, QDoubleSpinBox, QComboBox {
    border: 1px solid #D1D5DB; border-radius: 5px; padding: 3px 6px; background: #FFFFFF;
    min-height: 20px;
}
QLineEdit:focus, QSpinBox:focus, QDoubleSpinBox:focus, QComboBox:focus { border-color: #2F6DB5; }
QLineEdit[invalid="true"], QSpinBox[invalid="true"] { border-color: #C2410C; }
QPushButton {
    border: 1px solid #D1D5DB; border-radius: 5px; padding: 4px 12px; background: #FFFFFF;
}
QPushButton:hover { background: #F3F4F6; }
QPushButton:checked { background: #2F6DB5; color: white; border-color: #2F6DB5; }
QPushButton#primary { background: #2F6DB5; color: white; border-color: #2F6DB5; }
QPushButton:disabled { color: #9CA3AF; background: #F3F4F6; border-color: #E5E7EB; }
QPushButton#primary:disabled { background: #A9C1E0; color: #F3F4F6; border-color: #A9C1E0; }
QTableView, QTreeView, QListView {
    background: #FFFFFF; border: 1px solid #E3E5E8; border-radius: 6px;
    gridline-color: #EEF0F2; selection-background-color: #DCE8F7; selection-color: #111827;
    alternate-background-color: #FAFAFB;
}
QHeaderView::section {
    background: #F9FAFB; border: none; border-bottom: 1px solid #E3E5E8;
    padding: 4px 6px; color: #4B5563; font-weight: 600;
}
QDockWidget { font-weight: 600; }
QDockWidget::title { background: #ECEEF1; padding: 6px 8px; }
QStatusBar { background: #ECEEF1; color: #4B5563; }
QToolTip { background: #1F2937; color: #F9FAFB; border: none; padding: 6px; }
QSlider::groove:horizontal { height: 4px; background: #D1D5DB; border-radius: 2px; }
QSlider::handle:horizontal {
    background: #2F6DB5; width: 14px; height: 14px; margin: -6px 0; border-radius: 7px;
}
QSlider::sub-page:horizontal { background: #2F6DB5; border-radius: 2px; }
)";

} // namespace

void applyAppStyle(QApplication& app) {
    app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QPalette p = app.palette();
    p.setColor(QPalette::Window, QColor(0xF4, 0xF5, 0xF7));
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(0xFA, 0xFA, 0xFB));
    p.setColor(QPalette::Text, QColor(0x1F, 0x29, 0x37));
    p.setColor(QPalette::WindowText, QColor(0x1F, 0x29, 0x37));
    p.setColor(QPalette::ButtonText, QColor(0x1F, 0x29, 0x37));
    p.setColor(QPalette::Button, Qt::white);
    p.setColor(QPalette::Highlight, kAccent);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(0x1F, 0x29, 0x37));
    p.setColor(QPalette::ToolTipText, QColor(0xF9, 0xFA, 0xFB));
    app.setPalette(p);
    QFont f = app.font();
    f.setPointSizeF(9.5);
    app.setFont(f);
    app.setStyleSheet(QString::fromLatin1(kStyleSheet));
}

void stylePlot(QCustomPlot* plot) {
    plot->setBackground(Qt::white);
    plot->setAntialiasedElements(QCP::aeNone);
    plot->setAntialiasedElement(QCP::aePlottables, false);
    plot->setNoAntialiasingOnDrag(true);
    const QPen axisPen(QColor(0x9C, 0xA3, 0xAF));
    QFont tickFont = plot->font();
    tickFont.setPointSizeF(8.5);
    QFont labelFont = plot->font();
    labelFont.setPointSizeF(9);
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis, plot->xAxis2, plot->yAxis2}) {
        axis->setBasePen(axisPen);
        axis->setTickPen(axisPen);
        axis->setSubTickPen(Qt::NoPen);
        axis->setTickLabelColor(QColor(0x4B, 0x55, 0x63));
        axis->setLabelColor(QColor(0x37, 0x41, 0x51));
        axis->setTickLabelFont(tickFont);
        axis->setLabelFont(labelFont);
        axis->grid()->setPen(QPen(kGridColor, 1, Qt::SolidLine));
        axis->grid()->setSubGridVisible(false);
        axis->grid()->setZeroLinePen(Qt::NoPen);
        axis->setTickLength(0, 4);
    }
    plot->xAxis->grid()->setVisible(false);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(QColor(255, 255, 255, 220));
    plot->legend->setFont(tickFont);
}

namespace {

constexpr int kLegendColumns = 6;

// The most columns (up to kLegendColumns) whose widest items fit the plot's width: a narrow
// card wraps its legend onto more rows rather than cutting the names ("forwa", "backwa").
void fitLegendColumns(QCustomPlot* plot) {
    QCPLegend* legend = plot->legend;
    QVector<int> widths; // the items' least widths, in order (a wrapped grid has empty cells)
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem* item = legend->item(i))
            widths << item->minimumOuterSizeHint().width();
    const int count = int(widths.size());
    if (count == 0)
        return;
    const QMargins margins = legend->margins();
    // The legend's row: its own margins (8 px on the right) and the spacer's column.
    const int available = plot->viewport().width() - 8 - margins.left() - margins.right();
    int columns = std::min(kLegendColumns, count);
    for (; columns > 1; --columns) {
        int width = (columns - 1) * legend->columnSpacing();
        for (int c = 0; c < columns; ++c) {
            int widest = 0;
            for (int i = c; i < count; i += columns)
                widest = std::max(widest, widths[i]);
            width += widest;
        }
        if (width <= available)
            break;
    }
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

} // namespace

void placeLegendAbove(QCustomPlot* plot) {
    plot->axisRect()->insetLayout()->take(plot->legend);
    // A spacer with all the stretch keeps the legend as narrow as its items.
    auto* row = new QCPLayoutGrid;
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, row);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    row->addElement(0, 0, new QCPLayoutElement(plot));
    row->addElement(0, 1, plot->legend);
    row->setColumnStretchFactor(0, 1);
    row->setColumnStretchFactor(1, 0.001);
    row->setMargins(QMargins(0, 4, 8, 0));
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setWrap(kLegendColumns);
    plot->legend->setBrush(Qt::NoBrush);
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { fitLegendColumns(plot); });
}

void repolish(QWidget* w) {
    w->style()->unpolish(w);
    w->style()->polish(w);
    w->update();
}

QWidget* makeCard(QWidget* content, QWidget* parent) {
    auto* card = new QFrame(parent);
    card->setProperty("card", true);
    auto* layout = new QVBoxLayout(card);
    layout->setContentsMargins(1, 1, 1, 1);
    layout->addWidget(content);
    return card;
}

} // namespace zerolab
