// The comms logger's log_summary of the shown run, on demand (the Run view's "Comms
// summary…"): the table exactly as the runtime prints it (storedCommsSummary), over the
// run's stored step timelines, with a line saying what it covers.
#pragma once

#include <QDialog>

class QLabel;
class QPlainTextEdit;

namespace zerolab {

class CommsSummaryDialog : public QDialog {
    Q_OBJECT
public:
    explicit CommsSummaryDialog(QWidget* parent = nullptr);

    // error non-empty: a damaged timeline, said instead of a table.
    void setSummary(const QString& runName, qint64 sampledSteps, const QString& table,
                    const QString& error);
    QString table() const;
    QString note() const;

private:
    QLabel* m_note;
    QPlainTextEdit* m_table;
};

} // namespace zerolab
