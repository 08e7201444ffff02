#!/usr/bin/python3
# What PyTorch eager keeps for backward in one Llama block, beside what zerolab's Llama
# block keeps (docs/model.md, "Activations: what a block keeps for backward"; issue 36
# item 6). The block is bench/torch_llama.py's: Hugging Face LlamaForCausalLM's math with
# its eager attention (repeat_kv, the (T,T) softmax kept; torch 1.13 has no fused
# attention), fp32. Every tensor autograd saves is caught with
# torch.autograd.graph.saved_tensors_hooks, attributed to the innermost module running
# when it was saved, and counted once per storage; parameters and the constants (RoPE
# cos/sin, the causal mask) are left out. The middle layer of three is measured, so its
# input is the previous block's output, as it is for every layer but the first.
# Each saver's fp32 elements must equal the closed form printed beside it, at every shape below
# (MHA and GQA 2 and 4, several b, s): the closed forms in docs/model.md are checked here.
#   /usr/bin/python3 bench/llama_saved_tensors.py
# Needs Debian's python3-torch (1.13, CPU); never part of the build or the tests.
import os
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")

import torch  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_llama import LlamaForCausalLM  # noqa: E402

SHAPES = [
    dict(b=2, s=32, h=64, a=4, k=4, d=16, f=176),
    dict(b=3, s=48, h=64, a=4, k=2, d=16, f=176),
    dict(b=2, s=64, h=128, a=8, k=2, d=16, f=344),
]

# What each saver keeps, in elements, for PyTorch eager (torch 1.13, fp32). The keys are
# the module names of torch_llama.py; "self_attn" is the attention core between the
# projections (RoPE, repeat_kv, QK^T, softmax, PV), "mlp" the SwiGLU product.
TORCH = {
    "input_layernorm": lambda b, s, h, a, k, d, f: 3 * b * s * h + b * s,
    "q_proj": lambda b, s, h, a, k, d, f: b * s * h,
    "self_attn": lambda b, s, h, a, k, d, f: 3 * b * a * s * d + b * a * s * s,
    "o_proj": lambda b, s, h, a, k, d, f: b * s * a * d,
    "post_attention_layernorm": lambda b, s, h, a, k, d, f: 3 * b * s * h + b * s,
    "gate_proj": lambda b, s, h, a, k, d, f: b * s * h,
    "mlp": lambda b, s, h, a, k, d, f: 3 * b * s * f,
    "down_proj": lambda b, s, h, a, k, d, f: b * s * f,
}
# zerolab's Llama block, recompute none (docs/model.md's table; ArenaIsTheClosedFormOfTheDocs
# checks the C++ arena against the same sum): block input, ln1 + 1/rms, q, k, v after RoPE,
# atty, lse, residual2, ln2 + 1/rms, gate, up, swiglu.
ZEROLAB = lambda b, s, h, a, k, d, f: (4 * b * s * h + 2 * b * s * a * d + 2 * b * s * k * d
                                       + 3 * b * s * f + (2 + a) * b * s)
# Korthikanti et al. 2022, per layer, 16-bit: 34sbh + 5as^2b bytes (GPT, dropout).
KORTHIKANTI = lambda b, s, h, a, k, d, f: 34 * s * b * h + 5 * a * s * s * b


def measure(sh):
    shape = dict(n_layer=3, n_head=sh["a"], n_kv_head=sh["k"], n_embd=sh["h"],
                 head_dim=sh["d"], ffn=sh["f"], seq_len=sh["s"], vocab_size=256, tied=False,
                 qkv_bias=False)
    torch.manual_seed(0)
    model = LlamaForCausalLM(shape)
    names = {m: n for n, m in model.named_modules()}
    stack = []
    def enter(mod, inp):
        stack.append(names[mod])

    def leave(mod, inp, out):
        stack.pop()

    for m in model.modules():
        m.register_forward_pre_hook(enter)
        m.register_forward_hook(leave)
    params = {p.storage().data_ptr() for p in model.parameters()}
    seen, kept, constants = set(), {}, []

    def pack(t):
        st = t.storage()
        ptr = st.data_ptr()
        where = stack[-1] if stack else "outside"
        if ptr not in seen and ptr not in params and where.startswith("model.layers.1."):
            if t.requires_grad:
                leaf = where[len("model.layers.1."):].split(".")[-1]
                kept[leaf] = kept.get(leaf, 0) + st.size() * t.element_size() // 4
            else:  # no gradient flows into it: a constant (mask, repeat_kv's index, ...)
                constants.append((tuple(t.shape), str(t.dtype).replace("torch.", ""),
                                  st.size() * t.element_size()))
        seen.add(ptr)
        return t

    idx = torch.randint(0, 256, (sh["b"], sh["s"]))
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = model(idx, idx)
    loss.backward()
    # The block input (the previous block's output) is saved by input_layernorm; the
    # previous block's savers do not save it, so it is first seen here.
    return kept, constants


def main():
    failures = 0
    for sh in SHAPES:
        args = (sh["b"], sh["s"], sh["h"], sh["a"], sh["k"], sh["d"], sh["f"])
        kept, constants = measure(sh)
        print(f"b={sh['b']} s={sh['s']} h={sh['h']} a={sh['a']} kv={sh['k']} d={sh['d']} "
              f"f={sh['f']}  (fp32 elements per layer)")
        for name in sorted(set(kept) | set(TORCH)):
            got = kept.get(name, 0)
            want = TORCH[name](*args) if name in TORCH else 0
            ok = got == want
            failures += not ok
            print(f"  {name:26} {got:10d}  closed form {want:10d}  {'ok' if ok else 'DIFFERS'}")
        total = sum(kept.values())
        ours = ZEROLAB(*args)
        print(f"  {'PyTorch eager, all':26} {total:10d} = {4 * total / 2**20:.3f} MiB")
        print(f"  {'zerolab, recompute none':26} {ours:10d} = {4 * ours / 2**20:.3f} MiB "
              f"({ours / total:.2f}x PyTorch's)")
        print(f"  {'constants, bytes':26} {sum(c[2] for c in constants):10d}  "
              + ", ".join(f"{c[1]}{list(c[0])}" for c in constants))
        print(f"  {'Korthikanti (16-bit bytes)':26} {KORTHIKANTI(*args) / 2:10.0f} "
              f"2-byte elements")
    print("PASS: every saver equals its closed form" if failures == 0 else
          f"FAIL: {failures} savers differ from their closed forms")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
