#!/usr/bin/env python3
"""A lint of the CUDA hot path: what a synchronous CPU run cannot show.

Over the CUDA sources (kernels/cuda, the NCCL communicator, the CUDA train backend):
  - no cudaMemcpy(, cudaMemset(, cudaDeviceSynchronize or cudaStreamSynchronize
    outside the named places of ALLOWED below, each with its reason. The first two run
    on the legacy default stream, which the ranks' non-blocking streams do not wait for
    (and return before a pageable copy lands); the last two stall the host;
  - every kernel launch <<<grid, block, shared, stream>>> gives all four arguments,
    the fourth the rank's stream (m_stream), never the default stream;
  - no 32-bit index built from blockIdx (int/unsigned x = ...blockIdx...): grid-wide
    indices pass 2^31 at real sizes (logits B*T*Vp, attention B*NH*T*T) and must be
    64-bit (cuda::globalIndex(), cuda::warpRow());
  - every ALLOWED entry is still used (a stale entry fails: the list stays the truth).
A place is a file and the function whose body holds the call. Comments are ignored.
Exit 0 when clean, 1 naming each finding with file:line. Usage: check_cuda_lint.py SOURCE_DIR
"""
import glob
import os
import re
import sys

SOURCES = ["kernels/cuda/*.cu", "kernels/cuda/*.cpp", "kernels/cuda/*.h", "kernels/cuda/*.cuh",
           "runtime/comm/comm_nccl*.cpp", "runtime/comm/comm_nccl*.h",
           "runtime/train/*cuda*.cpp"]

FORBIDDEN = ["cudaMemcpy(", "cudaMemset(", "cudaDeviceSynchronize", "cudaStreamSynchronize"]

RANK_STREAMS = {"m_stream"}

# (file, function, call) -> why it is allowed there.
ALLOWED = {
    ("kernels/cuda/cuda_kernels.cpp", "CudaKernels::~CudaKernels", "cudaStreamSynchronize"):
        "teardown: queued work must finish before its buffers are freed",
    ("kernels/cuda/cuda_kernels.cpp", "CudaKernels::copyToDevice", "cudaStreamSynchronize"):
        "the interface's contract: the host buffer is free again on return",
    ("kernels/cuda/cuda_kernels.cpp", "CudaKernels::copyToHost", "cudaStreamSynchronize"):
        "the interface's contract: the host buffer is filled on return",
    ("kernels/cuda/cuda_kernels.cpp", "CudaKernels::synchronize", "cudaStreamSynchronize"):
        "the interface's explicit wait",
    ("kernels/cuda/cuda_kernels.cpp", "growDevice", "cudaStreamSynchronize"):
        "scratch growth only (first use of a size): a queued kernel may still read the old buffer",
    ("kernels/cuda/cross_entropy.cu", "CudaKernels::checkTargets", "cudaStreamSynchronize"):
        "the target check's flag read-back (2 a micro-step; issue 38 item 5 wants it gone)",
    ("kernels/cuda/cross_entropy.cu", "CudaKernels::checkTargets", "cudaMemcpy("):
        "error path only: after the synchronised flag showed a bad target, reads it for the message",
    ("kernels/cuda/vector_ops.cu", "CudaKernels::finishSumSquares", "cudaStreamSynchronize"):
        "sumSquares returns a value to the host (clipping norm; issue 38 item 5 wants one a step)",
    ("runtime/comm/comm_nccl.cpp", "NcclCommunicator::~NcclCommunicator",
     "cudaStreamSynchronize"):
        "teardown: the shared stream's collectives finish before the communicator is destroyed",
}


def strip_comments(text):
    """Blanks comments and string literals, keeping line numbers and columns."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('"' + " " * (j - i - 1) + '"')
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


FUNCTION_START = re.compile(r"^(?!\s)(?!template\b|namespace\b|class\b|struct\b|enum\b|using\b|#)"
                            r".*?([\w:~]+)\s*\(")


def enclosing_functions(lines):
    """For each line, the name of the function whose definition most recently started
    at column 0 (this code base's definitions do, inside its namespaces)."""
    names, current = [], ""
    for line in lines:
        m = FUNCTION_START.match(line)
        if m and not line.rstrip().endswith(";"):
            current = m.group(1)
        names.append(current)
    return names


NARROW_INDEX = re.compile(r"\b(?:int|unsigned|int32_t|uint32_t)\s+\w+\s*=[^;]*\bblockIdx\b[^;]*;")


def launch_args(text, start):
    """The top-level comma-separated arguments between <<< at `start` and its >>>."""
    i = start + 3
    depth, args, cur = 0, [], []
    while i < len(text):
        if text.startswith(">>>", i) and depth == 0:
            args.append("".join(cur).strip())
            return args, i
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    return None, i


def lint(root, allowed):
    """(findings, allowed places used, files, launches) for the tree at `root`."""
    files = sorted({p for pat in SOURCES for p in glob.glob(os.path.join(root, pat))})
    findings, used, launches = [], set(), 0
    for path in files:
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as f:
            text = strip_comments(f.read())
        lines = text.split("\n")
        funcs = enclosing_functions(lines)
        for lineno, line in enumerate(lines, 1):
            for call in FORBIDDEN:
                if call in line:
                    key = (rel, funcs[lineno - 1], call)
                    if key in allowed:
                        used.add(key)
                    else:
                        findings.append(f"{rel}:{lineno}: {call} in {funcs[lineno - 1] or '?'}, "
                                        "not an allowed place (use the stream's async call, or "
                                        "add the place to ALLOWED with its reason)")
        for m in NARROW_INDEX.finditer(text):
            lineno = text.count("\n", 0, m.start()) + 1
            findings.append(f"{rel}:{lineno}: '{m.group(0).strip()}': a grid-wide index in "
                            "32 bits (use std::size_t: cuda::globalIndex(), cuda::warpRow())")
        for m in re.finditer(r"<<<", text):
            launches += 1
            lineno = text.count("\n", 0, m.start()) + 1
            args, _ = launch_args(text, m.start())
            if args is None:
                findings.append(f"{rel}:{lineno}: a <<< without its >>>")
            elif len(args) != 4:
                findings.append(f"{rel}:{lineno}: launch <<<{', '.join(args)}>>> gives "
                                f"{len(args)} arguments; the 4th must be the rank's stream")
            elif args[3] not in RANK_STREAMS:
                findings.append(f"{rel}:{lineno}: launch on stream '{args[3]}', not the rank's "
                                f"stream ({', '.join(sorted(RANK_STREAMS))})")
    for key in sorted(set(allowed) - used):
        findings.append(f"{key[0]}: ALLOWED names {key[2]} in {key[1]}, which no longer has "
                        "it: remove the entry")
    return findings, used, files, launches


# A tree with one of each fault, and one allowed call: the lint must name exactly these.
SELF_TEST = {
    "kernels/cuda/bad.cu": """
// cudaMemcpy( in a comment is fine
void CudaKernels::good() {
    k<<<g.blocks, g.threads, 0, m_stream>>>(x);
    cudaStreamSynchronize(m_stream);
}
void CudaKernels::bad(float* p) {
    cudaMemset(p, 0, 4);
    k<<<1, 256>>>(p);
    k<<<grid(a, b), 256, 0, 0>>>(p);
    cudaDeviceSynchronize();
    const int row = blockIdx.x * 8 + threadIdx.x / 32;
}
""",
}
SELF_TEST_ALLOWED = {
    ("kernels/cuda/bad.cu", "CudaKernels::good", "cudaStreamSynchronize"): "self-test",
    ("kernels/cuda/bad.cu", "CudaKernels::gone", "cudaMemcpy("): "self-test: stale",
}
SELF_TEST_EXPECTED = ["bad.cu:8: cudaMemset(", "bad.cu:9: launch <<<1, 256>>>",
                      "bad.cu:10: launch on stream '0'", "bad.cu:11: cudaDeviceSynchronize",
                      "bad.cu:12: 'int row", "CudaKernels::gone, which no longer"]


def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        for rel, text in SELF_TEST.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        findings, _, _, _ = lint(root, SELF_TEST_ALLOWED)
    missing = [e for e in SELF_TEST_EXPECTED if not any(e in f for f in findings)]
    if missing or len(findings) != len(SELF_TEST_EXPECTED):
        print("FAIL: the lint's self-test: expected findings " + repr(SELF_TEST_EXPECTED) +
              ", got " + repr(findings))
        return False
    return True


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    root = sys.argv[1]
    if not self_test():
        return 1
    findings, used, files, launches = lint(root, ALLOWED)
    if not files:
        print(f"FAIL: no CUDA sources under {root}")
        return 1
    print(f"{len(files)} files, {launches} kernel launches, {len(used)} allowed places in use")
    for key in sorted(used):
        print(f"  allowed: {key[0]} {key[1]}: {key[2]} -- {ALLOWED[key]}")
    for f in findings:
        print("FAIL: " + f)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
