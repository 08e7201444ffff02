// Korthikanti et al.'s activation formulas (paper_activations.h), numbers plugged in.
#include "runtime/planner/paper_activations.h"

#include "runtime/planner/planner_units.h"

#include <cmath>
#include <sstream>

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
    std::ostringstream f;
    f << "L x ";
    switch (r) {
    case Recompute::None:
        out.bytes = L * sbh * (34 + 5 * a * s / h);
        f << "sbh(34 + 5as/h)";
        break;
    case Recompute::Selective:
        out.bytes = L * sbh * 34;
        f << "34sbh";
        break;
    case Recompute::Full:
        out.bytes = L * sbh * 2;
        f << "2sbh";
        break;
    }
    f << " with L = " << m.layers << ", s = " << m.seq_len << ", b = " << micro_batch
      << ", h = " << m.hidden << ", a = " << m.heads << " = "
      << formatBytes(out.bytes, ByteUnit::GB) << " (Korthikanti et al. 2022, " << m.name
      << ", recompute " << recomputeName(r) << ", 16-bit activations)";
    out.formula = f.str();
    return out;
}

} // namespace zerolab
