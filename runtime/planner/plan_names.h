// The names the planner's inputs go by in lesson files and on zerolab-plan's command
// line (runtime/text/name_table.h): precision and memory convention.
#pragma once

#include "runtime/config/config.h"
#include "runtime/planner/planner.h"
#include "runtime/text/name_table.h"

namespace zerolab {

inline constexpr NameTable<Precision, 2> kPrecisionNames = {{
    {"bf16", Precision::Bf16Mixed},
    {"fp32", Precision::Fp32},
}};

inline constexpr NameTable<Convention, 2> kConventionNames = {{
    {"paper", Convention::ZeroPaper},
    {"chapter", Convention::Chapter},
}};

} // namespace zerolab
