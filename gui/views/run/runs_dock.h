// The runs dock: the store's runs in a filterable table, with the selected run's
// notes and tags editable in place and delete behind a confirmation. Selecting a
// run opens it in the Run tab; "Compare" sends the selection to the Compare tab.
#pragma once

#include <QList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace zerolab {

class RunsFilterProxy;
class RunsModel;
class StoreClient;

// UI thread only. Writes (notes, tags, delete) go through the StoreClient's worker.
class RunsDock : public QWidget {
    Q_OBJECT
public:
    RunsDock(StoreClient* store, QWidget* parent = nullptr);

    RunsModel* model() const { return m_model; }
    RunsFilterProxy* proxy() const { return m_proxy; }
    QTableView* table() const { return m_table; }
    void setFilterText(const QString& text);
    // Selects the run without emitting runActivated (the caller already shows it). A
    // run not listed yet (just launched) is selected when the list next has it.
    void selectRun(qint64 runId);
    QList<qint64> selectedRunIds() const;
    // Deletes without asking (the confirmation dialog calls this).
    void deleteRunNow(qint64 runId);

signals:
    void runActivated(qint64 runId);
    void compareRequested(const QList<qint64>& runIds);

protected:
    void changeEvent(QEvent* event) override;

private:
    // Sets every fixed text in the current language (at construction and on
    // QEvent::LanguageChange); the details of a selected run keep what the user typed.
    void retranslate();
    // The user changed the selection: show it and open a single run.
    void onSelection();
    // Details, tags, notes and the Compare button for the current selection.
    void showSelection();
    // The name column as wide as the longest listed name (from its default up to a cap), so
    // that names alike at the start ("stage1-optimizer", "stage1-opt-b") read whole.
    void fitNameColumn();
    void saveDetails();
    void confirmDelete();

    StoreClient* m_store;
    RunsModel* m_model;
    RunsFilterProxy* m_proxy;
    QLineEdit* m_filter;
    QStackedWidget* m_stack;
    QTableView* m_table;
    QLabel* m_empty;
    QString m_openError; // the store could not be opened: shown instead of "No runs yet"
    QWidget* m_details;
    QLabel* m_detailTitle;
    QLineEdit* m_tags;
    QPlainTextEdit* m_notes;
    QPushButton* m_compare;
    QPushButton* m_save;
    QPushButton* m_remove;
    qint64 m_selected = -1; // the run whose details are shown
    qint64 m_wanted = -1;   // the run to select, listed or not yet
};

} // namespace zerolab
