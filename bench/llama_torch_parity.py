#!/usr/bin/python3
# PyTorch parity of zerolab's Llama family (issue 36 item 6): an HF-style Llama written
# in torch (LlamaForCausalLM's math: RMSNorm, rotate_half RoPE, GQA by repeat_kv, SwiGLU,
# tied or untied head, optional q/k/v biases as Qwen2 has them) is given random weights,
# which are written as a Hugging Face safetensors file with its config.json. zerolab-train
# loads that file through model.init_from and trains on the same tokens; so does torch.
# Both fp32, AdamW, one process. The losses of every step must agree within --rtol.
#   /usr/bin/python3 bench/llama_torch_parity.py --bin build/bin [--steps 20] [--rtol 1e-5]
# Needs Debian's python3-torch (1.13, CPU); never part of the build or the tests.
import argparse
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

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
ADAM = dict(lr=1e-3, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1)
EPS = 1e-5
THETA = 10000.0


def hf_names(case):
    """(name, shape) of every tensor, in HF's names, for SHAPE and `case`."""
    c, hd, f, v = SHAPE["n_embd"], SHAPE["head_dim"], SHAPE["ffn"], SHAPE["vocab"]
    q, kv = case["n_head"] * hd, case["n_kv_head"] * hd
    out = [("model.embed_tokens.weight", (v, c))]
    for i in range(SHAPE["n_layer"]):
        p = f"model.layers.{i}."
        out += [(p + "input_layernorm.weight", (c,)), (p + "self_attn.q_proj.weight", (q, c))]
        if case["qkv_bias"]:
            out.append((p + "self_attn.q_proj.bias", (q,)))
        out.append((p + "self_attn.k_proj.weight", (kv, c)))
        if case["qkv_bias"]:
            out.append((p + "self_attn.k_proj.bias", (kv,)))
        out.append((p + "self_attn.v_proj.weight", (kv, c)))
        if case["qkv_bias"]:
            out.append((p + "self_attn.v_proj.bias", (kv,)))
        out += [
            (p + "self_attn.o_proj.weight", (c, q)),
            (p + "post_attention_layernorm.weight", (c,)),
            (p + "mlp.gate_proj.weight", (f, c)),
            (p + "mlp.up_proj.weight", (f, c)),
            (p + "mlp.down_proj.weight", (c, f)),
        ]
    out.append(("model.norm.weight", (c,)))
    if not case["tied"]:
        out.append(("lm_head.weight", (v, c)))
    return out


def random_weights(case, seed):
    g = torch.Generator().manual_seed(seed)
    w = {}
    for name, shape in hf_names(case):
        if name.endswith("layernorm.weight") or name == "model.norm.weight":
            # Not all ones, so that a norm weight read into the wrong place shows.
            w[name] = 1.0 + 0.1 * torch.randn(shape, generator=g)
        elif name.endswith(".bias"):
            w[name] = 0.02 * torch.randn(shape, generator=g)
        else:
            w[name] = 0.02 * torch.randn(shape, generator=g)
    return {k: t.float().contiguous().requires_grad_(True) for k, t in w.items()}


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


def rms_norm(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * w


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


def forward(w, case, tokens):
    b, t = tokens.shape
    nh, nkv, hd = case["n_head"], case["n_kv_head"], SHAPE["head_dim"]
    inv_freq = 1.0 / (THETA ** (torch.arange(0, hd, 2, dtype=torch.float32) / hd))
    freqs = torch.outer(torch.arange(t, dtype=torch.float32), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos(), emb.sin()
    mask = torch.tril(torch.ones(t, t, dtype=torch.bool))
    x = w["model.embed_tokens.weight"][tokens]
    for i in range(SHAPE["n_layer"]):
        p = f"model.layers.{i}."
        h = rms_norm(x, w[p + "input_layernorm.weight"])

        def proj(n):
            return F.linear(h, w[p + f"self_attn.{n}_proj.weight"],
                            w.get(p + f"self_attn.{n}_proj.bias"))

        q = proj("q").view(b, t, nh, hd).transpose(1, 2)
        k = proj("k").view(b, t, nkv, hd).transpose(1, 2)
        v = proj("v").view(b, t, nkv, hd).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        rep = nh // nkv  # HF's repeat_kv: query head j reads key/value head j // rep
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(hd)
        att = att.masked_fill(~mask, float("-inf")).softmax(-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, nh * hd)
        x = x + F.linear(y, w[p + "self_attn.o_proj.weight"])
        h = rms_norm(x, w[p + "post_attention_layernorm.weight"])
        m = F.silu(F.linear(h, w[p + "mlp.gate_proj.weight"])) * F.linear(h, w[p + "mlp.up_proj.weight"])
        x = x + F.linear(m, w[p + "mlp.down_proj.weight"])
    x = rms_norm(x, w["model.norm.weight"])
    head = w["model.embed_tokens.weight"] if case["tied"] else w["lm_head.weight"]
    return F.linear(x, head)


def torch_losses(w, case, stream, steps):
    """llm.c's order (runtime/data/data_loader.h): global batch s starts at s*B*T."""
    t = SHAPE["seq"]
    params = list(w.values())
    opt = torch.optim.AdamW(params, lr=ADAM["lr"], betas=ADAM["betas"], eps=ADAM["eps"],
                            weight_decay=ADAM["weight_decay"])
    per_epoch = (len(stream) - 1) // (B * t)
    losses = []
    for s in range(steps):
        start = (s % per_epoch) * B * t
        rows = [stream[start + i * t: start + i * t + t + 1] for i in range(B)]
        batch = torch.tensor(rows, dtype=torch.long)
        logits = forward(w, case, batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), batch[:, 1:].reshape(-1))
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
    g = torch.Generator().manual_seed(1234)
    # Enough tokens for every step without wrapping.
    stream = torch.randint(0, SHAPE["vocab"], (args.steps * B * SHAPE["seq"] + 1,),
                           generator=g).tolist()
    worst, failed = 0.0, []
    print(f"{'case':16} {'step':>4} {'torch':>12} {'zerolab':>12} {'rel':>9}")
    for n, case in enumerate(CASES):
        with tempfile.TemporaryDirectory(prefix="llama-parity-") as folder:
            w = random_weights(case, 100 + n)
            write_safetensors(os.path.join(folder, "model.safetensors"), w)
            write_config(os.path.join(folder, "config.json"), case)
            with open(os.path.join(folder, "tokens.bin"), "wb") as f:
                f.write(bytes(stream))
            ours = zerolab_losses(args, case, folder, args.steps)
            theirs = torch_losses(w, case, stream, args.steps)
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
