// CommsSummaryDialog: a note and the table in a fixed-pitch read-only text box (the
// columns are 20 characters wide, as DeepSpeed's).
#include "gui/views/run/comms_summary_dialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace zerolab {

CommsSummaryDialog::CommsSummaryDialog(QWidget* parent) : QDialog(parent) {
    auto* layout = new QVBoxLayout(this);
    m_note = new QLabel;
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText); // carries a run's name
    m_table = new QPlainTextEdit;
    m_table->setReadOnly(true);
    m_table->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_table->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_note);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(1000, 420);
}

void CommsSummaryDialog::setSummary(const QString& runName, qint64 sampledSteps,
                                    const QString& table, const QString& error) {
    setWindowTitle(tr("Comms summary: %1").arg(runName));
    if (!error.isEmpty())
        m_note->setText(tr("No summary: %1").arg(error));
    else if (sampledSteps == 0)
        m_note->setText(tr("This run stored no step timeline (run.timeline_every 0), so there "
                           "are no collectives to summarise."));
    else
        m_note->setText(tr("Rank 0's collectives in the %n sampled step(s) of this run "
                           "(run.timeline_every), as the comms logger's log_summary prints them.",
                           nullptr, int(sampledSteps)));
    m_table->setPlainText(error.isEmpty() ? table : QString());
}

QString CommsSummaryDialog::table() const {
    return m_table->toPlainText();
}

QString CommsSummaryDialog::note() const {
    return m_note->text();
}

} // namespace zerolab
