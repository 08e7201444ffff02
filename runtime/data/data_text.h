// The `text` data source: any file, one byte per token (vocab 256), read in order.
#pragma once

#include "runtime/data/data_loader.h"
#include "runtime/data/data_mapped_file.h"

#include <string>

namespace zerolab {

class TextDataLoader : public DataLoader {
public:
    // Maps `path`. Throws DataError if the path is empty or unreadable, or if
    // vocab_size < 256 (a byte can be any of 256 tokens). A file too short for
    // one global batch is reported by batch(), which knows the batch size.
    TextDataLoader(const std::string& path, int vocab_size);

    int vocabSize() const override { return 256; }
    std::optional<long long> tokenCount() const override;
    std::string describe() const override;

protected:
    void readTokens(long long first, long long count, int* out) override;

private:
    MappedFile m_file;
};

} // namespace zerolab
