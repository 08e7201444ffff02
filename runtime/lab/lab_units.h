// Units a lesson shows and checks numbers in, and the dimension of each: a check's
// quantity and unit must be of one dimension (the parser refuses "optimizer_states in
// ms"). psi = bytes per parameter, psi_elements = elements per parameter.
#pragma once

#include <optional>
#include <string_view>

namespace zerolab {

enum class LabDimension { Bytes, Elements, Count, Milliseconds, Ratio };

struct LabUnit {
    std::string_view name;  // "bytes", "MiB", "GiB", "GB", "psi", "psi_elements", "count", "ms",
                            // "fraction", "percent" (the chapter's saving, erratum checks)
    LabDimension dimension; // of the quantities it converts
    std::string_view label; // the GUI's short label: "B", "MiB", "B/ψ", "ψ (elements)", ...
};

// nullopt for an unknown name.
std::optional<LabUnit> findLabUnit(std::string_view name);
// Every unit's name, comma separated (for error messages).
std::string_view labUnitNames();

// A quantity's value in its dimension's base (bytes, elements, count, ms) expressed in
// `unit`: bytes / 2^20 for MiB, bytes / psi for psi, elements / psi for psi_elements...
// The unit's dimension must be the quantity's.
double toLabUnit(double base_value, const LabUnit& unit, double psi);

} // namespace zerolab
