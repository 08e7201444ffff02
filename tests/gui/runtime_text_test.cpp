// The texts the runtime libraries write, shown in Simplified Chinese: Setup's validator
// findings (JSON path and value kept), Learn's "How it adds up" and its chapter errata,
// and a Tune trial's phase and reason (a stored reason no template fits stays as
// stored). In English each is the runtime's own text, the one the command-line tools print.
#include "gui/core/language.h"
#include "gui/views/learn/learn_view.h"
#include "gui/views/setup/setup_view.h"
#include "gui/views/tune/tune_view.h"
#include "runtime/planner/planner.h"
#include "runtime/tune/sweep_texts.h"
#include "storage/run_store.h"
#include "storage/sweep_store.h"

#include <QListWidget>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace zerolab;

namespace {

const char* kBroken = R"({
  "train_batch_size": 8,
  "zero_optimization": {"stage": 7},
  "optimizer": {"type": "Lamb"}
})";

const EditorDiagnostic* diagnosticAt(const ConfigValidation& v, const QString& path) {
    for (const EditorDiagnostic& d : v.diagnostics)
        if (d.path == path)
            return &d;
    return nullptr;
}

TrialRecord trial(const char* phase, TrialStatus status, const std::string& reason) {
    TrialRecord t;
    t.phase = phase;
    t.axes_json = R"({"train_micro_batch_size_per_gpu": 16})";
    t.config_json = "{}";
    t.world = 2;
    t.status = status;
    t.reason = reason;
    return t;
}

} // namespace

class RuntimeTextTest : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { QVERIFY(setLanguage(Language::English)); }

    void setupDiagnosticsInChinese() {
        QVERIFY(setLanguage(Language::Chinese));
        SetupView view;
        view.setText(QString::fromUtf8(kBroken));
        view.validateNow();
        const EditorDiagnostic* stage = diagnosticAt(view.validation(), "zero_optimization.stage");
        QVERIFY(stage);
        QCOMPARE(stage->message, QStringLiteral("应为介于 0 和 3 之间的整数，实际为 7"));
        const EditorDiagnostic* type = diagnosticAt(view.validation(), "optimizer.type");
        QVERIFY(type);
        QCOMPARE(type->message,
                 QStringLiteral("zerolab 未实现优化器 \"Lamb\"；应为 \"Adam\" 或 \"AdamW\""));
        // The problems list under the editor shows them with their path.
        auto* problems = view.findChild<QListWidget*>();
        QVERIFY(problems);
        QStringList shown;
        for (int i = 0; i < problems->count(); ++i)
            shown << problems->item(i)->text();
        QVERIFY2(shown.join('\n').contains(QStringLiteral(
                     "zero_optimization.stage: 应为介于 0 和 3 之间的整数，实际为 7")),
                 qPrintable(shown.join('\n')));
    }

    void setupDiagnosticsInEnglishAreTheValidatorsText() {
        SetupView view;
        view.setText(QString::fromUtf8(kBroken));
        view.validateNow();
        const ConfigResult r = parseConfig(nlohmann::json::parse(kBroken), 2, "x");
        const EditorDiagnostic* stage = diagnosticAt(view.validation(), "zero_optimization.stage");
        QVERIFY(stage);
        QCOMPARE(stage->message, QStringLiteral("expected an integer 0-3, got 7"));
        for (const ConfigDiagnostic& d : r.diagnostics) {
            const EditorDiagnostic* e =
                diagnosticAt(view.validation(), QString::fromStdString(d.path));
            QVERIFY(e);
            QCOMPARE(e->message, QString::fromStdString(d.message));
        }
    }

    void learnExplanationAndErrataInChinese() {
        QVERIFY(setLanguage(Language::Chinese));
        LearnView view;
        view.showScenario(LearnView::Scenario::SixPointSevenOnEight);
        const QString text = view.explainText();
        QVERIFY2(text.startsWith(QStringLiteral("ZeRO 阶段 1，本章的布局，bf16\n"
                                                "ψ = 6.7e9 个参数，N = 8 个进程；十进制单位，"
                                                "1 GB = 1e9 字节\n")),
                 qPrintable(text));
        QVERIFY2(
            text.contains(QStringLiteral("每个进程的模型状态（每参数字节数 x ψ，分片的再 / N）：")),
            qPrintable(text));
        QVERIFY2(text.contains(
                     QStringLiteral("每个进程合计 = 模型状态 + 激活值 + 通信缓冲区 + 工作区 = ")),
                 qPrintable(text));
        auto* errata = view.findChild<QTableWidget*>();
        QVERIFY(errata);
        QVERIFY(errata->rowCount() >= 4);
        QCOMPARE(errata->item(0, 0)->text(), QStringLiteral("阶段 1 合计"));
        QVERIFY2(errata->item(0, 1)->text().startsWith(QStringLiteral(
                     "表中的合计：14ψ + 4ψ / N = 14 x 6.7e9 + 4 x 6.7e9 / 8 = 97.15 GB")),
                 qPrintable(errata->item(0, 1)->text()));
        QCOMPARE(errata->item(1, 0)->text(), QStringLiteral("节省上限"));
        QVERIFY2(errata->item(1, 2)->text().contains(QStringLiteral("趋于 8/18 = 44.4%")),
                 qPrintable(errata->item(1, 2)->text()));
    }

    void learnExplanationInEnglishIsExplain() {
        LearnView view;
        view.showScenario(LearnView::Scenario::SixPointSevenOnEight);
        QCOMPARE(view.explainText(), QString::fromStdString(explain(view.input(), 1)));
        auto* errata = view.findChild<QTableWidget*>();
        QVERIFY(errata);
        QCOMPARE(errata->item(0, 0)->text(), QStringLiteral("stage-1 total"));
    }

    void tunePhaseAndReasonInChinese() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString db = dir.filePath(QStringLiteral("runs.db"));
        std::int64_t id = 0;
        const std::string over = renderEnglish(
            Message(kReasonOverCapacity, {std::string("3.00 GiB"), std::string("1.00 GiB"),
                                          std::string("params 1.00 GiB, grads 2.00 GiB")}));
        try {
            SweepStore store(RunStore::open(db.toStdString()));
            SweepRecord s;
            s.name = "texts";
            s.source = "texts.json";
            s.definition = "{}";
            s.status = SweepStatus::Finished;
            id = store.createSweep(s);
            store.addTrials(id, {trial("search", TrialStatus::Pruned, over),
                                 trial("repeat", TrialStatus::Skipped, "micro-batch 16 ended oom"),
                                 trial("buckets", TrialStatus::Failed, "an older store's words")});
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY(setLanguage(Language::Chinese));
        TuneView view;
        view.setStorePath(db);
        QVERIFY(view.showSweep(id));
        view.waitIdle();
        const QStandardItemModel* m = view.trialsModel();
        QCOMPARE(m->rowCount(), 3);
        const int phase = 1, reason = m->columnCount() - 1;
        QCOMPARE(m->index(0, phase).data().toString(), QStringLiteral("搜索"));
        QCOMPARE(m->index(1, phase).data().toString(), QStringLiteral("重复"));
        QCOMPARE(m->index(2, phase).data().toString(), QStringLiteral("桶大小"));
        QCOMPARE(m->index(0, reason).data().toString(),
                 QStringLiteral(
                     "预测每个进程 3.00 GiB > 容量 1.00 GiB（params 1.00 GiB, grads 2.00 GiB）"));
        QCOMPARE(m->index(1, reason).data().toString(),
                 QStringLiteral("微批次 16 的结果：%1")
                     .arg(QCoreApplication::translate("Status", "oom")));
        QVERIFY(QCoreApplication::translate("Status", "oom") != QStringLiteral("oom"));
        QCOMPARE(m->index(2, reason).data().toString(), QStringLiteral("an older store's words"));

        QVERIFY(setLanguage(Language::English));
        view.refresh();
        QVERIFY(view.showSweep(id));
        view.waitIdle();
        QCOMPARE(m->index(0, phase).data().toString(), QStringLiteral("search"));
        QCOMPARE(m->index(0, reason).data().toString(), QString::fromStdString(over));
    }
};

QTEST_MAIN(RuntimeTextTest)
#include "runtime_text_test.moc"
