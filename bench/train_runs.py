# Shared by bench/runtime_bench and bench/stage_bench: writes a zerolab-train config,
# runs it under mpirun, and reduces its metric lines (docs/architecture.md's protocol) to medians.
# Python 3 standard library only.
import json
import os
import statistics
import subprocess
import sys
import tempfile

# What Open MPI needs as root and in containers (docs/architecture.md, Tests).
MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
}


class BenchError(RuntimeError):
    """A run that failed or printed no step lines; the message names the command."""


def find_bin(explicit):
    """The directory holding zerolab-train: --bin, $ZEROLAB_BIN, or <repo>/build/bin."""
    here = os.path.dirname(os.path.abspath(__file__))
    d = explicit or os.environ.get("ZEROLAB_BIN") or os.path.join(here, "..", "build", "bin")
    if not os.access(os.path.join(d, "zerolab-train"), os.X_OK):
        raise BenchError(f"no executable zerolab-train in '{d}': pass --bin DIR "
                         "(e.g. build/bin) or set ZEROLAB_BIN")
    return os.path.abspath(d)


def micro_config(world, stage, overlap, steps, micro_batch=8, reduce_scatter=True,
                 preset="micro"):
    """`micro` (or `preset`), fp32, AdamW, one micro-batch per rank per step, one thread per rank."""
    return {
        "train_batch_size": micro_batch * world,
        "train_micro_batch_size_per_gpu": micro_batch,
        "gradient_accumulation_steps": 1,
        "optimizer": {"type": "AdamW", "params": {"lr": 1e-3, "weight_decay": 0.1}},
        "gradient_clipping": 1.0,
        "zero_optimization": {
            "stage": stage,
            "overlap_comm": overlap,
            "reduce_scatter": reduce_scatter,
            "allgather_partitions": True,
            # 5e5 elements: at micro one bucket per block (790k elements), so stages 0-1
            # can overlap; DeepSpeed's default 5e8 makes the whole model one bucket.
            "reduce_bucket_size": 500000,
        },
        "model": {"preset": preset},
        "data": {"type": "synthetic"},
        "run": {"steps": steps, "seed": 1337, "log_every": 1, "threads": 1},
        "steps_per_print": 1000000,
    }


def run_train_lines(bin_dir, world, config, timeout=900):
    """Runs mpirun -np world zerolab-train; returns every metric line (run, event, step, end)."""
    with tempfile.TemporaryDirectory(prefix="zerolab-bench-") as tmp:
        cfg = os.path.join(tmp, "config.json")
        with open(cfg, "w") as f:
            json.dump(config, f)
        cmd = [
            "mpirun", "-np", str(world), "--oversubscribe", "--bind-to", "none",
            os.path.join(bin_dir, "zerolab-train"),
            "--config", cfg, "--db", os.path.join(tmp, "runs.db"), "--run-name", "bench",
        ]
        env = dict(os.environ, **MPI_ENV)
        env.pop("ZEROLAB_DB", None)
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise BenchError(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stderr[-2000:]}")
    lines = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    if not any(j.get("type") == "run" for j in lines) or not any(
            j.get("type") == "step" for j in lines):
        raise BenchError(f"{' '.join(cmd)}: no run or step lines on stdout")
    return lines


def run_train(bin_dir, world, config, timeout=900):
    """Runs mpirun -np world zerolab-train; returns (run line, [step lines])."""
    lines = run_train_lines(bin_dir, world, config, timeout)
    run = next(j for j in lines if j.get("type") == "run")
    return run, [j for j in lines if j.get("type") == "step"]


def comm_total_ms(step):
    c = step["comm"]
    return c["allreduce_ms"] + c["reduce_scatter_ms"] + c["allgather_ms"] + c["broadcast_ms"]


def summarize(steps, warmup):
    """Medians over the steps after `warmup` and the last step's peak RSS per rank."""
    timed = steps[warmup:] if len(steps) > warmup else steps
    med = lambda f: statistics.median(f(s) for s in timed)  # noqa: E731
    return {
        "tokens_per_s": med(lambda s: s["tokens_per_s"]),
        "mfu": med(lambda s: s["mfu"]),
        "step_ms": med(lambda s: s["step_ms"]),
        "fwd_ms": med(lambda s: s["fwd_ms"]),
        "bwd_ms": med(lambda s: s["bwd_ms"]),
        "optim_ms": med(lambda s: s["optim_ms"]),
        "comm_ms": med(comm_total_ms),
        "exposed_ms": med(lambda s: s["comm"]["exposed_ms"]),
        "peak_rss": [r["peak"] for r in steps[-1]["ranks"]],
    }


def mib(b):
    return b / (1 << 20)


def median(xs):
    return statistics.median(xs)


def log(msg):
    print(msg, file=sys.stderr, flush=True)
