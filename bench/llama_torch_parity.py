#!/usr/bin/python3
# PyTorch parity of zerolab's Llama family (issue 36 item 6): an HF-style Llama written
# in torch (bench/torch_llama.py: LlamaForCausalLM's math and tensor names) is given random weights,
# which are written as a Hugging Face safetensors file with its config.json. zerolab-train
# loads that file through model.init_from and trains on the same tokens; so does torch.
# Both fp32, AdamW, one process. The losses of every step must agree within --rtol.
#   /usr/bin/python3 bench/llama_torch_parity.py --bin build/bin [--steps 20] [--rtol 1e-5]
# Needs Debian's python3-torch (1.13, CPU); never part of the build or the tests.
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_llama import LlamaForCausalLM  # noqa: E402

# The cases: heads / kv heads (GQA ratio 1, 2, 4), tied or untied, q/k/v biases (Qwen2).
CASES = [
    dict(name="mha-untied", n_head=4, n_kv_head=4, tied=False, qkv_bias=False),
    dict(name="gqa2-untied", n_head=4, n_kv_head=2, tied=False, qkv_bias=False),
    dict(name="gqa4-tied", n_head=4, n_kv_head=1, tied=True, qkv_bias=False),
    dict(name="gqa2-tied", n_head=4, n_kv_head=2, tied=True, qkv_bias=False),
    dict(name="gqa2-qkv-bias", n_head=4, n_kv_head=2, tied=False, qkv_bias=True),
]
SHAPE = dict(n_layer=2, n_embd=64, head_dim=16, ffn=176, vocab=256, seq=64)
B = 4
ADAM = dict(lr=3e-3, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1)
EPS = 1e-5
THETA = 10000.0


def make_model(case, seed):
    """The torch model of `case` with random weights (not HF's init: norm weights and biases
    away from 1 and 0, so that one read into the wrong place shows in the loss)."""
    shape = dict(n_layer=SHAPE["n_layer"], n_head=case["n_head"], n_kv_head=case["n_kv_head"],
                 n_embd=SHAPE["n_embd"], head_dim=SHAPE["head_dim"], ffn=SHAPE["ffn"],
                 seq_len=SHAPE["seq"], vocab_size=SHAPE["vocab"], tied=case["tied"],
                 qkv_bias=case["qkv_bias"], eps=EPS, theta=THETA)
    torch.manual_seed(seed)
    model = LlamaForCausalLM(shape)
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, t in model.named_parameters():
            if name.endswith("norm.weight"):
                t.copy_(1.0 + 0.1 * torch.randn(t.shape, generator=g))
            elif name.endswith(".bias"):
                t.copy_(0.02 * torch.randn(t.shape, generator=g))
    return model


def write_safetensors(path, tensors):
    """The format: an 8-byte little-endian header length, the JSON header, raw data."""
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name, t in tensors.items():
        data = t.detach().contiguous().numpy().astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def write_config(path, case):
    arch = "Qwen2ForCausalLM" if case["qkv_bias"] else "LlamaForCausalLM"
    cfg = {
        "architectures": [arch],
        "model_type": "qwen2" if case["qkv_bias"] else "llama",
        "hidden_size": SHAPE["n_embd"],
        "intermediate_size": SHAPE["ffn"],
        "num_hidden_layers": SHAPE["n_layer"],
        "num_attention_heads": case["n_head"],
        "num_key_value_heads": case["n_kv_head"],
        "head_dim": SHAPE["head_dim"],
        "vocab_size": SHAPE["vocab"],
        "max_position_embeddings": SHAPE["seq"],
        "tie_word_embeddings": case["tied"],
        "rms_norm_eps": EPS,
        "rope_theta": THETA,
        "rope_scaling": None,
        "hidden_act": "silu",
        "torch_dtype": "float32",
    }
    if not case["qkv_bias"]:
        cfg.update(attention_bias=False, mlp_bias=False)
    with open(path, "w") as f:
        json.dump(cfg, f, indent=2)


def torch_losses(model, stream, steps):
    """llm.c's order (runtime/data/data_loader.h): global batch s starts at s*B*T."""
    t = SHAPE["seq"]
    opt = torch.optim.AdamW(model.parameters(), lr=ADAM["lr"], betas=ADAM["betas"],
                            eps=ADAM["eps"], weight_decay=ADAM["weight_decay"])
    per_epoch = (len(stream) - 1) // (B * t)
    losses = []
    for s in range(steps):
        start = (s % per_epoch) * B * t
        rows = [stream[start + i * t: start + i * t + t + 1] for i in range(B)]
        batch = torch.tensor(rows, dtype=torch.long)
        loss = model(batch[:, :-1], batch[:, 1:])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def zerolab_losses(args, case, folder, steps):
    cfg = {
        "train_batch_size": B,
        "train_micro_batch_size_per_gpu": B,
        "gradient_accumulation_steps": 1,
        "optimizer": {"type": "AdamW", "params": {"lr": ADAM["lr"], "betas": list(ADAM["betas"]),
                                                  "eps": ADAM["eps"],
                                                  "weight_decay": ADAM["weight_decay"]}},
        "zero_optimization": {"stage": 1},
        "model": {"init_from": os.path.join(folder, "model.safetensors"),
                  "seq_len": SHAPE["seq"]},
        "data": {"type": "text", "path": os.path.join(folder, "tokens.bin")},
        "run": {"steps": steps, "log_every": 1, "threads": 1},
    }
    path = os.path.join(folder, "zerolab.json")
    with open(path, "w") as f:
        json.dump(cfg, f, indent=2)
    cmd = [os.path.join(args.bin, "zerolab-train"), "--config", path,
           "--db", os.path.join(folder, "runs.db"), "--run-name", "parity-" + case["name"]]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=folder)
    if p.returncode != 0:
        sys.exit(f"zerolab-train failed ({p.returncode}) for {case['name']}:\n{p.stderr[-3000:]}")
    losses = {}
    for line in p.stdout.splitlines():
        m = json.loads(line)
        if m.get("type") == "step":
            losses[m["step"]] = m["loss"]
    return [losses[k] for k in sorted(losses)]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--rtol", type=float, default=1e-5)
    args = ap.parse_args()
    args.bin = os.path.abspath(args.bin)
    torch.manual_seed(0)
    # Text as bytes (the repo's docs), so that the loss falls and the two trainings really
    # move apart if anything differs; enough tokens for every step without wrapping.
    need = args.steps * B * SHAPE["seq"] + 1
    docs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs")
    text = b""
    for name in sorted(os.listdir(docs)):
        if name.endswith(".md"):
            with open(os.path.join(docs, name), "rb") as f:
                text += f.read()
    stream = list((text * (need // max(1, len(text)) + 1))[:need])
    worst, failed = 0.0, []
    print(f"{'case':16} {'step':>4} {'torch':>12} {'zerolab':>12} {'rel':>9}")
    for n, case in enumerate(CASES):
        with tempfile.TemporaryDirectory(prefix="llama-parity-") as folder:
            model = make_model(case, 100 + n)
            write_safetensors(os.path.join(folder, "model.safetensors"), model.state_dict())
            write_config(os.path.join(folder, "config.json"), case)
            with open(os.path.join(folder, "tokens.bin"), "wb") as f:
                f.write(bytes(stream))
            ours = zerolab_losses(args, case, folder, args.steps)
            theirs = torch_losses(model, stream, args.steps)
        if len(ours) != len(theirs):
            failed.append(f"{case['name']}: {len(ours)} zerolab steps, {len(theirs)} torch steps")
            continue
        case_worst = 0.0
        for s, (a, b) in enumerate(zip(theirs, ours)):
            rel = abs(a - b) / abs(a)
            case_worst = max(case_worst, rel)
            if s in (0, len(ours) - 1):
                print(f"{case['name']:16} {s + 1:4d} {a:12.7f} {b:12.7f} {rel:9.2e}")
        print(f"{case['name']:16} worst relative difference over {len(ours)} steps: {case_worst:.2e}")
        worst = max(worst, case_worst)
        if case_worst > args.rtol:
            failed.append(f"{case['name']}: {case_worst:.2e} > {args.rtol:g}")
    print(f"worst over all cases: {worst:.2e} (tolerance {args.rtol:g})")
    if failed:
        print("FAILED: " + "; ".join(failed))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
