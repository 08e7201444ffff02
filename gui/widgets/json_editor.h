// The Setup tab's JSON editor: a plain-text editor with line numbers, JSON syntax
// colouring and the validator's findings marked on their lines (tooltip = message).
#pragma once

#include "gui/core/config_validation.h"

#include <QPlainTextEdit>
#include <QSyntaxHighlighter>

namespace zerolab {

// Colours keys, strings, numbers, literals and punctuation; single-line rules,
// which JSON allows since strings cannot span lines.
class JsonHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit JsonHighlighter(QTextDocument* doc);

protected:
    void highlightBlock(const QString& text) override;
};

// UI thread only.
class JsonEditor : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit JsonEditor(QWidget* parent = nullptr);

    // Marks each diagnostic's line: errors red, warnings amber.
    void setDiagnostics(const QVector<EditorDiagnostic>& diagnostics);
    const QVector<EditorDiagnostic>& diagnostics() const { return m_diagnostics; }
    // Moves the cursor to the start of a 1-based line and shows it.
    void goToLine(int line);

    int gutterWidth() const;
    void paintGutter(QPaintEvent* event);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    QWidget* m_gutter;
    QVector<EditorDiagnostic> m_diagnostics;
};

} // namespace zerolab
