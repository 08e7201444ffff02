// CRC-32C, bytewise with a 256-entry table built once.
#include "runtime/monitor/crc32c.h"

#include <array>

namespace zerolab {

namespace {

std::array<std::uint32_t, 256> makeTable() {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        t[i] = c;
    }
    return t;
}

} // namespace

std::uint32_t crc32c(std::string_view bytes) {
    static const std::array<std::uint32_t, 256> table = makeTable();
    std::uint32_t c = 0xFFFFFFFFu;
    for (unsigned char b : bytes)
        c = table[(c ^ b) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

} // namespace zerolab
