// Form rows named after they are built (see form_rows.h).
#include "gui/widgets/form_rows.h"

#include <QFormLayout>
#include <QLabel>
#include <QWidget>

namespace zerolab {

namespace {

// The form layout, in the tree of `layout`, that has a row for `field`.
QFormLayout* formWith(QLayout* layout, QWidget* field) {
    if (!layout)
        return nullptr;
    if (auto* form = qobject_cast<QFormLayout*>(layout); form && form->labelForField(field))
        return form;
    for (int i = 0; i < layout->count(); ++i)
        if (QFormLayout* form = formWith(layout->itemAt(i)->layout(), field))
            return form;
    return nullptr;
}

} // namespace

void addFormRow(QFormLayout* form, QWidget* field) {
    auto* label = new QLabel;
    label->setBuddy(field);
    form->addRow(label, field);
}

void setFormRowLabel(QWidget* field, const QString& text) {
    QWidget* parent = field->parentWidget();
    QFormLayout* form = parent ? formWith(parent->layout(), field) : nullptr;
    if (auto* label = form ? qobject_cast<QLabel*>(form->labelForField(field)) : nullptr)
        label->setText(text);
}

} // namespace zerolab
