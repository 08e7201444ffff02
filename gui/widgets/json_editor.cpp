// JSON editor: highlighter rules, the line-number gutter and diagnostic marks.
#include "gui/widgets/json_editor.h"

#include "gui/widgets/style.h"

#include <QHelpEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QTextBlock>
#include <QToolTip>

namespace zerolab {

namespace {

QTextCharFormat colorFormat(const QColor& c, bool bold = false) {
    QTextCharFormat f;
    f.setForeground(c);
    if (bold)
        f.setFontWeight(QFont::DemiBold);
    return f;
}

// Paints the editor's line numbers; all logic lives in JsonEditor.
class Gutter : public QWidget {
public:
    explicit Gutter(JsonEditor* editor) : QWidget(editor), m_editor(editor) {}
    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* e) override { m_editor->paintGutter(e); }

private:
    JsonEditor* m_editor;
};

} // namespace

JsonHighlighter::JsonHighlighter(QTextDocument* doc) : QSyntaxHighlighter(doc) {}

void JsonHighlighter::highlightBlock(const QString& text) {
    static const QRegularExpression kString(QStringLiteral(R"("(?:[^"\\]|\\.)*")"));
    static const QRegularExpression kNumber(
        QStringLiteral(R"((?<![\w.])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)"));
    static const QRegularExpression kLiteral(QStringLiteral(R"(\b(?:true|false|null)\b)"));
    static const QRegularExpression kPunct(QStringLiteral(R"([{}\[\],:])"));
    static const QTextCharFormat kKeyFormat = colorFormat(kJsonKey, true);
    static const QTextCharFormat kStringFormat = colorFormat(kJsonString);
    static const QTextCharFormat kNumberFormat = colorFormat(kJsonNumber);
    static const QTextCharFormat kLiteralFormat = colorFormat(kJsonLiteral);
    static const QTextCharFormat kPunctFormat = colorFormat(kJsonPunctuation);

    for (auto it = kPunct.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        setFormat(int(m.capturedStart()), int(m.capturedLength()), kPunctFormat);
    }
    for (auto it = kNumber.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        setFormat(int(m.capturedStart()), int(m.capturedLength()), kNumberFormat);
    }
    for (auto it = kLiteral.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        setFormat(int(m.capturedStart()), int(m.capturedLength()), kLiteralFormat);
    }
    // Strings last: digits and literals inside a string keep the string colour.
    for (auto it = kString.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        const qsizetype end = m.capturedEnd();
        qsizetype next = end;
        while (next < text.size() && text[next].isSpace())
            ++next;
        const bool isKey = next < text.size() && text[next] == QLatin1Char(':');
        setFormat(int(m.capturedStart()), int(m.capturedLength()),
                  isKey ? kKeyFormat : kStringFormat);
    }
}

JsonEditor::JsonEditor(QWidget* parent) : QPlainTextEdit(parent), m_gutter(new Gutter(this)) {
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    mono.setPointSizeF(9);
    setFont(mono);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(QFontMetricsF(mono).horizontalAdvance(QLatin1Char(' ')) * 2);
    new JsonHighlighter(document());
    connect(this, &QPlainTextEdit::blockCountChanged, this,
            [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

int JsonEditor::gutterWidth() const {
    const int digits = QString::number(std::max(1, blockCount())).size();
    return 14 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(2, digits);
}

void JsonEditor::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

void JsonEditor::paintGutter(QPaintEvent* event) {
    QPainter painter(m_gutter);
    painter.fillRect(event->rect(), kEditorGutter);
    QTextBlock block = firstVisibleBlock();
    int number = block.blockNumber() + 1;
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int height = qRound(blockBoundingRect(block).height());
        QColor color = kTextMuted;
        for (const auto& d : m_diagnostics)
            if (d.line == number)
                color = d.error ? kErrorColor : kWarnColor;
        painter.setPen(color);
        painter.drawText(0, top, m_gutter->width() - 6, height, Qt::AlignRight | Qt::AlignVCenter,
                         QString::number(number));
        block = block.next();
        top += height;
        ++number;
    }
}

void JsonEditor::setDiagnostics(const QVector<EditorDiagnostic>& diagnostics) {
    m_diagnostics = diagnostics;
    QList<QTextEdit::ExtraSelection> marks;
    for (const auto& d : diagnostics) {
        if (d.line <= 0)
            continue;
        const QTextBlock block = document()->findBlockByNumber(d.line - 1);
        if (!block.isValid())
            continue;
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(block);
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        mark.format.setBackground(d.error ? kErrorBackground : kWarnBackground);
        marks << mark;
        QTextEdit::ExtraSelection underline;
        underline.cursor = QTextCursor(block);
        underline.cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        underline.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        underline.format.setUnderlineColor(d.error ? kErrorColor : kWarnAccent);
        marks << underline;
    }
    setExtraSelections(marks);
    m_gutter->update();
}

void JsonEditor::goToLine(int line) {
    const QTextBlock block = document()->findBlockByNumber(std::max(0, line - 1));
    if (!block.isValid())
        return;
    setTextCursor(QTextCursor(block));
    centerCursor();
    setFocus();
}

bool JsonEditor::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QTextCursor cursor = cursorForPosition(viewport()->mapFromParent(help->pos()));
        const int line = cursor.blockNumber() + 1;
        QStringList messages;
        for (const auto& d : m_diagnostics)
            if (d.line == line)
                messages << (d.path.isEmpty() ? d.message
                                              : d.path + QStringLiteral(": ") + d.message);
        if (messages.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), messages.join(QLatin1Char('\n')), this);
        return true;
    }
    return QPlainTextEdit::event(event);
}

} // namespace zerolab
