// Test helpers for the data loaders: a private temporary directory, and writers
// for llm.c token shards (optionally malformed) and plain byte files.
#pragma once

#include "runtime/data/data_llmc.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace zerolab::test {

// A fresh directory under the system temp dir, removed with its contents.
class TempDir {
public:
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "zerolab-data-XXXXXX");
        if (!::mkdtemp(tmpl.data())) {
            throw std::runtime_error("mkdtemp failed for " + tmpl);
        }
        m_path = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::string file(const std::string& name) const { return (m_path / name).string(); }
    std::string path() const { return m_path.string(); }

private:
    std::filesystem::path m_path;
};

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
