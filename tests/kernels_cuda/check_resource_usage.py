#!/usr/bin/env python3
"""Checks ptxas' resource report of every CUDA kernel in kernels/cuda (sm_90).

The reports are written at build time by kernels/cuda/CMakeLists.txt (nvcc -cubin
--resource-usage, one file per .cu under build/kernels/cuda/resource-usage). For each
__global__ kernel found in the sources this checks, without a GPU:
  - it carries __launch_bounds__(B): the most threads a block it is launched with;
  - registers x B fit the 65536 registers of a block (an SM's file on sm_90), so a
    launch with B threads cannot fail for lack of registers;
  - no spill stores or loads (local memory traffic in the hot loop), and no stack frame;
  - static shared memory within the 48 KiB a block gets without opting in;
  - it appears in the report (a kernel missing there means the report went stale).
A self-test on a planted source and report (one fault of each kind) runs first, so the
check cannot pass by finding nothing. Exit 0 when all hold, 1 naming each failure, 77 (ctest SKIP) when there are no
reports (a CPU-only build: no nvcc or NCCL).
Usage: check_resource_usage.py REPORT_DIR SOURCE_DIR
"""
import glob
import os
import re
import sys

REGISTERS_PER_BLOCK = 65536
MAX_REGISTERS_PER_THREAD = 255
STATIC_SHARED_LIMIT = 48 * 1024


def constants(source_dir):
    """int constants named in __launch_bounds__, from constexpr definitions in kernels/."""
    values = {}
    paths = glob.glob(os.path.join(source_dir, "kernels", "*.h")) + glob.glob(
        os.path.join(source_dir, "kernels", "cuda", "*"))
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for m in re.finditer(r"constexpr\s+int\s+(\w+)\s*=\s*(\d+)\s*;", f.read()):
                values[m.group(1)] = int(m.group(2))
    return values


def kernels(source_dir):
    """(file stem, kernel name, launch bound or None, raw bound text) per __global__."""
    consts = constants(source_dir)
    found = []
    for path in sorted(glob.glob(os.path.join(source_dir, "kernels", "cuda", "*.cu"))):
        stem = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r"__global__\s+void\s+(?:__launch_bounds__\(([^)]*)\)\s+)?(\w+)\s*\(",
                             text):
            raw, name = m.group(1), m.group(2)
            bound = None
            if raw is not None:
                first = raw.split(",")[0].strip()
                key = first.split("::")[-1]
                bound = int(first) if first.isdigit() else consts.get(key)
            found.append((stem, name, bound, raw))
    return found


def parse_report(path):
    """mangled name -> dict(registers, spill_stores, spill_loads, stack, smem)."""
    functions = {}
    current = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.search(r"Function properties for (\S+)", line)
            if m:
                current = functions.setdefault(m.group(1), {})
                continue
            m = re.search(r"Compiling entry function '([^']+)'", line)
            if m:
                current = functions.setdefault(m.group(1), {})
                continue
            if current is None:
                continue
            m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
                          line)
            if m:
                current["stack"], current["spill_stores"], current["spill_loads"] = map(
                    int, m.groups())
            m = re.search(r"Used (\d+) registers", line)
            if m:
                current["registers"] = int(m.group(1))
                s = re.search(r"(\d+) bytes smem", line)
                current["smem"] = int(s.group(1)) if s else 0
    return functions


def check(report_dir, source_dir):
    """(failures, rows) over the reports in report_dir and the kernels of source_dir."""
    reports = sorted(glob.glob(os.path.join(report_dir, "*.sm_90.txt")))
    by_stem = {os.path.basename(r).split(".")[0]: parse_report(r) for r in reports}
    failures = []
    rows = []
    for stem, name, bound, raw in kernels(source_dir):
        where = f"kernels/cuda/{stem}.cu: {name}"
        if raw is None:
            failures.append(f"{where}: no __launch_bounds__ (every kernel states the most "
                            "threads a block it is launched with)")
            continue
        if bound is None:
            failures.append(f"{where}: __launch_bounds__({raw}) names no integer constant "
                            "this check can resolve")
            continue
        report = by_stem.get(stem)
        if report is None:
            failures.append(f"{where}: no resource report {stem}.sm_90.txt in {report_dir}")
            continue
        # Mangled names carry the identifier with its length: 19causalSoftmaxKernel.
        token = f"{len(name)}{name}"
        entries = {k: v for k, v in report.items() if token in k and "registers" in v}
        if not entries:
            failures.append(f"{where}: not in {stem}.sm_90.txt (stale report?)")
            continue
        for mangled, r in sorted(entries.items()):
            instance = name if len(entries) == 1 else f"{name} [{mangled}]"
            rows.append((stem, instance, bound, r))
            w = f"kernels/cuda/{stem}.cu: {instance}"
            if r["registers"] * bound > REGISTERS_PER_BLOCK:
                failures.append(f"{w}: {r['registers']} registers x {bound} threads = "
                                f"{r['registers'] * bound} > {REGISTERS_PER_BLOCK}")
            if r["registers"] > MAX_REGISTERS_PER_THREAD:
                failures.append(f"{w}: {r['registers']} registers a thread")
            if r.get("spill_stores", 0) or r.get("spill_loads", 0):
                failures.append(f"{w}: spills {r['spill_stores']} bytes stored, "
                                f"{r['spill_loads']} bytes loaded (local memory)")
            if r.get("stack", 0):
                failures.append(f"{w}: {r['stack']} bytes of stack frame (local memory)")
            if r.get("smem", 0) > STATIC_SHARED_LIMIT:
                failures.append(f"{w}: {r['smem']} bytes of static shared memory > "
                                f"{STATIC_SHARED_LIMIT}")
    if not rows:
        failures.append("no kernel found in the sources and reports (the parser is broken)")
    return failures, rows


# A planted source tree and report with one fault of each kind: the check must name them.
SELF_TEST_SOURCE = """
__global__ void __launch_bounds__(kBig) fatKernel(float* x) {}
__global__ void __launch_bounds__(256) spillKernel(float* x) {}
__global__ void unboundKernel(float* x) {}
__global__ void __launch_bounds__(256) missingKernel(float* x) {}
constexpr int kBig = 1024;
"""
SELF_TEST_REPORT = """ptxas info    : Compiling entry function '_Z9fatKernelPf' for 'sm_90'
ptxas info    : Function properties for _Z9fatKernelPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 72 registers, used 0 barriers, 128 bytes smem
ptxas info    : Compiling entry function '_Z11spillKernelPf' for 'sm_90'
ptxas info    : Function properties for _Z11spillKernelPf
    16 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
ptxas info    : Used 255 registers, used 0 barriers
ptxas info    : Compiling entry function '_Z13unboundKernelPf' for 'sm_90'
ptxas info    : Function properties for _Z13unboundKernelPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 8 registers, used 0 barriers
"""
SELF_TEST_EXPECTED = ["fatKernel: 72 registers x 1024", "spillKernel: spills 8 bytes",
                      "spillKernel: 16 bytes of stack", "unboundKernel: no __launch_bounds__",
                      "missingKernel: not in planted.sm_90.txt"]


def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "src", "kernels", "cuda"))
        os.makedirs(os.path.join(root, "reports"))
        with open(os.path.join(root, "src", "kernels", "cuda", "planted.cu"), "w") as f:
            f.write(SELF_TEST_SOURCE)
        with open(os.path.join(root, "reports", "planted.sm_90.txt"), "w") as f:
            f.write(SELF_TEST_REPORT)
        failures, _ = check(os.path.join(root, "reports"), os.path.join(root, "src"))
    missing = [e for e in SELF_TEST_EXPECTED if not any(e in f for f in failures)]
    if missing or len(failures) != len(SELF_TEST_EXPECTED):
        print("FAIL: the check's self-test: expected " + repr(SELF_TEST_EXPECTED) + ", got " +
              repr(failures))
        return False
    return True


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    report_dir, source_dir = sys.argv[1], sys.argv[2]
    if not self_test():
        return 1
    reports = glob.glob(os.path.join(report_dir, "*.sm_90.txt"))
    if not os.path.isdir(report_dir) or not reports:
        print(f"SKIP: no ptxas resource reports in {report_dir}: the CUDA library is not built "
              "here (CPU-only build: nvcc or NCCL not found)")
        return 77
    failures, rows = check(report_dir, source_dir)
    print(f"{'file':<14} {'kernel':<44} {'bound':>5} {'regs':>4} {'regs*bound':>10} "
          f"{'spill st/ld':>11} {'stack':>5} {'smem':>5}")
    for stem, instance, bound, r in rows:
        short = instance if len(instance) <= 44 else instance[:41] + "..."
        print(f"{stem:<14} {short:<44} {bound:>5} {r['registers']:>4} "
              f"{r['registers'] * bound:>10} "
              f"{str(r.get('spill_stores', 0)) + '/' + str(r.get('spill_loads', 0)):>11} "
              f"{r.get('stack', 0):>5} {r.get('smem', 0):>5}")
    for f in failures:
        print("FAIL: " + f)
    print(f"{len(rows)} kernel instances checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
