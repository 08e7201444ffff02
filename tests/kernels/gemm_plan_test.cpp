// The cuBLAS argument plans of kernels/gemm_plan.h, checked without a GPU: each plan
// is executed by a column-major reference GEMM/GEMV that reads its arguments exactly
// as cuBLAS does (op(A) m x k, leading dimensions, batch strides, offsets, beta 0 never
// reading C) and must give what the CPU kernels give, at small shapes and at shapes
// with the real models' aspect ratios. At the real sizes (gpt2-124m, a Llama-8B-like
// model) the plans are built but not executed: every view must stay inside its
// buffer, every leading dimension must hold its rows, batch entries of an output must
// not overlap. A new kernel with cuBLAS calls adds its plan to a table below.
#include "kernels/cpu/cpu_kernels.h"
#include "kernels/gemm_plan.h"
#include "tests/kernels/test_util.h"

#include <gtest/gtest.h>

#include <array>
#include <climits>
#include <cmath>
#include <string>
#include <vector>

namespace zerolab {
namespace {

using gemm::Buffer;
using gemm::GemmCall;
using gemm::GemvCall;
using gemm::Op;
using gemm::Operand;
using test::Rng;

// Host buffers by role, in double: the reference computes in double from fp32 inputs.
struct RefBuffers {
    std::array<std::vector<double>, static_cast<std::size_t>(Buffer::Count)> v;
    std::vector<double>& operator[](Buffer b) { return v[static_cast<std::size_t>(b)]; }
};

double at(RefBuffers& bufs, const Operand& o, std::int64_t batch, int row, int col,
          const std::string& what) {
    const std::vector<double>& buf = bufs[o.buffer];
    const std::int64_t i =
        o.offset + batch * o.stride + static_cast<std::int64_t>(col) * o.ld + row;
    if (i < 0 || i >= static_cast<std::int64_t>(buf.size()))
        ADD_FAILURE() << what << ": element " << i << " of " << gemm::bufferName(o.buffer)
                      << " is outside its " << buf.size() << " elements";
    return i >= 0 && i < static_cast<std::int64_t>(buf.size()) ? buf[static_cast<std::size_t>(i)]
                                                               : NAN;
}

// C = alpha op(A) op(B) + beta C, column-major, as cuBLAS reads the arguments.
void referenceGemm(const GemmCall& c, RefBuffers& bufs) {
    const std::string what = gemm::describe(c);
    std::vector<double>& out = bufs[c.c.buffer];
    for (std::int64_t p = 0; p < c.batch; ++p)
        for (int j = 0; j < c.n; ++j)
            for (int i = 0; i < c.m; ++i) {
                double sum = 0.0;
                for (int l = 0; l < c.k; ++l) {
                    const double a = c.opA == Op::N ? at(bufs, c.a, p, i, l, what)
                                                    : at(bufs, c.a, p, l, i, what);
                    const double b = c.opB == Op::N ? at(bufs, c.b, p, l, j, what)
                                                    : at(bufs, c.b, p, j, l, what);
                    sum += a * b;
                }
                const std::int64_t ci =
                    c.c.offset + p * c.c.stride + static_cast<std::int64_t>(j) * c.c.ld + i;
                ASSERT_LT(ci, static_cast<std::int64_t>(out.size())) << what;
                double& dst = out[static_cast<std::size_t>(ci)];
                // beta == 0: cuBLAS does not read C (it may hold NaN).
                dst = c.alpha * sum + (c.beta == 0.0f ? 0.0 : c.beta * dst);
            }
}

// y = alpha op(A) x + beta y, A m x n column-major, increments x.ld and y.ld.
void referenceGemv(const GemvCall& c, RefBuffers& bufs) {
    const std::string what = c.what;
    const int rowsOut = c.opA == Op::N ? c.m : c.n, inner = c.opA == Op::N ? c.n : c.m;
    std::vector<double>& y = bufs[c.y.buffer];
    for (int i = 0; i < rowsOut; ++i) {
        double sum = 0.0;
        for (int l = 0; l < inner; ++l) {
            const double a =
                c.opA == Op::N ? at(bufs, c.a, 0, i, l, what) : at(bufs, c.a, 0, l, i, what);
            sum += a * at(bufs, c.x, 0, 0, l, what); // element l of x: offset + l*inc
        }
        const std::int64_t yi = c.y.offset + static_cast<std::int64_t>(i) * c.y.ld;
        ASSERT_LT(yi, static_cast<std::int64_t>(y.size())) << what;
        double& dst = y[static_cast<std::size_t>(yi)];
        dst = c.alpha * sum + (c.beta == 0.0f ? 0.0 : c.beta * dst);
    }
}

void referenceAll(const std::vector<GemmCall>& calls, RefBuffers& bufs) {
    for (const GemmCall& c : calls)
        referenceGemm(c, bufs);
}

std::vector<double> poisonedDouble(std::size_t n) {
    return std::vector<double>(n, NAN);
}

std::vector<double> lowerTriangle(const std::vector<double>& m, int T) {
    std::vector<double> r;
    for (std::size_t row = 0; row < m.size() / T; ++row)
        for (int j = 0; j <= static_cast<int>(row % T); ++j)
            r.push_back(m[row * T + j]);
    return r;
}

std::vector<float> lowerTriangle(const std::vector<float>& m, int T) {
    std::vector<float> r;
    for (std::size_t row = 0; row < m.size() / T; ++row)
        for (int j = 0; j <= static_cast<int>(row % T); ++j)
            r.push_back(m[row * T + j]);
    return r;
}

// fp32 products of up to a few thousand terms against a double reference.
constexpr double kRtol = 2e-4;

struct MatmulCase {
    const char* name;
    int N, C, OC;
};

class GemmPlanMatmul : public ::testing::TestWithParam<MatmulCase> {};

TEST_P(GemmPlanMatmul, MatchesTheCpuKernels) {
    const auto [name, N, C, OC] = GetParam();
    Rng rng(17);
    const auto inp = rng.uniform(static_cast<std::size_t>(N) * C);
    const auto weight = rng.uniform(static_cast<std::size_t>(OC) * C);
    const auto bias = rng.uniform(OC);
    const auto dout = rng.uniform(static_cast<std::size_t>(N) * OC);
    const auto dinp0 = rng.uniform(inp.size()), dweight0 = rng.uniform(weight.size()),
               dbias0 = rng.uniform(bias.size());
    CpuKernels cpu(2);

    std::vector<float> out(static_cast<std::size_t>(N) * OC);
    const auto inpF = test::toFloat(inp), weightF = test::toFloat(weight),
               biasF = test::toFloat(bias), doutF = test::toFloat(dout);
    cpu.matmulForward(out.data(), inpF.data(), weightF.data(), biasF.data(), N, C, OC);
    auto dinp = test::toFloat(dinp0), dweight = test::toFloat(dweight0),
         dbias = test::toFloat(dbias0);
    cpu.matmulBackward(dinp.data(), dweight.data(), dbias.data(), doutF.data(), inpF.data(),
                       weightF.data(), N, C, OC);

    RefBuffers ref;
    ref[Buffer::Inp] = inp;
    ref[Buffer::Weight] = weight;
    ref[Buffer::Dout] = dout;
    ref[Buffer::Dinp] = dinp0;
    ref[Buffer::Dweight] = dweight0;
    ref[Buffer::Dbias] = dbias0;
    ref[Buffer::Ones] = std::vector<double>(N, 1.0);
    // fillRowsKernel writes the bias rows first; the plan adds the product (beta 1).
    ref[Buffer::Out].resize(out.size());
    for (int r = 0; r < N; ++r)
        for (int j = 0; j < OC; ++j)
            ref[Buffer::Out][static_cast<std::size_t>(r) * OC + j] = bias[j];
    referenceGemm(gemm::matmulForwardPlan(N, C, OC, true), ref);
    referenceAll(gemm::matmulBackwardPlan(N, C, OC, true), ref);
    referenceGemv(gemm::matmulDbiasPlan(N, OC), ref);
    EXPECT_TRUE(test::closeTo(out, ref[Buffer::Out], kRtol)) << name << " out";
    EXPECT_TRUE(test::closeTo(dinp, ref[Buffer::Dinp], kRtol)) << name << " dinp";
    EXPECT_TRUE(test::closeTo(dweight, ref[Buffer::Dweight], kRtol)) << name << " dweight";
    EXPECT_TRUE(test::closeTo(dbias, ref[Buffer::Dbias], kRtol)) << name << " dbias";

    // Without a bias the plan must not read out (beta 0): NaN there stays out of the result.
    RefBuffers noBias = ref;
    noBias[Buffer::Out] = poisonedDouble(out.size());
    cpu.matmulForward(out.data(), inpF.data(), weightF.data(), nullptr, N, C, OC);
    referenceGemm(gemm::matmulForwardPlan(N, C, OC, false), noBias);
    EXPECT_TRUE(test::closeTo(out, noBias[Buffer::Out], kRtol)) << name << " out, no bias";
    // Without dinp the plan has the dweight product only.
    ASSERT_EQ(gemm::matmulBackwardPlan(N, C, OC, false).size(), 1u);
    EXPECT_EQ(gemm::matmulBackwardPlan(N, C, OC, false)[0].c.buffer, Buffer::Dweight);
}

// Small odd shapes, then gpt2-124m's four Linear layers and its LM head at C = 64 with
// the real ratios (qkv 3C, attproj C, fc 4C, fcproj 4C -> C, head Vp/C = 50304/768).
INSTANTIATE_TEST_SUITE_P(Shapes, GemmPlanMatmul,
                         ::testing::Values(MatmulCase{"tiny", 1, 1, 1}, MatmulCase{"odd", 7, 5, 3},
                                           MatmulCase{"qkv", 96, 64, 192},
                                           MatmulCase{"attproj", 96, 64, 64},
                                           MatmulCase{"fc", 96, 64, 256},
                                           MatmulCase{"fcproj", 96, 256, 64},
                                           MatmulCase{"lmhead", 64, 64, 4192}),
                         [](const auto& info) { return std::string(info.param.name); });

// Causal softmax in double, as the CUDA kernels compute it between the products.
void referenceSoftmax(std::vector<double>& att, const std::vector<double>& preatt, int T) {
    att.assign(preatt.size(), 0.0);
    for (std::size_t row = 0; row < preatt.size() / T; ++row) {
        const int i = static_cast<int>(row % T);
        const double* p = preatt.data() + row * T;
        double maxv = p[0];
        for (int j = 1; j <= i; ++j)
            maxv = std::max(maxv, p[j]);
        double sum = 0.0;
        for (int j = 0; j <= i; ++j)
            sum += std::exp(p[j] - maxv);
        for (int j = 0; j <= i; ++j)
            att[row * T + j] = std::exp(p[j] - maxv) / sum;
    }
}

void referenceSoftmaxBackward(std::vector<double>& dpreatt, const std::vector<double>& att,
                              const std::vector<double>& datt, int T) {
    dpreatt.assign(att.size(), 0.0);
    for (std::size_t row = 0; row < att.size() / T; ++row) {
        const int i = static_cast<int>(row % T);
        double dot = 0.0;
        for (int j = 0; j <= i; ++j)
            dot += att[row * T + j] * datt[row * T + j];
        for (int j = 0; j <= i; ++j)
            dpreatt[row * T + j] = att[row * T + j] * (datt[row * T + j] - dot);
    }
}

struct AttentionCase {
    const char* name;
    gemm::AttentionShape s;
};

class GemmPlanAttention : public ::testing::TestWithParam<AttentionCase> {};

TEST_P(GemmPlanAttention, MatchesTheCpuKernels) {
    const auto& [name, s] = GetParam();
    const std::size_t nQkv = static_cast<std::size_t>(s.B) * s.T * 3 * s.C;
    const std::size_t nAtt = static_cast<std::size_t>(s.B) * s.NH * s.T * s.T;
    const std::size_t nOut = static_cast<std::size_t>(s.B) * s.T * s.C;
    Rng rng(29);
    const auto qkv = rng.uniform(nQkv), dout = rng.uniform(nOut), dqkv0 = rng.uniform(nQkv);
    const auto qkvF = test::toFloat(qkv), doutF = test::toFloat(dout);
    CpuKernels cpu(2);
    std::vector<float> out = test::poisoned(nOut), preatt = test::poisoned(nAtt),
                       att = test::poisoned(nAtt);
    cpu.attentionForward(out.data(), preatt.data(), att.data(), qkvF.data(), s.B, s.T, s.C, s.NH);
    std::vector<float> dqkv = test::toFloat(dqkv0), dpreatt = test::poisoned(nAtt),
                       datt = test::poisoned(nAtt);
    cpu.attentionBackward(dqkv.data(), dpreatt.data(), datt.data(), doutF.data(), qkvF.data(),
                          att.data(), s.B, s.T, s.C, s.NH);

    RefBuffers ref;
    ref[Buffer::Qkv] = qkv;
    ref[Buffer::Preatt] = poisonedDouble(nAtt);
    ref[Buffer::Out] = poisonedDouble(nOut);
    const gemm::AttentionPlan fwd = gemm::attentionForwardPlan(s);
    ASSERT_EQ(fwd.beforeSoftmax.size(), static_cast<std::size_t>(s.B));
    referenceAll(fwd.beforeSoftmax, ref);
    referenceSoftmax(ref[Buffer::Att], ref[Buffer::Preatt], s.T);
    referenceAll(fwd.afterSoftmax, ref);
    // The CPU fills preatt only at and below the diagonal's causal blocks.
    EXPECT_TRUE(
        test::closeTo(lowerTriangle(preatt, s.T), lowerTriangle(ref[Buffer::Preatt], s.T), kRtol))
        << name << " preatt";
    EXPECT_TRUE(test::closeTo(att, ref[Buffer::Att], kRtol)) << name << " att";
    EXPECT_TRUE(test::closeTo(out, ref[Buffer::Out], kRtol)) << name << " out";

    ref[Buffer::Dout] = dout;
    ref[Buffer::Dqkv] = dqkv0;
    ref[Buffer::Datt] = poisonedDouble(nAtt);
    const gemm::AttentionPlan bwd = gemm::attentionBackwardPlan(s);
    referenceAll(bwd.beforeSoftmax, ref);
    referenceSoftmaxBackward(ref[Buffer::Dpreatt], ref[Buffer::Att], ref[Buffer::Datt], s.T);
    referenceAll(bwd.afterSoftmax, ref);
    EXPECT_TRUE(
        test::closeTo(lowerTriangle(datt, s.T), lowerTriangle(ref[Buffer::Datt], s.T), kRtol))
        << name << " datt";
    EXPECT_TRUE(test::closeTo(dqkv, ref[Buffer::Dqkv], kRtol)) << name << " dqkv";
}

// Small odd shapes, then gpt2-124m's head size 64 and a Llama-like head size 128 at
// shortened T (the reference is O(B NH T^2 hs)).
INSTANTIATE_TEST_SUITE_P(Shapes, GemmPlanAttention,
                         ::testing::Values(AttentionCase{"oneHead", {1, 3, 4, 1}},
                                           AttentionCase{"odd", {3, 5, 6, 2}},
                                           AttentionCase{"gpt2Heads", {2, 96, 192, 3}},
                                           AttentionCase{"llamaHeads", {1, 64, 256, 2}}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(GemmPlanLayernorm, ColumnSumsMatchTheCpuKernels) {
    for (const auto& [N, C] : {std::pair{1, 1}, std::pair{7, 5}, std::pair{256, 192}}) {
        Rng rng(31);
        const auto inp = rng.uniform(static_cast<std::size_t>(N) * C), weight = rng.uniform(C),
                   bias = rng.uniform(C), dout = rng.uniform(static_cast<std::size_t>(N) * C),
                   dw0 = rng.uniform(C), db0 = rng.uniform(C);
        const auto inpF = test::toFloat(inp), weightF = test::toFloat(weight),
                   biasF = test::toFloat(bias), doutF = test::toFloat(dout);
        CpuKernels cpu(2);
        std::vector<float> out(inp.size()), mean(N), rstd(N), dinp(inp.size(), 0.0f);
        cpu.layernormForward(out.data(), mean.data(), rstd.data(), inpF.data(), weightF.data(),
                             biasF.data(), N, C);
        auto dw = test::toFloat(dw0), db = test::toFloat(db0);
        cpu.layernormBackward(dinp.data(), dw.data(), db.data(), doutF.data(), inpF.data(),
                              weightF.data(), mean.data(), rstd.data(), N, C);

        RefBuffers ref;
        ref[Buffer::XhatDout].resize(inp.size());
        for (int r = 0; r < N; ++r)
            for (int c = 0; c < C; ++c) {
                const std::size_t i = static_cast<std::size_t>(r) * C + c;
                ref[Buffer::XhatDout][i] = (inp[i] - mean[r]) * rstd[r] * dout[i];
            }
        ref[Buffer::Dout] = dout;
        ref[Buffer::Ones] = std::vector<double>(N, 1.0);
        ref[Buffer::Dweight] = dw0;
        ref[Buffer::Dbias] = db0;
        for (const GemvCall& call : gemm::layernormBackwardPlan(N, C))
            referenceGemv(call, ref);
        EXPECT_TRUE(test::closeTo(dw, ref[Buffer::Dweight], kRtol)) << N << "x" << C;
        EXPECT_TRUE(test::closeTo(db, ref[Buffer::Dbias], kRtol)) << N << "x" << C;
    }
}

TEST(GemmPlanRmsnorm, ColumnSumMatchesTheCpuKernels) {
    for (const auto& [N, C] : {std::pair{1, 1}, std::pair{7, 5}, std::pair{256, 192}}) {
        Rng rng(32);
        const auto inp = rng.uniform(static_cast<std::size_t>(N) * C), weight = rng.uniform(C),
                   dout = rng.uniform(static_cast<std::size_t>(N) * C), dw0 = rng.uniform(C);
        const auto inpF = test::toFloat(inp), weightF = test::toFloat(weight),
                   doutF = test::toFloat(dout);
        CpuKernels cpu(2);
        std::vector<float> out(inp.size()), rstd(N), dinp(inp.size(), 0.0f);
        cpu.rmsnormForward(out.data(), rstd.data(), inpF.data(), weightF.data(), N, C, 1e-5f);
        auto dw = test::toFloat(dw0);
        cpu.rmsnormBackward(dinp.data(), dw.data(), doutF.data(), inpF.data(), weightF.data(),
                            rstd.data(), N, C);

        RefBuffers ref;
        ref[Buffer::XhatDout].resize(inp.size());
        for (int r = 0; r < N; ++r)
            for (int c = 0; c < C; ++c) {
                const std::size_t i = static_cast<std::size_t>(r) * C + c;
                ref[Buffer::XhatDout][i] = inp[i] * rstd[r] * dout[i];
            }
        ref[Buffer::Ones] = std::vector<double>(N, 1.0);
        ref[Buffer::Dweight] = dw0;
        referenceGemv(gemm::rmsnormBackwardPlan(N, C), ref);
        EXPECT_TRUE(test::closeTo(dw, ref[Buffer::Dweight], kRtol)) << N << "x" << C;
    }
}

// ---- Real sizes: the plans' numbers checked without executing them ----

// Element counts of an op's buffers at one shape.
using Sizes = std::array<std::int64_t, static_cast<std::size_t>(Buffer::Count)>;

// The checks every GEMM must pass at any size; raises `highest` to the last element touched.
void checkGemm(const GemmCall& c, const Sizes& sizes, std::int64_t& highest) {
    const std::string what = gemm::describe(c);
    ASSERT_GT(c.m, 0) << what;
    ASSERT_GT(c.n, 0) << what;
    ASSERT_GT(c.k, 0) << what;
    ASSERT_GE(c.batch, 1) << what;
    const std::pair<const Operand*, gemm::Extent> views[] = {
        {&c.a, gemm::extentA(c)}, {&c.b, gemm::extentB(c)}, {&c.c, gemm::extentC(c)}};
    for (const auto& [o, e] : views) {
        const std::int64_t size = sizes[static_cast<std::size_t>(o->buffer)];
        EXPECT_GE(o->ld, e.rows) << what << ": " << gemm::bufferName(o->buffer)
                                 << " has a leading dimension below its rows";
        EXPECT_GE(o->offset, 0) << what;
        EXPECT_GE(o->stride, 0) << what;
        const std::int64_t end = gemm::endElement(*o, e, c.batch);
        EXPECT_LE(end, size) << what << ": " << gemm::bufferName(o->buffer) << " read to element "
                             << end << " of " << size;
        highest = std::max(highest, end);
    }
    // Batch entries of C must not overlap: whole matrices apart, or side by side in one
    // leading dimension (the heads' columns of out and dqkv).
    if (c.batch > 1) {
        const gemm::Extent e = gemm::extentC(c);
        const bool apart = c.c.stride >= static_cast<std::int64_t>(e.cols - 1) * c.c.ld + e.rows;
        const bool sideBySide =
            c.c.stride >= e.rows &&
            static_cast<std::int64_t>(c.batch - 1) * c.c.stride + e.rows <= c.c.ld;
        EXPECT_TRUE(apart || sideBySide)
            << what << ": batch entries of " << gemm::bufferName(c.c.buffer) << " overlap";
    }
}

void checkGemv(const GemvCall& c, const Sizes& sizes) {
    EXPECT_GE(c.a.ld, c.m) << c.what;
    const std::int64_t xLen = c.opA == Op::N ? c.n : c.m, yLen = c.opA == Op::N ? c.m : c.n;
    EXPECT_LE(gemm::endElement(c.a, {c.m, c.n}, 1), sizes[static_cast<std::size_t>(c.a.buffer)])
        << c.what;
    EXPECT_LE(c.x.offset + (xLen - 1) * c.x.ld + 1, sizes[static_cast<std::size_t>(c.x.buffer)])
        << c.what;
    EXPECT_LE(c.y.offset + (yLen - 1) * c.y.ld + 1, sizes[static_cast<std::size_t>(c.y.buffer)])
        << c.what;
}

struct RealModel {
    const char* name;
    int B, T, C, NH, Vp, ffn;
};

// gpt2-124m at micro-batches 8 and 64; a Llama-8B-like shape (the Kernels interface's
// multi-head attention, SwiGLU's 14336 hidden width, vocabulary 128256).
const RealModel kRealModels[] = {
    {"gpt2-124m B8", 8, 1024, 768, 12, 50304, 3072},
    {"gpt2-124m B64", 64, 1024, 768, 12, 50304, 3072},
    {"llama-8b B1", 1, 4096, 4096, 32, 128256, 14336},
    {"llama-8b B8", 8, 4096, 4096, 32, 128256, 14336},
};

TEST(GemmPlanRealSizes, LinearLayersStayInsideTheirBuffers) {
    for (const RealModel& m : kRealModels) {
        const int N = m.B * m.T;
        for (const int OC : {3 * m.C, m.C, m.ffn, m.Vp}) {
            for (const auto& [C, out] : {std::pair{m.C, OC}, std::pair{OC, m.C}}) {
                SCOPED_TRACE(std::string(m.name) + " N=" + std::to_string(N) +
                             " C=" + std::to_string(C) + " OC=" + std::to_string(out));
                Sizes sizes{};
                const auto set = [&](Buffer b, std::int64_t n) {
                    sizes[static_cast<std::size_t>(b)] = n;
                };
                set(Buffer::Inp, std::int64_t{N} * C);
                set(Buffer::Dinp, std::int64_t{N} * C);
                set(Buffer::Weight, std::int64_t{out} * C);
                set(Buffer::Dweight, std::int64_t{out} * C);
                set(Buffer::Out, std::int64_t{N} * out);
                set(Buffer::Dout, std::int64_t{N} * out);
                set(Buffer::Dbias, out);
                set(Buffer::Ones, N);
                std::int64_t highest = 0;
                checkGemm(gemm::matmulForwardPlan(N, C, out, true), sizes, highest);
                for (const GemmCall& c : gemm::matmulBackwardPlan(N, C, out, true))
                    checkGemm(c, sizes, highest);
                checkGemv(gemm::matmulDbiasPlan(N, out), sizes);
                EXPECT_EQ(highest, std::max(std::int64_t{N} * out, std::int64_t{N} * C))
                    << "the plans must reach the last element of the largest operand";
            }
        }
        // Layernorm's column sums.
        Sizes sizes{};
        sizes[static_cast<std::size_t>(Buffer::XhatDout)] = std::int64_t{N} * m.C;
        sizes[static_cast<std::size_t>(Buffer::Dout)] = std::int64_t{N} * m.C;
        sizes[static_cast<std::size_t>(Buffer::Ones)] = N;
        sizes[static_cast<std::size_t>(Buffer::Dweight)] = m.C;
        sizes[static_cast<std::size_t>(Buffer::Dbias)] = m.C;
        for (const GemvCall& c : gemm::layernormBackwardPlan(N, m.C))
            checkGemv(c, sizes);
    }
}

TEST(GemmPlanRealSizes, AttentionStaysInsideItsBuffersPast32BitOffsets) {
    for (const RealModel& m : kRealModels) {
        SCOPED_TRACE(m.name);
        const gemm::AttentionShape s{m.B, m.T, m.C, m.NH};
        Sizes sizes{};
        const std::int64_t nQkv = std::int64_t{m.B} * m.T * 3 * m.C,
                           nAtt = std::int64_t{m.B} * m.NH * m.T * m.T,
                           nOut = std::int64_t{m.B} * m.T * m.C;
        for (const auto& [b, n] : {std::pair{Buffer::Qkv, nQkv}, std::pair{Buffer::Dqkv, nQkv},
                                   std::pair{Buffer::Preatt, nAtt}, std::pair{Buffer::Att, nAtt},
                                   std::pair{Buffer::Dpreatt, nAtt}, std::pair{Buffer::Datt, nAtt},
                                   std::pair{Buffer::Out, nOut}, std::pair{Buffer::Dout, nOut}})
            sizes[static_cast<std::size_t>(b)] = n;
        std::int64_t highest = 0;
        for (const gemm::AttentionPlan& plan :
             {gemm::attentionForwardPlan(s), gemm::attentionBackwardPlan(s)})
            for (const auto* calls : {&plan.beforeSoftmax, &plan.afterSoftmax})
                for (const GemmCall& c : *calls)
                    checkGemm(c, sizes, highest);
        // The last (b, head) reaches the end of the (B,NH,T,T) buffers exactly.
        EXPECT_EQ(highest, nAtt);
        if (nAtt > INT_MAX) {
            EXPECT_GT(gemm::attentionForwardPlan(s).beforeSoftmax.back().c.offset, INT_MAX)
                << "a 64-bit offset that an int would have wrapped";
        }
    }
}

TEST(GemmPlan, ADimensionPastIntIsAnErrorNamingIt) {
    try {
        gemm::cublasInt(std::int64_t{1} << 31, "matmulForward out^T = weight inp^T", "m");
        FAIL() << "no KernelError";
    } catch (const KernelError& e) {
        EXPECT_NE(std::string(e.what()).find("matmulForward"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("2147483648"), std::string::npos) << e.what();
    }
    EXPECT_THROW(gemm::attentionForwardPlan({1, 8, 10, 3}), KernelError);
}

} // namespace
} // namespace zerolab
