// The cuBLAS argument plans (gemm_plan.h). Every number is computed in 64 bits and
// narrowed to cuBLAS' int through cublasInt, so a shape past int range is an error
// naming the call rather than a wrapped dimension.
#include "kernels/gemm_plan.h"

#include "kernels/kernels.h"

#include <climits>
#include <cmath>

namespace zerolab::gemm {

const char* bufferName(Buffer b) {
    switch (b) {
    case Buffer::Inp:
        return "inp";
    case Buffer::Weight:
        return "weight";
    case Buffer::Out:
        return "out";
    case Buffer::Dinp:
        return "dinp";
    case Buffer::Dweight:
        return "dweight";
    case Buffer::Dbias:
        return "dbias";
    case Buffer::Dout:
        return "dout";
    case Buffer::Qkv:
        return "qkv";
    case Buffer::Preatt:
        return "preatt";
    case Buffer::Att:
        return "att";
    case Buffer::Dqkv:
        return "dqkv";
    case Buffer::Dpreatt:
        return "dpreatt";
    case Buffer::Datt:
        return "datt";
    case Buffer::XhatDout:
        return "xhatDout";
    case Buffer::Ones:
        return "ones";
    case Buffer::Count:
        break;
    }
    return "?";
}

int cublasInt(std::int64_t v, const char* what, const char* arg) {
    if (v < 0 || v > INT_MAX)
        throw KernelError(std::string("cuBLAS plan ") + what + ": " + arg + " = " +
                          std::to_string(v) + " does not fit cuBLAS' int argument (0 to " +
                          std::to_string(INT_MAX) + ")");
    return static_cast<int>(v);
}

std::string describe(const GemmCall& c) {
    return std::string(c.what) + " (b=" + std::to_string(c.row) + ")";
}

Extent extentA(const GemmCall& c) {
    return c.opA == Op::N ? Extent{c.m, c.k} : Extent{c.k, c.m};
}

Extent extentB(const GemmCall& c) {
    return c.opB == Op::N ? Extent{c.k, c.n} : Extent{c.n, c.k};
}

Extent extentC(const GemmCall& c) {
    return {c.m, c.n};
}

std::int64_t endElement(const Operand& o, Extent e, int batch) {
    if (e.rows <= 0 || e.cols <= 0 || batch <= 0)
        return 0;
    return o.offset + static_cast<std::int64_t>(batch - 1) * o.stride +
           static_cast<std::int64_t>(e.cols - 1) * o.ld + e.rows;
}

namespace {

Operand view(Buffer b, std::int64_t offset, std::int64_t ld, std::int64_t stride,
             const char* what) {
    return {b, offset, cublasInt(ld, what, "a leading dimension"), stride};
}

} // namespace

GemmCall matmulForwardPlan(int N, int C, int OC, bool bias) {
    // out^T(OC,N) = weight(OC,C) inp^T(C,N): the stored weight is column-major weight^T.
    const char* what = "matmulForward out^T = weight inp^T";
    GemmCall g{what,
               0,
               Op::T,
               Op::N,
               OC,
               N,
               C,
               1.0f,
               view(Buffer::Weight, 0, C, 0, what),
               view(Buffer::Inp, 0, C, 0, what),
               bias ? 1.0f : 0.0f,
               view(Buffer::Out, 0, OC, 0, what),
               1};
    return g;
}

std::vector<GemmCall> matmulBackwardPlan(int N, int C, int OC, bool withDinp) {
    std::vector<GemmCall> calls;
    if (withDinp) {
        // dinp^T(C,N) += weight^T(C,OC) dout^T(OC,N).
        const char* what = "matmulBackward dinp^T += weight^T dout^T";
        calls.push_back({what, 0, Op::N, Op::N, C, N, OC, 1.0f, view(Buffer::Weight, 0, C, 0, what),
                         view(Buffer::Dout, 0, OC, 0, what), 1.0f,
                         view(Buffer::Dinp, 0, C, 0, what), 1});
    }
    // dweight^T(C,OC) += inp^T(C,N) dout(N,OC).
    const char* what = "matmulBackward dweight^T += inp^T dout";
    calls.push_back({what, 0, Op::N, Op::T, C, OC, N, 1.0f, view(Buffer::Inp, 0, C, 0, what),
                     view(Buffer::Dout, 0, OC, 0, what), 1.0f, view(Buffer::Dweight, 0, C, 0, what),
                     1});
    return calls;
}

GemvCall matmulDbiasPlan(int N, int OC) {
    // dbias(OC) += dout^T(OC,N) ones(N): the row-major dout is column-major (OC,N).
    const char* what = "matmulBackward dbias += dout^T ones";
    return {what,
            Op::N,
            OC,
            N,
            1.0f,
            view(Buffer::Dout, 0, OC, 0, what),
            view(Buffer::Ones, 0, 1, 0, what),
            1.0f,
            view(Buffer::Dbias, 0, 1, 0, what)};
}

namespace {

struct AttnDims {
    std::int64_t T, C, C3, hs, TT, NH;
    float scale;
};

AttnDims attnDims(const AttentionShape& s, const char* op) {
    if (s.NH < 1 || s.C % s.NH != 0)
        throw KernelError(std::string(op) + ": channels C=" + std::to_string(s.C) +
                          " must be a positive multiple of heads NH=" + std::to_string(s.NH));
    const std::int64_t hs = s.C / s.NH;
    return {s.T,
            s.C,
            3 * static_cast<std::int64_t>(s.C),
            hs,
            static_cast<std::int64_t>(s.T) * s.T,
            s.NH,
            1.0f / std::sqrt(static_cast<float>(hs))};
}

// Per (b, h), row-major: q, k, v are (T,hs) views with row stride 3C at head offset h*hs
// (batch stride hs over the heads); preatt, att are (T,T) (batch stride T*T). In cuBLAS'
// column-major terms each view is its transpose.
GemmCall headsCall(const char* what, std::int64_t b, Op opA, Op opB, const AttnDims& d, int m,
                   int n, int k, float alpha, Operand a, Operand bOp, float beta, Operand c) {
    return {what,
            static_cast<int>(b),
            opA,
            opB,
            m,
            n,
            k,
            alpha,
            a,
            bOp,
            beta,
            c,
            cublasInt(d.NH, what, "the batch count (heads)")};
}

} // namespace

AttentionPlan attentionForwardPlan(const AttentionShape& s) {
    const AttnDims d = attnDims(s, "attentionForward");
    const char* scores = "attentionForward preatt^T = scale k q^T";
    const char* values = "attentionForward out^T = v^T att^T";
    const int T = cublasInt(d.T, scores, "T"), hs = cublasInt(d.hs, scores, "hs");
    AttentionPlan plan;
    plan.beforeSoftmax.reserve(static_cast<std::size_t>(s.B));
    plan.afterSoftmax.reserve(static_cast<std::size_t>(s.B));
    for (std::int64_t b = 0; b < s.B; ++b) {
        const std::int64_t qkvOff = b * d.T * d.C3, attOff = b * d.NH * d.TT,
                           outOff = b * d.T * d.C;
        // preatt^T(T,T) = scale k(T,hs) q^T(hs,T).
        plan.beforeSoftmax.push_back(headsCall(scores, b, Op::T, Op::N, d, T, T, hs, d.scale,
                                               view(Buffer::Qkv, qkvOff + d.C, d.C3, d.hs, scores),
                                               view(Buffer::Qkv, qkvOff, d.C3, d.hs, scores), 0.0f,
                                               view(Buffer::Preatt, attOff, d.T, d.TT, scores)));
        // out^T(hs,T) = v^T(hs,T) att^T(T,T).
        plan.afterSoftmax.push_back(
            headsCall(values, b, Op::N, Op::N, d, hs, T, T, 1.0f,
                      view(Buffer::Qkv, qkvOff + 2 * d.C, d.C3, d.hs, values),
                      view(Buffer::Att, attOff, d.T, d.TT, values), 0.0f,
                      view(Buffer::Out, outOff, d.C, d.hs, values)));
    }
    return plan;
}

AttentionPlan attentionBackwardPlan(const AttentionShape& s) {
    const AttnDims d = attnDims(s, "attentionBackward");
    const char* datt = "attentionBackward datt^T = v dout^T";
    const char* dv = "attentionBackward dv^T += dout^T att";
    const char* dq = "attentionBackward dq^T += scale k^T dpreatt^T";
    const char* dk = "attentionBackward dk^T += scale q^T dpreatt";
    const int T = cublasInt(d.T, datt, "T"), hs = cublasInt(d.hs, datt, "hs");
    AttentionPlan plan;
    plan.beforeSoftmax.reserve(2 * static_cast<std::size_t>(s.B));
    plan.afterSoftmax.reserve(2 * static_cast<std::size_t>(s.B));
    for (std::int64_t b = 0; b < s.B; ++b) {
        const std::int64_t qkvOff = b * d.T * d.C3, attOff = b * d.NH * d.TT,
                           outOff = b * d.T * d.C;
        // datt^T(T,T) = v(T,hs) dout^T(hs,T).
        plan.beforeSoftmax.push_back(
            headsCall(datt, b, Op::T, Op::N, d, T, T, hs, 1.0f,
                      view(Buffer::Qkv, qkvOff + 2 * d.C, d.C3, d.hs, datt),
                      view(Buffer::Dout, outOff, d.C, d.hs, datt), 0.0f,
                      view(Buffer::Datt, attOff, d.T, d.TT, datt)));
        // dv^T(hs,T) += dout^T(hs,T) att(T,T).
        plan.beforeSoftmax.push_back(headsCall(
            dv, b, Op::N, Op::T, d, hs, T, T, 1.0f, view(Buffer::Dout, outOff, d.C, d.hs, dv),
            view(Buffer::Att, attOff, d.T, d.TT, dv), 1.0f,
            view(Buffer::Dqkv, qkvOff + 2 * d.C, d.C3, d.hs, dv)));
        // dq^T(hs,T) += scale k^T(hs,T) dpreatt^T(T,T).
        plan.afterSoftmax.push_back(headsCall(dq, b, Op::N, Op::N, d, hs, T, T, d.scale,
                                              view(Buffer::Qkv, qkvOff + d.C, d.C3, d.hs, dq),
                                              view(Buffer::Dpreatt, attOff, d.T, d.TT, dq), 1.0f,
                                              view(Buffer::Dqkv, qkvOff, d.C3, d.hs, dq)));
        // dk^T(hs,T) += scale q^T(hs,T) dpreatt(T,T).
        plan.afterSoftmax.push_back(headsCall(dk, b, Op::N, Op::T, d, hs, T, T, d.scale,
                                              view(Buffer::Qkv, qkvOff, d.C3, d.hs, dk),
                                              view(Buffer::Dpreatt, attOff, d.T, d.TT, dk), 1.0f,
                                              view(Buffer::Dqkv, qkvOff + d.C, d.C3, d.hs, dk)));
    }
    return plan;
}

std::vector<GemvCall> layernormBackwardPlan(int N, int C) {
    // Row-major (N,C) is column-major (C,N) with leading dimension C: y(C) += A ones(N).
    const char* dw = "layernormBackward dweight += xhatDout^T ones";
    const char* db = "layernormBackward dbias += dout^T ones";
    return {{dw, Op::N, C, N, 1.0f, view(Buffer::XhatDout, 0, C, 0, dw),
             view(Buffer::Ones, 0, 1, 0, dw), 1.0f, view(Buffer::Dweight, 0, 1, 0, dw)},
            {db, Op::N, C, N, 1.0f, view(Buffer::Dout, 0, C, 0, db),
             view(Buffer::Ones, 0, 1, 0, db), 1.0f, view(Buffer::Dbias, 0, 1, 0, db)}};
}

GemvCall rmsnormBackwardPlan(int N, int C) {
    // Row-major (N,C) is column-major (C,N) with leading dimension C: y(C) += A ones(N).
    const char* dw = "rmsnormBackward dweight += xhatDout^T ones";
    return {dw,
            Op::N,
            C,
            N,
            1.0f,
            view(Buffer::XhatDout, 0, C, 0, dw),
            view(Buffer::Ones, 0, 1, 0, dw),
            1.0f,
            view(Buffer::Dweight, 0, 1, 0, dw)};
}

} // namespace zerolab::gemm
