// Every item model of the GUI (gui/core: the runs table and its filter proxy, the events
// table) under QAbstractItemModelTester, through resets, appends, filters, sorts and a
// language switch, over hostile stored text. Links only zerolab_gui_core.
#include "gui/core/events_model.h"
#include "gui/core/runs_model.h"

#include <QAbstractItemModelTester>
#include <QTest>

#include <cmath>
#include <limits>

namespace zerolab {

namespace {

RunSummary run(std::int64_t id, std::string name, RunStatus status, std::vector<std::string> tags) {
    RunSummary r;
    r.id = id;
    r.name = std::move(name);
    r.status = status;
    r.stage = int(id % 4);
    r.world = 1 << (id % 4);
    r.steps = id * 10 - 1;
    r.last_loss = id % 3 == 0 ? kUnknown : 2.0 / double(id);
    r.median_tokens_per_s = id % 2 == 0 ? kUnknown : 1000.0 * double(id);
    r.duration_s = id % 5 == 0 ? kUnknown : 7.5 * double(id);
    r.tags = std::move(tags);
    r.host = "host";
    return r;
}

QVector<RunSummary> runs() {
    return {run(1, "baseline-ddp", RunStatus::Finished, {"baseline"}),
            run(2, "zero1-n8", RunStatus::Running, {"sweep", "zero1"}),
            run(3, "a\nname\x1b[31m with controls", RunStatus::Failed, {}),
            run(4, std::string(5000, 'x'), RunStatus::Lost, {"\xff\xfe"}),
            run(5, "zero3", RunStatus::Stalled, {"sweep"}),
            run(6, "stopped", RunStatus::Stopped, {})};
}

Event storedEvent(std::int64_t id, EventLevel level, int rank, std::string message) {
    Event e;
    e.id = id;
    e.time = id % 2 == 0 ? kUnknown : 1.7e9 + double(id);
    e.level = level;
    e.rank = rank;
    e.message = std::move(message);
    return e;
}

} // namespace

class ModelsTest : public QObject {
    Q_OBJECT

private slots:
    void runsModel() {
        RunsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns(runs());
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(model.columnCount(), RunsModel::kColumnCount);
        model.setRuns(runs().mid(0, 2));
        model.setRuns({});
        model.setRuns(runs());
        model.retranslate();
        QCOMPARE(model.rowOf(4), 3);
        QCOMPARE(model.rowOf(99), -1);
    }

    void runsFilterProxy() {
        RunsModel model;
        RunsFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns(runs());
        proxy.setFilterText(QStringLiteral("sweep"));
        QCOMPARE(proxy.rowCount(), 2);
        proxy.sort(RunsModel::TokensPerS, Qt::DescendingOrder);
        proxy.sort(RunsModel::LastLoss, Qt::AscendingOrder);
        proxy.setFilterText(QStringLiteral("no such run"));
        QCOMPARE(proxy.rowCount(), 0);
        proxy.setFilterText(QString());
        QCOMPARE(proxy.rowCount(), 6);
        model.setRuns(runs().mid(2));
        QCOMPARE(proxy.rowCount(), 4);
    }

    void eventsModel() {
        EventsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.append({storedEvent(1, EventLevel::Info, -1, "started"),
                      storedEvent(2, EventLevel::Warn, 0, "slow\trank"),
                      storedEvent(3, EventLevel::Error, 1, std::string(3000, 'e'))});
        QCOMPARE(model.rowCount(), 3);
        // Only newer events are appended; older ids are dropped.
        model.append({storedEvent(2, EventLevel::Warn, 0, "again"),
                      storedEvent(4, EventLevel::Info, 2, "x")});
        QCOMPARE(model.rowCount(), 4);
        model.append({});
        model.retranslate();
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        model.append({storedEvent(5, EventLevel::Error, -1, "\xc3")});
        QCOMPARE(model.rowCount(), 1);
    }
};

} // namespace zerolab

QTEST_GUILESS_MAIN(zerolab::ModelsTest)
#include "models_test.moc"
