// The kernels a model's compute runs, as the step-time model prices them: the kind of
// each kernel and its work (FLOPs for matmuls and attention, elements for the rest). A
// family lists its pieces' kernels with these (family.h); a machine profile gives each
// kind a rate (planner/machine_profile.h); zerolab-calibrate measures them.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace zerolab {

// The kernels whose time the model counts, and their work unit: FLOPs for the matmuls and
// attention (step_ops.h counts them), elements for the others.
enum class OpKind : int {
    MatmulForward = 0,
    MatmulBackward,
    AttentionForward,
    AttentionBackward,
    LayernormForward,
    LayernormBackward,
    GeluForward,
    GeluBackward,
    Residual,
    EncoderForward,
    EncoderBackward,
    SoftmaxCrossEntropy,
    CrossEntropyBackward,
    Adamw,      // fp32 params
    AdamwMixed, // bf16 params with the fp32 master
    Cast,       // bf16 <-> fp32, per element
    Zero,
    Axpy, // and bf16 accumulate
    SumSquares,
    // Appended (a profile names kinds by kOpKindNames, so the order is free; appending keeps
    // the values of the kinds above): flash attention (FLOPs) and the Llama ops (elements).
    FlashAttentionForward,
    FlashAttentionBackward,
    RmsnormForward,
    RmsnormBackward,
    Rope, // forward or backward: the same rotation
    SwigluForward,
    SwigluBackward,
};
inline constexpr std::size_t kOpKindCount = 26;
inline constexpr std::array<std::string_view, kOpKindCount> kOpKindNames = {
    "matmul_forward",
    "matmul_backward",
    "attention_forward",
    "attention_backward",
    "layernorm_forward",
    "layernorm_backward",
    "gelu_forward",
    "gelu_backward",
    "residual",
    "encoder_forward",
    "encoder_backward",
    "softmax_cross_entropy",
    "cross_entropy_backward",
    "adamw",
    "adamw_mixed",
    "cast",
    "zero",
    "axpy",
    "sum_squares",
    "flash_attention_forward",
    "flash_attention_backward",
    "rmsnorm_forward",
    "rmsnorm_backward",
    "rope",
    "swiglu_forward",
    "swiglu_backward"};
inline constexpr bool opCountsFlops(OpKind k) {
    return k == OpKind::MatmulForward || k == OpKind::MatmulBackward ||
           k == OpKind::AttentionForward || k == OpKind::AttentionBackward ||
           k == OpKind::FlashAttentionForward || k == OpKind::FlashAttentionBackward;
}

struct KernelOp {
    OpKind kind = OpKind::Zero;
    double work = 0;               // FLOPs or elements (opCountsFlops)
    long long m = 0, k = 0, n = 0; // matmuls: out[m, n] = inp[m, k] weight[n, k]^T
    bool operator==(const KernelOp&) const = default;
};

// Matmul FLOPs: forward 2 m k n; backward 4 m k n (the input's and the weight's gradients).
inline KernelOp matmulOp(bool forward, long long m, long long k, long long n) {
    const double flops = (forward ? 2.0 : 4.0) * static_cast<double>(m) * k * n;
    return {forward ? OpKind::MatmulForward : OpKind::MatmulBackward, flops, m, k, n};
}

inline KernelOp elementsOp(OpKind kind, double n) {
    return {kind, n};
}

} // namespace zerolab
