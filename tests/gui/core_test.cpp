// The pure files of gui/core, table by table: units, display text, JSON paths, step
// detail, the timeline's layout, the Pareto frontier and the rank-row check. Links only
// zerolab_gui_core: none of them needs a widget, the store or another room.
#include "gui/core/display_text.h"
#include "gui/core/json_path.h"
#include "gui/core/pareto_frontier.h"
#include "gui/core/rank_rows.h"
#include "gui/core/step_detail.h"
#include "gui/core/timeline_layout.h"
#include "gui/core/units.h"

#include <QTest>

#include <cmath>
#include <limits>

using zerolab::OrderedJson;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// An overview of `n` logged steps 0..n-1 whose wall time is twice the step.
zerolab::StepColumns steps(int n) {
    zerolab::StepColumns c;
    for (int i = 0; i < n; ++i) {
        for (auto& col : c.columns)
            col << kNaN;
        c[zerolab::Metric::Step].back() = i;
        c[zerolab::Metric::WallTime].back() = 2.0 * i;
    }
    return c;
}

zerolab::TimelineSpan span(int rank, zerolab::SpanKind kind, double start, double end,
                           int seq = -1) {
    zerolab::TimelineSpan s;
    s.rank = rank;
    s.kind = kind;
    s.start_us = s.issue_us = start;
    s.end_us = end;
    s.seq = seq;
    return s;
}

// Two ranks, each a forward and the step's all-reduce (seq 0); rank 1 waits for it.
zerolab::StepTimeline twoRanks() {
    using zerolab::SpanKind;
    zerolab::StepTimeline t;
    t.step = 7;
    t.world = 2;
    t.spans = {span(1, SpanKind::Wait, 12, 16, 0), span(0, SpanKind::Forward, 0, 10),
               span(0, SpanKind::Collective, 5, 15, 0), span(1, SpanKind::Forward, 0, 12),
               span(1, SpanKind::Collective, 6, 16, 0)};
    return t;
}

} // namespace

Q_DECLARE_METATYPE(OrderedJson)

class CoreTest : public QObject {
    Q_OBJECT

private slots:
    void formatBytes_data() {
        QTest::addColumn<double>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << "0 B";
        QTest::newRow("below a kilobyte") << 999.0 << "999 B";
        QTest::newRow("a kilobyte is 1000 bytes") << 1000.0 << "1.00 KB";
        QTest::newRow("three digits") << 134.4e6 << "134 MB";
        QTest::newRow("one decimal") << 12.64e9 << "12.6 GB";
        QTest::newRow("GB is the largest unit") << 2.5e12 << "2500 GB";
        QTest::newRow("negative") << -1500.0 << "-1.50 KB";
    }
    void formatBytes() {
        QFETCH(double, bytes);
        QFETCH(QString, text);
        QCOMPARE(zerolab::formatBytes(bytes), text);
    }

    void byteUnitFor_data() {
        QTest::addColumn<double>("maxBytes");
        QTest::addColumn<double>("divisor");
        QTest::addColumn<QString>("name");
        QTest::newRow("nothing") << 0.0 << 1.0 << "B";
        QTest::newRow("megabytes") << 134e6 << 1e6 << "MB";
        QTest::newRow("just a gigabyte") << 1e9 << 1e9 << "GB";
        QTest::newRow("just under") << 999'999'999.0 << 1e6 << "MB";
    }
    void byteUnitFor() {
        QFETCH(double, maxBytes);
        QFETCH(double, divisor);
        QFETCH(QString, name);
        const zerolab::DisplayUnit u = zerolab::byteUnitFor(maxBytes);
        QCOMPARE(u.divisor, divisor);
        QCOMPARE(u.name, name);
    }

    void formatDuration_data() {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("unknown") << kNaN << "–";
        QTest::newRow("negative") << -1.0 << "–";
        QTest::newRow("tenths below 10 s") << 4.24 << "4.2 s";
        QTest::newRow("whole seconds below a minute") << 12.4 << "12 s";
        QTest::newRow("minutes and seconds") << 200.0 << "3 min 20 s";
        QTest::newRow("hours and minutes") << 3725.0 << "1 h 02 min";
    }
    void formatDuration() {
        QFETCH(double, seconds);
        QFETCH(QString, text);
        QCOMPARE(zerolab::formatDuration(seconds), text);
    }

    void formatCount_data() {
        QTest::addColumn<double>("n");
        QTest::addColumn<QString>("text");
        QTest::newRow("billions") << 6.7e9 << "6.70B";
        QTest::newRow("millions") << 124.4e6 << "124M";
        QTest::newRow("thousands") << 1500.0 << "1.50K";
        QTest::newRow("small") << 42.0 << "42";
        QTest::newRow("fraction") << 0.5 << "0.5";
    }
    void formatCount() {
        QFETCH(double, n);
        QFETCH(QString, text);
        QCOMPARE(zerolab::formatCount(n), text);
    }

    void shownText_data() {
        QTest::addColumn<QByteArray>("stored");
        QTest::addColumn<int>("maxChars");
        QTest::addColumn<QString>("shown");
        QTest::newRow("fits") << QByteArray("zero1-n8") << 40 << "zero1-n8";
        QTest::newRow("cut with an ellipsis") << QByteArray("abcdef") << 4 << "abc…";
        QTest::newRow("exactly the limit") << QByteArray("abcd") << 4 << "abcd";
        QTest::newRow("a newline is shown, not obeyed")
            << QByteArray("a\nb") << 10 << QString("a") + QChar(0xFFFD) + "b";
        QTest::newRow("invalid UTF-8 repaired")
            << QByteArray("a\xff") << 10 << QString("a") + QChar(0xFFFD);
        QTest::newRow("a cut never splits a character") << QByteArray("ab\xf0\x9f\x98\x80"
                                                                      "cd")
                                                        << 4 << "ab…";
    }
    void shownText() {
        QFETCH(QByteArray, stored);
        QFETCH(int, maxChars);
        QFETCH(QString, shown);
        QCOMPARE(zerolab::shownText(stored.toStdString(), maxChars), shown);
    }

    void jsonAt_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("value"); // dump(), empty: none
        QTest::newRow("top level") << "c"
                                   << "2";
        QTest::newRow("nested") << "a.b"
                                << "1";
        QTest::newRow("an object") << "a"
                                   << R"({"b":1})";
        QTest::newRow("missing key") << "a.x"
                                     << "";
        QTest::newRow("through a number") << "c.d"
                                          << "";
    }
    void jsonAt() {
        QFETCH(QString, path);
        QFETCH(QString, value);
        const OrderedJson doc = OrderedJson::parse(R"({"a": {"b": 1}, "c": 2})");
        const OrderedJson* at = zerolab::jsonAt(doc, path);
        QCOMPARE(at ? QString::fromStdString(at->dump()) : QString(), value);
    }

    void jsonSetAndErase_data() {
        QTest::addColumn<QString>("before");
        QTest::addColumn<bool>("set"); // else erase
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("after");
        QTest::newRow("set a new nested key") << R"({"a":1})" << true << "b.c"
                                              << R"({"a":1,"b":{"c":7}})";
        QTest::newRow("set replaces a non-object in the way")
            << R"({"a":{"b":1}})" << true << "a.b.c"
            << R"({"a":{"b":{"c":7}}})";
        QTest::newRow("set keeps the key order") << R"({"z":1,"a":2})" << true << "z"
                                                 << R"({"z":7,"a":2})";
        QTest::newRow("erase drops an object left empty")
            << R"({"a":{"b":1},"c":2})" << false << "a.b"
            << R"({"c":2})";
        QTest::newRow("erase of a missing key changes nothing") << R"({"a":1})" << false << "x.y"
                                                                << R"({"a":1})";
    }
    void jsonSetAndErase() {
        QFETCH(QString, before);
        QFETCH(bool, set);
        QFETCH(QString, path);
        QFETCH(QString, after);
        OrderedJson doc = OrderedJson::parse(before.toStdString());
        if (set)
            zerolab::jsonSet(doc, path, 7);
        else
            zerolab::jsonErase(doc, path);
        QCOMPARE(QString::fromStdString(doc.dump()), after);
    }

    void patchJsonText_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QString>("patched");
        const QString text = "{\n  \"a\":    1,\n  \"b\": {\"c\": true}\n}";
        QTest::newRow("a value changes in place") << text << R"({"a":5,"b":{"c":true}})"
                                                  << "{\n  \"a\":    5,\n  \"b\": {\"c\": true}\n}";
        QTest::newRow("a nested value changes in place")
            << text << R"({"a":1,"b":{"c":false}})"
            << "{\n  \"a\":    1,\n  \"b\": {\"c\": false}\n}";
        QTest::newRow("a new key prints the document whole")
            << text << R"({"a":1,"b":{"c":true},"d":2})"
            << "{\n  \"a\": 1,\n  \"b\": {\n    \"c\": true\n  },\n  \"d\": 2\n}\n";
    }
    void patchJsonText() {
        QFETCH(QString, text);
        QFETCH(QString, after);
        QFETCH(QString, patched);
        const OrderedJson before = OrderedJson::parse(R"({"a":1,"b":{"c":true}})");
        QCOMPARE(zerolab::patchJsonText(text, before, OrderedJson::parse(after.toStdString())),
                 patched);
    }

    void flattenJson_data() {
        QTest::addColumn<QString>("doc");
        QTest::addColumn<QStringList>("rows"); // path=value, by path
        QTest::newRow("nested objects")
            << R"({"a":{"b":1,"c":{"d":true}}})" << QStringList{"a.b=1", "a.c.d=true"};
        QTest::newRow("arrays are leaves") << R"({"a":[1,2]})" << QStringList{"a=[1,2]"};
        QTest::newRow("strings without quotes") << R"({"s":"x y"})" << QStringList{"s=x y"};
        QTest::newRow("an empty object is a leaf") << R"({"o":{}})" << QStringList{"o={}"};
    }
    void flattenJson() {
        QFETCH(QString, doc);
        QFETCH(QStringList, rows);
        QStringList got;
        for (const auto& [path, value] :
             zerolab::flattenJson(nlohmann::json::parse(doc.toStdString())))
            got << QString::fromStdString(path + "=" + value);
        QCOMPARE(got, rows);
    }

    void paretoFrontier_data() {
        QTest::addColumn<QVector<double>>("xy"); // peak, tokens/s pairs
        QTest::addColumn<QVector<int>>("frontier");
        QTest::newRow("none") << QVector<double>{} << QVector<int>{};
        QTest::newRow("one") << QVector<double>{5, 5} << QVector<int>{0};
        QTest::newRow("a point beaten on both axes")
            << QVector<double>{1, 10, 2, 20, 3, 15} << QVector<int>{0, 1};
        QTest::newRow("by ascending memory, whatever the order")
            << QVector<double>{3, 30, 1, 10, 2, 20} << QVector<int>{1, 2, 0};
        QTest::newRow("of equal points the first")
            << QVector<double>{1, 10, 1, 10} << QVector<int>{0};
        QTest::newRow("equal memory, less speed is beaten")
            << QVector<double>{1, 10, 1, 12} << QVector<int>{1};
        QTest::newRow("non-finite and negative are never on it")
            << QVector<double>{kNaN, 100, -1, 50, 2, 5, 1, std::numeric_limits<double>::infinity()}
            << QVector<int>{2};
    }
    void paretoFrontier() {
        QFETCH(QVector<double>, xy);
        QFETCH(QVector<int>, frontier);
        std::vector<zerolab::TradeoffPoint> points;
        for (int i = 0; i + 1 < xy.size(); i += 2)
            points.push_back({xy[i], xy[i + 1]});
        const std::vector<int> got = zerolab::paretoFrontier(points);
        QCOMPARE(QVector<int>(got.begin(), got.end()), frontier);
    }

    // Issue 29 §1: a step's rank rows against its world. "ranks" are the stored rows' ranks
    // in store order; "kept" the rows the charts get; "problem" what the view says.
    void checkRankRows_data() {
        QTest::addColumn<QVector<int>>("ranks");
        QTest::addColumn<qint64>("world");
        QTest::addColumn<QVector<int>>("kept");
        QTest::addColumn<QString>("problem");
        QTest::newRow("the whole world")
            << QVector<int>{1, 0, 2} << qint64(3) << QVector<int>{0, 1, 2} << QString();
        QTest::newRow("a rank beyond the world")
            << QVector<int>{0, 7} << qint64(2) << QVector<int>{0}
            << QStringLiteral("rank 7 outside the world of 2 (ranks 0..1); 1 of the 2 ranks "
                              "missing (the first: rank 1)");
        QTest::newRow("negative ranks, counted")
            << QVector<int>{-3, -1, 0, 1} << qint64(2) << QVector<int>{0, 1}
            << QStringLiteral("rank -3 outside the world of 2 (ranks 0..1) and 1 more such rows");
        QTest::newRow("a rank twice")
            << QVector<int>{0, 1, 0, 1, 1} << qint64(2) << QVector<int>{0, 1}
            << QStringLiteral("rank 0 twice and 2 more repeated rows");
        QTest::newRow("a gap in the middle")
            << QVector<int>{0, 3, 1} << qint64(4) << QVector<int>{0, 1, 3}
            << QStringLiteral("1 of the 4 ranks missing (the first: rank 2)");
        QTest::newRow("a huge world is not sized")
            << QVector<int>{0, 1} << qint64(2147483647) << QVector<int>{0, 1}
            << QStringLiteral("2147483645 of the 2147483647 ranks missing (the first: rank 2)");
        QTest::newRow("no world at all")
            << QVector<int>{0} << qint64(0) << QVector<int>{}
            << QStringLiteral("a world of 0 ranks; rank 0 outside the world");
        // A step without rank rows (none logged): the charts say "No rank rows yet".
        QTest::newRow("no rows") << QVector<int>{} << qint64(2) << QVector<int>{} << QString();
    }
    void checkRankRows() {
        QFETCH(QVector<int>, ranks);
        QFETCH(qint64, world);
        QFETCH(QVector<int>, kept);
        QFETCH(QString, problem);
        std::vector<zerolab::RankRecord> rows;
        for (int r : ranks) {
            zerolab::RankRecord row;
            row.rank = r;
            row.rss = 100 + r; // which row of a repeated rank is kept
            rows.push_back(row);
        }
        const zerolab::CheckedRanks got = zerolab::checkRankRows(rows, world);
        QVector<int> gotRanks;
        for (const zerolab::RankRecord& r : got.ranks) {
            gotRanks << r.rank;
            QCOMPARE(qint64(r.rss), qint64(100 + r.rank));
        }
        QCOMPARE(gotRanks, kept);
        QCOMPARE(QString::fromStdString(got.problem), problem);
    }

    void visibleSteps_data() {
        QTest::addColumn<int>("axis");
        QTest::addColumn<double>("lower");
        QTest::addColumn<double>("upper");
        QTest::addColumn<qint64>("first"); // -1: nullopt
        QTest::addColumn<qint64>("last");
        QTest::newRow("a middle range, one row wider each side")
            << int(zerolab::Metric::Step) << 3.0 << 5.0 << qint64(2) << qint64(6);
        QTest::newRow("the whole run: nothing to refine")
            << int(zerolab::Metric::Step) << 0.0 << 9.0 << qint64(-1) << qint64(-1);
        QTest::newRow("wider than the run")
            << int(zerolab::Metric::Step) << -5.0 << 100.0 << qint64(-1) << qint64(-1);
        QTest::newRow("on the wall-time axis")
            << int(zerolab::Metric::WallTime) << 6.0 << 10.0 << qint64(2) << qint64(6);
        QTest::newRow("between two rows")
            << int(zerolab::Metric::Step) << 4.2 << 4.8 << qint64(4) << qint64(5);
    }
    void visibleSteps() {
        QFETCH(int, axis);
        QFETCH(double, lower);
        QFETCH(double, upper);
        QFETCH(qint64, first);
        QFETCH(qint64, last);
        const auto got = zerolab::visibleSteps(steps(10), zerolab::Metric(axis), lower, upper);
        QCOMPARE(got ? qint64(got->first) : qint64(-1), first);
        QCOMPARE(got ? qint64(got->second) : qint64(-1), last);
    }

    void visibleStepsNeedsTwoRows() {
        QVERIFY(!zerolab::visibleSteps(steps(1), zerolab::Metric::Step, 0, 0));
        QVERIFY(!zerolab::visibleSteps(steps(0), zerolab::Metric::Step, 0, 0));
    }

    void mergeDetail_data() {
        QTest::addColumn<int>("detailFirst");
        QTest::addColumn<int>("detailLast");
        QTest::addColumn<qint64>("askedFirst");
        QTest::addColumn<qint64>("askedLast");
        QTest::addColumn<int>("size");
        // The overview is steps 0, 10, 20, ..., 90; the detail every step of its range.
        QTest::newRow("the detail replaces its range")
            << 20 << 40 << qint64(20) << qint64(40) << 2 + 21 + 5;
        QTest::newRow("a detail wider than asked bounds what it replaces")
            << 15 << 45 << qint64(20) << qint64(40) << 2 + 31 + 5;
        QTest::newRow("an empty detail removes the asked range")
            << 1 << 0 << qint64(20) << qint64(40) << 7;
    }
    void mergeDetail() {
        QFETCH(int, detailFirst);
        QFETCH(int, detailLast);
        QFETCH(qint64, askedFirst);
        QFETCH(qint64, askedLast);
        QFETCH(int, size);
        zerolab::StepColumns overview;
        for (int s = 0; s < 100; s += 10)
            for (auto& col : overview.columns)
                col << s;
        zerolab::StepColumns detail;
        for (int s = detailFirst; s <= detailLast; ++s)
            for (auto& col : detail.columns)
                col << s;
        const zerolab::StepColumns merged =
            zerolab::mergeDetail(overview, detail, askedFirst, askedLast);
        QCOMPARE(merged.size(), size);
        const QVector<double>& s = merged[zerolab::Metric::Step];
        QVERIFY(std::is_sorted(s.begin(), s.end()));
    }

    void timelineRows_data() {
        QTest::addColumn<int>("rank");
        QTest::addColumn<int>("lane"); // TimelineRowKind
        QTest::addColumn<double>("tUs");
        QTest::addColumn<int>("kind"); // SpanKind found, -1 none
        using zerolab::SpanKind;
        using zerolab::TimelineRowKind;
        QTest::newRow("rank 0 computing")
            << 0 << int(TimelineRowKind::Compute) << 5.0 << int(SpanKind::Forward);
        QTest::newRow("rank 0's all-reduce")
            << 0 << int(TimelineRowKind::Comm) << 12.0 << int(SpanKind::Collective);
        QTest::newRow("rank 1 waiting")
            << 1 << int(TimelineRowKind::Compute) << 14.0 << int(SpanKind::Wait);
        QTest::newRow("rank 0 idle after its forward")
            << 0 << int(TimelineRowKind::Compute) << 12.0 << -1;
        QTest::newRow("no memory strip") << 0 << int(TimelineRowKind::Memory) << 1.0 << -1;
    }
    void timelineRows() {
        QFETCH(int, rank);
        QFETCH(int, lane);
        QFETCH(double, tUs);
        QFETCH(int, kind);
        const zerolab::TimelineLayout layout(twoRanks());
        const int row = layout.rowIndex(rank, zerolab::TimelineRowKind(lane));
        const int found = row < 0 ? -1 : layout.spanAt(row, tUs);
        QCOMPARE(found < 0 ? -1 : int(layout.spans()[std::size_t(found)].kind), kind);
        if (found >= 0)
            QCOMPARE(layout.spans()[std::size_t(found)].rank, rank);
    }

    void timelineLinksAndWaits() {
        const zerolab::TimelineLayout layout(twoRanks());
        QCOMPARE(layout.step(), 7LL);
        QCOMPARE(layout.world(), 2);
        QCOMPARE(int(layout.rows().size()), 4); // compute and comm lanes, two ranks
        QVERIFY(!layout.hasMemoryStrip());
        QCOMPARE(layout.endUs(), 16.0);
        QCOMPARE(int(layout.links().size()), 1); // the all-reduce, rank 0 to rank 1
        QCOMPARE(layout.waitUs(), (std::vector<double>{0, 4}));
        // The all-reduce links both ranks' collectives and rank 1's wait for it.
        const int collective =
            layout.spanAt(layout.rowIndex(0, zerolab::TimelineRowKind::Comm), 12);
        QCOMPARE(int(layout.linked(collective).size()), 3);
        // Each row's centre is inside its own band.
        for (int r = 0; r < int(layout.rows().size()); ++r)
            QCOMPARE(layout.rowAt(layout.rows()[std::size_t(r)].y), r);
    }
};

QTEST_GUILESS_MAIN(CoreTest)
#include "core_test.moc"
