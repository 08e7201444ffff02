// Learn tab: the bars are the planner's numbers, explain() text is shown, and the
// chapter scenarios load in the chapter's convention with their errata listed.
#include "gui/forecast_panel.h"
#include "gui/learn_view.h"
#include "gui/memory_bar_chart.h"

#include <QtTest>

using namespace zerolab;

class LearnViewTest : public QObject {
    Q_OBJECT
private slots:
    void barsArePlannerNumbers() {
        LearnView view;
        const PlanInput in = view.input();
        const Plan expected = plan(in);
        const MemoryBarChart* chart = view.forecast()->chart();
        QCOMPARE(chart->groups().size(), 4);
        for (int s = 0; s < 4; ++s)
            QCOMPARE(double(chart->groups()[s].bytes.total()),
                     double(expected.stages[s].per_rank.total()));
        QVERIFY(!view.explainText().isEmpty());
    }

    void scenario175BListsErrata() {
        LearnView view;
        QCOMPARE(view.erratumRows(), 0); // paper convention: nothing to correct
        view.showScenario(LearnView::Scenario::OneSeventyFiveOnSixtyFour);
        const PlanInput in = view.input();
        QCOMPARE(in.world, 64);
        QCOMPARE(in.params, 175e9);
        QVERIFY(in.convention == Convention::Chapter);
        QVERIFY(view.erratumRows() >= 1);
    }

    void scenario67BOnEightA100() {
        LearnView view;
        view.showScenario(LearnView::Scenario::SixPointSevenOnEight);
        const PlanInput in = view.input();
        QCOMPARE(in.world, 8);
        QVERIFY(in.activation_bytes.has_value());
        QCOMPARE(*in.activation_bytes, 10'000'000'000LL);
        QVERIFY(view.forecast()->currentPlan().has_value());
    }
};

QTEST_MAIN(LearnViewTest)
#include "learn_view_test.moc"
