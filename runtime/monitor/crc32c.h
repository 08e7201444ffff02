// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) and TFRecord's masked form,
// for the TensorBoard event files (event_file.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace zerolab {

std::uint32_t crc32c(std::string_view bytes);

// TFRecord's mask: ((crc >> 15) | (crc << 17)) + 0xa282ead8.
inline std::uint32_t maskedCrc32c(std::string_view bytes) {
    const std::uint32_t crc = crc32c(bytes);
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

} // namespace zerolab
