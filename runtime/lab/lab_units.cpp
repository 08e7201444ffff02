// The unit table and the one conversion from a dimension's base unit.
#include "runtime/lab/lab_units.h"

#include <array>

namespace zerolab {

namespace {

constexpr std::array<LabUnit, 10> kUnits = {{
    {"bytes", LabDimension::Bytes, "B"},
    {"MiB", LabDimension::Bytes, "MiB"},
    {"GiB", LabDimension::Bytes, "GiB"},
    {"GB", LabDimension::Bytes, "GB"},
    {"psi", LabDimension::Bytes, "B/ψ"},
    {"psi_elements", LabDimension::Elements, "ψ (elements)"},
    {"count", LabDimension::Count, ""},
    {"ms", LabDimension::Milliseconds, "ms"},
    {"fraction", LabDimension::Ratio, ""},
    {"percent", LabDimension::Ratio, "%"},
}};

} // namespace

std::optional<LabUnit> findLabUnit(std::string_view name) {
    for (const LabUnit& u : kUnits)
        if (u.name == name)
            return u;
    return std::nullopt;
}

std::string_view labUnitNames() {
    return "bytes, MiB, GiB, GB, psi, psi_elements, count, ms, fraction, percent";
}

double toLabUnit(double base_value, const LabUnit& unit, double psi) {
    if (unit.name == "MiB")
        return base_value / (1024.0 * 1024.0);
    if (unit.name == "GiB")
        return base_value / (1024.0 * 1024.0 * 1024.0);
    if (unit.name == "GB")
        return base_value / 1e9;
    if (unit.name == "percent")
        return base_value * 100;
    if (unit.name == "psi" || unit.name == "psi_elements")
        return base_value / psi;
    return base_value;
}

} // namespace zerolab
