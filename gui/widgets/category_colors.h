// The one place that maps each memory-ledger category to a colour and a label.
// The forecast, the run view, compare and Learn all draw with these, so a colour
// means the same thing on every screen.
#pragma once

#include "storage/mem_category.h"

#include <QColor>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>

class QLabel;

namespace zerolab {

// Fill colour of a category's bar segment.
QColor memCategoryColor(MemCategory c);
// Human label for legends and tooltips ("Adam m (fp32)").
QString memCategoryLabel(MemCategory c);
// One sentence on what the category holds, for legend tooltips.
QString memCategoryHint(MemCategory c);

// A compact legend: one swatch and label per category, laid out in rows of
// `columns`, or (columns 0) side by side, wrapping where the width runs out. Owned by
// its parent; UI thread only.
class CategoryLegend : public QWidget {
    Q_OBJECT
public:
    explicit CategoryLegend(QWidget* parent = nullptr, int columns = 4);
    // Only these categories' entries (a chart that draws some of them); default: all. In a
    // grid a hidden entry leaves its cell empty; use columns 0 to pack them.
    void setCategories(const QVector<MemCategory>& shown);
    // Labels wider than `width` px wrap onto more lines, the swatch beside the first: a
    // one-column legend beside a chart, whatever the language's longest label.
    void wrapLabels(int width);
    // The labels of the entries shown, in category order (for tests).
    QStringList shownLabels() const;

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Each category's label and tooltip in the current language.
    void retranslate();
    // wrapLabels' label widths for the current texts and font.
    void fitLabelWidths();

    QVector<QLabel*> m_labels; // indexed by MemCategory; each one's parent cell has the tooltip
    int m_wrapWidth = 0;       // wrapLabels' width; 0: labels on one line
};

} // namespace zerolab
