// Every chart's context menu, copy and save (PNG through QPixmap, SVG through QSvgGenerator,
// both written with QSaveFile so a failed write says why), and the full-screen figure: the
// chart itself moves into a window of its own and a placeholder keeps its place.
#include "gui/widgets/chart_actions.h"

#include "gui/widgets/file_dialog.h"
#include "gui/widgets/font_zoom.h"

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QCoreApplication>
#include <QCursor>
#include <QHash>
#include <QKeyEvent>
#include <QLabel>
#include <QLayout>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace zerolab {

namespace {

// The context of the texts below.
class ChartActions {
    Q_DECLARE_TR_FUNCTIONS(zerolab::ChartActions)
};

constexpr double kImageScale = 2.0; // copies and PNGs at twice the pixels: sharp on a slide

QHash<QCustomPlot*, ChartMenuExtras>& menuExtras() {
    static QHash<QCustomPlot*, ChartMenuExtras> extras;
    return extras;
}

// The chart the mouse was last over (F11's chart when none is under the mouse).
QPointer<QCustomPlot>& lastHovered() {
    static QPointer<QCustomPlot> plot;
    return plot;
}

class HoverFilter : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Enter)
            lastHovered() = static_cast<QCustomPlot*>(watched);
        return false;
    }
};

HoverFilter& hoverFilter() {
    static HoverFilter* filter = new HoverFilter;
    return *filter;
}

bool writeFile(const QString& path, const QByteArray& bytes, QString* error) {
    QSaveFile file(path);
    if (file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size() && file.commit())
        return true;
    if (error)
        *error = ChartActions::tr("Cannot write %1: %2").arg(path, file.errorString());
    return false;
}

// The chart in a full-screen window of its own; a placeholder keeps its place at home.
class FullScreenWindow : public QWidget {
public:
    explicit FullScreenWindow(QCustomPlot* plot) : m_plot(plot), m_home(plot->parentWidget()) {
        setWindowTitle(plot->window()->windowTitle());
        setObjectName(QStringLiteral("chartFullScreenWindow"));
        setAutoFillBackground(true);
        auto* placeholder =
            new QLabel(ChartActions::tr("Shown full screen: Esc brings the chart back."));
        placeholder->setAlignment(Qt::AlignCenter);
        placeholder->setObjectName(QStringLiteral("muted"));
        placeholder->setMinimumSize(plot->minimumSize());
        placeholder->setSizePolicy(plot->sizePolicy());
        m_placeholder = placeholder;
        QLayoutItem* old =
            m_home && m_home->layout()
                ? m_home->layout()->replaceWidget(plot, placeholder, Qt::FindChildrenRecursively)
                : nullptr;
        if (old)
            delete old;
        else
            delete placeholder;
        auto* layout = new QVBoxLayout(this);
        layout->setContentsMargins(24, 12, 24, 24);
        auto* hint = new QLabel(ChartActions::tr("Esc leaves full screen"));
        hint->setObjectName(QStringLiteral("muted"));
        hint->setAlignment(Qt::AlignRight);
        layout->addWidget(hint);
        layout->addWidget(plot, 1);
        plot->show();
        plot->setFocus();
    }
    ~FullScreenWindow() override { restore(); }

    QCustomPlot* plot() const { return m_plot; }

    // The chart back in its place (or deleted with this window when its home is gone).
    void restore() {
        if (!m_plot)
            return;
        QCustomPlot* plot = m_plot;
        m_plot = nullptr;
        layout()->removeWidget(plot);
        if (!m_home)
            return;
        if (m_placeholder && m_home->layout()) {
            delete m_home->layout()->replaceWidget(m_placeholder, plot,
                                                   Qt::FindChildrenRecursively);
            delete m_placeholder;
        } else {
            plot->setParent(m_home);
        }
        plot->show();
        plot->replot(QCustomPlot::rpQueuedReplot);
    }

protected:
    void keyPressEvent(QKeyEvent* event) override {
        if (event->key() == Qt::Key_Escape || event->key() == Qt::Key_F11)
            leaveChartFullScreen();
        else
            QWidget::keyPressEvent(event);
    }
    void closeEvent(QCloseEvent* event) override {
        restore();
        QWidget::closeEvent(event);
    }

private:
    QPointer<QCustomPlot> m_plot;
    QPointer<QWidget> m_home;
    QPointer<QWidget> m_placeholder;
};

QPointer<FullScreenWindow>& fullScreenWindow() {
    static QPointer<FullScreenWindow> window;
    return window;
}

void toggleFullScreen(QCustomPlot* plot) {
    // Later: the chart is moved out of the event that asked for it.
    QTimer::singleShot(0, plot, [plot] {
        if (fullScreenChart() == plot)
            leaveChartFullScreen();
        else
            showChartFullScreen(plot);
    });
}

QString askPath(QCustomPlot* plot, const QString& title, const QString& filter,
                const QString& ext) {
    QString path = saveFileName(plot, title, {}, filter);
    if (!path.isEmpty() && !path.endsWith(ext, Qt::CaseInsensitive))
        path += ext;
    return path;
}

} // namespace

void attachChartActions(QCustomPlot* plot, ChartMenuExtras extras, ChartDoubleClick doubleClick) {
    FontZoom::instance().track(plot);
    menuExtras().insert(plot, std::move(extras));
    QObject::connect(plot, &QObject::destroyed, [plot] { menuExtras().remove(plot); });
    plot->installEventFilter(&hoverFilter());
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(plot, &QWidget::customContextMenuRequested, plot, [plot](const QPoint& pos) {
        chartContextMenu(plot)->exec(plot->mapToGlobal(pos));
    });
    if (doubleClick == ChartDoubleClick::FullScreen)
        QObject::connect(plot, &QCustomPlot::mouseDoubleClick, plot,
                         [plot] { toggleFullScreen(plot); });
}

std::unique_ptr<QMenu> chartContextMenu(QCustomPlot* plot) {
    const auto it = menuExtras().constFind(plot);
    if (it == menuExtras().constEnd())
        return nullptr;
    auto menu = std::make_unique<QMenu>(plot);
    if (*it) {
        (*it)(*menu);
        menu->addSeparator();
    }
    const bool shown = fullScreenChart() == plot;
    QAction* full = menu->addAction(shown ? ChartActions::tr("Leave full screen")
                                          : ChartActions::tr("Show full screen"),
                                    plot, [plot] { toggleFullScreen(plot); });
    full->setObjectName(QStringLiteral("chartFullScreen"));
    full->setShortcut(QKeySequence(Qt::Key_F11));
    menu->addSeparator();
    QAction* copy =
        menu->addAction(ChartActions::tr("Copy chart"), plot, [plot] { copyChart(plot); });
    copy->setObjectName(QStringLiteral("chartCopy"));
    copy->setShortcut(QKeySequence::Copy);
    const auto save = [plot](bool svg) {
        const QString path =
            svg ? askPath(plot, ChartActions::tr("Save chart as SVG"),
                          ChartActions::tr("SVG image (*.svg)"), QStringLiteral(".svg"))
                : askPath(plot, ChartActions::tr("Save chart as PNG"),
                          ChartActions::tr("PNG image (*.png)"), QStringLiteral(".png"));
        QString error;
        if (!path.isEmpty() &&
            !(svg ? saveChartSvg(plot, path, &error) : saveChartPng(plot, path, &error)))
            QMessageBox::warning(plot, ChartActions::tr("Save chart"), error);
    };
    QAction* png =
        menu->addAction(ChartActions::tr("Save chart as PNG…"), plot, [save] { save(false); });
    png->setObjectName(QStringLiteral("chartSavePng"));
    QAction* svg =
        menu->addAction(ChartActions::tr("Save chart as SVG…"), plot, [save] { save(true); });
    svg->setObjectName(QStringLiteral("chartSaveSvg"));
    return menu;
}

void copyChart(QCustomPlot* plot) {
    QGuiApplication::clipboard()->setPixmap(plot->toPixmap(0, 0, kImageScale));
}

bool saveChartPng(QCustomPlot* plot, const QString& path, QString* error) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!plot->toPixmap(0, 0, kImageScale).save(&buffer, "PNG")) {
        if (error)
            *error = ChartActions::tr("Cannot render the chart for %1").arg(path);
        return false;
    }
    return writeFile(path, bytes, error);
}

bool saveChartSvg(QCustomPlot* plot, const QString& path, QString* error) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const QSize size = plot->size();
    {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(plot->window()->windowTitle());
        QCPPainter painter;
        if (!painter.begin(&generator)) {
            if (error)
                *error = ChartActions::tr("Cannot render the chart for %1").arg(path);
            return false;
        }
        painter.setMode(QCPPainter::pmVectorized);
        plot->toPainter(&painter, size.width(), size.height());
        painter.end();
    }
    return writeFile(path, bytes, error);
}

void showChartFullScreen(QCustomPlot* plot) {
    leaveChartFullScreen();
    if (!plot)
        return;
    auto* window = new FullScreenWindow(plot);
    fullScreenWindow() = window;
    window->showFullScreen();
    window->activateWindow();
}

void leaveChartFullScreen() {
    FullScreenWindow* window = fullScreenWindow();
    if (!window)
        return;
    fullScreenWindow() = nullptr;
    window->restore();
    window->hide();
    window->deleteLater();
}

QCustomPlot* fullScreenChart() {
    return fullScreenWindow() ? fullScreenWindow()->plot() : nullptr;
}

QCustomPlot* chartForShortcut() {
    for (QWidget* w = QApplication::widgetAt(QCursor::pos()); w; w = w->parentWidget())
        if (auto* plot = qobject_cast<QCustomPlot*>(w); plot && menuExtras().contains(plot))
            return plot;
    return lastHovered();
}

} // namespace zerolab
