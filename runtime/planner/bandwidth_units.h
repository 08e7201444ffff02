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
// "200 Gb/s": the rate in bits per second alone, three digits, as links are sold.
std::string formatBits(double bytes_per_second);

// What a link rate between hosts is counted over. A NIC's rate is what a port is sold as
// ("InfiniBand NDR, 400 Gb/s"); a node's is every NIC of the host together; a GPU's is
// its share of the node's.
enum class LinkScope { Nic, Node, Gpu };

struct LinkRate {
    double bytes_per_s = 0;
    LinkScope per = LinkScope::Nic;
};

// A rate and what it is counted over: "400Gb/s/node", "50GB/s/gpu", "1600Gbit/s/node",
// "400Gb/s/nic", or "400Gb/s" (no scope: one NIC's rate, as a port is sold). The rate
// reads as parseBandwidth's; a scope other than /node, /gpu or /nic throws PlanError
// naming `what` and the text.
LinkRate parseLinkRate(std::string_view text, std::string_view what);

} // namespace zerolab
