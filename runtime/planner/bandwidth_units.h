// Link bandwidths as the user writes them: every bandwidth option names its unit, bits
// (Gb/s, Gbit/s, gbit, Mb/s, ...) or bytes (GB/s, MB/s, ...) per second, so that "200 Gb/s
// InfiniBand" is never read as 200 GB/s. One parser for zerolab-plan and the profiles.
#pragma once

#include <string>
#include <string_view>

namespace zerolab {

// Bytes per second of "200Gb/s", "200 Gbit/s", "25GB/s", "1gbit", "200 Mbit/s", "100MB/s",
// "1.5 TB/s" ... (a lower-case b or "bit": bits; an upper-case B: bytes; k, M, G, T are
// decimal). A bare number, an unknown unit or a rate <= 0 throws PlanError naming
// `what` (the option or JSON path) and the text.
double parseBandwidth(std::string_view text, std::string_view what);

// "25 GB/s (200 Gb/s)": the rate in bytes and in bits per second, three digits each.
std::string formatBandwidth(double bytes_per_second);

} // namespace zerolab
