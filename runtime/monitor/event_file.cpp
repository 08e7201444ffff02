// The Event proto (tensorflow/core/util/event.proto): wall_time = 1 (double), step = 2
// (int64), file_version = 3 (string), summary = 5 (Summary: value = 1, repeated Value:
// tag = 1 (string), simple_value = 2 (float)). Encoded and decoded by hand.
#include "runtime/monitor/event_file.h"
#include "runtime/monitor/crc32c.h"

#include <bit>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace zerolab {

namespace {

enum WireType : unsigned { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

void putVarint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7F) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

void putKey(std::string& out, unsigned field, WireType type) {
    putVarint(out, (static_cast<std::uint64_t>(field) << 3) | type);
}

template <class T> void putLittleEndian(std::string& out, T v) {
    static_assert(std::endian::native == std::endian::little, "event files are little-endian");
    char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    out.append(bytes, sizeof v);
}

void putBytes(std::string& out, unsigned field, const std::string& bytes) {
    putKey(out, field, kLengthDelimited);
    putVarint(out, bytes.size());
    out += bytes;
}

void putWallTimeAndStep(std::string& out, double wall_time, std::int64_t step) {
    putKey(out, 1, kFixed64);
    putLittleEndian(out, wall_time);
    if (step != 0) {
        putKey(out, 2, kVarint);
        putVarint(out, static_cast<std::uint64_t>(step));
    }
}

// Reads a proto message field by field; a malformed one throws with `where`.
class ProtoReader {
public:
    ProtoReader(std::string_view bytes, const std::string& where)
        : m_bytes(bytes), m_where(where) {}
    bool done() const { return m_pos >= m_bytes.size(); }
    std::uint64_t varint() {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            need(1);
            const auto b = static_cast<unsigned char>(m_bytes[m_pos++]);
            v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
            if (!(b & 0x80))
                return v;
        }
        fail("a varint longer than 10 bytes");
    }
    template <class T> T fixed() {
        need(sizeof(T));
        T v;
        std::memcpy(&v, m_bytes.data() + m_pos, sizeof v);
        m_pos += sizeof v;
        return v;
    }
    std::string_view bytes() {
        const std::uint64_t n = varint();
        need(n);
        std::string_view v = m_bytes.substr(m_pos, n);
        m_pos += n;
        return v;
    }
    void skip(unsigned type) {
        switch (type) {
        case kVarint:
            varint();
            return;
        case kFixed64:
            fixed<std::uint64_t>();
            return;
        case kLengthDelimited:
            bytes();
            return;
        case kFixed32:
            fixed<std::uint32_t>();
            return;
        default:
            fail("wire type " + std::to_string(type));
        }
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw EventFileError(m_where + ": malformed Event proto: " + what);
    }

private:
    void need(std::uint64_t n) const {
        if (n > m_bytes.size() - m_pos)
            fail("a field runs past the end of its message");
    }
    std::string_view m_bytes;
    std::size_t m_pos = 0;
    std::string m_where;
};

void decodeValue(std::string_view bytes, const std::string& where, ScalarEvent& e) {
    ProtoReader r(bytes, where);
    while (!r.done()) {
        const std::uint64_t key = r.varint();
        const unsigned field = static_cast<unsigned>(key >> 3), type = key & 7;
        if (field == 1 && type == kLengthDelimited)
            e.tag = std::string(r.bytes());
        else if (field == 2 && type == kFixed32)
            e.value = r.fixed<float>();
        else
            r.skip(type);
    }
}

void decodeEvent(std::string_view bytes, const std::string& where, std::vector<ScalarEvent>& out) {
    ScalarEvent head;
    std::vector<std::string_view> values;
    ProtoReader r(bytes, where);
    while (!r.done()) {
        const std::uint64_t key = r.varint();
        const unsigned field = static_cast<unsigned>(key >> 3), type = key & 7;
        if (field == 1 && type == kFixed64) {
            head.wall_time = r.fixed<double>();
        } else if (field == 2 && type == kVarint) {
            head.step = static_cast<std::int64_t>(r.varint());
        } else if (field == 3 && type == kLengthDelimited) {
            head.file_version = std::string(r.bytes());
        } else if (field == 5 && type == kLengthDelimited) {
            ProtoReader summary(r.bytes(), where);
            while (!summary.done()) {
                const std::uint64_t k = summary.varint();
                if ((k >> 3) == 1 && (k & 7) == kLengthDelimited)
                    values.push_back(summary.bytes());
                else
                    summary.skip(k & 7);
            }
        } else {
            r.skip(type);
        }
    }
    if (values.empty()) {
        out.push_back(head);
        return;
    }
    for (std::string_view v : values) {
        ScalarEvent e = head;
        decodeValue(v, where, e);
        out.push_back(e);
    }
}

std::string hostName(const std::string& host) {
    std::string safe;
    for (char c : host)
        safe.push_back(c == '/' ? '_' : c);
    return safe.empty() ? "localhost" : safe;
}

} // namespace

std::string encodeScalarEvent(double wall_time, std::int64_t step,
                              const std::vector<std::pair<std::string, double>>& scalars) {
    std::string summary;
    for (const auto& [tag, value] : scalars) {
        std::string v;
        putBytes(v, 1, tag);
        putKey(v, 2, kFixed32);
        putLittleEndian(v, static_cast<float>(value));
        putBytes(summary, 1, v);
    }
    std::string event;
    putWallTimeAndStep(event, wall_time, step);
    putBytes(event, 5, summary);
    return event;
}

std::string encodeFileVersionEvent(double wall_time) {
    std::string event;
    putWallTimeAndStep(event, wall_time, 0);
    putBytes(event, 3, "brain.Event:2");
    return event;
}

std::string frameRecord(const std::string& data) {
    std::string out;
    std::string length;
    putLittleEndian(length, static_cast<std::uint64_t>(data.size()));
    out += length;
    putLittleEndian(out, maskedCrc32c(length));
    out += data;
    putLittleEndian(out, maskedCrc32c(data));
    return out;
}

EventFileWriter::EventFileWriter(const std::string& folder, const std::string& host) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    const double now =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    char name[64];
    std::snprintf(name, sizeof name, "events.out.tfevents.%010lld.", static_cast<long long>(now));
    m_path = (std::filesystem::path(folder) /
              (name + hostName(host) + "." + std::to_string(getpid()) + ".0"))
                 .string();
    m_out.open(m_path, std::ios::binary | std::ios::app);
    if (!m_out)
        throw EventFileError("cannot write the TensorBoard event file " + m_path + ": " +
                             (ec ? ec.message() : std::strerror(errno)));
    writeRecord(encodeFileVersionEvent(now));
}

void EventFileWriter::addScalars(std::int64_t step, double wall_time,
                                 const std::vector<std::pair<std::string, double>>& scalars) {
    writeRecord(encodeScalarEvent(wall_time, step, scalars));
}

void EventFileWriter::writeRecord(const std::string& data) {
    m_out << frameRecord(data);
    m_out.flush();
    if (!m_out)
        throw EventFileError("writing the TensorBoard event file " + m_path +
                             " failed: " + std::strerror(errno));
}

std::vector<ScalarEvent> readEventFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw EventFileError("cannot read the event file " + path);
    const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<ScalarEvent> out;
    std::size_t pos = 0;
    while (pos < all.size()) {
        const std::string where = path + " at byte " + std::to_string(pos);
        if (all.size() - pos < 12)
            throw EventFileError(where + ": a record header is cut short");
        const std::string_view length(all.data() + pos, 8);
        std::uint32_t length_crc = 0;
        std::memcpy(&length_crc, all.data() + pos + 8, 4);
        if (length_crc != maskedCrc32c(length))
            throw EventFileError(where + ": the length's CRC-32C does not match");
        std::uint64_t n = 0;
        std::memcpy(&n, length.data(), 8);
        if (n > all.size() - pos - 12 || all.size() - pos - 12 - n < 4)
            throw EventFileError(where + ": the record is cut short");
        const std::string_view data(all.data() + pos + 12, n);
        std::uint32_t data_crc = 0;
        std::memcpy(&data_crc, all.data() + pos + 12 + n, 4);
        if (data_crc != maskedCrc32c(data))
            throw EventFileError(where + ": the data's CRC-32C does not match");
        decodeEvent(data, where, out);
        pos += 12 + n + 4;
    }
    return out;
}

} // namespace zerolab
