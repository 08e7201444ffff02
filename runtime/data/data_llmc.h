// The `llmc` data source: llm.c token shards (a header of 256 int32: magic
// 20240520, version 1, token count; then that many uint16 tokens), one file or
// several concatenated in sorted path order into one stream.
#pragma once

#include "runtime/data/data_loader.h"
#include "runtime/data/data_mapped_file.h"

#include <cstdint>
#include <string>
#include <vector>

namespace zerolab {

inline constexpr std::int32_t kLlmcShardMagic = 20240520;
inline constexpr std::int32_t kLlmcShardVersion = 1;
inline constexpr std::size_t kLlmcHeaderInts = 256;

class LlmcDataLoader : public DataLoader {
public:
    // path: one shard file, a glob pattern (`*`, `?`, `[`), or a directory whose
    // *.bin files are all taken. Every shard's header and size are checked here;
    // tokens are checked against vocab_size as they are read (a shard can be
    // gigabytes), so a bad token is reported by batch() with its file and index.
    // Throws DataError naming the file.
    LlmcDataLoader(const std::string& path, int vocab_size);

    int vocabSize() const override { return m_vocabSize; }
    std::optional<long long> tokenCount() const override { return m_total; }
    std::string describe() const override;

protected:
    void readTokens(long long first, long long count, int* out) override;

private:
    struct Shard {
        MappedFile file;
        long long start = 0; // stream position of this shard's token 0
        long long count = 0;
    };

    std::string m_pattern;
    int m_vocabSize = 0;
    std::vector<Shard> m_shards;
    long long m_total = 0;
};

} // namespace zerolab
