// The safetensors reader and writer (safetensors.h): the header checked against the
// file before anything is allocated from it, tensors read with pread and converted to
// fp32 in bounded chunks, files written through replaceFileWith.
#include "runtime/model/safetensors.h"

#include "runtime/files/bounded_file.h"
#include "runtime/files/replace_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <limits>
#include <set>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace zerolab {

static_assert(std::endian::native == std::endian::little,
              "safetensors stores little-endian bytes, read here as they are");

namespace {

struct DtypeInfo {
    SafetensorsDtype dtype;
    std::string_view name;
    std::int64_t bytes;
};

constexpr std::array<DtypeInfo, 15> kDtypes = {{
    {SafetensorsDtype::BOOL, "BOOL", 1},
    {SafetensorsDtype::U8, "U8", 1},
    {SafetensorsDtype::I8, "I8", 1},
    {SafetensorsDtype::F8_E5M2, "F8_E5M2", 1},
    {SafetensorsDtype::F8_E4M3, "F8_E4M3", 1},
    {SafetensorsDtype::I16, "I16", 2},
    {SafetensorsDtype::U16, "U16", 2},
    {SafetensorsDtype::F16, "F16", 2},
    {SafetensorsDtype::BF16, "BF16", 2},
    {SafetensorsDtype::I32, "I32", 4},
    {SafetensorsDtype::U32, "U32", 4},
    {SafetensorsDtype::F32, "F32", 4},
    {SafetensorsDtype::F64, "F64", 8},
    {SafetensorsDtype::I64, "I64", 8},
    {SafetensorsDtype::U64, "U64", 8},
}};

// A header has three levels (the object, a tensor's entry, its shape or offsets).
constexpr int kMaxHeaderDepth = 3;
// A name or value quoted in a message is cut to this many bytes.
constexpr std::size_t kMaxQuoted = 80;
// Elements converted per chunk when reading or writing: 256 KiB of fp32.
constexpr std::size_t kChunkElements = std::size_t{1} << 16;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
    throw SafetensorsError(path + ": " + what);
}

std::string quotedName(std::string_view s) {
    std::string cut(s.substr(0, kMaxQuoted));
    if (s.size() > kMaxQuoted)
        cut += "...";
    return nlohmann::json(cut).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string tensorLabel(std::string_view name) {
    return "tensor " + quotedName(name);
}

// A JSON value in a message, cut short.
std::string shown(const nlohmann::json& v) {
    const std::string s = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return s.size() > kMaxQuoted ? s.substr(0, kMaxQuoted) + "..." : s;
}

std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

std::string errnoText(int err) {
    return std::string(std::strerror(err));
}

// Parses a header or an index: nesting bounded before the parser recurses, and a key
// repeated in one object refused (nlohmann would keep the last silently). Returns the
// document, or throws SafetensorsError with `path` and the reason.
nlohmann::json parseStrict(std::string_view text, const std::string& path, const char* what,
                           int max_depth) {
    struct TooDeep {};
    struct Duplicate {
        std::string key;
        std::string parent;
    };
    std::vector<std::optional<std::set<std::string>>> frames; // nullopt: an array
    std::vector<std::string> keys_of_frames;                  // the key each frame sits under
    std::string last_key;
    using Event = nlohmann::json::parse_event_t;
    auto callback = [&](int, Event event, nlohmann::json& parsed) {
        switch (event) {
        case Event::object_start:
        case Event::array_start:
            if (static_cast<int>(frames.size()) >= max_depth)
                throw TooDeep{};
            keys_of_frames.push_back(frames.empty() ? std::string() : last_key);
            if (event == Event::object_start)
                frames.emplace_back(std::set<std::string>{});
            else
                frames.emplace_back(std::nullopt);
            break;
        case Event::key: {
            last_key = parsed.get<std::string>();
            if (!frames.back()->insert(last_key).second)
                throw Duplicate{last_key, keys_of_frames.back()};
            break;
        }
        case Event::object_end:
        case Event::array_end:
            frames.pop_back();
            keys_of_frames.pop_back();
            break;
        case Event::value:
            break;
        }
        return true;
    };
    try {
        return nlohmann::json::parse(text.begin(), text.end(), callback);
    } catch (const TooDeep&) {
        fail(path,
             std::string(what) + " nested deeper than " + std::to_string(max_depth) + " levels");
    } catch (const Duplicate& d) {
        fail(path, std::string(what) + ": " +
                       (d.parent.empty() ? tensorLabel(d.key) + " appears twice"
                                         : "key " + quotedName(d.key) + " appears twice in " +
                                               quotedName(d.parent)));
    } catch (const nlohmann::json::parse_error& e) {
        std::string reason = e.what();
        if (const std::size_t at = reason.find("] "); at != std::string::npos)
            reason.erase(0, at + 2);
        if (reason.size() > 200)
            reason = reason.substr(0, 200) + "...";
        fail(path, std::string(what) + " is not JSON: " + reason);
    } catch (const nlohmann::json::exception& e) {
        fail(path, std::string(what) + " is not usable JSON: " + e.what());
    }
}

// A non-negative integer JSON value (shape dimension, offset).
std::optional<std::int64_t> nonNegative(const nlohmann::json& v) {
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return static_cast<std::int64_t>(u);
    } else if (v.is_number_integer() && v.get<std::int64_t>() >= 0) {
        return v.get<std::int64_t>();
    }
    return std::nullopt;
}

// Element count of `shape`, or nullopt past the int64 range.
std::optional<std::int64_t> elementCount(const std::vector<std::int64_t>& shape) {
    std::int64_t n = 1;
    for (const std::int64_t d : shape)
        if (__builtin_mul_overflow(n, d, &n))
            return std::nullopt;
    return n;
}

// One tensor's entry of a header, checked on its own (dtype, shape, offsets, byte count).
SafetensorsTensorInfo readEntry(const std::string& path, const std::string& name,
                                const nlohmann::json& entry) {
    const std::string who = tensorLabel(name);
    if (!entry.is_object())
        fail(path, who + ": expected an object {dtype, shape, data_offsets}, got " + shown(entry));
    SafetensorsTensorInfo t;
    t.name = name;
    const auto dtype_it = entry.find("dtype");
    if (dtype_it == entry.end() || !dtype_it->is_string())
        fail(path, who + ": dtype missing or not a string" +
                       (dtype_it == entry.end() ? std::string() : " (" + shown(*dtype_it) + ")"));
    const auto dtype = safetensorsDtypeFromName(dtype_it->get_ref<const std::string&>());
    if (!dtype)
        fail(path, who + ": unknown dtype " + shown(*dtype_it));
    t.dtype = *dtype;
    const auto shape_it = entry.find("shape");
    if (shape_it == entry.end() || !shape_it->is_array())
        fail(path, who + ": shape missing or not a list" +
                       (shape_it == entry.end() ? std::string() : " (" + shown(*shape_it) + ")"));
    for (const nlohmann::json& d : *shape_it) {
        const auto dim = nonNegative(d);
        if (!dim)
            fail(path, who + ": shape " + shown(*shape_it) +
                           " has a dimension that is not a non-negative integer: " + shown(d));
        t.shape.push_back(*dim);
    }
    const auto elements = elementCount(t.shape);
    std::int64_t bytes = 0;
    if (!elements || __builtin_mul_overflow(*elements, safetensorsDtypeBytes(t.dtype), &bytes))
        fail(path, who + ": shape " + shapeText(t.shape) + " of " +
                       std::string(safetensorsDtypeName(t.dtype)) + " overflows 64 bits");
    t.elements = *elements;
    const auto off_it = entry.find("data_offsets");
    if (off_it == entry.end() || !off_it->is_array() || off_it->size() != 2 ||
        !nonNegative((*off_it)[0]) || !nonNegative((*off_it)[1]))
        fail(path, who + ": data_offsets must be [begin, end], two non-negative integers" +
                       (off_it == entry.end() ? std::string() : ", got " + shown(*off_it)));
    t.begin = *nonNegative((*off_it)[0]);
    t.end = *nonNegative((*off_it)[1]);
    if (t.end < t.begin)
        fail(path, who + ": data_offsets " + shown(*off_it) + " end before they begin");
    if (t.end - t.begin != bytes)
        fail(path, who + ": data_offsets " + shown(*off_it) + " hold " +
                       std::to_string(t.end - t.begin) + " bytes, its shape " + shapeText(t.shape) +
                       " of " + std::string(safetensorsDtypeName(t.dtype)) + " needs " +
                       std::to_string(bytes));
    return t;
}

// Opens `path` for reading without blocking (a FIFO is refused, not waited on), refusing
// anything but a regular file. Returns the descriptor and the size.
std::pair<int, std::int64_t> openRegular(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        fail(path, "cannot open: " + errnoText(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        fail(path, "cannot stat: " + errnoText(err));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        fail(path, "not a regular file");
    }
    return {fd, static_cast<std::int64_t>(st.st_size)};
}

// Reads exactly `size` bytes at `offset`, or throws naming what is missing.
void preadExactly(int fd, const std::string& path, void* buf, std::size_t size,
                  std::int64_t offset) {
    auto* out = static_cast<char*>(buf);
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::pread(fd, out + done, size - done,
                                  static_cast<off_t>(offset + static_cast<std::int64_t>(done)));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail(path, "read failed at byte " +
                           std::to_string(offset + static_cast<std::int64_t>(done)) + ": " +
                           errnoText(errno));
        if (n == 0)
            fail(path, "truncated: no bytes at " +
                           std::to_string(offset + static_cast<std::int64_t>(done)) +
                           " (the file shrank after its header was checked)");
        done += static_cast<std::size_t>(n);
    }
}

} // namespace

std::string_view safetensorsDtypeName(SafetensorsDtype d) {
    for (const DtypeInfo& info : kDtypes)
        if (info.dtype == d)
            return info.name;
    return "?";
}

std::optional<SafetensorsDtype> safetensorsDtypeFromName(std::string_view name) {
    for (const DtypeInfo& info : kDtypes)
        if (info.name == name)
            return info.dtype;
    return std::nullopt;
}

std::int64_t safetensorsDtypeBytes(SafetensorsDtype d) {
    for (const DtypeInfo& info : kDtypes)
        if (info.dtype == d)
            return info.bytes;
    return 0;
}

float bf16ToFloat(std::uint16_t bits) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

float f16ToFloat(std::uint16_t bits) {
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1fu;
    const std::uint32_t mantissa = bits & 0x3ffu;
    if (exponent == 0) {
        // Zero or subnormal: mantissa * 2^-24, exact in fp32.
        const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 0x1f) // infinity, or NaN with its payload kept
        return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

std::uint16_t floatToBf16(float value) {
    const auto u = std::bit_cast<std::uint32_t>(value);
    if (std::isnan(value)) // keep it a NaN whatever its low bits: set the quiet bit
        return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
    const std::uint32_t lsb = (u >> 16) & 1u;
    return static_cast<std::uint16_t>((u + 0x7fffu + lsb) >> 16);
}

// ---- SafetensorsFile ----

SafetensorsFile::SafetensorsFile(const std::string& path) : m_path(path) {
    const auto [fd, size] = openRegular(path);
    m_fd = fd;
    try {
        if (size < 8)
            fail(path, "truncated: " + std::to_string(size) +
                           " bytes, shorter than the 8-byte header length");
        std::array<unsigned char, 8> len_bytes{};
        preadExactly(m_fd, path, len_bytes.data(), len_bytes.size(), 0);
        std::uint64_t header_len = 0;
        for (int i = 7; i >= 0; --i)
            header_len = (header_len << 8) | len_bytes[static_cast<std::size_t>(i)];
        if (header_len > static_cast<std::uint64_t>(kSafetensorsMaxHeaderBytes))
            fail(path, "header length " + std::to_string(header_len) +
                           " exceeds the format's limit of " +
                           std::to_string(kSafetensorsMaxHeaderBytes) + " bytes");
        const auto n = static_cast<std::int64_t>(header_len);
        if (n > size - 8)
            fail(path, "header length " + std::to_string(n) + " runs past the end of the file (" +
                           std::to_string(size) + " bytes)");
        if (n < 2)
            fail(path, "header length " + std::to_string(n) + " cannot hold a JSON object");
        std::string header(static_cast<std::size_t>(n), '\0');
        preadExactly(m_fd, path, header.data(), header.size(), 8);
        if (header[0] != '{')
            fail(path, "the header does not start with '{' (a JSON object)");
        const nlohmann::json doc = parseStrict(header, path, "header", kMaxHeaderDepth);
        if (!doc.is_object())
            fail(path, "the header is not a JSON object");
        m_data_start = 8 + n;
        const std::int64_t data_bytes = size - m_data_start;

        for (auto it = doc.begin(); it != doc.end(); ++it) {
            if (it.key() == "__metadata__") {
                if (!it->is_object())
                    fail(path, "__metadata__ must be an object of strings, got " + shown(*it));
                for (auto m = it->begin(); m != it->end(); ++m) {
                    if (!m->is_string())
                        fail(path, "__metadata__ " + quotedName(m.key()) +
                                       ": expected a string, got " + shown(*m));
                    m_metadata[m.key()] = m->get<std::string>();
                }
                continue;
            }
            m_tensors.push_back(readEntry(path, it.key(), *it));
        }
        // The byte ranges must tile the data section, in order, exactly: the reference
        // refuses an overlap or a hole (InvalidOffset) and bytes left over
        // (MetadataIncompleteBuffer).
        std::sort(m_tensors.begin(), m_tensors.end(),
                  [](const SafetensorsTensorInfo& a, const SafetensorsTensorInfo& b) {
                      return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
                  });
        std::int64_t at = 0;
        const SafetensorsTensorInfo* previous = nullptr;
        for (const SafetensorsTensorInfo& t : m_tensors) {
            if (t.end > data_bytes)
                fail(path, tensorLabel(t.name) + ": data_offsets [" + std::to_string(t.begin) +
                               ", " + std::to_string(t.end) + "] run past the data section's " +
                               std::to_string(data_bytes) + " bytes");
            if (t.begin < at)
                fail(path, tensorLabel(t.name) + ": data_offsets [" + std::to_string(t.begin) +
                               ", " + std::to_string(t.end) + "] overlap " +
                               tensorLabel(previous->name) + " [" +
                               std::to_string(previous->begin) + ", " +
                               std::to_string(previous->end) + "]");
            if (t.begin > at)
                fail(path, tensorLabel(t.name) + ": data_offsets [" + std::to_string(t.begin) +
                               ", " + std::to_string(t.end) + "] leave bytes " +
                               std::to_string(at) + "-" + std::to_string(t.begin) +
                               " of the data section unused");
            at = t.end;
            previous = &t;
        }
        if (at != data_bytes)
            fail(path, "the tensors hold " + std::to_string(at) + " bytes, the data section has " +
                           std::to_string(data_bytes));
        for (std::size_t i = 0; i < m_tensors.size(); ++i)
            m_by_name.emplace(m_tensors[i].name, i);
    } catch (...) {
        ::close(m_fd);
        m_fd = -1;
        throw;
    }
}

SafetensorsFile::~SafetensorsFile() {
    if (m_fd >= 0)
        ::close(m_fd);
}

SafetensorsFile::SafetensorsFile(SafetensorsFile&& other) noexcept
    : m_path(std::move(other.m_path)), m_fd(std::exchange(other.m_fd, -1)),
      m_data_start(other.m_data_start), m_tensors(std::move(other.m_tensors)),
      m_by_name(std::move(other.m_by_name)), m_metadata(std::move(other.m_metadata)) {}

SafetensorsFile& SafetensorsFile::operator=(SafetensorsFile&& other) noexcept {
    if (this != &other) {
        if (m_fd >= 0)
            ::close(m_fd);
        m_path = std::move(other.m_path);
        m_fd = std::exchange(other.m_fd, -1);
        m_data_start = other.m_data_start;
        m_tensors = std::move(other.m_tensors);
        m_by_name = std::move(other.m_by_name);
        m_metadata = std::move(other.m_metadata);
    }
    return *this;
}

const SafetensorsTensorInfo* SafetensorsFile::find(std::string_view name) const {
    const auto it = m_by_name.find(std::string(name));
    return it == m_by_name.end() ? nullptr : &m_tensors[it->second];
}

void SafetensorsFile::readF32(std::string_view name, std::span<float> out) const {
    const SafetensorsTensorInfo* t = find(name);
    if (t == nullptr)
        fail(m_path, "no " + tensorLabel(name));
    if (static_cast<std::int64_t>(out.size()) != t->elements)
        fail(m_path, tensorLabel(name) + ": has " + std::to_string(t->elements) +
                         " elements (shape " + shapeText(t->shape) + "), the destination " +
                         std::to_string(out.size()));
    const std::int64_t offset = m_data_start + t->begin;
    switch (t->dtype) {
    case SafetensorsDtype::F32:
        preadExactly(m_fd, m_path, out.data(), out.size_bytes(), offset);
        return;
    case SafetensorsDtype::BF16:
    case SafetensorsDtype::F16: {
        const bool bf16 = t->dtype == SafetensorsDtype::BF16;
        std::vector<std::uint16_t> chunk(std::min(out.size(), kChunkElements));
        for (std::size_t at = 0; at < out.size(); at += chunk.size()) {
            const std::size_t n = std::min(chunk.size(), out.size() - at);
            preadExactly(m_fd, m_path, chunk.data(), n * sizeof(std::uint16_t),
                         offset + static_cast<std::int64_t>(at * sizeof(std::uint16_t)));
            for (std::size_t i = 0; i < n; ++i)
                out[at + i] = bf16 ? bf16ToFloat(chunk[i]) : f16ToFloat(chunk[i]);
        }
        return;
    }
    default:
        fail(m_path, tensorLabel(name) + ": dtype " + std::string(safetensorsDtypeName(t->dtype)) +
                         " is not read (F32, BF16 and F16 are)");
    }
}

std::vector<float> SafetensorsFile::readF32(std::string_view name) const {
    const SafetensorsTensorInfo* t = find(name);
    if (t == nullptr)
        fail(m_path, "no " + tensorLabel(name));
    // Its size was checked against the file: the allocation is no larger than the data.
    std::vector<float> out(static_cast<std::size_t>(t->elements));
    readF32(name, out);
    return out;
}

// ---- SafetensorsCheckpoint ----

SafetensorsCheckpoint::SafetensorsCheckpoint(const std::string& path) : m_path(path) {
    namespace fs = std::filesystem;
    if (!path.ends_with(".json")) {
        m_files.push_back(std::make_unique<SafetensorsFile>(path));
        for (const SafetensorsTensorInfo& t : m_files[0]->tensors())
            m_file_of.emplace(t.name, 0);
        return;
    }
    const BoundedFileText read = readBoundedTextFile(path);
    if (!read.text)
        fail(path, read.error);
    const nlohmann::json doc = parseStrict(*read.text, path, "the index", 3);
    if (!doc.is_object())
        fail(path, "the index is not a JSON object");
    const auto map_it = doc.find("weight_map");
    if (map_it == doc.end() || !map_it->is_object())
        fail(path, "weight_map missing or not an object {tensor: shard file}");
    const fs::path folder = fs::path(path).parent_path();
    std::map<std::string, std::size_t> shard_index;
    for (auto it = map_it->begin(); it != map_it->end(); ++it) {
        const std::string where = "weight_map[" + quotedName(it.key()) + "]";
        if (!it->is_string())
            fail(path, where + ": expected a shard file name, got " + shown(*it));
        const std::string& shard = it->get_ref<const std::string&>();
        // A shard is a file beside the index: a path that leaves its folder is refused.
        if (shard.empty() || shard == "." || shard == ".." ||
            shard.find('/') != std::string::npos || shard.find('\0') != std::string::npos)
            fail(path,
                 where + ": " + quotedName(shard) + " is not a file name in the index's folder");
        auto [slot, added] = shard_index.emplace(shard, m_files.size());
        if (added) {
            const std::string shard_path = (folder / shard).string();
            try {
                m_files.push_back(std::make_unique<SafetensorsFile>(shard_path));
            } catch (const SafetensorsError& e) {
                fail(path,
                     where + " names " + quotedName(shard) + ", which cannot be used: " + e.what());
            }
        }
        if (m_files[slot->second]->find(it.key()) == nullptr)
            fail(path,
                 where + " names " + quotedName(shard) + ", which has no " + tensorLabel(it.key()));
        m_file_of.emplace(it.key(), slot->second);
    }
}

std::vector<std::string> SafetensorsCheckpoint::names() const {
    std::vector<std::string> out;
    out.reserve(m_file_of.size());
    for (const auto& [name, file] : m_file_of)
        out.push_back(name);
    return out;
}

const SafetensorsTensorInfo* SafetensorsCheckpoint::find(std::string_view name) const {
    const auto it = m_file_of.find(name);
    return it == m_file_of.end() ? nullptr : m_files[it->second]->find(name);
}

const SafetensorsFile& SafetensorsCheckpoint::fileOf(std::string_view name) const {
    const auto it = m_file_of.find(name);
    if (it == m_file_of.end())
        fail(m_path, "no " + tensorLabel(name));
    return *m_files[it->second];
}

void SafetensorsCheckpoint::readF32(std::string_view name, std::span<float> out) const {
    fileOf(name).readF32(name, out);
}

std::vector<float> SafetensorsCheckpoint::readF32(std::string_view name) const {
    return fileOf(name).readF32(name);
}

// ---- writing ----

void writeSafetensors(const std::string& path, std::span<const SafetensorsTensorToWrite> tensors,
                      const std::map<std::string, std::string>& metadata) {
    std::vector<const SafetensorsTensorToWrite*> order;
    std::set<std::string_view> names;
    for (const SafetensorsTensorToWrite& t : tensors) {
        const std::string who = tensorLabel(t.name);
        if (t.name.empty() || t.name == "__metadata__")
            fail(path, "cannot write " + who + ": not a tensor name");
        if (!names.insert(t.name).second)
            fail(path, "cannot write " + who + " twice");
        if (t.dtype != SafetensorsDtype::F32 && t.dtype != SafetensorsDtype::BF16)
            fail(path, "cannot write " + who + " as " + std::string(safetensorsDtypeName(t.dtype)) +
                           " (F32 and BF16 are written)");
        for (const std::int64_t d : t.shape)
            if (d < 0)
                fail(path, "cannot write " + who + ": shape " + shapeText(t.shape));
        const auto elements = elementCount(t.shape);
        if (!elements || *elements != static_cast<std::int64_t>(t.data.size()))
            fail(path, "cannot write " + who + ": shape " + shapeText(t.shape) + " needs " +
                           (elements ? std::to_string(*elements) : std::string("too many")) +
                           " values, " + std::to_string(t.data.size()) + " given");
        order.push_back(&t);
    }
    // The reference's order: wider dtypes first (their alignment), then by name.
    std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
        return a->dtype != b->dtype ? a->dtype > b->dtype : a->name < b->name;
    });
    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    if (!metadata.empty())
        header["__metadata__"] = metadata;
    std::int64_t at = 0;
    for (const SafetensorsTensorToWrite* t : order) {
        const std::int64_t bytes =
            static_cast<std::int64_t>(t->data.size()) * safetensorsDtypeBytes(t->dtype);
        header[t->name] = {{"dtype", std::string(safetensorsDtypeName(t->dtype))},
                           {"shape", t->shape},
                           {"data_offsets", {at, at + bytes}}};
        at += bytes;
    }
    std::string head = header.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
    head.append((8 - head.size() % 8) % 8, ' ');
    std::array<char, 8> len{};
    for (std::size_t i = 0; i < 8; ++i)
        len[i] = static_cast<char>((static_cast<std::uint64_t>(head.size()) >> (8 * i)) & 0xffu);

    const std::string problem = replaceFileWith(path, [&](const FileAppend& append) {
        if (std::string e = append({len.data(), len.size()}); !e.empty())
            return e;
        if (std::string e = append(head); !e.empty())
            return e;
        std::vector<std::uint16_t> narrow;
        for (const SafetensorsTensorToWrite* t : order) {
            if (t->dtype == SafetensorsDtype::F32) {
                const std::string_view bytes(reinterpret_cast<const char*>(t->data.data()),
                                             t->data.size_bytes());
                if (std::string e = append(bytes); !e.empty())
                    return e;
                continue;
            }
            for (std::size_t i = 0; i < t->data.size(); i += kChunkElements) {
                const std::size_t n = std::min(kChunkElements, t->data.size() - i);
                narrow.resize(n);
                for (std::size_t j = 0; j < n; ++j)
                    narrow[j] = floatToBf16(t->data[i + j]);
                if (std::string e = append(
                        {reinterpret_cast<const char*>(narrow.data()), n * sizeof(std::uint16_t)});
                    !e.empty())
                    return e;
            }
        }
        return std::string();
    });
    if (!problem.empty())
        fail(path, problem);
}

} // namespace zerolab
