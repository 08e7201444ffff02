// A block of rich text that wraps to its width, for long texts (a lesson step holds up to
// 16 KiB): QLabel lays its whole document out again on every size query of a layout pass,
// which freezes the GUI on a long text; this lays it out once per width it is given.
#pragma once

#include <QTextDocument>
#include <QWidget>

namespace zerolab {

class WrappedText : public QWidget {
    Q_OBJECT
public:
    explicit WrappedText(QWidget* parent = nullptr);

    // HTML (QTextDocument's subset), in the widget's font and palette.
    void setHtml(const QString& html);
    QString toPlainText() const { return m_doc.toPlainText(); }
    void clear() { setHtml({}); }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // Lays the document out at `width` unless it already is.
    void layOut(int width) const;

    mutable QTextDocument m_doc;
    mutable int m_width = -1; // the width m_doc is laid out at
    mutable int m_height = 0;
};

} // namespace zerolab
