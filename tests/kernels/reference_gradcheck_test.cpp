// Checks every backward of the double reference (reference_ops.h) against
// central finite differences of a scalar loss L = sum(R * out) with random R,
// so that the reference the fp32 kernels are judged by is itself proven.
#include "tests/kernels/gradcheck.h"
#include "tests/kernels/reference_ops.h"
#include "tests/kernels/test_util.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

using test::dot;
using test::expectGradient;
using test::Rng;
using Vec = std::vector<double>;

TEST(ReferenceGradcheck, Encoder) {
    const int B = 2, T = 3, C = 4, Vp = 5;
    Rng rng(1);
    Vec wte = rng.uniform(Vp * C), wpe = rng.uniform(T * C), r = rng.uniform(B * T * C);
    const std::vector<int> inp = {0, 3, 3, 4, 1, 3}; // repeated tokens exercise the scatter-add
    Vec out(B * T * C);
    auto loss = [&] {
        ref::encoderForward(out.data(), inp.data(), wte.data(), wpe.data(), B, T, C);
        return dot(out, r);
    };
    Vec dwte(wte.size()), dwpe(wpe.size());
    ref::encoderBackward(dwte.data(), dwpe.data(), r.data(), inp.data(), B, T, C);
    expectGradient("dwte", wte, dwte, loss);
    expectGradient("dwpe", wpe, dwpe, loss);
}

TEST(ReferenceGradcheck, Layernorm) {
    const int N = 3, C = 5;
    Rng rng(2);
    Vec inp = rng.uniform(N * C, -2, 2), w = rng.uniform(C), b = rng.uniform(C),
        r = rng.uniform(N * C);
    Vec out(N * C), mean(N), rstd(N);
    auto loss = [&] {
        ref::layernormForward(out.data(), mean.data(), rstd.data(), inp.data(), w.data(), b.data(),
                              N, C);
        return dot(out, r);
    };
    loss();
    Vec dinp(inp.size()), dw(C), db(C);
    ref::layernormBackward(dinp.data(), dw.data(), db.data(), r.data(), inp.data(), w.data(),
                           mean.data(), rstd.data(), N, C);
    expectGradient("dinp", inp, dinp, loss);
    expectGradient("dweight", w, dw, loss);
    expectGradient("dbias", b, db, loss);
}

TEST(ReferenceGradcheck, Matmul) {
    const int N = 3, C = 4, OC = 5;
    Rng rng(3);
    Vec inp = rng.uniform(N * C), w = rng.uniform(OC * C), bias = rng.uniform(OC),
        r = rng.uniform(N * OC);
    Vec out(N * OC);
    auto loss = [&] {
        ref::matmulForward(out.data(), inp.data(), w.data(), bias.data(), N, C, OC);
        return dot(out, r);
    };
    Vec dinp(inp.size()), dw(w.size()), db(OC);
    ref::matmulBackward(dinp.data(), dw.data(), db.data(), r.data(), inp.data(), w.data(), N, C,
                        OC);
    expectGradient("dinp", inp, dinp, loss);
    expectGradient("dweight", w, dw, loss);
    expectGradient("dbias", bias, db, loss);
}

TEST(ReferenceGradcheck, Attention) {
    const int B = 2, T = 4, C = 6, NH = 2;
    Rng rng(4);
    Vec qkv = rng.uniform(B * T * 3 * C, -2, 2), r = rng.uniform(B * T * C);
    Vec out(B * T * C), preatt(B * NH * T * T), att(B * NH * T * T);
    auto loss = [&] {
        ref::attentionForward(out.data(), preatt.data(), att.data(), qkv.data(), B, T, C, NH);
        return dot(out, r);
    };
    loss();
    Vec dqkv(qkv.size());
    ref::attentionBackward(dqkv.data(), r.data(), qkv.data(), att.data(), B, T, C, NH);
    expectGradient("dqkv", qkv, dqkv, loss);
}

TEST(ReferenceGradcheck, Gelu) {
    const std::size_t n = 41;
    Rng rng(5);
    Vec inp = rng.uniform(n, -5, 5), r = rng.uniform(n);
    Vec out(n);
    auto loss = [&] {
        ref::geluForward(out.data(), inp.data(), n);
        return dot(out, r);
    };
    Vec dinp(n);
    ref::geluBackward(dinp.data(), inp.data(), r.data(), n);
    expectGradient("dinp", inp, dinp, loss);
}

TEST(ReferenceGradcheck, Residual) {
    const std::size_t n = 7;
    Rng rng(6);
    Vec a = rng.uniform(n), b = rng.uniform(n), r = rng.uniform(n);
    Vec out(n);
    auto loss = [&] {
        ref::residualForward(out.data(), a.data(), b.data(), n);
        return dot(out, r);
    };
    Vec da(n), db(n);
    ref::residualBackward(da.data(), db.data(), r.data(), n);
    expectGradient("da", a, da, loss);
    expectGradient("db", b, db, loss);
}

TEST(ReferenceGradcheck, SoftmaxCrossEntropy) {
    const int B = 2, T = 3, V = 5, Vp = 8;
    Rng rng(7);
    Vec logits = rng.uniform(B * T * Vp, -3, 3), r = rng.uniform(B * T);
    const std::vector<int> targets = rng.integers(B * T, 0, V);
    Vec losses(B * T), probs(B * T * Vp);
    auto loss = [&] {
        ref::softmaxCrossEntropyForward(losses.data(), probs.data(), logits.data(), targets.data(),
                                        B, T, V, Vp);
        return dot(losses, r);
    };
    loss();
    Vec dlogits(logits.size());
    ref::crossEntropySoftmaxBackward(dlogits.data(), r.data(), probs.data(), targets.data(), B, T,
                                     V, Vp);
    expectGradient("dlogits", logits, dlogits, loss);
}

} // namespace
} // namespace zerolab
