// Starts the main window in Simplified Chinese over a fixture store of finished runs,
// visits every tab, the menus, the runs dock and the status bar, and fails on any text
// on screen that is still English: a run of three or more ASCII letters that is not in
// kAllowed (names that stay English in Chinese text: ZeRO, NCCL, units, config values),
// not a word of the data shown (run names, tags, hosts, the configs' keys and values),
// not part of a file name, command line or config key, and not an English gloss in
// parentheses right after Chinese text ("全规约 (all-reduce)"). The same check runs
// after View → Language switches a window started in English, which must then keep what
// it shows and, switched back, show no Chinese. docs/i18n.md.
#include "fixture_store.h"
#include "gui/app/main_window.h"
#include "gui/client/store_client.h"
#include "gui/core/language.h"
#include "gui/core/runs_model.h"
#include "gui/views/compare/compare_view.h"
#include "gui/views/run/live_panel.h"
#include "gui/views/run/run_view.h"
#include "gui/views/run/runs_dock.h"
#include "gui/views/setup/setup_view.h"
#include "gui/views/tune/tune_view.h"
#include "gui/widgets/json_editor.h"
#include "gui/widgets/log_console.h"
#include "gui/widgets/time_series_plot.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QComboBox>
#include <QDockWidget>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

#include <qcustomplot.h>

#include <set>

using namespace zerolab;

namespace {

// Words that stay as they are in the Chinese GUI: proper names, acronyms, units, the
// config values a combo box offers (they are what the JSON holds), and the language
// menu's "English", which is always written in its own language.
const std::set<QString> kAllowed = {
    // names and acronyms
    "ZeRO", "MPI", "NCCL", "JSON", "GPT", "CPU", "GPU", "CUDA", "cuBLAS", "DeepSpeed", "Adam",
    "AdamW", "MFU", "ETA", "EMA", "PNG", "PDF", "CSV", "SIGTERM", "SIGKILL", "GELU", "arXiv",
    "Korthikanti", "zerolab", "mpirun", "srun", "pid", "Ctrl", "English",
    "Offload",   // of ZeRO-Offload, the name of DeepSpeed's offload (Ren et al. 2021)
    "calibrate", // of zerolab-calibrate, the tool that measures a machine profile
    "plan",      // of zerolab-plan, the planner's command line
    // ZeRO++'s parts and its first author (Wang et al. 2023)
    "qwZ", "hpZ", "qgZ", "Wang",
    // the links of the cluster presets, as their makers name them (cluster_presets.cpp)
    "InfiniBand", "HDR", "NDR", "NVLink", "NVSwitch", "Ethernet",
    // units and precisions
    "bf16", "fp32", "MiB", "GiB", "KiB", "TiB", "ms",
    // config values offered by combo boxes
    "None", "WarmupLR", "WarmupDecayLR", "WarmupCosineLR", "synthetic", "text", "llmc", "cpu",
    "cuda", "none", "selective", "full", "nano", "micro", "mini", "gpt", "custom",
    // symbols of the activation formulas (s, b, h, a: sequence, batch, hidden, heads)
    "sbh", "layernorm",
    // the sweep's axis name for N, typed like a config key
    "world",
    // the Llama family (issue 36): model and company names, FlashAttention (Dao et al.),
    // the preset names the combos offer (llama-3.1-8b, qwen2.5-7b, mistral-7b-v0.1)
    "Llama", "Mistral", "Qwen", "Hugging", "Face", "FlashAttention", "llama", "qwen", "mistral"};

// Collects every text a user can read on screen, each with where it was found.
class TextCollector {
public:
    QStringList texts;

    void add(const QString& where, const QString& text) {
        if (!text.trimmed().isEmpty())
            texts << where + QStringLiteral(": ") + text;
    }

    void addWidget(QWidget* w) {
        if (!w->isVisible())
            return;
        const QString name = QString::fromLatin1(w->metaObject()->className());
        add(name + QStringLiteral(" tooltip"), w->toolTip());
        if (auto* l = qobject_cast<QLabel*>(w))
            add(name, l->text());
        else if (auto* b = qobject_cast<QAbstractButton*>(w))
            add(name, b->text());
        else if (auto* g = qobject_cast<QGroupBox*>(w))
            add(name, g->title());
        else if (auto* e = qobject_cast<QLineEdit*>(w))
            add(name + QStringLiteral(" placeholder"), e->placeholderText());
        else if (auto* c = qobject_cast<QComboBox*>(w))
            for (int i = 0; i < c->count(); ++i)
                add(name + QStringLiteral(" item"), c->itemText(i));
        else if (auto* t = qobject_cast<QTabBar*>(w))
            for (int i = 0; i < t->count(); ++i)
                add(name, t->tabText(i));
        else if (auto* d = qobject_cast<QDockWidget*>(w))
            add(name + QStringLiteral(" title"), d->windowTitle());
        if (auto* v = qobject_cast<QAbstractItemView*>(w); v && v->model()) {
            const QAbstractItemModel* m = v->model();
            for (int c = 0; c < m->columnCount(); ++c)
                add(name + QStringLiteral(" header"),
                    m->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
            for (int r = 0; r < m->rowCount(); ++r)
                for (int c = 0; c < m->columnCount(); ++c)
                    add(name + QStringLiteral(" cell"), m->index(r, c).data().toString());
        }
        if (auto* p = qobject_cast<QCustomPlot*>(w))
            addPlot(p);
    }

    void addPlot(QCustomPlot* p) {
        for (QCPAxisRect* rect : p->axisRects())
            for (QCPAxis* axis : rect->axes()) {
                add(QStringLiteral("plot axis"), axis->label());
                if (axis->visible() && axis->tickLabels())
                    for (const QString& tick : axis->tickVectorLabels())
                        add(QStringLiteral("plot tick"), tick);
            }
        for (int i = 0; i < p->plottableCount(); ++i)
            if (p->legend && p->legend->visible() && p->plottable(i)->visible())
                add(QStringLiteral("plot legend"), p->plottable(i)->name());
        for (int i = 0; i < p->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(p->item(i)); t && t->visible())
                add(QStringLiteral("plot text"), t->text());
        for (QCPLayoutElement* e : p->plotLayout()->elements(true))
            if (auto* t = qobject_cast<QCPTextElement*>(e))
                add(QStringLiteral("plot title"), t->text());
    }

    void addMenu(const QString& where, QMenu* menu) {
        add(where, menu->title());
        for (QAction* a : menu->actions()) {
            if (a->isSeparator())
                continue;
            if (a->menu())
                addMenu(where + QStringLiteral(" > ") + a->text(), a->menu());
            else
                add(where + QStringLiteral(" > action"), a->text());
            add(where + QStringLiteral(" > tooltip"), a->toolTip());
        }
    }
};

// The English words in `text`: runs of 3+ ASCII letters outside markup, code, file
// names, options, config keys and glosses, and not allowed.
QStringList englishWords(const QString& text, const std::set<QString>& dataWords) {
    QString plain = text;
    plain.remove(QRegularExpression(QStringLiteral("<code>.*?</code>"),
                                    QRegularExpression::DotMatchesEverythingOption));
    if (Qt::mightBeRichText(plain)) {
        QTextDocument doc;
        doc.setHtml(plain);
        plain = doc.toPlainText();
    }
    // An English gloss after a Chinese term: 全规约 (all-reduce).
    plain.remove(QRegularExpression(
        QStringLiteral("(?<=[\\x{4e00}-\\x{9fff}])\\s*[（(][A-Za-z\\- ]+[）)]")));
    QStringList out;
    bool afterOption = false;
    for (const QString& token :
         plain.split(QRegularExpression(QStringLiteral("[\\s，。；：、（）“”,;:()\"'=×÷·]+")),
                     Qt::SkipEmptyParts)) {
        // Paths, file names, options and their values, config keys: data, not prose.
        const bool optionValue = afterOption;
        afterOption = token.startsWith(QLatin1String("--"));
        if (optionValue || token.contains(QLatin1Char('/')) || token.contains(QLatin1Char('_')) ||
            token.startsWith(QLatin1Char('-')) ||
            token.contains(QRegularExpression(QStringLiteral("[A-Za-z0-9]\\.[A-Za-z]"))))
            continue;
        auto words = QRegularExpression(QStringLiteral("[A-Za-z]{3,}")).globalMatch(token);
        while (words.hasNext()) {
            const QString w = words.next().captured();
            if (!kAllowed.count(w) && !dataWords.count(w))
                out << w;
        }
    }
    return out;
}

void addWordsOf(const std::string& text, std::set<QString>& words) {
    auto it = QRegularExpression(QStringLiteral("[A-Za-z]{3,}"))
                  .globalMatch(QString::fromStdString(text));
    while (it.hasNext())
        words.insert(it.next().captured());
}

// Opens the fixture store, a run in Run and three runs in Compare, and waits for them.
// Shows the window at 1600x1000 and opens the fixture: its store, a run in Run, three in
// Compare. The caller checks QTest::currentTestFailed() after it.
void loadFixture(MainWindow& window, const QString& db, const std::vector<std::int64_t>& ids) {
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy listed(window.store(), &StoreClient::runsListed);
    window.openStore(db);
    QVERIFY(listed.wait(10000));
    QSignalSpy loaded(window.runView(), &RunView::loaded);
    window.openRun(ids[1]);
    QVERIFY(loaded.wait(10000));
    QSignalSpy compared(window.compareView(), &CompareView::loaded);
    window.compareRuns({qint64(ids[0]), qint64(ids[1]), qint64(ids[3])});
    QVERIFY(compared.wait(10000));
    window.tuneView()->waitIdle();
}

// The words of the data on screen: run names, hosts, tags, the shown run's config and
// end message, the Setup config.
std::set<QString> dataWordsOf(MainWindow& window) {
    std::set<QString> dataWords;
    for (const RunSummary& r : window.store()->runs()) {
        addWordsOf(r.name, dataWords);
        addWordsOf(r.host, dataWords);
        for (const std::string& t : r.tags)
            addWordsOf(t, dataWords);
    }
    const RunRecord& shown = window.runView()->record();
    addWordsOf(shown.info.config_json, dataWords);
    addWordsOf(shown.info.host, dataWords);
    addWordsOf(shown.end_message, dataWords);
    addWordsOf(window.setupView()->text().toStdString(), dataWords);
    return dataWords;
}

// Every text on screen: each tab in turn, every page of the tab widgets inside the
// views, the menus and the window title.
QStringList textsOnScreen(MainWindow& window) {
    TextCollector collector;
    auto* mainTabs = window.centralWidget();
    for (int t = 0; t < MainWindow::kTabCount; ++t) {
        window.setTab(static_cast<MainWindow::Tab>(t));
        QTest::qWait(200);
        for (QWidget* w : window.findChildren<QWidget*>())
            collector.addWidget(w);
        // Every page of the tab widgets inside the views (Learn's explanation and
        // errata), not only the page that happens to be current.
        for (auto* inner : window.findChildren<QTabWidget*>()) {
            if (inner == mainTabs || !inner->isVisible())
                continue;
            for (int p = 0; p < inner->count(); ++p) {
                inner->setCurrentIndex(p);
                for (QWidget* w : inner->widget(p)->findChildren<QWidget*>())
                    collector.addWidget(w);
                collector.addWidget(inner->widget(p));
            }
        }
    }
    for (QAction* a : window.menuBar()->actions())
        if (a->menu())
            collector.addMenu(QStringLiteral("menu"), a->menu());
    collector.add(QStringLiteral("window title"), window.windowTitle());
    return collector.texts;
}

// The texts that are still English in Chinese, each once with its English words.
QStringList stillEnglish(const QStringList& texts, const std::set<QString>& dataWords) {
    QStringList failures;
    std::set<QString> seen;
    for (const QString& text : texts) {
        const QStringList words = englishWords(text.section(QStringLiteral(": "), 1), dataWords);
        if (!words.isEmpty() && seen.insert(text).second)
            failures << QStringLiteral("%1  [%2]").arg(text, words.join(QLatin1Char(' ')));
    }
    return failures;
}

// Han characters or CJK punctuation (，。：（）).
bool hasChinese(const QString& text) {
    static const QRegularExpression han(
        QStringLiteral("[\\x{3000}-\\x{303f}\\x{4e00}-\\x{9fff}\\x{ff00}-\\x{ffef}]"));
    return text.contains(han);
}

// The texts with Chinese in them, except the language menu's own name for Chinese
// (always written in itself).
QStringList stillChinese(const QStringList& texts) {
    QStringList failures;
    std::set<QString> seen;
    for (const QString& text : texts) {
        QString body = text.section(QStringLiteral(": "), 1);
        body.remove(languageName(Language::Chinese));
        if (hasChinese(body) && seen.insert(text).second)
            failures << text;
    }
    return failures;
}

// Fails listing each text when `failures` is not empty.
void expectNone(const QStringList& failures, const char* what) {
    for (const QString& f : failures)
        qWarning("%s: %s", what, qPrintable(f));
    QVERIFY2(failures.isEmpty(), qPrintable(QStringLiteral("%1 texts %2 (listed above)")
                                                .arg(failures.size())
                                                .arg(QString::fromLatin1(what))));
}

} // namespace

class TranslationTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    std::vector<std::int64_t> m_ids;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(QStringLiteral("runs.db"));
        m_ids = writeFixtureStore(m_db.toStdString(), defaultFixtureRuns());
    }
    void cleanup() { QVERIFY(setLanguage(Language::English)); }

    void languageChoice() {
        QCOMPARE(languageFromCode(QStringLiteral("zh_CN")), Language::Chinese);
        QCOMPARE(languageFromCode(QStringLiteral("en")), Language::English);
        QCOMPARE(languageFromCode(QStringLiteral("fr")), std::nullopt);
        QCOMPARE(languageForLocale(QLocale(QLocale::Chinese, QLocale::Taiwan)), Language::Chinese);
        QCOMPARE(languageForLocale(QLocale(QLocale::German)), Language::English);
        const QLocale zh(QLocale::Chinese, QLocale::China);
        QCOMPARE(chooseLanguage(std::nullopt, std::nullopt, zh), Language::Chinese);
        QCOMPARE(chooseLanguage(std::nullopt, Language::English, zh), Language::English);
        QCOMPARE(chooseLanguage(Language::Chinese, Language::English, QLocale::c()),
                 Language::Chinese);
    }

    // The View > Language choice survives a restart; a stored value that is no language
    // is ignored (the locale decides), never a crash or a guess.
    void savedChoice() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("ui/language"));
        QCOMPARE(savedLanguage(), std::nullopt);
        saveLanguage(Language::Chinese);
        QCOMPARE(savedLanguage(), Language::Chinese);
        QSettings().setValue(QStringLiteral("ui/language"), QStringLiteral("klingon"));
        QCOMPARE(savedLanguage(), std::nullopt);
        QSettings().remove(QStringLiteral("ui/language"));
    }

    // --lang with a value that is no language: exit 2 naming the flag and the value.
    void unknownLangFlagIsRefused() {
        QProcess app;
        app.setProcessChannelMode(QProcess::MergedChannels);
        app.start(QStringLiteral(ZEROLAB_BIN_DIR "/zerolab"),
                  {QStringLiteral("--lang"), QStringLiteral("fr"), QStringLiteral("--db"), m_db,
                   QStringLiteral("--screenshot"), m_dir.filePath(QStringLiteral("x.png"))});
        QVERIFY(app.waitForFinished(60000));
        const QString out = QString::fromUtf8(app.readAll());
        QCOMPARE(app.exitCode(), 2);
        QVERIFY2(out.contains(QStringLiteral("--lang: unknown language 'fr' (en, zh_CN)")),
                 qPrintable(out));
    }

    // The catalogue is embedded: a translated text without any file beside the binary.
    void catalogueIsEmbedded() {
        QVERIFY(setLanguage(Language::Chinese));
        QCOMPARE(currentLanguage(), Language::Chinese);
        QCOMPARE(QCoreApplication::translate("zerolab::MainWindow", "Setup"),
                 QStringLiteral("设置"));
        QVERIFY(setLanguage(Language::English));
        QCOMPARE(QCoreApplication::translate("zerolab::MainWindow", "Setup"),
                 QStringLiteral("Setup"));
    }

    void noEnglishLeftInChinese() {
        QVERIFY(setLanguage(Language::Chinese));
        MainWindow window(false);
        loadFixture(window, m_db, m_ids);
        if (QTest::currentTestFailed())
            return;
        const QStringList texts = textsOnScreen(window);
        QVERIFY2(texts.size() > 200,
                 qPrintable(QStringLiteral("only %1 texts found").arg(texts.size())));
        qInfo("%lld texts on screen checked", qlonglong(texts.size()));
        expectNone(stillEnglish(texts, dataWordsOf(window)), "still in English");
    }

    // View → Language from English to 简体中文 and back, with runs open in Run and
    // Compare and a sweep previewed in Tune: every view follows at once, by the same
    // check as a start in Chinese, and keeps what it shows (tab, config, zoom, runs).
    void switchingRetranslatesEveryView() {
        QCOMPARE(currentLanguage(), Language::English);
        MainWindow window(false);
        loadFixture(window, m_db, m_ids);
        if (QTest::currentTestFailed())
            return;
        const std::set<QString> dataWords = dataWordsOf(window);
        // Tune: a preview of the default sweep over the Setup config (set on showing it).
        window.setTab(MainWindow::Tab::Tune);
        QVERIFY(window.tuneView()->preview(nullptr));
        const int trials = window.tuneView()->trialsModel()->rowCount();
        QVERIFY(trials > 0);
        // State the switch must keep: the tab, the config being edited, a zoom.
        window.setTab(MainWindow::Tab::Run);
        window.setupView()->editor()->appendPlainText(QStringLiteral(" "));
        const QString config = window.setupView()->text();
        QCPAxis* lossX = window.runView()->lossPlot()->plot()->xAxis;
        lossX->setRange(20, 60);
        const qint64 shownRun = window.runView()->runId();
        const QList<qint64> compared = window.compareView()->runIds();

        auto* chinese = window.findChild<QAction*>(QStringLiteral("language_zh_CN"));
        QVERIFY(chinese);
        chinese->trigger();
        QCoreApplication::processEvents();
        QCOMPARE(currentLanguage(), Language::Chinese);
        auto* tabs = qobject_cast<QTabWidget*>(window.centralWidget());
        QCOMPARE(tabs->currentIndex(), int(MainWindow::Tab::Run));
        QCOMPARE(window.setupView()->text(), config);
        QCOMPARE(lossX->range().lower, 20.0);
        QCOMPARE(lossX->range().upper, 60.0);
        QCOMPARE(window.runView()->runId(), shownRun);
        QCOMPARE(window.compareView()->runIds(), compared);
        // The preview was planned again in Chinese: same trials, its words translated.
        QCOMPARE(window.tuneView()->trialsModel()->rowCount(), trials);
        QCOMPARE(window.tuneView()->trialsModel()->headerData(0, Qt::Horizontal).toString(),
                 QStringLiteral("#"));
        QVERIFY2(hasChinese(window.tuneView()->summaryText()),
                 qPrintable(window.tuneView()->summaryText()));
        QVERIFY(window.statusBar()->currentMessage().startsWith(QStringLiteral("语言")));
        // The live strip is hidden without a live run (so the screen check skips it); its
        // controls follow too.
        QCOMPARE(window.livePanel()->stopButton()->text(), QStringLiteral("停止"));
        QCOMPARE(window.livePanel()->killButton()->text(), QStringLiteral("强制结束"));
        QCOMPARE(window.livePanel()->resumeCheckpointButton()->text(),
                 QStringLiteral("从最近的检查点恢复"));

        // The trials' phase and reason are the runtime's words (docs/i18n.md): the
        // screen is checked without the preview, as a start in Chinese is.
        window.tuneView()->setStorePath(m_db);
        window.tuneView()->waitIdle();
        const QStringList zh = textsOnScreen(window);
        QVERIFY2(zh.size() > 200, qPrintable(QStringLiteral("only %1 texts found").arg(zh.size())));
        qInfo("%lld texts on screen checked after the switch", qlonglong(zh.size()));
        expectNone(stillEnglish(zh, dataWords), "still in English after switching to Chinese");

        window.findChild<QAction*>(QStringLiteral("language_en"))->trigger();
        QCoreApplication::processEvents();
        QCOMPARE(currentLanguage(), Language::English);
        QCOMPARE(window.setupView()->text(), config);
        expectNone(stillChinese(textsOnScreen(window)), "still in Chinese after switching back");
    }

    // View → Language switches at run time: the window's own texts follow at once.
    void switchingRetranslatesTheWindow() {
        MainWindow window(false);
        QCOMPARE(window.windowTitle(), QStringLiteral("zerolab"));
        auto* tabs = window.findChild<QTabWidget*>();
        QVERIFY(tabs);
        QCOMPARE(tabs->tabText(0), QStringLiteral("Setup"));
        auto* chinese = window.findChild<QAction*>(QStringLiteral("language_zh_CN"));
        QVERIFY(chinese);
        chinese->trigger();
        QCoreApplication::processEvents();
        QCOMPARE(currentLanguage(), Language::Chinese);
        QCOMPARE(tabs->tabText(0), QStringLiteral("设置"));
        QVERIFY(chinese->isChecked());
        // The runs panel and the Console follow too.
        QCOMPARE(window.runsDock()->model()->headerData(0, Qt::Horizontal).toString(),
                 QStringLiteral("状态"));
        auto* filter = window.runsDock()->findChild<QLineEdit*>();
        QVERIFY(filter);
        QCOMPARE(filter->placeholderText(), QStringLiteral("筛选：名称、标签、状态、备注…"));
        auto* clear = window.console()->findChild<QPushButton*>();
        QVERIFY(clear);
        QCOMPARE(clear->text(), QStringLiteral("清空"));
        window.findChild<QAction*>(QStringLiteral("language_en"))->trigger();
        QCoreApplication::processEvents();
        QCOMPARE(tabs->tabText(0), QStringLiteral("Setup"));
        QCOMPARE(clear->text(), QStringLiteral("Clear"));
    }
};

QTEST_MAIN(TranslationTest)
#include "translation_test.moc"
