// Reads and writes llm.c fp32 model files, mapping llm.c's tensor-major order
// (all layers of ln1w, then all of ln1b, ...) onto zerolab's unit-major layout. A
// header is checked against the file's length before its sizes are used.
#include "runtime/model/gpt2/llmc_model_file.h"

#include "runtime/model/family.h"

#include "runtime/model/gpt2/gpt2_tensors.h"

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace zerolab {

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
    throw LlmcModelFileError(path + ": " + what);
}

File openFile(const std::string& path, const char* mode) {
    File f(std::fopen(path.c_str(), mode));
    if (!f)
        fail(path, std::string("cannot open: ") + std::strerror(errno));
    return f;
}

// A model file opened for reading, with its size. O_NONBLOCK: opening a FIFO must not
// wait for a writer; anything but a regular file is refused before it is read.
struct ReadFile {
    File file;
    std::int64_t size = 0;
};

ReadFile openForRead(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        fail(path, std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        fail(path, std::string("cannot stat: ") + std::strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        fail(path, "not a regular file");
    }
    File f(::fdopen(fd, "rb"));
    if (!f) {
        const int err = errno;
        ::close(fd);
        fail(path, std::string("cannot open: ") + std::strerror(err));
    }
    return {std::move(f), static_cast<std::int64_t>(st.st_size)};
}

std::string shapeText(const ModelShape& s) {
    return "maxT=" + std::to_string(s.seq_len) + " V=" + std::to_string(s.vocab_size) +
           " L=" + std::to_string(s.n_layer) + " NH=" + std::to_string(s.n_head) +
           " C=" + std::to_string(s.n_embd) + " Vp=" + std::to_string(s.padded_vocab_size);
}

// The header's shape, checked against the file's size before anything is allocated
// for it: the sizes it claims are untrusted.
ModelShape readHeader(const ReadFile& rf, const std::string& path) {
    std::array<std::int32_t, kLlmcHeaderInts> h{};
    constexpr auto kHeaderBytes = static_cast<std::int64_t>(sizeof h);
    if (rf.size < kHeaderBytes ||
        std::fread(h.data(), sizeof(std::int32_t), h.size(), rf.file.get()) != h.size())
        fail(path, "truncated: shorter than the 1024-byte header");
    if (h[0] != kLlmcModelMagic)
        fail(path, "bad magic " + std::to_string(h[0]) + " (an llm.c model file has " +
                       std::to_string(kLlmcModelMagic) + ")");
    if (h[1] != kLlmcModelVersionFp32)
        fail(path, "unsupported version " + std::to_string(h[1]) +
                       " (only version 3, fp32, is supported; version 5 is llm.c's bf16)");
    ModelShape s;
    s.seq_len = h[2];
    s.vocab_size = h[3];
    s.n_layer = h[4];
    s.n_head = h[5];
    s.n_embd = h[6];
    s.padded_vocab_size = h[7];
    if (s.seq_len < 1 || s.vocab_size < 1 || s.n_layer < 1 || s.n_head < 1 || s.n_embd < 1 ||
        s.padded_vocab_size < s.vocab_size || s.n_embd % s.n_head != 0)
        fail(path, "invalid shape in header: " + shapeText(s));
    const std::optional<std::int64_t> psi = checkedParamCount(s);
    if (!psi)
        fail(path, "invalid shape in header: " + shapeText(s) + " makes more than 2^48 parameters");
    const std::int64_t expected = kHeaderBytes + *psi * static_cast<std::int64_t>(sizeof(float));
    if (rf.size < expected)
        fail(path, "truncated: the header's shape " + shapeText(s) + " needs " +
                       std::to_string(expected) + " bytes (" + std::to_string(*psi) +
                       " fp32 parameters), the file has " + std::to_string(rf.size));
    if (rf.size > expected)
        fail(path, "longer than header + " + std::to_string(*psi) + " fp32 parameters (" +
                       std::to_string(expected) + " bytes): the file has " +
                       std::to_string(rf.size));
    return s;
}

// Calls fn(tensor, layer) in llm.c's file order.
template <typename Fn> void forEachFileTensor(const ModelShape& s, Fn fn) {
    for (int ti = 0; ti < kGpt2TensorCount; ++ti) {
        const auto t = static_cast<Gpt2Tensor>(ti);
        const int layers = isPerLayer(t) ? s.n_layer : 1;
        for (int l = 0; l < layers; ++l)
            fn(t, l);
    }
}

} // namespace

ModelShape readLlmcModelHeader(const std::string& path) {
    return readHeader(openForRead(path), path);
}

void readLlmcModel(const std::string& path, const ParamLayout& layout, float* flat) {
    const ReadFile rf = openForRead(path);
    std::FILE* f = rf.file.get();
    const ModelShape s = readHeader(rf, path);
    // The header has no attention kernel: the model is the same under either.
    if (!s.sameModel(layout.shape))
        fail(path, "shape mismatch: the file has " + shapeText(s) + ", the model is " +
                       shapeText(layout.shape));
    for (const UnitLayout& u : layout.units)
        std::memset(flat + u.offset + u.elems, 0,
                    static_cast<std::size_t>(u.padded_elems - u.elems) * sizeof(float));
    std::int64_t read = 0;
    forEachFileTensor(s, [&](Gpt2Tensor t, int l) {
        const auto n = static_cast<std::size_t>(gpt2TensorElements(s, t));
        const std::size_t got = std::fread(flat + layout.flatOffset(t, l), sizeof(float), n, f);
        read += static_cast<std::int64_t>(got);
        if (got != n)
            fail(path, "truncated: " + std::to_string(read) + " of " +
                           std::to_string(layout.total_elems) + " parameters present");
    });
    if (std::fgetc(f) != EOF)
        fail(path,
             "longer than header + " + std::to_string(layout.total_elems) + " fp32 parameters");
}

void writeLlmcModel(const std::string& path, const ModelShape& shape, const ParamLayout& layout,
                    const float* flat) {
    // The file's order and sizes are GPT-2's: another family's layout would be read
    // through GPT-2's tensor sizes, past its own.
    if (shape.family != Family::Gpt2)
        fail(path, "writeLlmcModel: llm.c model files hold GPT-2 models, this one is of the \"" +
                       std::string(familyOf(shape).name) + "\" family");
    if (!(shape == layout.shape))
        fail(path, "writeLlmcModel: shape " + shapeText(shape) + " differs from the layout's " +
                       shapeText(layout.shape));
    std::array<std::int32_t, kLlmcHeaderInts> h{};
    h[0] = kLlmcModelMagic;
    h[1] = kLlmcModelVersionFp32;
    h[2] = shape.seq_len;
    h[3] = shape.vocab_size;
    h[4] = shape.n_layer;
    h[5] = shape.n_head;
    h[6] = shape.n_embd;
    h[7] = shape.padded_vocab_size;
    File f = openFile(path, "wb");
    if (std::fwrite(h.data(), sizeof(std::int32_t), h.size(), f.get()) != h.size())
        fail(path, std::string("write failed: ") + std::strerror(errno));
    forEachFileTensor(shape, [&](Gpt2Tensor t, int l) {
        const auto n = static_cast<std::size_t>(gpt2TensorElements(shape, t));
        if (std::fwrite(flat + layout.flatOffset(t, l), sizeof(float), n, f.get()) != n)
            fail(path, std::string("write failed: ") + std::strerror(errno));
    });
    if (std::fclose(f.release()) != 0)
        fail(path, std::string("write failed on close: ") + std::strerror(errno));
}

} // namespace zerolab
