// Korthikanti et al.'s activation formulas (paper_activations.h): bytes and the per-layer formula.
#include "runtime/planner/paper_activations.h"

#include <cmath>

namespace zerolab {

std::optional<TransformerDims> paperModelFor(double psi) {
    for (const TransformerDims& m : kPaperModels)
        if (std::abs(psi - m.params) <= 0.01 * m.params)
            return m;
    return std::nullopt;
}

PaperActivations paperActivations(const TransformerDims& m, int micro_batch, Recompute r) {
    const double s = m.seq_len, b = micro_batch, h = m.hidden, a = m.heads, L = m.layers;
    const double sbh = s * b * h;
    PaperActivations out;
    switch (r) {
    case Recompute::None:
        out.bytes = L * sbh * (34 + 5 * a * s / h);
        out.per_layer = "sbh(34 + 5as/h)";
        break;
    case Recompute::Selective:
        out.bytes = L * sbh * 34;
        out.per_layer = "34sbh";
        break;
    case Recompute::Full:
        out.bytes = L * sbh * 2;
        out.per_layer = "2sbh";
        break;
    }
    return out;
}

} // namespace zerolab
