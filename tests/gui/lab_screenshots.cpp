// zerolab-lab-shots STORE DIR [LESSON]: the Lab's charts of lessons 1, 3, 5 and 8 (or LESSON alone)
// as the window shows them at 1280x800, each pane scrolled to its end, in English and Chinese,
// from the runs that `zerolab --lesson ID --run-lesson --db STORE` left in STORE; into
// DIR/lab-chart-<lesson>-<lang>.png, and each lesson's report into
// DIR/lab-report-<lesson>-<lang>.pdf. Uses Qt's offscreen platform without a display (docs/lab.md).
#include "gui/app/main_window.h"
#include "gui/client/store_client.h"
#include "gui/core/language.h"
#include "gui/views/lab/lab_view.h"
#include "gui/widgets/style.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QThread>

#include <cstdio>

using namespace zerolab;

namespace {

struct Shot {
    const char* lesson;
    const char* step;
};

constexpr Shot kShots[] = {
    {"data-parallel-16psi", "ledger"},
    {"stages-2-3", "memory"},
    {"activations-recompute", "recompute"},
    {"zeropp-cross-host", "cross-host"},
};

// Runs the event loop until the store and the Lab are idle, then a little longer for the
// layout and the plots' queued replots.
void settle(MainWindow& window) {
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 20000 && (window.store()->pending() > 0 || window.labView()->isBusy()))
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    const qint64 until = clock.elapsed() + 1500;
    while (clock.elapsed() < until)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
}

// Scrolls each of the Lab's panes to its end: the step's page to its checks, the chart's
// pane to the chart's legend and note.
void scrollToChart(LabView* lab) {
    for (QScrollArea* area : lab->findChildren<QScrollArea*>())
        if (area->widget() && area->widget()->height() > area->viewport()->height())
            area->verticalScrollBar()->setValue(area->verticalScrollBar()->maximum());
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc != 3 && argc != 4) {
        std::fprintf(stderr, "usage: zerolab-lab-shots STORE DIR [LESSON]\n");
        return 2;
    }
    const QString only = argc == 4 ? QString::fromLocal8Bit(argv[3]) : QString();
    QStandardPaths::setTestModeEnabled(true);
    applyAppStyle(app);
    const QString store = QString::fromLocal8Bit(argv[1]);
    const QDir dir(QString::fromLocal8Bit(argv[2]));
    int failures = 0;
    for (Language lang : {Language::English, Language::Chinese}) {
        if (!setLanguage(lang)) {
            std::fprintf(stderr, "zerolab-lab-shots: no catalogue for %s\n",
                         qPrintable(languageCode(lang)));
            return 1;
        }
        for (const Shot& shot : kShots) {
            if (!only.isEmpty() && only != QLatin1String(shot.lesson))
                continue;
            MainWindow window(false);
            window.resize(1280, 800);
            window.show();
            window.openStore(store);
            window.setTab(MainWindow::Tab::Lab);
            LabView* lab = window.labView();
            QString error;
            if (!lab->openLesson(QString::fromLatin1(shot.lesson), &error) ||
                !lab->showStep(QString::fromLatin1(shot.step))) {
                std::fprintf(stderr, "zerolab-lab-shots: %s: %s\n", shot.lesson, qPrintable(error));
                ++failures;
                continue;
            }
            settle(window);
            scrollToChart(lab);
            settle(window);
            const QString name = QStringLiteral("lab-chart-%1-%2")
                                     .arg(QLatin1String(shot.lesson), languageCode(lang));
            if (!window.grab().save(dir.filePath(name + QStringLiteral(".png")))) {
                std::fprintf(stderr, "zerolab-lab-shots: cannot write %s.png\n", qPrintable(name));
                ++failures;
            }
            const QString pdf =
                dir.filePath(QStringLiteral("lab-report-%1-%2.pdf")
                                 .arg(QLatin1String(shot.lesson), languageCode(lang)));
            if (!lab->exportReport(pdf, &error)) {
                std::fprintf(stderr, "zerolab-lab-shots: %s\n", qPrintable(error));
                ++failures;
            }
        }
    }
    return failures == 0 ? 0 : 1;
}
