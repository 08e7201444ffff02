// Setup tab: form -> JSON and JSON -> form stay in sync, the validator's messages
// reach the editor with their lines, and the forecast shows the planner's numbers.
#include "gui/app/main_window.h"
#include "gui/core/json_path.h"
#include "gui/core/language.h"
#include "gui/views/setup/config_form.h"
#include "gui/views/setup/setup_view.h"
#include "gui/widgets/forecast_panel.h"
#include "gui/widgets/json_editor.h"
#include "gui/widgets/memory_bar_chart.h"
#include "runtime/model/activation_layout.h"
#include "tests/support/hostile_files.h"
#include "tests/support/process.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <limits>

using namespace zerolab;

class SetupViewTest : public QObject {
    Q_OBJECT
private slots:
    void defaultConfigIsValid() {
        SetupView view;
        QVERIFY2(view.validation().errorCount() == 0,
                 qPrintable(view.validation().diagnostics.value(0).message));
        QVERIFY(view.validation().config.has_value());
    }

    void formEditsPatchTheJson() {
        SetupView view;
        auto* stage3 = view.form()->findChild<QPushButton*>(QStringLiteral("stage3"));
        QVERIFY(stage3);
        stage3->click();
        auto doc = nlohmann::json::parse(view.text().toStdString());
        QCOMPARE(doc["zero_optimization"]["stage"].get<int>(), 3);
        auto* overlap = qobject_cast<QCheckBox*>(
            view.form()->fieldFor(QStringLiteral("zero_optimization.overlap_comm")));
        QVERIFY(overlap);
        overlap->click();
        doc = nlohmann::json::parse(view.text().toStdString());
        QCOMPARE(doc["zero_optimization"]["overlap_comm"].get<bool>(), overlap->isChecked());
        // Keys the form does not know survive a form edit.
        QVERIFY(doc.contains("run"));
        QCOMPARE(doc["model"]["preset"].get<std::string>(), std::string("micro"));
    }

    void jsonEditsUpdateTheForm() {
        SetupView view;
        auto doc = nlohmann::json::parse(view.text().toStdString());
        doc["zero_optimization"]["stage"] = 2;
        doc["gradient_accumulation_steps"] = 4;
        view.setText(QString::fromStdString(doc.dump(2)));
        QCOMPARE(view.form()->stage(), 2);
        auto* accum = qobject_cast<QSpinBox*>(
            view.form()->fieldFor(QStringLiteral("gradient_accumulation_steps")));
        QVERIFY(accum);
        QCOMPARE(accum->value(), 4);
    }

    // Issue 39: the form's batch fields stopped at 4096, so a config with accumulation
    // 100,000 showed 4,096 and a wrong global batch beside JSON that said 100000. Their
    // bound is the config's: each up to 2^31-1 (docs/config.md).
    void batchFieldsHoldWhatTheConfigAllows() {
        SetupView view;
        auto doc = nlohmann::json::parse(view.text().toStdString());
        doc.erase("train_batch_size");
        doc["train_micro_batch_size_per_gpu"] = 5000;
        doc["gradient_accumulation_steps"] = 100000;
        view.setText(QString::fromStdString(doc.dump(2)));
        auto* micro = qobject_cast<QSpinBox*>(
            view.form()->fieldFor(QStringLiteral("train_micro_batch_size_per_gpu")));
        auto* accum = qobject_cast<QSpinBox*>(
            view.form()->fieldFor(QStringLiteral("gradient_accumulation_steps")));
        QVERIFY(micro && accum);
        QCOMPARE(micro->maximum(), std::numeric_limits<int>::max());
        QCOMPARE(accum->maximum(), std::numeric_limits<int>::max());
        QCOMPARE(micro->value(), 5000);
        QCOMPARE(accum->value(), 100000);
        const QString global = QString::number(5000LL * 100000 * view.form()->world());
        bool shown = false;
        for (const QLabel* label : view.form()->findChildren<QLabel*>())
            shown = shown || label->text().startsWith(global + QLatin1Char(' '));
        QVERIFY2(shown, qPrintable(global));
    }

    void typingIsDebouncedThenValidated() {
        SetupView view;
        view.editor()->setPlainText(QStringLiteral("{\"zero_optimization\": {\"stage\": 2}}"));
        QCOMPARE(view.form()->stage(), 1); // not yet: the 300 ms pause has not passed
        QTRY_COMPARE_WITH_TIMEOUT(view.form()->stage(), 2, 5000);
    }

    void validationMessagesCarryPathAndLine() {
        SetupView view;
        view.setText(QStringLiteral("{\n  \"zero_optimization\": {\n    \"stage\": 7\n  }\n}\n"));
        const auto& diags = view.validation().diagnostics;
        QVERIFY(view.validation().errorCount() >= 1);
        bool found = false;
        for (const auto& d : diags)
            if (d.error && d.path == QLatin1String("zero_optimization.stage")) {
                QCOMPARE(d.line, 3);
                found = true;
            }
        QVERIFY2(found, "no error on zero_optimization.stage");
        QCOMPARE(view.editor()->diagnostics().size(), diags.size());
    }

    void syntaxErrorsNameTheirLine() {
        SetupView view;
        view.setText(QStringLiteral("{\n  \"a\": 1,\n  \"b\": \n}\n"));
        const auto& diags = view.validation().diagnostics;
        QCOMPARE(diags.size(), 1);
        QVERIFY(diags[0].message.startsWith(QStringLiteral("JSON syntax")));
        QCOMPARE(diags[0].line, 4);
    }

    void forecastEqualsThePlanner() {
        SetupView view;
        const auto& config = view.validation().config;
        QVERIFY(config.has_value());
        PlanInput in = planInputFromConfig(*config);
        in.device = view.forecast()->device(in.world);
        const Plan expected = plan(in);
        MemoryBarChart* chart = view.forecast()->chart();
        QCOMPARE(chart->groups().size(), 4);
        for (int s = 0; s < 4; ++s)
            for (std::size_t c = 0; c < kMemCategoryCount; ++c)
                QCOMPARE(chart->segmentBytes(s, static_cast<MemCategory>(c)),
                         double(expected.stages[s].per_rank.bytes[c]));
        QCOMPARE(chart->highlighted(), config->zero.stage);
    }

    // Issue 36 item 8: a Llama preset shows its own shape (family, layers, heads, KV heads,
    // head dim, FFN, vocabulary, head, bias, ψ) instead of GPT-2's L/H/C/T/V rows, and its
    // sequence length goes up to the preset's context, written as model.seq_len.
    void llamaPresetShowsItsShape() {
        SetupView view;
        view.resize(1280, 800);
        view.show();
        auto doc = nlohmann::json::parse(view.text().toStdString());
        doc["model"] = {{"preset", "llama-3.1-8b"}, {"seq_len", 4096}};
        view.setText(QString::fromStdString(doc.dump(2)));
        QVERIFY2(view.validation().errorCount() == 0,
                 qPrintable(view.validation().diagnostics.value(0).message));
        ConfigForm* form = view.form();
        const ModelShape shape = *findModelPreset("llama-3.1-8b");
        QCOMPARE(form->shownShape(), shape);
        QVERIFY(form->familyText().startsWith(QStringLiteral("Llama")));
        QCOMPARE(form->llamaShapeText(),
                 QStringLiteral("32 layers · 32 heads · 8 KV heads · head dim 128 · FFN 14,336"));
        QCOMPARE(form->llamaVocabText(),
                 QStringLiteral("vocabulary 128,256 · untied head (its own lm_head) · no q/k/v "
                                "bias"));
        auto* psi = form->findChild<QLabel*>(QStringLiteral("llamaShape"));
        QVERIFY(psi && psi->isVisible());
        // GPT-2's shape rows are hidden; the training T is shown, up to the context.
        auto* layers = qobject_cast<QSpinBox*>(form->fieldFor(QStringLiteral("model.n_layer")));
        QVERIFY(layers && !layers->isVisible());
        QSpinBox* seq = form->trainSeqLen();
        QVERIFY(seq->isVisible());
        QCOMPARE(seq->maximum(), shape.seq_len);
        QCOMPARE(seq->value(), 4096);
        seq->setValue(8192);
        doc = nlohmann::json::parse(view.text().toStdString());
        QCOMPARE(doc["model"]["seq_len"].get<int>(), 8192);
        QCOMPARE(view.validation().config->model.seq_len, 8192);
        // ψ is the family's count, not GPT-2's formula over L, H, C.
        QVERIFY(form->findChildren<QLabel*>().size() > 0);
        bool psiShown = false;
        for (QLabel* l : form->findChildren<QLabel*>())
            psiShown = psiShown || l->text().contains(QString::number(paramCount(shape)));
        QVERIFY(psiShown);
        // The forecast is the planner's for that config.
        PlanInput in = planInputFromConfig(*view.validation().config);
        in.device = view.forecast()->device(in.world);
        QCOMPARE(view.forecast()->currentPlan()->psi, paramCount(shape));
        // Tied and biased: Qwen2.5 0.5B.
        doc["model"] = {{"preset", "qwen2.5-0.5b"}};
        view.setText(QString::fromStdString(doc.dump(2)));
        QVERIFY(form->llamaVocabText().contains(QStringLiteral("tied head")));
        QVERIFY(form->llamaVocabText().contains(QStringLiteral("· q/k/v bias")));
        // Back on a GPT-2 preset: its rows again.
        doc["model"] = {{"preset", "micro"}};
        view.setText(QString::fromStdString(doc.dump(2)));
        QVERIFY(layers->isVisible());
        QVERIFY(!seq->isVisible());
        QCOMPARE(form->familyText(), QStringLiteral("GPT-2 (llm.c)"));
    }

    // Choosing a Llama preset in the combo writes model.preset and drops the shape keys.
    void llamaPresetPickedInTheCombo() {
        SetupView view;
        auto* preset =
            qobject_cast<QComboBox*>(view.form()->fieldFor(QStringLiteral("model.preset")));
        QVERIFY(preset);
        preset->setCurrentIndex(preset->findText(QStringLiteral("llama-micro")));
        auto doc = nlohmann::json::parse(view.text().toStdString());
        QCOMPARE(doc["model"]["preset"].get<std::string>(), std::string("llama-micro"));
        QVERIFY(!doc["model"].contains("seq_len"));
        QVERIFY2(view.validation().errorCount() == 0,
                 qPrintable(view.validation().diagnostics.value(0).message));
        QCOMPARE(view.form()->trainSeqLen()->maximum(), 128);
        QVERIFY(view.form()->llamaVocabText().contains(QStringLiteral("untied")));
    }

    // The custom item is GPT-2's five numbers and says so, in its text and its tooltip
    // (which names the ways to a Llama shape of one's own); picked after a Llama preset it
    // writes a GPT-2 shape and the family row says GPT-2, never a Llama that is not one.
    void customItemSaysItIsAGptTwoShape() {
        SetupView view;
        auto* preset =
            qobject_cast<QComboBox*>(view.form()->fieldFor(QStringLiteral("model.preset")));
        QVERIFY(preset);
        const int custom = preset->findText(QStringLiteral("custom GPT-2"));
        QVERIFY(custom >= 0);
        QVERIFY(preset->itemData(custom, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("Hugging Face config.json")));
        preset->setCurrentIndex(preset->findText(QStringLiteral("llama-micro")));
        preset->setCurrentIndex(custom);
        auto doc = nlohmann::json::parse(view.text().toStdString());
        QVERIFY(!doc["model"].contains("preset"));
        QVERIFY(!doc["model"].contains("family"));
        QCOMPARE(doc["model"]["n_layer"].get<int>(), 4);
        QCOMPARE(view.form()->familyText(), QStringLiteral("GPT-2 (llm.c)"));
    }

    // "Open a Hugging Face model config…": model.hf_config written, model.preset and every
    // shape key removed (the key lands with the llama-config branch; until then the
    // validator calls it unknown, which this test does not look at).
    void hfConfigActionWritesTheKey() {
        SetupView view;
        auto doc = nlohmann::json::parse(view.text().toStdString());
        doc["model"] = {{"n_layer", 2},  {"n_head", 2},       {"n_embd", 64},
                        {"seq_len", 64}, {"vocab_size", 256}, {"recompute", "full"}};
        view.setText(QString::fromStdString(doc.dump(2)));
        QVERIFY(view.form()->findChild<QPushButton*>(QStringLiteral("openHfConfig")));
        const QString path = QStringLiteral("/models/llama-3.2-1b/config.json");
        view.form()->chooseHfConfig(path);
        doc = nlohmann::json::parse(view.text().toStdString());
        QCOMPARE(doc["model"]["hf_config"].get<std::string>(), path.toStdString());
        for (const char* key : {"preset", "n_layer", "n_head", "n_embd", "seq_len", "vocab_size"})
            QVERIFY2(!doc["model"].contains(key), key);
        QCOMPARE(doc["model"]["recompute"].get<std::string>(), std::string("full"));
        QVERIFY(view.form()->familyText().contains(QStringLiteral("config.json")));
        // A preset picked afterwards replaces the HF config.
        auto* preset =
            qobject_cast<QComboBox*>(view.form()->fieldFor(QStringLiteral("model.preset")));
        preset->setCurrentIndex(preset->findText(QStringLiteral("llama-nano")));
        doc = nlohmann::json::parse(view.text().toStdString());
        QVERIFY(!doc["model"].contains("hf_config"));
        QCOMPARE(doc["model"]["preset"].get<std::string>(), std::string("llama-nano"));
    }

    // ZEROLAB_SHOT_DIR=DIR: Setup at 1280x800 with llama-3.1-8b, its model group scrolled
    // into view, in English and Chinese (DIR/setup-llama-model-<lang>.png); skipped without it.
    void llamaSetupScreenshots() {
        const QString dir = qEnvironmentVariable("ZEROLAB_SHOT_DIR");
        if (dir.isEmpty())
            QSKIP("ZEROLAB_SHOT_DIR not set");
        for (const Language language : {Language::English, Language::Chinese}) {
            QVERIFY(setLanguage(language));
            MainWindow window(false);
            window.resize(1280, 800);
            window.setTab(MainWindow::Tab::Setup);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            SetupView* view = window.setupView();
            auto doc = nlohmann::json::parse(view->text().toStdString());
            doc["model"] = {{"preset", "llama-3.1-8b"}, {"seq_len", 4096}, {"recompute", "full"}};
            doc["bf16"]["enabled"] = true;
            view->setText(QString::fromStdString(doc.dump(2)));
            QCoreApplication::processEvents();
            auto* scroll = qobject_cast<QScrollArea*>(view->form()->parentWidget()->parentWidget());
            QVERIFY(scroll);
            scroll->ensureWidgetVisible(
                view->form()->findChild<QWidget*>(QStringLiteral("openHfConfig")));
            QCoreApplication::processEvents();
            QVERIFY(window.grab().save(
                QStringLiteral("%1/setup-llama-model-%2.png").arg(dir, languageCode(language))));
            view->form()->chooseHfConfig(QStringLiteral("/models/Llama-3.2-1B/config.json"));
            QCoreApplication::processEvents();
            QVERIFY(window.grab().save(
                QStringLiteral("%1/setup-hf-config-%2.png").arg(dir, languageCode(language))));
        }
        QVERIFY(setLanguage(Language::English));
    }

    // Issue 39: a config that runs on "cuda" is forecast on a GPU, not on host RAM; back on
    // "cpu", host RAM again. A device picked by hand stays while run.device does not change.
    void memoryForecastFollowsTheRunDevice() {
        SetupView view;
        QCOMPARE(view.forecast()->deviceKey(), QStringLiteral("host"));
        QString text = SetupView::defaultConfigText();
        text.replace(QStringLiteral("\"device\": \"cpu\""), QStringLiteral("\"device\": \"cuda\""));
        view.setText(text);
        QVERIFY(view.validation().config->run.device == Device::Cuda);
        QCOMPARE(view.forecast()->deviceKey(), QStringLiteral("a100-80"));
        QVERIFY(view.forecast()->chart()->capacityCaption().contains(QStringLiteral("A100 80 GB")));
        view.forecast()->setDeviceKey(QStringLiteral("h100-80"));
        view.setText(text + QStringLiteral(" "));
        QCOMPARE(view.forecast()->deviceKey(), QStringLiteral("h100-80"));
        view.setText(SetupView::defaultConfigText());
        QCOMPARE(view.forecast()->deviceKey(), QStringLiteral("host"));
    }

    // The Recompute combo writes model.recompute, and the forecast's activation
    // segment follows at once: the arena of that mode, exactly.
    void recomputeComboDrivesJsonAndForecast() {
        SetupView view;
        auto* combo =
            qobject_cast<QComboBox*>(view.form()->fieldFor(QStringLiteral("model.recompute")));
        QVERIFY(combo);
        QVERIFY(!combo->toolTip().isEmpty());
        MemoryBarChart* chart = view.forecast()->chart();
        const double before = chart->segmentBytes(0, MemCategory::Activations);
        combo->setCurrentIndex(combo->findText(QStringLiteral("full")));
        const auto doc = nlohmann::json::parse(view.text().toStdString());
        QCOMPARE(doc["model"]["recompute"].get<std::string>(), std::string("full"));
        QTRY_VERIFY(view.validation().config.has_value() &&
                    view.validation().config->model.recompute == Recompute::Full);
        const TrainConfig& c = *view.validation().config;
        const double full = double(activationFootprint(c.model.shape, c.batch.micro_batch,
                                                       c.model.seq_len, Recompute::Full)
                                       .total(c.model.shape.n_layer));
        QTRY_COMPARE(chart->segmentBytes(0, MemCategory::Activations), full);
        QVERIFY(full < before);
        // And back from the JSON: the combo shows what the text says.
        auto edited = doc;
        edited["model"]["recompute"] = "selective";
        view.setText(QString::fromStdString(edited.dump(2)));
        QCOMPARE(combo->currentText(), QStringLiteral("selective"));
    }

    void saveAndLoadRoundTrip() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.json"));
        SetupView a;
        a.form()->findChild<QPushButton*>(QStringLiteral("stage2"))->click();
        QVERIFY(a.saveFile(path));
        SetupView b;
        QVERIFY(b.loadFile(path));
        QCOMPARE(b.form()->stage(), 2);
        QCOMPARE(b.text(), a.text());
    }

    void deepSpeedImportDecidesWorld() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ds.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"train_batch_size": 1024, "gradient_accumulation_steps": 4,
                    "train_micro_batch_size_per_gpu": 32,
                    "zero_optimization": {"stage": 1, "allgather_partitions": true}})");
        f.close();
        SetupView view;
        QVERIFY(view.loadFile(path));
        QCOMPARE(view.form()->world(), 8);
        QCOMPARE(view.validation().errorCount(), 0);
    }
    // A form edit changes the edited value in place: the user's key order, inline
    // objects and every other line stay as written.
    void formEditKeepsKeyOrderAndLayout() {
        SetupView view;
        const QString text = QStringLiteral(R"({
  "zero_optimization": { "stage": 1, "overlap_comm": true },
  "run": { "steps": 200, "log_every": 1 },
  "model": { "preset": "micro" },
  "train_micro_batch_size_per_gpu": 8,
  "optimizer": {
    "type": "AdamW",
    "params": { "weight_decay": 0.1, "lr": 0.0006 }
  }
}
)");
        view.setText(text);
        QCOMPARE(view.validation().errorCount(), 0);
        auto* stage2 = view.form()->findChild<QPushButton*>(QStringLiteral("stage2"));
        QVERIFY(stage2);
        stage2->click();
        QString expected = text;
        expected.replace(QStringLiteral(R"("stage": 1)"), QStringLiteral(R"("stage": 2)"));
        QCOMPARE(view.text(), expected);

        // A key the form adds keeps the others in their order (printed whole).
        auto* scheduler =
            qobject_cast<QComboBox*>(view.form()->fieldFor(QStringLiteral("scheduler.type")));
        QVERIFY(scheduler);
        scheduler->setCurrentText(QStringLiteral("WarmupLR"));
        const QString added = view.text();
        QStringList order;
        for (const char* key :
             {"\"zero_optimization\"", "\"run\"", "\"model\"", "\"train_micro_batch_size_per_gpu\"",
              "\"optimizer\"", "\"weight_decay\"", "\"lr\"", "\"scheduler\""})
            order << QString::number(added.indexOf(QLatin1String(key)));
        for (int i = 1; i < order.size(); ++i)
            QVERIFY2(order[i - 1].toInt() >= 0 && order[i - 1].toInt() < order[i].toInt(),
                     qPrintable(added));
    }

    // Warmup belongs to a schedule: with none, the form does not show it.
    void warmupShownOnlyWithASchedule() {
        SetupView view;
        view.show();
        auto* scheduler =
            qobject_cast<QComboBox*>(view.form()->fieldFor(QStringLiteral("scheduler.type")));
        QWidget* warmup =
            view.form()->fieldFor(QStringLiteral("scheduler.params.warmup_num_steps"));
        QVERIFY(scheduler && warmup);
        QCOMPARE(scheduler->currentText(), QStringLiteral("None"));
        QVERIFY(!warmup->isVisible());
        scheduler->setCurrentText(QStringLiteral("WarmupCosineLR"));
        QVERIFY(warmup->isVisible());
        QVERIFY(view.text().contains(QStringLiteral("warmup_num_steps")));
        scheduler->setCurrentText(QStringLiteral("None"));
        QVERIFY(!warmup->isVisible());
        QVERIFY(!view.text().contains(QStringLiteral("scheduler")));
    }

    // Issue 17: 1e999 and 100,000 nested arrays aborted or crashed the GUI, and a model
    // file whose header claims more than the file holds showed a psi beside "Valid".
    // Each is an error on its line, in the editor and from --print-forecast (exit 2).
    void hostileConfigsAreErrorsOnTheirLine() {
        QTemporaryDir dir;
        const std::string overflow = dir.filePath(QStringLiteral("overflow.json")).toStdString();
        const std::string deep = dir.filePath(QStringLiteral("deep.json")).toStdString();
        const std::string model = dir.filePath(QStringLiteral("wide.bin")).toStdString();
        const std::string init = dir.filePath(QStringLiteral("init.json")).toStdString();
        test::writeDoubleOverflowConfig(overflow);
        test::writeDeepConfig(deep);
        test::writeLlmcModelHeader(model, 1024, 50257, 12, 12, 76800, 50304, 483'000);
        std::ofstream(init) << "{\"train_batch_size\": 4,\n \"model\": {\"init_from\": \"" << model
                            << "\"}}";
        const struct {
            std::string file;
            QString path;
            int line;
        } cases[] = {{overflow, QStringLiteral("gradient_clipping"), 1},
                     {deep, QStringLiteral("model[0][0]"), 1},
                     {init, QStringLiteral("model.init_from"), 2}};
        for (const auto& c : cases) {
            SetupView view;
            QVERIFY(view.loadFile(QString::fromStdString(c.file)));
            view.validateNow();
            QVERIFY(!view.validation().config);
            const auto& diags = view.validation().diagnostics;
            QVERIFY2(!diags.isEmpty(), c.file.c_str());
            QVERIFY2(diags[0].error && diags[0].path.startsWith(c.path),
                     qPrintable(diags[0].path.left(200) + QStringLiteral(": ") + diags[0].message));
            QCOMPARE(diags[0].line, c.line);

            const auto r = test::runProcess(
                {ZEROLAB_BIN_DIR "/zerolab", "--config", c.file, "--print-forecast"});
            QCOMPARE(r.exit_code, 2);
            QVERIFY2(r.err.find(c.file) != std::string::npos, r.err.substr(0, 500).c_str());
            QVERIFY(r.out.empty());
        }
    }
};

QTEST_MAIN(SetupViewTest)
#include "setup_view_test.moc"
