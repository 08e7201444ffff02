// newRunUuid: 16 random bytes, the version and variant bits set, as 8-4-4-4-12 hex.
#include "storage/run_uuid.h"

#include "storage/store_error.h"

#include <array>
#include <cstdint>
#include <fstream>

namespace zerolab {

namespace {

constexpr std::size_t kUuidChars = 36;
constexpr std::array<std::size_t, 4> kDashes = {8, 13, 18, 23};

bool isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

} // namespace

std::string newRunUuid() {
    std::array<unsigned char, 16> b{};
    std::ifstream in("/dev/urandom", std::ios::binary);
    in.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(b.size()));
    if (!in)
        throw StoreError("/dev/urandom: cannot read 16 bytes for a run uuid", StoreError::Kind::Io);
    b[6] = static_cast<unsigned char>((b[6] & 0x0F) | 0x40); // version 4
    b[8] = static_cast<unsigned char>((b[8] & 0x3F) | 0x80); // variant 10xx
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(kUuidChars);
    for (std::size_t i = 0; i < b.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out += '-';
        out += kDigits[b[i] >> 4];
        out += kDigits[b[i] & 0x0F];
    }
    return out;
}

bool isRunUuid(std::string_view s) {
    if (s.size() != kUuidChars)
        return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const bool dash = i == kDashes[0] || i == kDashes[1] || i == kDashes[2] || i == kDashes[3];
        if (dash ? s[i] != '-' : !isHex(s[i]))
            return false;
    }
    return s[14] == '4' && (s[19] == '8' || s[19] == '9' || s[19] == 'a' || s[19] == 'b');
}

} // namespace zerolab
