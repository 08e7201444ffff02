// CommsSummaryDialog: a note and the table in a fixed-pitch read-only text box (the
// columns are 20 characters wide, as DeepSpeed's), widened to its widest line.
#include "gui/views/run/comms_summary_dialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>

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
                           "(run.timeline_every), as the comms logger's log_summary prints them. "
                           "Below it the same rows split: Wait is the time until the last rank "
                           "entered the collective (a rank that arrives early waits inside the "
                           "call: skew, not a slow link), Transfer the rest, and busbw_xfer the "
                           "bus bandwidth of the transfer alone.",
                           nullptr, int(sampledSteps)));
    m_table->setPlainText(error.isEmpty() ? table : QString());
    // Every column in view (the last header was cut at 1000 px): the widest line, the
    // frame, a vertical scroll bar and the layout's margins.
    const QFontMetrics metrics(m_table->font());
    int widest = 0;
    for (const QString& line : m_table->toPlainText().split(QLatin1Char('\n')))
        widest = std::max(widest, metrics.horizontalAdvance(line));
    const QMargins margins = layout()->contentsMargins();
    const int wanted =
        widest + 2 * m_table->frameWidth() + int(2 * m_table->document()->documentMargin()) +
        m_table->verticalScrollBar()->sizeHint().width() + margins.left() + margins.right() + 8;
    resize(std::max(width(), wanted), height());
}

QString CommsSummaryDialog::table() const {
    return m_table->toPlainText();
}

QString CommsSummaryDialog::note() const {
    return m_note->text();
}

} // namespace zerolab
