// Colours and labels of the memory-ledger categories, and the shared legend widget.
// The palette is a muted categorical set that stays distinct for colour-blind
// readers in the pairs that sit next to each other in a stacked bar.
#include "gui/widgets/category_colors.h"

#include "gui/widgets/flow_layout.h"

#include <QCoreApplication>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>

#include <algorithm>
#include <array>

namespace zerolab {

namespace {

struct CategoryStyle {
    const char* color;
    const char* label;
    const char* hint;
};

// Indexed by MemCategory; the order of storage/mem_category.h.
constexpr std::array<CategoryStyle, kMemCategoryCount> kStyles = {{
    {"#4C78A8", QT_TRANSLATE_NOOP("MemCategory", "Params"),
     QT_TRANSLATE_NOOP("MemCategory", "The weights used by forward and backward (bf16 or fp32).")},
    {"#72B7B2", QT_TRANSLATE_NOOP("MemCategory", "Master params"),
     QT_TRANSLATE_NOOP("MemCategory", "The fp32 copy of the weights that the optimizer updates.")},
    {"#F58518", QT_TRANSLATE_NOOP("MemCategory", "Grads"),
     QT_TRANSLATE_NOOP("MemCategory", "Gradients of the loss with respect to the weights.")},
    {"#E45756", QT_TRANSLATE_NOOP("MemCategory", "Adam m"),
     QT_TRANSLATE_NOOP("MemCategory", "Adam's first moment (running mean of the gradient), fp32.")},
    {"#FF9DA6", QT_TRANSLATE_NOOP("MemCategory", "Adam v"),
     QT_TRANSLATE_NOOP("MemCategory",
                       "Adam's second moment (running mean of the squared gradient), fp32.")},
    {"#54A24B", QT_TRANSLATE_NOOP("MemCategory", "Activations"),
     QT_TRANSLATE_NOOP("MemCategory",
                       "Forward outputs kept for backward; grows with micro-batch.")},
    {"#EECA3B", QT_TRANSLATE_NOOP("MemCategory", "Comm buffers"),
     QT_TRANSLATE_NOOP("MemCategory", "Staging buffers for the collectives (bucket sizes).")},
    // zerolab's CPU engine only: DeepSpeed's kernels read bf16 directly and stage no
    // gradients here, so a DeepSpeed run has none of these bytes.
    {"#9D9DA6", QT_TRANSLATE_NOOP("MemCategory", "CPU engine workspace (not in DeepSpeed)"),
     QT_TRANSLATE_NOOP("MemCategory",
                       "zerolab's CPU engine only: fp32 copies of the bf16 weights its kernels "
                       "read, and the fp32 gradient staging slot at stages 0-1. DeepSpeed has "
                       "no such bytes; they are not model states and ZeRO does not shard them.")},
}};

const CategoryStyle& styleOf(MemCategory c) {
    return kStyles[static_cast<std::size_t>(c)];
}

} // namespace

QColor memCategoryColor(MemCategory c) {
    return QColor(styleOf(c).color);
}

QString memCategoryLabel(MemCategory c) {
    return QCoreApplication::translate("MemCategory", styleOf(c).label);
}

QString memCategoryHint(MemCategory c) {
    return QCoreApplication::translate("MemCategory", styleOf(c).hint);
}

CategoryLegend::CategoryLegend(QWidget* parent, int columns) : QWidget(parent) {
    QGridLayout* grid = nullptr;
    FlowLayout* flow = nullptr;
    if (columns > 0) {
        grid = new QGridLayout(this);
        grid->setContentsMargins(0, 0, 0, 0);
        grid->setHorizontalSpacing(14);
        grid->setVerticalSpacing(4);
    } else {
        flow = new FlowLayout(this);
        flow->setContentsMargins(0, 0, 0, 0);
    }
    for (std::size_t i = 0; i < kMemCategoryCount; ++i) {
        const auto c = static_cast<MemCategory>(i);
        auto* cell = new QWidget(this);
        auto* row = new QHBoxLayout(cell);
        row->setContentsMargins(0, 0, 0, 0);
        row->setSpacing(6);
        auto* swatch = new QLabel(cell);
        swatch->setFixedSize(12, 12);
        swatch->setStyleSheet(
            QStringLiteral("background:%1; border-radius:2px;").arg(memCategoryColor(c).name()));
        auto* text = new QLabel(cell);
        text->setObjectName(QStringLiteral("legendLabel"));
        row->addWidget(swatch);
        row->addWidget(text);
        m_labels.push_back(text);
        if (grid) {
            row->addStretch(1);
            grid->addWidget(cell, int(i) / columns, int(i) % columns);
        } else {
            flow->addWidget(cell);
        }
    }
    retranslate();
}

void CategoryLegend::setCategories(const QVector<MemCategory>& shown) {
    for (std::size_t i = 0; i < kMemCategoryCount; ++i)
        m_labels[qsizetype(i)]->parentWidget()->setVisible(
            shown.contains(static_cast<MemCategory>(i)));
}

void CategoryLegend::wrapLabels(int width) {
    m_wrapWidth = width;
    for (QLabel* label : m_labels) {
        label->setWordWrap(true);
        label->installEventFilter(this); // a new font (the font zoom) changes its width
        QLayout* row = label->parentWidget()->layout();
        for (int i = 0; i < row->count(); ++i)
            if (QWidget* w = row->itemAt(i)->widget())
                row->setAlignment(w, Qt::AlignTop);
    }
    fitLabelWidths();
}

QStringList CategoryLegend::shownLabels() const {
    QStringList out;
    for (const QLabel* l : m_labels)
        if (!l->parentWidget()->isHidden())
            out << l->text();
    return out;
}

void CategoryLegend::retranslate() {
    for (std::size_t i = 0; i < kMemCategoryCount; ++i) {
        const auto c = static_cast<MemCategory>(i);
        m_labels[qsizetype(i)]->setText(memCategoryLabel(c));
        m_labels[qsizetype(i)]->parentWidget()->setToolTip(
            QStringLiteral("<b>%1</b> (%2)<br>%3")
                .arg(memCategoryLabel(c),
                     QString::fromUtf8(kMemCategoryNames[i].data(),
                                       int(kMemCategoryNames[i].size())),
                     memCategoryHint(c)));
    }
    fitLabelWidths();
}

void CategoryLegend::fitLabelWidths() {
    if (m_wrapWidth <= 0)
        return;
    // A wrapping label is as wide as its text up to the wrap width: short ones never break
    // ("Master / params"), long ones break at that width.
    for (QLabel* label : m_labels)
        label->setFixedWidth(
            std::min(label->fontMetrics().horizontalAdvance(label->text()) + 2, m_wrapWidth));
}

bool CategoryLegend::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::FontChange && m_labels.contains(qobject_cast<QLabel*>(watched)))
        fitLabelWidths();
    return QWidget::eventFilter(watched, event);
}

void CategoryLegend::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace zerolab
