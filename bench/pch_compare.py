#!/usr/bin/env python3
# What the precompiled headers save (docs/building.md): each given source compiled as the
# build compiles it (with its cmake_pch.hxx) and again without it, CPU seconds, median of 3.
# Usage: bench/pch_compare.py BUILD_DIR SOURCE_SUFFIX... (run it on a quiet machine)
import json, re, resource, statistics, subprocess, sys

build = sys.argv[1]
cc = json.load(open(f"{build}/compile_commands.json"))

def cpu(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, shell=True, check=True, cwd=build)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

for suffix in sys.argv[2:]:
    entry = next(x for x in cc if x["file"].endswith(suffix))
    with_pch = re.sub(r"-o \S+", "-o /tmp/pch_compare.o", entry["command"])
    without = re.sub(r"-Winvalid-pch|-include \S+cmake_pch\.hxx", "", with_pch)
    a = statistics.median(cpu(with_pch) for _ in range(3))
    b = statistics.median(cpu(without) for _ in range(3))
    print(f"{suffix}: with the precompiled header {a:.2f} s, without {b:.2f} s, ratio {a / b:.2f}")
