// A read-only memory mapping of a whole file, shared by the text and llmc data
// sources so that a rank touches only the pages of the batches it reads.
#pragma once

#include <cstddef>
#include <string>

namespace zerolab {

// Owns the mapping (move-only); unmapped on destruction. Immutable after
// construction, so concurrent reads are safe. An empty file maps to size 0.
class MappedFile {
public:
    // `what` prefixes error messages ("text file", "llmc shard"). Throws
    // DataError naming the file if it cannot be opened, is not a regular file,
    // or cannot be mapped.
    MappedFile(const std::string& path, const std::string& what);
    MappedFile(MappedFile&& o) noexcept;
    MappedFile& operator=(MappedFile&& o) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();

    const unsigned char* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    const std::string& path() const { return m_path; }

private:
    void release();

    std::string m_path;
    const unsigned char* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace zerolab
