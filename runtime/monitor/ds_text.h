// DeepSpeed's number formats, so that zerolab's printouts read like DeepSpeed's:
// Python's "{:g}" and round(x, 2), the flops profiler's number_to_string (K, M, G, T;
// m, u), the comms logger's convert_size (B, KB, MB in powers of 1024), and Python's
// repr of a float (what csv.writer writes).
#pragma once

#include <string>

namespace zerolab {

// Python's f"{x:g}": 6 significant digits, trailing zeros dropped.
std::string pyG(double x);
// Python's f"{x:.2f}".
std::string fixed2(double x);
// Python's round(x, digits) (to nearest; halves as the binary value lies).
double pyRound(double x, int digits);
// Python's repr(float): the shortest text that reads back as x, with ".0" on integers.
std::string pyRepr(double x);
// profiler.py's number_to_string(num, precision=2): "12.35 M", "0 ".
std::string dsNumber(double x);
// params_to_string: number_to_string with "G" spelled "B", stripped: "124.44 M".
std::string dsParams(double x);
// comms_logging.py's convert_size: "0B", "1.5 KB", "3.81 MB".
std::string dsSize(double bytes);
// Python's f"{s: <w}": s padded with spaces to w characters (never cut).
std::string padRight(const std::string& s, std::size_t width);

} // namespace zerolab
