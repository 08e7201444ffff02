// The model's kernels per compute piece (step_ops.h), in gpt2.cpp's order.
#include "runtime/planner/step_ops.h"

namespace zerolab {

namespace {

KernelOp matmul(bool forward, long long m, long long k, long long n) {
    const double flops = (forward ? 2.0 : 4.0) * static_cast<double>(m) * k * n;
    return {forward ? OpKind::MatmulForward : OpKind::MatmulBackward, flops, m, k, n};
}

KernelOp elems(OpKind kind, double n) {
    return {kind, n};
}

} // namespace

std::vector<KernelOp> modelComputeOps(ModelCompute c, const ModelShape& s, int B, int T,
                                      Recompute recompute) {
    const long long N = static_cast<long long>(B) * T, C = s.n_embd, Vp = s.padded_vocab_size;
    const double btc = static_cast<double>(N) * C, logits = static_cast<double>(N) * Vp;
    const double att = 2.0 * B * static_cast<double>(T) * T * C;
    using K = OpKind;
    switch (c) {
    case ModelCompute::None:
        return {};
    case ModelCompute::EncoderForward:
        return {elems(K::EncoderForward, btc)};
    case ModelCompute::BlockForward:
        return {elems(K::LayernormForward, btc), matmul(true, N, C, 3 * C),
                {K::AttentionForward, att},      matmul(true, N, C, C),
                elems(K::Residual, btc),         elems(K::LayernormForward, btc),
                matmul(true, N, C, 4 * C),       elems(K::GeluForward, 4 * btc),
                matmul(true, N, 4 * C, C),       elems(K::Residual, btc)};
    case ModelCompute::BlockRecompute:
        if (recompute == Recompute::Selective)
            return {elems(K::LayernormForward, btc), elems(K::LayernormForward, btc),
                    elems(K::GeluForward, 4 * btc)};
        if (recompute == Recompute::None)
            return {};
        return {elems(K::LayernormForward, btc), matmul(true, N, C, 3 * C),
                {K::AttentionForward, att},      matmul(true, N, C, C),
                elems(K::Residual, btc),         elems(K::LayernormForward, btc),
                matmul(true, N, C, 4 * C),       elems(K::GeluForward, 4 * btc)};
    case ModelCompute::FinalNormForward:
        return {elems(K::LayernormForward, btc)};
    case ModelCompute::HeadForward:
        return {matmul(true, N, C, Vp), elems(K::SoftmaxCrossEntropy, logits)};
    case ModelCompute::HeadBackward:
        return {elems(K::Zero, logits), elems(K::CrossEntropyBackward, logits), elems(K::Zero, btc),
                matmul(false, N, C, Vp)};
    case ModelCompute::FinalNormBackward:
        return {elems(K::Zero, btc), elems(K::LayernormBackward, btc)};
    case ModelCompute::BlockBackward:
        return {elems(K::Zero, 4 * btc),
                matmul(false, N, 4 * C, C),
                elems(K::Zero, 4 * btc),
                elems(K::GeluBackward, 4 * btc),
                elems(K::Zero, btc),
                matmul(false, N, C, 4 * C),
                elems(K::LayernormBackward, btc),
                elems(K::Zero, btc),
                matmul(false, N, C, C),
                elems(K::Zero, 3 * btc),
                {K::AttentionBackward, 2 * att},
                elems(K::Zero, btc),
                matmul(false, N, C, 3 * C),
                elems(K::LayernormBackward, btc)};
    case ModelCompute::EncoderBackward:
        return {elems(K::EncoderBackward, btc)};
    }
    return {};
}

std::vector<KernelOp> modelMatmuls(const ModelShape& s, int B, int T) {
    const long long N = static_cast<long long>(B) * T, C = s.n_embd;
    return {matmul(true, N, C, 3 * C), matmul(true, N, C, C), matmul(true, N, C, 4 * C),
            matmul(true, N, 4 * C, C), matmul(true, N, C, s.padded_vocab_size)};
}

double opsSeconds(const std::vector<KernelOp>& ops, const MachineProfile& profile) {
    double s = 0;
    for (const KernelOp& op : ops)
        s += op.work / opRate(profile, op.kind, op.m, op.k, op.n);
    return s;
}

} // namespace zerolab
