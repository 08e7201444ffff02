// The GUI's rule "no SQLite call on the GUI thread" (gui/client/store_thread.h): a store
// opened on the GUI thread is refused and one opened on a worker is not; the store, sweep
// and Lab workers, called directly from the GUI thread instead of through their clients,
// report the refusal instead of reading. Links only the client room.
#include "gui/client/lab_client.h"
#include "gui/client/store_client.h"
#include "gui/client/store_thread.h"
#include "gui/client/sweep_client.h"
#include "runtime/lab/lesson_parse.h"
#include "storage/store_error.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

namespace zerolab {

class StoreThreadTest : public QObject {
    Q_OBJECT

private slots:
    void init() {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(QStringLiteral("runs.db"));
        // The store itself is made on a worker, as the GUI would.
        std::unique_ptr<QThread> maker(
            QThread::create([this] { openStoreOffGuiThread(m_db, OpenMode::ReadWrite); }));
        maker->start();
        QVERIFY(maker->wait(30000));
    }

    void openingOnTheGuiThreadIsRefused() {
        try {
            openStoreOffGuiThread(m_db, OpenMode::ReadOnly);
            QFAIL("the store opened on the GUI thread");
        } catch (const StoreError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("GUI thread")), e.what());
        }
    }

    void openingOnAWorkerIsAllowed() {
        QString error;
        std::unique_ptr<QThread> worker(QThread::create([this, &error] {
            try {
                openStoreOffGuiThread(m_db, OpenMode::ReadOnly);
            } catch (const std::exception& e) {
                error = QString::fromUtf8(e.what());
            }
        }));
        worker->start();
        QVERIFY(worker->wait(30000));
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void theStoreClientReadsOnItsThread() {
        StoreClient client;
        QSignalSpy opened(&client, &StoreClient::opened);
        QSignalSpy listed(&client, &StoreClient::runsListed);
        client.open(m_db);
        QVERIFY(opened.wait(30000));
        client.listRuns();
        QVERIFY(listed.wait(30000));
    }

    void aStoreWorkerCalledOnTheGuiThreadRefuses() {
        StoreWorker worker;
        QSignalSpy opened(&worker, &StoreWorker::opened);
        QSignalSpy failed(&worker, &StoreWorker::failed);
        QSignalSpy listed(&worker, &StoreWorker::runsListed);
        worker.open(m_db);
        worker.listRuns();
        QCOMPARE(opened.count(), 0);
        QCOMPARE(listed.count(), 0);
        QCOMPARE(failed.count(), 2);
        for (const auto& args : failed)
            QVERIFY2(args.at(0).toString().contains(QStringLiteral("GUI thread")),
                     qPrintable(args.at(0).toString()));
    }

    void aSweepWorkerCalledOnTheGuiThreadRefuses() {
        SweepWorker worker;
        worker.setPath(m_db);
        QSignalSpy listed(&worker, &SweepWorker::sweepsListed);
        QSignalSpy failed(&worker, &SweepWorker::failed);
        worker.listSweeps();
        QCOMPARE(listed.count(), 0);
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("GUI thread")));
    }

    void theSweepClientReadsOnItsThread() {
        SweepClient client;
        client.setPath(m_db);
        QSignalSpy listed(&client, &SweepClient::sweepsListed);
        QSignalSpy failed(&client, &SweepClient::failed);
        client.listSweeps();
        client.waitIdle();
        QCOMPARE(failed.count(), 0);
        QCOMPARE(listed.count(), 1);
    }

    void aLabWorkerCalledOnTheGuiThreadRefuses() {
        LabRequest request;
        request.lesson = loadLesson("data-parallel-16psi");
        for (std::size_t i = 0; i < request.lesson.steps.size(); ++i)
            request.steps.push_back(int(i));
        request.env.db_path = m_db.toStdString();
        LabWorker worker;
        QSignalSpy finished(&worker, &LabWorker::finished);
        worker.work(request);
        QCOMPARE(finished.count(), 1);
        const auto result = finished.at(0).at(0).value<LabResult>();
        QVERIFY(!result.outcomes.empty());
        for (const auto& [step, outcome] : result.outcomes)
            QVERIFY2(outcome.error.contains(QStringLiteral("GUI thread")),
                     qPrintable(outcome.error));
    }

private:
    QTemporaryDir m_dir;
    QString m_db;
};

} // namespace zerolab

QTEST_GUILESS_MAIN(zerolab::StoreThreadTest)
#include "store_thread_test.moc"
