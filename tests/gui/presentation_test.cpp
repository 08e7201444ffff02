// Presentation mode (issue 27 item 10): the font zoom reaches every chart of every view
// (axes, legends, text items, also items a chart makes after the zoom) and the widgets'
// own fonts and style sheets; every chart's context menu carries full screen, copy and
// PNG/SVG; the saved files are valid images of the chart; full screen moves the chart
// out and Esc brings it back to the same place.
#include "gui/app/main_window.h"
#include "gui/core/language.h"
#include "gui/timeline/timeline_chart.h"
#include "gui/views/lab/lab_view.h"
#include "gui/views/learn/learn_view.h"
#include "gui/views/run/run_view.h"
#include "gui/widgets/chart_actions.h"
#include "gui/widgets/font_zoom.h"
#include "gui/widgets/forecast_panel.h"
#include "gui/widgets/grouped_bar_chart.h"
#include "gui/widgets/memory_bar_chart.h"
#include "gui/widgets/style.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QPlainTextEdit>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QVBoxLayout>
#include <QtTest>
#include <qcustomplot.h>

#include <map>

using namespace zerolab;

namespace {

// Every font size a chart draws text with, each named by where it is.
std::map<QString, double> chartFontSizes(QCustomPlot* plot) {
    std::map<QString, double> sizes;
    int a = 0;
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            sizes[QStringLiteral("axis %1 ticks").arg(a)] = axis->tickLabelFont().pointSizeF();
            sizes[QStringLiteral("axis %1 label").arg(a++)] = axis->labelFont().pointSizeF();
        }
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        sizes[QStringLiteral("legend item %1").arg(i)] = plot->legend->item(i)->font().pointSizeF();
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)))
            sizes[QStringLiteral("text item %1").arg(i)] = t->font().pointSizeF();
    return sizes;
}

int inkPixels(const QImage& image) {
    int ink = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            if (qGray(image.pixel(x, y)) < 200)
                ++ink;
    return ink;
}

QAction* menuAction(MainWindow& window, const QKeySequence& key) {
    for (QAction* a : window.menuBar()->findChildren<QAction*>())
        if (a->shortcuts().contains(key))
            return a;
    return nullptr;
}

} // namespace

class PresentationTest : public QObject {
    Q_OBJECT
private:
    // The main window with every tab shown once and the Lab on a step with a chart.
    static void showEveryTab(MainWindow& window, QList<QList<QCustomPlot*>>& perTab) {
        QString error;
        QVERIFY2(window.labView()->openLesson(QStringLiteral("migration-6-7b"), &error),
                 qPrintable(error));
        QVERIFY(window.labView()->showStep(QStringLiteral("2")));
        window.resize(1280, 800);
        window.show();
        auto* tabs = window.findChild<QTabWidget*>();
        QVERIFY(tabs);
        QCOMPARE(tabs->count(), MainWindow::kTabCount);
        for (int t = 0; t < MainWindow::kTabCount; ++t) {
            window.setTab(static_cast<MainWindow::Tab>(t));
            QCoreApplication::processEvents();
            perTab << tabs->widget(t)->findChildren<QCustomPlot*>();
            qInfo("%s: %d charts", qPrintable(tabs->tabText(t)), int(perTab.back().size()));
            QVERIFY2(!perTab.back().isEmpty(), qPrintable(tabs->tabText(t)));
        }
    }

private slots:
    void cleanup() { FontZoom::instance().reset(); }

    // Every chart of every tab (the timeline's in Run, the Lab's plan bars) scales all
    // of its text by the factor, and back; a widget's own font and style sheet too.
    void zoomScalesTheFontsOfEveryChartInEveryView() {
        MainWindow window(false);
        QList<QList<QCustomPlot*>> perTab;
        showEveryTab(window, perTab);
        if (QTest::currentTestFailed())
            return;
        auto* timeline = window.runView()->findChild<TimelineChart*>();
        QVERIFY(timeline);
        QVERIFY(perTab[int(MainWindow::Tab::Run)].contains(timeline->findChild<QCustomPlot*>()));
        std::map<QCustomPlot*, std::map<QString, double>> before;
        for (const auto& plots : perTab)
            for (QCustomPlot* p : plots)
                before[p] = chartFontSizes(p);
        auto* explain = window.learnView()->findChild<QPlainTextEdit*>();
        QVERIFY(explain);
        const double explainBefore = explain->font().pointSizeF();
        const double appBefore = QApplication::font().pointSizeF();
        // A style sheet's and a rich text's own sizes: the Lab's title, an empty view's heading.
        auto* title = window.labView()->findChild<QLabel*>(QStringLiteral("pageTitle"));
        QLabel* heading = nullptr;
        for (QLabel* l : window.findChildren<QLabel*>())
            if (l->text().contains(QLatin1String("font-size:")))
                heading = l;
        QVERIFY(title && heading);
        const QString titleSheet = title->styleSheet();
        const QString headingText = heading->text();

        FontZoom::instance().setStep(FontZoom::kNormalStep + 2);
        const double f = FontZoom::instance().factor();
        QVERIFY(f > 1.2);
        for (auto& [plot, sizes] : before) {
            const auto now = chartFontSizes(plot);
            for (const auto& [where, size] : sizes)
                QVERIFY2(qFuzzyCompare(now.at(where), size * f),
                         qPrintable(QStringLiteral("%1 in %2: %3 -> %4")
                                        .arg(where, plot->parentWidget()->metaObject()->className())
                                        .arg(size)
                                        .arg(now.at(where))));
        }
        QVERIFY(qFuzzyCompare(QApplication::font().pointSizeF(), appBefore * f));
        QVERIFY(qFuzzyCompare(explain->font().pointSizeF(), explainBefore * f));
        QVERIFY2(title->styleSheet() != titleSheet, qPrintable(title->styleSheet()));
        QVERIFY2(heading->text() != headingText, qPrintable(heading->text()));

        // A chart's text made after the zoom (Learn's bars for another ψ) is zoomed too.
        MemoryBarChart* learnBars = window.learnView()->forecast()->chart();
        const double nominalLabel = before[learnBars->plot()].at(QStringLiteral("text item 0"));
        window.setTab(MainWindow::Tab::Learn);
        window.learnView()->findChild<QDoubleSpinBox*>(QStringLiteral("params"))->setValue(13);
        learnBars->plot()->replot();
        QVERIFY(qFuzzyCompare(chartFontSizes(learnBars->plot()).at(QStringLiteral("text item 0")),
                              nominalLabel * f));

        FontZoom::instance().reset();
        for (auto& [plot, sizes] : before) {
            const auto now = chartFontSizes(plot);
            for (const auto& [where, size] : sizes)
                QVERIFY2(qFuzzyCompare(now.at(where), size), qPrintable(where));
        }
        QVERIFY(qFuzzyCompare(explain->font().pointSizeF(), explainBefore));
        QCOMPARE(title->styleSheet(), titleSheet);
        QCOMPARE(heading->text(), headingText);
    }

    // The View menu's Ctrl +, Ctrl - and Ctrl 0 drive the zoom.
    void theViewMenuZooms() {
        MainWindow window(false);
        QAction* in = menuAction(window, QKeySequence(QKeySequence::ZoomIn));
        QAction* out = menuAction(window, QKeySequence(QKeySequence::ZoomOut));
        QAction* normal = menuAction(window, QKeySequence(Qt::CTRL | Qt::Key_0));
        QVERIFY(in && out && normal);
        QVERIFY(menuAction(window, QKeySequence(Qt::Key_F11)));
        in->trigger();
        in->trigger();
        QCOMPARE(FontZoom::instance().step(), FontZoom::kNormalStep + 2);
        out->trigger();
        QCOMPARE(FontZoom::instance().step(), FontZoom::kNormalStep + 1);
        normal->trigger();
        QCOMPARE(FontZoom::instance().factor(), 1.0);
    }

    // Right-clicking any chart of any tab opens a menu with the four actions.
    void everyChartsContextMenuHasTheActions() {
        MainWindow window(false);
        QList<QList<QCustomPlot*>> perTab;
        showEveryTab(window, perTab);
        if (QTest::currentTestFailed())
            return;
        for (int t = 0; t < perTab.size(); ++t) {
            window.setTab(static_cast<MainWindow::Tab>(t));
            for (QCustomPlot* plot : perTab[t]) {
                QStringList names;
                QTimer::singleShot(0, plot, [&] {
                    for (QMenu* menu : plot->findChildren<QMenu*>())
                        if (menu->isVisible()) {
                            for (QAction* a : menu->actions())
                                names << a->objectName();
                            menu->close();
                        }
                });
                QCOMPARE(plot->contextMenuPolicy(), Qt::CustomContextMenu);
                emit plot->customContextMenuRequested(QPoint(20, 20));
                const QString where = QStringLiteral("tab %1, %2")
                                          .arg(t)
                                          .arg(plot->parentWidget()->metaObject()->className());
                for (const char* name :
                     {"chartFullScreen", "chartCopy", "chartSavePng", "chartSaveSvg"})
                    QVERIFY2(names.contains(QLatin1String(name)),
                             qPrintable(where + QStringLiteral(": no ") + QLatin1String(name)));
            }
        }
    }

    // The Lab's grouped bars appear only over a step's runs: the class itself is attached.
    void groupedBarsHaveTheActions() {
        GroupedBarChart chart;
        const auto menu = chartContextMenu(chart.plot());
        QVERIFY(menu);
        for (const char* name : {"chartFullScreen", "chartCopy", "chartSavePng", "chartSaveSvg"})
            QVERIFY2(menu->findChild<QAction*>(QLatin1String(name)), name);
    }

    // PNG: twice the chart's pixels, with ink. SVG: a valid document with the chart's box
    // holding its axis title as text, that renders with ink. A path that cannot be
    // written is refused, named.
    void saveWritesAValidPngAndSvg() {
        QWidget home;
        auto* layout = new QVBoxLayout(&home);
        auto* chart = new MemoryBarChart;
        layout->addWidget(chart);
        MemBreakdown bytes;
        bytes[MemCategory::Params] = 2'000'000'000;
        bytes[MemCategory::OptimM] = 6'000'000'000;
        chart->setGroups({{QStringLiteral("stage 0"), bytes, std::nullopt},
                          {QStringLiteral("stage 1"), bytes, std::nullopt}});
        home.resize(600, 400);
        home.show();
        QVERIFY(QTest::qWaitForWindowExposed(&home));
        QCustomPlot* plot = chart->plot();
        plot->replot();
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("chart.png"));
        QString error;
        QVERIFY2(saveChartPng(plot, png, &error), qPrintable(error));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), plot->size() * 2);
        QVERIFY(inkPixels(image) > 100);

        const QString svg = dir.filePath(QStringLiteral("chart.svg"));
        QVERIFY2(saveChartSvg(plot, svg, &error), qPrintable(error));
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.viewBoxF().size(), QSizeF(plot->size()));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains(plot->yAxis->label().section(QLatin1Char(' '), 0, 0).toUtf8()));
        QImage drawn(plot->size(), QImage::Format_RGB32);
        drawn.fill(Qt::white);
        QPainter painter(&drawn);
        renderer.render(&painter);
        painter.end();
        QVERIFY(inkPixels(drawn) > 100);

        const QString nowhere = dir.filePath(QStringLiteral("missing/chart.png"));
        QVERIFY(!saveChartPng(plot, nowhere, &error));
        QVERIFY2(error.contains(nowhere), qPrintable(error));
    }

    // Full screen takes the chart into a window of its own; Esc puts it back in the same
    // place of the same layout. A double-click on a bar chart does the same.
    void fullScreenAndBack() {
        QWidget home;
        auto* layout = new QVBoxLayout(&home);
        layout->addWidget(new QLabel(QStringLiteral("above")));
        auto* chart = new MemoryBarChart;
        layout->addWidget(chart);
        home.show();
        QCustomPlot* plot = chart->plot();
        const int place = chart->layout()->indexOf(plot); // under the drop marker's note
        showChartFullScreen(plot);
        QCOMPARE(fullScreenChart(), plot);
        QVERIFY(plot->window() != &home);
        QVERIFY(plot->window()->windowState() & Qt::WindowFullScreen);
        QCOMPARE(plot->window()->objectName(), QStringLiteral("chartFullScreenWindow"));
        QVERIFY(chart->layout()->indexOf(plot) < 0);
        QTest::keyClick(plot->window(), Qt::Key_Escape);
        QCOMPARE(fullScreenChart(), nullptr);
        QCOMPARE(plot->window(), &home);
        QCOMPARE(plot->parentWidget(), chart);
        QCOMPARE(chart->layout()->indexOf(plot), place);

        QTest::mouseDClick(plot, Qt::LeftButton, {}, QPoint(30, 30));
        QTRY_COMPARE(fullScreenChart(), plot);
        leaveChartFullScreen();
        QCOMPARE(plot->parentWidget(), chart);
    }

    // The shots docs/gui.md shows: a chart's context menu over the Learn tab, in English and
    // Chinese, written to the temp folder (nothing is compared).
    void contextMenuShots() {
        applyAppStyle(*qApp); // as the app looks
        for (const Language language : {Language::English, Language::Chinese}) {
            QVERIFY(setLanguage(language));
            MainWindow window(false);
            window.resize(1280, 800);
            window.setTab(MainWindow::Tab::Learn);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QCustomPlot* plot = window.learnView()->forecast()->chart()->plot();
            const auto menu = chartContextMenu(plot);
            QVERIFY(menu);
            const QPoint at(plot->width() / 2, plot->height() / 4);
            menu->popup(plot->mapToGlobal(at));
            QCoreApplication::processEvents();
            QPixmap shot = window.grab();
            QPainter painter(&shot);
            painter.drawPixmap(plot->mapTo(&window, at), menu->grab());
            painter.end();
            menu->close();
            shot.save(QDir::temp().filePath(
                QStringLiteral("zerolab-chart-menu-%1.png").arg(languageCode(language))));
        }
        QVERIFY(setLanguage(Language::English));
    }
};

QTEST_MAIN(PresentationTest)
#include "presentation_test.moc"
