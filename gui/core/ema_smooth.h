// The loss charts' smoothing, one function for every chart that smooths a series over
// steps (the Run view's loss, Compare's overlay).
#pragma once

#include <QVector>

namespace zerolab {

// Exponential moving average with bias correction (as TensorBoard's smoothing) over
// samples at ascending `steps`, decaying by alpha per logging interval (the smallest
// step difference): evenly logged steps decay by alpha each, a level of detail's spans
// by alpha to their width. Empty `steps`: alpha per sample.
QVector<double> emaSmoothSteps(const QVector<double>& steps, const QVector<double>& y,
                               double alpha);

} // namespace zerolab
