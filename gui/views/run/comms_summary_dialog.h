// The comms logger's log_summary of the shown run, on demand (the Run view's "Comms
// summary…"): the table exactly as the runtime prints it (storedCommsSummary), over the
// run's stored step timelines, then the same rows split into the wait for the last rank and
// the transfer, with a line saying what it covers; the dialog is as wide as the widest line.
#pragma once

#include <QDialog>

class QLabel;
class QPlainTextEdit;

namespace zerolab {

class CommsSummaryDialog : public QDialog {
    Q_OBJECT
public:
    explicit CommsSummaryDialog(QWidget* parent = nullptr);

    // error non-empty: a damaged timeline, said instead of a table. `table`: the log_summary
    // table, a blank line and the split table (storedCommsSummary's table and split).
    void setSummary(const QString& runName, qint64 sampledSteps, const QString& table,
                    const QString& error);
    QString table() const;
    QString note() const;

private:
    QLabel* m_note;
    QPlainTextEdit* m_table;
};

} // namespace zerolab
