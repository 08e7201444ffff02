// Python's float formats as DeepSpeed's printouts use them.
#include "runtime/monitor/ds_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace zerolab {

std::string pyG(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

std::string fixed2(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return buf;
}

double pyRound(double x, int digits) {
    const double scale = std::pow(10.0, digits);
    return std::nearbyint(x * scale) / scale;
}

std::string pyRepr(double x) {
    if (std::isnan(x))
        return "nan";
    if (std::isinf(x))
        return x > 0 ? "inf" : "-inf";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);
    std::string s(buf, r.ptr);
    if (s.find_first_of(".e") == std::string::npos)
        s += ".0";
    return s;
}

std::string dsNumber(double x) {
    struct Unit {
        double magnitude;
        const char* name;
    };
    Unit u{1e-6, "u"};
    if (x >= 1e12)
        u = {1e12, "T"};
    else if (x >= 1e9)
        u = {1e9, "G"};
    else if (x >= 1e6)
        u = {1e6, "M"};
    else if (x >= 1e3)
        u = {1e3, "K"};
    else if (x >= 1 || x == 0)
        u = {1, ""};
    else if (x >= 1e-3)
        u = {1e-3, "m"};
    return pyG(pyRound(x / u.magnitude, 2)) + " " + u.name;
}

std::string dsParams(double x) {
    std::string s = dsNumber(x);
    if (!s.empty() && s.back() == 'G')
        s.back() = 'B';
    while (!s.empty() && s.back() == ' ')
        s.pop_back();
    return s;
}

std::string dsSize(double bytes) {
    if (bytes <= 0)
        return "0B";
    static const char* kNames[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"};
    int i = static_cast<int>(std::floor(std::log(bytes) / std::log(1024.0)));
    i = std::max(0, std::min(i, 8));
    const double value = pyRound(bytes / std::pow(1024.0, i), 2);
    return pyRepr(value) + " " + kNames[i];
}

std::string padRight(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

} // namespace zerolab
