// llm.c fp32 model files: bit-identical export/import across layouts, llm.c's byte
// layout, and a LlmcModelFileError naming the file for each malformed input.
#include "model_test_util.h"
#include "runtime/model/gpt2/llmc_model_file.h"
#include "tests/support/hostile_files.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

class LlmcModelFile : public ::testing::Test {
protected:
    std::string path(const std::string& name) const { return m_dir.file(name); }

    std::vector<char> bytes(const std::string& p) const {
        std::ifstream f(p, std::ios::binary);
        return {std::istreambuf_iterator<char>(f), {}};
    }
    void writeBytes(const std::string& p, const std::vector<char>& b) const {
        std::ofstream f(p, std::ios::binary | std::ios::trunc);
        f.write(b.data(), static_cast<std::streamsize>(b.size()));
    }
    // Expects readLlmcModel to throw LlmcModelFileError whose message names the file
    // and contains `needle`.
    void expectReadError(const std::string& p, const ParamLayout& layout,
                         const std::string& needle) {
        std::vector<float> flat(static_cast<std::size_t>(layout.padded_total));
        try {
            readLlmcModel(p, layout, flat.data());
            ADD_FAILURE() << "no error for " << needle;
        } catch (const LlmcModelFileError& e) {
            const std::string msg = e.what();
            EXPECT_EQ(msg.rfind(p, 0), 0u) << msg;
            EXPECT_NE(msg.find(needle), std::string::npos) << msg;
        }
    }

    test::TempDir m_dir{"llmc"};
};

ModelShape paddedShape() {
    return ModelShape{2, 2, 32, 16, 50, 64};
}

TEST_F(LlmcModelFile, ExportThenImportIsBitIdenticalAcrossLayouts) {
    const ModelShape s = paddedShape();
    const ParamLayout p3 = makeParamLayout(s, 3), p1 = makeParamLayout(s, 1);
    std::vector<float> src;
    test::randomParams(p3, 1, src);
    const std::string file = path("m.bin");
    writeLlmcModel(file, s, p3, src.data());
    EXPECT_EQ(readLlmcModelHeader(file), s);

    std::vector<float> back(src.size(), 5.0f); // padding must come back as 0
    readLlmcModel(file, p3, back.data());
    EXPECT_EQ(std::memcmp(src.data(), back.data(), src.size() * sizeof(float)), 0);

    std::vector<float> one(static_cast<std::size_t>(p1.padded_total));
    readLlmcModel(file, p1, one.data());
    const std::string again = path("again.bin");
    writeLlmcModel(again, s, p1, one.data());
    EXPECT_EQ(bytes(file), bytes(again));
}

TEST_F(LlmcModelFile, UsesLlmcHeaderAndTensorOrder) {
    const ModelShape s = paddedShape();
    const ParamLayout p = makeParamLayout(s, 2);
    std::vector<float> src;
    test::randomParams(p, 2, src);
    const std::string file = path("m.bin");
    writeLlmcModel(file, s, p, src.data());
    const std::vector<char> b = bytes(file);
    ASSERT_EQ(b.size(), 1024 + static_cast<std::size_t>(paramCount(s)) * 4);
    std::int32_t h[8];
    std::memcpy(h, b.data(), sizeof h);
    EXPECT_EQ(std::vector<std::int32_t>(h, h + 8),
              (std::vector<std::int32_t>{20240326, 3, 16, 50, 2, 2, 32, 64}));
    // wte first, then wpe, then ln1w of layer 0 and of layer 1 back to back.
    std::size_t at = 1024;
    auto expectTensor = [&](Gpt2Tensor t, int l) {
        const std::size_t n = static_cast<std::size_t>(gpt2TensorElements(s, t)) * 4;
        EXPECT_EQ(std::memcmp(b.data() + at, src.data() + p.flatOffset(t, l), n), 0)
            << kGpt2TensorNames[static_cast<int>(t)] << " layer " << l;
        at += n;
    };
    expectTensor(Gpt2Tensor::Wte, 0);
    expectTensor(Gpt2Tensor::Wpe, 0);
    expectTensor(Gpt2Tensor::Ln1w, 0);
    expectTensor(Gpt2Tensor::Ln1w, 1);
    expectTensor(Gpt2Tensor::Ln1b, 0);
    // The file ends with lnfw, lnfb.
    const std::size_t C = 32 * 4;
    EXPECT_EQ(std::memcmp(b.data() + b.size() - C, src.data() + p.flatOffset(Gpt2Tensor::Lnfb), C),
              0);
}

TEST_F(LlmcModelFile, MalformedFilesAreErrorsNamingTheFile) {
    const ModelShape s = paddedShape();
    const ParamLayout p = makeParamLayout(s, 1);
    std::vector<float> src;
    test::randomParams(p, 3, src);
    const std::string good = path("good.bin");
    writeLlmcModel(good, s, p, src.data());
    const std::vector<char> b = bytes(good);

    expectReadError(path("missing.bin"), p, "cannot open");

    std::vector<char> bad = b;
    bad[0] ^= 1;
    writeBytes(path("magic.bin"), bad);
    expectReadError(path("magic.bin"), p, "bad magic");

    bad = b;
    bad[4] = 5; // llm.c's bf16 version
    writeBytes(path("version.bin"), bad);
    expectReadError(path("version.bin"), p, "unsupported version 5");

    writeBytes(path("short.bin"), std::vector<char>(b.begin(), b.end() - 4));
    expectReadError(path("short.bin"), p, "truncated");
    writeBytes(path("header.bin"), std::vector<char>(b.begin(), b.begin() + 100));
    expectReadError(path("header.bin"), p, "truncated");

    bad = b;
    bad.push_back(0);
    writeBytes(path("long.bin"), bad);
    expectReadError(path("long.bin"), p, "longer than");

    ModelShape other = s;
    other.n_layer = 3;
    expectReadError(good, makeParamLayout(other, 1), "shape mismatch");

    EXPECT_THROW(readLlmcModelHeader(path("magic.bin")), LlmcModelFileError);
    EXPECT_THROW(writeLlmcModel(path("x.bin"), other, p, src.data()), LlmcModelFileError);
    EXPECT_THROW(writeLlmcModel(path("no/such/dir/x.bin"), s, p, src.data()), LlmcModelFileError);
    // Another family's model is refused before anything is read from it.
    const ModelShape llama = *findModelPreset("llama-nano");
    const ParamLayout lp = makeParamLayout(llama, 1);
    const std::vector<float> lsrc(static_cast<std::size_t>(lp.padded_total));
    EXPECT_THROW(writeLlmcModel(path("llama.bin"), llama, lp, lsrc.data()), LlmcModelFileError);
    EXPECT_FALSE(fs::exists(path("llama.bin")));
}

// Expects readLlmcModelHeader(p) to throw a message naming p and containing `needle`.
void expectHeaderError(const std::string& p, const std::string& needle) {
    try {
        readLlmcModelHeader(p);
        ADD_FAILURE() << "no error for " << needle;
    } catch (const LlmcModelFileError& e) {
        const std::string msg = e.what();
        EXPECT_EQ(msg.rfind(p, 0), 0u) << msg;
        EXPECT_NE(msg.find(needle), std::string::npos) << msg;
    }
}

// Issue 17: a 483 KB file whose header claims 853e9 parameters (zerolab-plan went to
// 10 GB), and headers whose products overflow int64 (a negative psi beside "Valid").
TEST_F(LlmcModelFile, HeaderSizesAreCheckedAgainstTheFileLength) {
    constexpr std::size_t kBody = 483'000;
    test::writeLlmcModelHeader(path("wide.bin"), 1024, 50257, 12, 12, 76800, 50304, kBody);
    expectHeaderError(path("wide.bin"), "truncated: the header's shape maxT=1024 V=50257 L=12");
    test::writeLlmcModelHeader(path("layers.bin"), 1024, 50257, 2147483647, 1, 1, 50304, kBody);
    expectHeaderError(path("layers.bin"), "truncated");
    test::writeLlmcModelHeader(path("overflow.bin"), 2147483647, 2147483647, 2147483647, 1,
                               2147483647, 2147483647, kBody);
    expectHeaderError(path("overflow.bin"), "more than 2^48 parameters");

    // The exact length is accepted; one float more or less is not.
    const ModelShape s = paddedShape();
    const std::size_t body = static_cast<std::size_t>(paramCount(s)) * 4;
    test::writeLlmcModelHeader(path("exact.bin"), 16, 50, 2, 2, 32, 64, body);
    EXPECT_EQ(readLlmcModelHeader(path("exact.bin")), s);
    test::writeLlmcModelHeader(path("short.bin"), 16, 50, 2, 2, 32, 64, body - 4);
    expectHeaderError(path("short.bin"), "truncated");
    test::writeLlmcModelHeader(path("long.bin"), 16, 50, 2, 2, 32, 64, body + 4);
    expectHeaderError(path("long.bin"), "longer than header");
}

TEST_F(LlmcModelFile, FifoIsRefusedWithoutWaitingForAWriter) {
    const std::string fifo = path("model.fifo");
    test::makeFifo(fifo);
    std::string error;
    const bool returned = test::returnsWithoutWaitingOnFifo(fifo, [&] {
        try {
            readLlmcModelHeader(fifo);
        } catch (const LlmcModelFileError& e) {
            error = e.what();
        }
    });
    EXPECT_TRUE(returned) << "readLlmcModelHeader blocked opening a FIFO";
    EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
}

} // namespace
} // namespace zerolab
