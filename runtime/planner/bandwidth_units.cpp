// The bandwidth parser and printer of bandwidth_units.h.
#include "runtime/planner/bandwidth_units.h"

#include "runtime/planner/planner.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace zerolab {

namespace {

struct UnitName {
    std::string_view name;
    double bytes_per_second;
};

// Bits: "b", "bit", "bps"; bytes: "B", "Bps". Per second spelled "/s" or "ps".
constexpr std::array<UnitName, 24> kUnits = {{
    {"Tb/s", 1e12 / 8}, {"Tbit/s", 1e12 / 8}, {"tbit", 1e12 / 8}, {"Tbps", 1e12 / 8},
    {"Gb/s", 1e9 / 8},  {"Gbit/s", 1e9 / 8},  {"gbit", 1e9 / 8},  {"Gbps", 1e9 / 8},
    {"Mb/s", 1e6 / 8},  {"Mbit/s", 1e6 / 8},  {"mbit", 1e6 / 8},  {"Mbps", 1e6 / 8},
    {"kb/s", 1e3 / 8},  {"kbit/s", 1e3 / 8},  {"kbit", 1e3 / 8},  {"kbps", 1e3 / 8},
    {"TB/s", 1e12},     {"GB/s", 1e9},        {"GBps", 1e9},      {"MB/s", 1e6},
    {"MBps", 1e6},      {"kB/s", 1e3},        {"kBps", 1e3},      {"B/s", 1},
}};

std::string quoted(std::string_view what, std::string_view text) {
    return std::string(what) + " '" + std::string(text) + "'";
}

} // namespace

double parseBandwidth(std::string_view text, std::string_view what) {
    const std::string s(text);
    char* end = nullptr;
    const double value = std::strtod(s.c_str(), &end);
    if (end == s.c_str())
        throw PlanError(quoted(what, text) + ": expected a number and a unit, e.g. 200Gb/s (bits) "
                                             "or 25GB/s (bytes per second)");
    std::string_view unit(end);
    while (!unit.empty() && unit.front() == ' ')
        unit.remove_prefix(1);
    if (unit.empty())
        throw PlanError(quoted(what, text) + ": a bare number; say its unit: " + s +
                        "Gb/s (bits per second) or " + s + "GB/s (bytes per second)");
    for (const UnitName& u : kUnits) {
        if (u.name != unit)
            continue;
        if (!std::isfinite(value) || value <= 0)
            throw PlanError(quoted(what, text) + ": a bandwidth must be above zero");
        return value * u.bytes_per_second;
    }
    throw PlanError(quoted(what, text) + ": unknown unit '" + std::string(unit) +
                    "' (Gb/s, Gbit/s, gbit, Mb/s, Mbit/s, mbit, kbit for bits; GB/s, MB/s, kB/s "
                    "for bytes per second)");
}

namespace {

// `v` in the largest of the five units (each 1000 times the one before) that keeps it >= 1.
std::string scaled(double v, const char* const* names) {
    int i = 0;
    while (i < 4 && v >= 1000) {
        v /= 1000;
        ++i;
    }
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3g %s", v, names[i]);
    return std::string(buf);
}

constexpr const char* kBytes[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
constexpr const char* kBits[] = {"b/s", "kb/s", "Mb/s", "Gb/s", "Tb/s"};

} // namespace

std::string formatBandwidth(double bytes_per_second) {
    return scaled(bytes_per_second, kBytes) + " (" + scaled(bytes_per_second * 8, kBits) + ")";
}

std::string formatBits(double bytes_per_second) {
    return scaled(bytes_per_second * 8, kBits);
}

LinkRate parseLinkRate(std::string_view text, std::string_view what) {
    // The scope is the last "/word" unless that word is the rate's own "/s".
    const std::size_t slash = text.rfind('/');
    std::string_view rate = text, scope;
    if (slash != std::string_view::npos && text.substr(slash + 1) != "s") {
        rate = text.substr(0, slash);
        scope = text.substr(slash + 1);
    }
    LinkRate r;
    if (scope == "node")
        r.per = LinkScope::Node;
    else if (scope == "gpu")
        r.per = LinkScope::Gpu;
    else if (scope == "nic" || scope.empty())
        r.per = LinkScope::Nic;
    else
        throw PlanError(quoted(what, text) + ": unknown scope '/" + std::string(scope) +
                        "': say per node (/node), per GPU (/gpu) or per NIC (/nic), e.g. "
                        "400Gb/s/node");
    try {
        r.bytes_per_s = parseBandwidth(rate, what);
    } catch (const PlanError& e) {
        if (scope.empty())
            throw;
        throw PlanError(std::string(e.what()) + " (in '" + std::string(text) + "')");
    }
    return r;
}

} // namespace zerolab
