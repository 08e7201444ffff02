// The Setup forecast is what a real run holds: the numbers the forecast widget draws
// for each stage equal, category by category, the ledger of a real 2-rank mpirun job
// of zerolab-train on the same config (micro, bf16), stages 0-3, overlap_comm off and on.
#include "gui/views/setup/setup_view.h"
#include "gui/widgets/forecast_panel.h"
#include "gui/widgets/memory_bar_chart.h"
#include "tests/support/process.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace zerolab;

namespace {

nlohmann::json microConfig(int stage, bool overlap) {
    return {{"train_batch_size", 4},
            {"train_micro_batch_size_per_gpu", 2},
            {"gradient_accumulation_steps", 1},
            {"bf16", {{"enabled", true}}},
            {"zero_optimization",
             {{"stage", stage}, {"overlap_comm", overlap}, {"reduce_bucket_size", 500000}}},
            {"model", {{"preset", "micro"}}},
            {"data", {{"type", "synthetic"}}},
            {"run", {{"steps", 1}, {"seed", 7}, {"log_every", 1}}}};
}

// The `ranks` of the first step line a 2-rank job prints for `config`.
nlohmann::json ledgerOfRealRun(const QTemporaryDir& dir, const nlohmann::json& config,
                               const QString& name) {
    const std::string path = dir.filePath(name + QStringLiteral(".json")).toStdString();
    std::ofstream(path) << config.dump(2);
    const auto r = test::runProcess(test::mpirunTrain(
        2, {"--config", path, "--db", dir.filePath(QStringLiteral("runs.db")).toStdString()}));
    if (r.exit_code != 0)
        qFatal("zerolab-train failed (%d): %s", r.exit_code, r.err.c_str());
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_discarded() && j.value("type", "") == "step")
            return j["ranks"];
    }
    qFatal("no step line from zerolab-train:\n%s", r.out.c_str());
}

} // namespace

class ForecastLedgerTest : public QObject {
    Q_OBJECT
private slots:
    void forecastEqualsTheLedgerOfARealRun_data() {
        QTest::addColumn<bool>("overlap");
        QTest::newRow("overlap_comm off") << false;
        QTest::newRow("overlap_comm on") << true;
    }

    void forecastEqualsTheLedgerOfARealRun() {
        QFETCH(bool, overlap);
        QTemporaryDir dir;
        SetupView view;
        // The form's N decides the world, as when the user presses Start.
        view.setText(QString::fromStdString(microConfig(1, overlap).dump(2)));
        view.validateNow();
        QVERIFY(view.validation().config.has_value());
        QCOMPARE(view.validation().config->batch.world, 2);
        MemoryBarChart* chart = view.forecast()->chart();
        QCOMPARE(chart->groups().size(), 4);
        for (int stage = 0; stage < 4; ++stage) {
            const nlohmann::json ranks = ledgerOfRealRun(dir, microConfig(stage, overlap),
                                                         QStringLiteral("stage%1").arg(stage));
            QCOMPARE(ranks.size(), std::size_t(2));
            for (const auto& rank : ranks)
                for (std::size_t c = 0; c < kMemCategoryCount; ++c) {
                    const std::string name(kMemCategoryNames[c]);
                    const double measured = rank["mem"][name].get<double>();
                    const double drawn = chart->segmentBytes(stage, static_cast<MemCategory>(c));
                    QVERIFY2(drawn == measured,
                             qPrintable(QStringLiteral("stage %1, %2, rank %3: forecast %4, "
                                                       "ledger %5")
                                            .arg(stage)
                                            .arg(QString::fromStdString(name))
                                            .arg(rank["rank"].get<int>())
                                            .arg(drawn, 0, 'f', 0)
                                            .arg(measured, 0, 'f', 0)));
                }
        }
    }

    // zerolab --config F --print-forecast prints the numbers the Setup chart draws; a
    // config error exits 2 naming the file and the JSON path.
    void printForecastIsWhatTheChartDraws() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("f.json"));
        std::ofstream(path.toStdString()) << microConfig(2, true).dump(2);
        SetupView view;
        QVERIFY(view.loadFile(path));
        const auto r = test::runProcess(
            {ZEROLAB_BIN_DIR "/zerolab", "--config", path.toStdString(), "--print-forecast"});
        QCOMPARE(r.exit_code, 0);
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(j["stage"].get<int>(), 2);
        QCOMPARE(j["world"].get<int>(), 2);
        QCOMPARE(j["stages"].size(), std::size_t(4));
        for (int stage = 0; stage < 4; ++stage)
            for (std::size_t c = 0; c < kMemCategoryCount; ++c)
                QCOMPARE(
                    j["stages"][stage]["per_rank"][std::string(kMemCategoryNames[c])].get<double>(),
                    view.forecast()->chart()->segmentBytes(stage, static_cast<MemCategory>(c)));

        auto bad = microConfig(2, true);
        bad["zero_optimization"]["stage"] = 7;
        std::ofstream(path.toStdString()) << bad.dump(2);
        const auto e = test::runProcess(
            {ZEROLAB_BIN_DIR "/zerolab", "--config", path.toStdString(), "--print-forecast"});
        QCOMPARE(e.exit_code, 2);
        QVERIFY2(e.err.find("f.json") != std::string::npos &&
                     e.err.find("zero_optimization.stage") != std::string::npos,
                 e.err.c_str());
    }
};

QTEST_MAIN(ForecastLedgerTest)
#include "forecast_ledger_test.moc"
