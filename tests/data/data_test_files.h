// Test helpers for the data loaders: writers for llm.c token shards (optionally malformed)
// and plain byte files (the temporary directory is tests/support/temp_dir.h).
#pragma once

#include "runtime/data/data_llmc.h"
#include "tests/support/temp_dir.h"

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace zerolab::test {

// Header fields of a shard; the defaults describe a well-formed shard.
struct ShardHeader {
    std::int32_t magic = kLlmcShardMagic;
    std::int32_t version = kLlmcShardVersion;
    std::int32_t count = -1; // -1: the real number of tokens
};

inline void writeShard(const std::string& path, const std::vector<std::uint16_t>& tokens,
                       ShardHeader h = {}) {
    std::vector<std::int32_t> header(kLlmcHeaderInts, 0);
    header[0] = h.magic;
    header[1] = h.version;
    header[2] = h.count < 0 ? static_cast<std::int32_t>(tokens.size()) : h.count;
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(header.data()),
              static_cast<std::streamsize>(header.size() * sizeof(std::int32_t)));
    out.write(reinterpret_cast<const char*>(tokens.data()),
              static_cast<std::streamsize>(tokens.size() * sizeof(std::uint16_t)));
    if (!out) {
        throw std::runtime_error("cannot write " + path);
    }
}

inline void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
        throw std::runtime_error("cannot write " + path);
    }
}

} // namespace zerolab::test
