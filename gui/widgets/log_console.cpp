// LogConsole: lines kept with their rank and level; the view is HTML-coloured text.
#include "gui/widgets/log_console.h"

#include "gui/widgets/style.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextOption>
#include <QVBoxLayout>

namespace zerolab {

LogConsole::LogConsole(QWidget* parent)
    : QWidget(parent), m_rank(new QComboBox), m_errors(new QCheckBox), m_showLabel(new QLabel),
      m_clear(new QPushButton), m_view(new QPlainTextEdit) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 8);
    layout->setSpacing(4);
    auto* bar = new QHBoxLayout;
    m_showLabel->setObjectName(QStringLiteral("muted"));
    m_rank->addItem(rankItemText(-2), -2);
    m_rank->addItem(rankItemText(-1), -1);
    bar->addWidget(m_showLabel);
    bar->addWidget(m_rank);
    bar->addWidget(m_errors);
    bar->addStretch(1);
    bar->addWidget(m_clear);
    layout->addLayout(bar);
    m_view->setReadOnly(true);
    m_view->setMaximumBlockCount(kMaxLines);
    // Long lines (an mpirun error, a path) wrap at the console's width, at a space where
    // there is one: no sideways scrolling to read the end of an error.
    m_view->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_view->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_view->setStyleSheet(
        QStringLiteral("QPlainTextEdit { font-family: monospace; font-size: 9pt; background: %1; "
                       "color: %2; border-radius: 6px; }")
            .arg(kConsoleBackground.name(), kConsoleText.name()));
    layout->addWidget(m_view, 1);
    connect(m_rank, &QComboBox::currentIndexChanged, this,
            [this] { setRankFilter(m_rank->currentData().toInt()); });
    connect(m_errors, &QCheckBox::toggled, this, &LogConsole::setErrorsOnly);
    connect(m_clear, &QPushButton::clicked, this, &LogConsole::clear);
    retranslate();
}

LogConsole::Level LogConsole::classify(const QString& text) {
    static const QRegularExpression error(
        QStringLiteral(R"(\b(error|fatal|failed|abort(ed)?|exception|killed|signal \d+|cannot|)"
                       R"(unable to|segmentation fault)\b)"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression warn(QStringLiteral(R"(\b(warn(ing)?|deprecated)\b)"),
                                         QRegularExpression::CaseInsensitiveOption);
    if (error.match(text).hasMatch())
        return Level::Error;
    if (warn.match(text).hasMatch())
        return Level::Warn;
    return Level::Info;
}

QString LogConsole::rankItemText(int rank) {
    if (rank == -2)
        return tr("all ranks");
    return rank < 0 ? tr("launcher") : tr("rank %1").arg(rank);
}

void LogConsole::retranslate() {
    m_errors->setText(tr("Errors only"));
    m_showLabel->setText(tr("Show"));
    m_rank->setToolTip(tr("Lines of one rank only (mpirun --tag-output prefixes every line)."));
    for (int i = 0; i < m_rank->count(); ++i)
        m_rank->setItemText(i, rankItemText(m_rank->itemData(i).toInt()));
    m_clear->setText(tr("Clear"));
}

void LogConsole::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void LogConsole::ensureRank(int rank) {
    if (rank < 0 || m_rank->findData(rank) >= 0)
        return;
    int at = 2;
    while (at < m_rank->count() && m_rank->itemData(at).toInt() < rank)
        ++at;
    m_rank->insertItem(at, rankItemText(rank), rank);
}

void LogConsole::addLine(int rank, const QString& text) {
    const Line line{rank, classify(text), text};
    m_lines.push_back(line);
    if (m_lines.size() > kMaxLines)
        m_lines.remove(0, m_lines.size() - kMaxLines);
    ensureRank(rank);
    if (accepts(line))
        appendToView(line);
}

void LogConsole::clear() {
    m_lines.clear();
    m_view->clear();
}

bool LogConsole::accepts(const Line& l) const {
    return (m_rankFilter == -2 || l.rank == m_rankFilter) &&
           (!m_errorsOnly || l.level == Level::Error);
}

void LogConsole::appendToView(const Line& l) {
    QScrollBar* bar = m_view->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 4;
    const QString prefix = rankItemText(l.rank < 0 ? -1 : l.rank);
    const QColor colour = l.level == Level::Error  ? kConsoleError
                          : l.level == Level::Warn ? kConsoleWarn
                                                   : kConsoleText;
    m_view->appendHtml(
        QStringLiteral("<span style='color:%1'>%2 │</span> "
                       "<span style='color:%3;%4'>%5</span>")
            .arg(kTextMuted.name(), prefix.leftJustified(8, QLatin1Char(' ')).toHtmlEscaped(),
                 colour.name(),
                 l.level == Level::Error ? QStringLiteral("font-weight:600") : QString(),
                 l.text.toHtmlEscaped()));
    if (atEnd)
        bar->setValue(bar->maximum());
}

void LogConsole::rebuild() {
    m_view->clear();
    for (const Line& l : m_lines)
        if (accepts(l))
            appendToView(l);
}

void LogConsole::setRankFilter(int rank) {
    m_rankFilter = rank;
    const int i = m_rank->findData(rank);
    if (i >= 0 && i != m_rank->currentIndex()) {
        const QSignalBlocker block(m_rank);
        m_rank->setCurrentIndex(i);
    }
    rebuild();
}

void LogConsole::setErrorsOnly(bool on) {
    m_errorsOnly = on;
    if (m_errors->isChecked() != on) {
        const QSignalBlocker block(m_errors);
        m_errors->setChecked(on);
    }
    rebuild();
}

QStringList LogConsole::visibleLines() const {
    QStringList out;
    for (const Line& l : m_lines)
        if (accepts(l))
            out << l.text;
    return out;
}

} // namespace zerolab
