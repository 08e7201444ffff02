// Hugging Face's safetensors format, read and written by our own code: 8 bytes of
// little-endian header length N, N bytes of JSON header ({name: {"dtype", "shape",
// "data_offsets": [begin, end]}, "__metadata__": {string: string}}, padded with spaces),
// then the tensors' raw little-endian bytes, begin and end counted from the end of the
// header. Model weights (model.init_from, --export-model) in the form people exchange
// them: one file, or several shards named by a model.safetensors.index.json.
//
// Every size and offset a header claims is checked before anything is allocated from
// it, as strictly as the reference implementation (huggingface/safetensors) checks: the
// header length against the file and a 100 MB cap, the JSON, each dtype, each shape's
// product (overflow included), each tensor's byte count against its dtype and shape, and
// the tensors' byte ranges, which must tile the data section exactly (no overlap, no
// hole, nothing after the last). Files are read with pread, one tensor at a time; a file
// is never read whole.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace zerolab {

// The one exception of this file. The message starts with the file's path and names the
// tensor and the value at fault: "m.safetensors: tensor \"wte\": data_offsets [0, 12]
// hold 12 bytes, its shape [2, 3] of F32 needs 24".
class SafetensorsError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The format's dtypes of whole bytes (the reference's names). Reading converts F32,
// BF16 and F16 to fp32; the others are listed and refused when read.
enum class SafetensorsDtype {
    BOOL,
    U8,
    I8,
    F8_E5M2,
    F8_E4M3,
    I16,
    U16,
    F16,
    BF16,
    I32,
    U32,
    F32,
    F64,
    I64,
    U64
};

std::string_view safetensorsDtypeName(SafetensorsDtype d);
std::optional<SafetensorsDtype> safetensorsDtypeFromName(std::string_view name);
std::int64_t safetensorsDtypeBytes(SafetensorsDtype d);

// The reference implementation's cap on the header (MAX_HEADER_SIZE).
inline constexpr std::int64_t kSafetensorsMaxHeaderBytes = 100'000'000;

struct SafetensorsTensorInfo {
    std::string name;
    SafetensorsDtype dtype = SafetensorsDtype::F32;
    std::vector<std::int64_t> shape; // [] is a scalar (one element)
    std::int64_t elements = 0;
    std::int64_t begin = 0; // bytes from the start of the data section
    std::int64_t end = 0;
};

// One .safetensors file, its header checked on opening. The file stays open (read-only)
// for reading tensors. Move-only.
class SafetensorsFile {
public:
    // Throws SafetensorsError: cannot open, not a regular file, or any header check.
    explicit SafetensorsFile(const std::string& path);
    ~SafetensorsFile();
    SafetensorsFile(SafetensorsFile&& other) noexcept;
    SafetensorsFile& operator=(SafetensorsFile&& other) noexcept;
    SafetensorsFile(const SafetensorsFile&) = delete;
    SafetensorsFile& operator=(const SafetensorsFile&) = delete;

    const std::string& path() const { return m_path; }
    // In the order of their bytes in the file.
    const std::vector<SafetensorsTensorInfo>& tensors() const { return m_tensors; }
    // nullptr when the file has no tensor of that name.
    const SafetensorsTensorInfo* find(std::string_view name) const;
    const std::map<std::string, std::string>& metadata() const { return m_metadata; }

    // Reads one tensor converted to fp32 into `out`, whose size must be its element
    // count. Throws SafetensorsError: no such tensor, a dtype other than F32, BF16 and
    // F16 (naming both), a size mismatch, or a read error (the file shrank).
    void readF32(std::string_view name, std::span<float> out) const;
    std::vector<float> readF32(std::string_view name) const;

private:
    std::string m_path;
    int m_fd = -1;
    std::int64_t m_data_start = 0;
    std::vector<SafetensorsTensorInfo> m_tensors;
    std::unordered_map<std::string, std::size_t> m_by_name;
    std::map<std::string, std::string> m_metadata;
};

// A model's weights: one .safetensors file, or a sharded checkpoint's index
// (model.safetensors.index.json: {"metadata": {...}, "weight_map": {tensor: shard file}})
// with its shards beside it. Opening checks every shard and that each tensor the index
// names is in the shard it names.
class SafetensorsCheckpoint {
public:
    // A path ending in ".json" is an index; anything else one safetensors file. Throws
    // SafetensorsError, naming the index, the tensor and the shard when a shard is
    // missing or lacks a tensor.
    explicit SafetensorsCheckpoint(const std::string& path);

    // Every tensor, sorted by name.
    std::vector<std::string> names() const;
    const SafetensorsTensorInfo* find(std::string_view name) const;
    // The file that holds `name` (throws SafetensorsError when none does).
    const SafetensorsFile& fileOf(std::string_view name) const;
    void readF32(std::string_view name, std::span<float> out) const;
    std::vector<float> readF32(std::string_view name) const;
    std::size_t shardCount() const { return m_files.size(); }

private:
    std::string m_path;
    std::vector<std::unique_ptr<SafetensorsFile>> m_files;
    std::map<std::string, std::size_t, std::less<>> m_file_of; // tensor -> m_files index
};

// One tensor to write: fp32 values in row-major order, stored as F32 or as BF16 (rounded
// to nearest, ties to even, as torch's .bfloat16() rounds).
struct SafetensorsTensorToWrite {
    std::string name;
    std::vector<std::int64_t> shape;
    std::span<const float> data; // exactly the shape's element count
    SafetensorsDtype dtype = SafetensorsDtype::F32;
};

// Writes a safetensors file as the reference implementation lays it out: tensors ordered
// by dtype (wider first) then name, "__metadata__" first in the header when there is
// metadata, the header padded with spaces to a multiple of 8 bytes. Written to a
// temporary file renamed over `path` (replaceFileWith): a failure leaves `path` as it
// was. Throws SafetensorsError: a duplicate or empty name, "__metadata__" as a name, a
// dtype other than F32 and BF16, a data size that is not the shape's, or a write failure.
void writeSafetensors(const std::string& path, std::span<const SafetensorsTensorToWrite> tensors,
                      const std::map<std::string, std::string>& metadata = {});

// The conversions, exact: bf16 and f16 widen to fp32 without rounding (f16 subnormals,
// infinities and NaNs included); fp32 narrows to bf16 rounding to nearest, ties to even,
// a NaN staying a NaN of the same sign.
float bf16ToFloat(std::uint16_t bits);
float f16ToFloat(std::uint16_t bits);
std::uint16_t floatToBf16(float value);

} // namespace zerolab
