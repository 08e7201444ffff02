// zerolab-timeline-shots DIR [WIDTH]: renders the timeline fixtures (ZeRO-3 with
// overlap, ZeRO-2 without, a slow rank) as the Run view's card would show them, into
// DIR/timeline-stage3-overlap.png, timeline-stage2-no-overlap.png and
// timeline-slow-rank.png (docs/gui.md). Uses Qt's offscreen platform without a display.
#include "gui/style.h"
#include "gui/timeline_chart.h"
#include "gui/timeline_panel.h"
#include "timeline_fixture.h"

#include <QApplication>
#include <QDir>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cstdio>
#include <functional>

using namespace zerolab;

namespace {

struct Shot {
    const char* file;
    const char* title;
    const char* hint;
    std::function<StepTimeline(long long)> make;
};

// The card of the Run view (RunView::card): title, muted hint, the panel.
QWidget* card(const Shot& shot, TimelinePanel* panel) {
    auto* frame = new QFrame;
    frame->setProperty("card", true);
    auto* layout = new QVBoxLayout(frame);
    layout->setContentsMargins(12, 10, 12, 10);
    layout->setSpacing(4);
    auto* header = new QHBoxLayout;
    auto* t = new QLabel(QString::fromUtf8(shot.title));
    t->setObjectName(QStringLiteral("cardTitle"));
    auto* h = new QLabel(QString::fromUtf8(shot.hint));
    h->setObjectName(QStringLiteral("muted"));
    header->addWidget(t);
    header->addWidget(h);
    header->addStretch(1);
    layout->addLayout(header);
    layout->addWidget(panel, 1);
    auto* page = new QWidget;
    auto* outer = new QVBoxLayout(page);
    outer->setContentsMargins(12, 12, 12, 12);
    outer->addWidget(frame);
    return page;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: zerolab-timeline-shots DIR [WIDTH]\n");
        return 2;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    applyAppStyle(app);
    const QDir dir(QString::fromLocal8Bit(argv[1]));
    const int width = argc == 3 ? std::atoi(argv[2]) : 1280;
    if (!QDir().mkpath(dir.path()) || width < 400) {
        std::fprintf(stderr, "zerolab-timeline-shots: bad DIR or WIDTH\n");
        return 2;
    }
    const Shot shots[] = {
        {"timeline-stage3-overlap.png", "Step timeline", "ZeRO-3, overlap_comm, 2 ranks",
         [](long long s) { return stage3OverlapTimeline(2, s); }},
        {"timeline-stage2-no-overlap.png", "Step timeline",
         "ZeRO-2 without overlap_comm, accumulation 2, 2 ranks",
         [](long long s) { return stage2NoOverlapTimeline(2, 2, false, s); }},
        {"timeline-slow-rank.png", "Step timeline", "ZeRO-1, overlap_comm, 4 ranks, rank 1 slow",
         [](long long s) { return slowRankTimeline(4, 1, s); }},
    };
    int failed = 0;
    for (const Shot& shot : shots) {
        auto* panel = new TimelinePanel;
        QObject::connect(panel, &TimelinePanel::stepRequested, panel,
                         [panel, &shot](long long step) { panel->setTimeline(shot.make(step)); });
        QWidget* page = card(shot, panel);
        panel->setSteps({100, 150, 200});
        page->resize(width, 400);
        page->show();
        page->resize(width, page->sizeHint().height());
        for (int i = 0; i < 5; ++i)
            QApplication::processEvents();
        panel->chart()->plot()->replot();
        const QString path = dir.filePath(QString::fromLatin1(shot.file));
        if (!page->grab().save(path)) {
            std::fprintf(stderr, "zerolab-timeline-shots: cannot write %s\n", qPrintable(path));
            ++failed;
        } else {
            std::printf("%s (%dx%d)\n", qPrintable(path), page->width(), page->height());
        }
        delete page;
    }
    return failed ? 1 : 0;
}
