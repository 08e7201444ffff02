// WrappedText: one QTextDocument, laid out again only when the width changes.
#include "gui/widgets/wrapped_text.h"

#include <QAbstractTextDocumentLayout>
#include <QEvent>
#include <QPaintEvent>
#include <QPainter>

#include <cmath>

namespace zerolab {

namespace {
// The width a text is measured at before the layout gives it one (sizeHint).
constexpr int kHintWidth = 600;
} // namespace

WrappedText::WrappedText(QWidget* parent) : QWidget(parent) {
    m_doc.setDocumentMargin(0);
    m_doc.setDefaultFont(font());
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void WrappedText::setHtml(const QString& html) {
    m_doc.setHtml(html);
    m_width = -1;
    updateGeometry();
    update();
}

void WrappedText::layOut(int width) const {
    width = std::max(1, width);
    if (width == m_width)
        return;
    m_doc.setTextWidth(width);
    m_width = width;
    m_height = int(std::ceil(m_doc.size().height()));
}

int WrappedText::heightForWidth(int width) const {
    layOut(width);
    return m_height;
}

QSize WrappedText::sizeHint() const {
    const int width = m_width > 0 ? m_width : kHintWidth;
    return {width, heightForWidth(width)};
}

QSize WrappedText::minimumSizeHint() const {
    return {0, 0};
}

void WrappedText::paintEvent(QPaintEvent* event) {
    layOut(width());
    QPainter painter(this);
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette = palette();
    context.palette.setColor(QPalette::Text, palette().color(foregroundRole()));
    context.clip = event->rect();
    m_doc.documentLayout()->draw(&painter, context);
}

void WrappedText::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        m_doc.setDefaultFont(font());
        m_width = -1;
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

} // namespace zerolab
