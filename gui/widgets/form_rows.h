// Form rows whose labels are named after the row is built, so that a view's
// retranslate() can set them again on a language change: addFormRow() makes the row
// with an empty label, setFormRowLabel() finds that label from the field.
#pragma once

#include <QString>

class QFormLayout;
class QWidget;

namespace zerolab {

// Appends a row of `field` under an empty label (its buddy) to `form`.
void addFormRow(QFormLayout* form, QWidget* field);
// Sets the label of the form row that holds `field` (in any form layout inside the
// field's parent widget); nothing when the field has no labelled row.
void setFormRowLabel(QWidget* field, const QString& text);

} // namespace zerolab
