// LlmcDataLoader: resolve the shard list, validate each header against its file
// size, and read uint16 tokens across shard boundaries with a vocabulary check.
#include "runtime/data/data_llmc.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <glob.h>

namespace zerolab {

static_assert(std::endian::native == std::endian::little,
              "llm.c shards are little-endian int32/uint16; big-endian hosts need byte swaps");

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kHeaderBytes = kLlmcHeaderInts * sizeof(std::int32_t);

std::vector<std::string> globPaths(const std::string& pattern) {
    glob_t g{};
    const int rc = ::glob(pattern.c_str(), 0, nullptr, &g);
    std::vector<std::string> paths;
    if (rc == 0) {
        paths.assign(g.gl_pathv, g.gl_pathv + g.gl_pathc);
    }
    ::globfree(&g);
    if (rc != 0 && rc != GLOB_NOMATCH) {
        throw DataError("llmc pattern '" + pattern + "': glob failed (code " + std::to_string(rc) +
                        ")");
    }
    return paths;
}

// One file, a glob pattern, or a directory's *.bin files; sorted by path.
std::vector<std::string> resolveShards(const std::string& path) {
    if (path.empty()) {
        throw DataError("data.path: the llmc source needs a shard file, glob or directory");
    }
    std::vector<std::string> paths;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        for (const auto& entry : fs::directory_iterator(path, ec)) {
            if (entry.path().extension() == ".bin") {
                paths.push_back(entry.path().string());
            }
        }
        if (ec) {
            throw DataError("llmc directory '" + path + "': cannot list: " + ec.message());
        }
        if (paths.empty()) {
            throw DataError("llmc directory '" + path + "': no *.bin shards in it");
        }
    } else if (path.find_first_of("*?[") != std::string::npos) {
        paths = globPaths(path);
        if (paths.empty()) {
            throw DataError("llmc pattern '" + path + "': matches no file");
        }
    } else {
        paths.push_back(path);
    }
    std::sort(paths.begin(), paths.end());
    return paths;
}

// Returns the token count after checking the header against the file size.
long long checkHeader(const MappedFile& f) {
    const std::string name = "llmc shard '" + f.path() + "'";
    if (f.size() < kHeaderBytes) {
        throw DataError(name + ": " + std::to_string(f.size()) + " bytes, shorter than the " +
                        std::to_string(kHeaderBytes) + "-byte header");
    }
    std::int32_t header[3];
    std::memcpy(header, f.data(), sizeof(header));
    if (header[0] != kLlmcShardMagic) {
        throw DataError(name + ": bad magic " + std::to_string(header[0]) + " (expected " +
                        std::to_string(kLlmcShardMagic) + ")");
    }
    if (header[1] != kLlmcShardVersion) {
        throw DataError(name + ": unsupported version " + std::to_string(header[1]) +
                        " (expected " + std::to_string(kLlmcShardVersion) + ")");
    }
    const long long count = header[2];
    const long long expected = static_cast<long long>(kHeaderBytes) + 2 * count;
    if (count < 0 || static_cast<long long>(f.size()) != expected) {
        throw DataError(name + ": header says " + std::to_string(count) + " tokens (" +
                        std::to_string(expected) + " bytes) but the file has " +
                        std::to_string(f.size()) + " bytes");
    }
    return count;
}

} // namespace

LlmcDataLoader::LlmcDataLoader(const std::string& path, int vocab_size)
    : m_pattern(path), m_vocabSize(vocab_size) {
    if (vocab_size <= 0) {
        throw DataError("llmc '" + path + "': vocab_size " + std::to_string(vocab_size) +
                        " must be positive");
    }
    for (const auto& p : resolveShards(path)) {
        MappedFile file(p, "llmc shard");
        const long long count = checkHeader(file);
        m_shards.push_back(Shard{std::move(file), m_total, count});
        m_total += count;
    }
}

std::string LlmcDataLoader::describe() const {
    return "llmc '" + m_pattern + "' (" + std::to_string(m_shards.size()) + " shard" +
           (m_shards.size() == 1 ? "" : "s") + ", " + std::to_string(m_total) + " tokens)";
}

void LlmcDataLoader::readTokens(long long first, long long count, int* out) {
    // Shard holding `first`: the last one starting at or before it (empty shards skipped).
    auto it = std::upper_bound(m_shards.begin(), m_shards.end(), first,
                               [](long long pos, const Shard& s) { return pos < s.start; });
    --it;
    while (count > 0) {
        const long long local = first - it->start;
        const long long n = std::min(count, it->count - local);
        const unsigned char* bytes = it->file.data() + kHeaderBytes;
        for (long long i = 0; i < n; ++i) {
            std::uint16_t tok;
            std::memcpy(&tok, bytes + 2 * (local + i), sizeof(tok));
            if (tok >= m_vocabSize) {
                throw DataError("llmc shard '" + it->file.path() + "': token " +
                                std::to_string(tok) + " at position " + std::to_string(local + i) +
                                " is >= the model's vocab_size " + std::to_string(m_vocabSize));
            }
            out[i] = tok;
        }
        out += n;
        first += n;
        count -= n;
        ++it;
    }
}

} // namespace zerolab
