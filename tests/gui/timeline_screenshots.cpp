// zerolab-timeline-shots DIR [WIDTH] [STORE]: renders step timelines as the Run view's
// card shows them. Without STORE, the fixtures (ZeRO-3 with overlap, ZeRO-2 without, a
// slow rank) into DIR/timeline-stage3-overlap.png, timeline-stage2-no-overlap.png and
// timeline-slow-rank.png; with STORE, the last sampled step of every run in that run
// store into DIR/timeline-run<ID>.png, titled with the run's name (the screenshots in
// docs/gui.md come from real runs this way). Uses Qt's offscreen platform without a
// display.
#include "gui/timeline/timeline_chart.h"
#include "gui/timeline/timeline_panel.h"
#include "gui/widgets/style.h"
#include "gui/widgets/titled_card.h"
#include "storage/run_reader.h"
#include "storage/run_store.h"
#include "timeline_fixture.h"

#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

using namespace zerolab;

namespace {

struct Shot {
    std::string file;
    std::string title;
    std::string hint;
    std::vector<long long> steps; // the step picker's entries; the last is shown
    std::function<StepTimeline(long long)> make;
};

// The card of the Run view (makeTitledCard, as RunView::card builds it): title, muted
// hint, the panel.
QWidget* card(const Shot& shot, TimelinePanel* panel) {
    const TitledCard c = makeTitledCard(panel);
    c.title->setText(QString::fromStdString(shot.title));
    c.hint->setText(QString::fromStdString(shot.hint));
    auto* page = new QWidget;
    auto* outer = new QVBoxLayout(page);
    outer->setContentsMargins(12, 12, 12, 12);
    outer->addWidget(c.frame);
    return page;
}

std::vector<Shot> fixtureShots() {
    const std::vector<long long> steps = {100, 150, 200};
    return {
        {"timeline-stage3-overlap.png", "Step timeline", "ZeRO-3, overlap_comm, 2 ranks", steps,
         [](long long s) { return stage3OverlapTimeline(2, s); }},
        {"timeline-stage2-no-overlap.png", "Step timeline",
         "ZeRO-2 without overlap_comm, accumulation 2, 2 ranks", steps,
         [](long long s) { return stage2NoOverlapTimeline(2, 2, false, s); }},
        {"timeline-slow-rank.png", "Step timeline", "ZeRO-1, overlap_comm, 4 ranks, rank 1 slow",
         steps, [](long long s) { return slowRankTimeline(4, 1, s); }},
    };
}

// One shot per run of the store that has a sampled step. The reader stays open for the
// shots' `make`, which reads a step's timeline when the panel asks for it.
std::vector<Shot> storeShots(RunReader& reader) {
    std::vector<Shot> out;
    for (const RunSummary& run : reader.listRuns()) {
        std::vector<long long> steps = reader.timelineSteps(run.id);
        if (steps.empty())
            continue;
        const std::int64_t id = run.id;
        out.push_back({"timeline-run" + std::to_string(id) + ".png", "Step timeline",
                       "#" + std::to_string(id) + " " + run.name, std::move(steps),
                       [&reader, id](long long step) {
                           return reader.timeline(id, step).value_or(StepTimeline{});
                       }});
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 4) {
        std::fprintf(stderr, "usage: zerolab-timeline-shots DIR [WIDTH] [STORE]\n");
        return 2;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    applyAppStyle(app);
    const QDir dir(QString::fromLocal8Bit(argv[1]));
    const int width = argc >= 3 ? std::atoi(argv[2]) : 1280;
    if (!QDir().mkpath(dir.path()) || width < 400) {
        std::fprintf(stderr, "zerolab-timeline-shots: bad DIR or WIDTH\n");
        return 2;
    }
    std::optional<RunReader> reader;
    std::vector<Shot> shots;
    try {
        if (argc == 4) {
            reader.emplace(RunStore::open(argv[3], OpenMode::ReadOnly));
            shots = storeShots(*reader);
        } else {
            shots = fixtureShots();
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "zerolab-timeline-shots: %s\n", e.what());
        return 2;
    }
    if (shots.empty()) {
        std::fprintf(stderr, "zerolab-timeline-shots: no run in %s has a sampled step\n", argv[3]);
        return 2;
    }
    int failed = 0;
    for (const Shot& shot : shots) {
        auto* panel = new TimelinePanel;
        QObject::connect(panel, &TimelinePanel::stepRequested, panel,
                         [panel, &shot](long long step) { panel->setTimeline(shot.make(step)); });
        QWidget* page = card(shot, panel);
        panel->setSteps(shot.steps);
        page->resize(width, 400);
        page->show();
        // Wrapped captions need their height at this width, more than sizeHint's.
        const int height =
            page->hasHeightForWidth() ? page->heightForWidth(width) : page->sizeHint().height();
        page->resize(width, std::max(height, page->sizeHint().height()));
        for (int i = 0; i < 5; ++i)
            QApplication::processEvents();
        panel->chart()->plot()->replot();
        const QString path = dir.filePath(QString::fromStdString(shot.file));
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
