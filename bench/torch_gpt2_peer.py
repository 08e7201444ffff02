#!/usr/bin/python3
# The PyTorch peer of zerolab's CPU runtime: the same GPT-2 (learned positions, pre-LN,
# causal multi-head attention, tanh GELU, tied embeddings, GPT-2 init), fp32, AdamW,
# trained with DDP + ZeroRedundancyOptimizer over gloo, one thread per process.
# Prints one JSON line: tokens/s (median of the timed steps) and peak RSS per rank.
#   /usr/bin/python3 bench/torch_gpt2_peer.py --world 2 [--steps 20] [--warmup 5]
# --model llama-micro (or llama-nano, llama-mini) trains bench/torch_llama.py's HF-style
# Llama of that zerolab preset instead, with the same loop.
# Needs Debian's python3-torch (1.13, CPU); only bench/runtime_bench runs it.
import argparse
import json
import math
import os
import resource
import statistics
import sys
import time

# One thread per process, set before torch loads its OpenMP runtime.
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["MKL_NUM_THREADS"] = "1"

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.distributed.optim import ZeroRedundancyOptimizer  # noqa: E402
from torch.nn.parallel import DistributedDataParallel as DDP  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_llama  # noqa: E402

# The `micro` preset of zerolab (runtime/model/model_shape.h).
MICRO = dict(n_layer=4, n_head=4, n_embd=256, seq_len=128, vocab_size=256)


class CausalSelfAttention(nn.Module):
    def __init__(self, c, n_head, seq_len):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(c, 3 * c)
        self.proj = nn.Linear(c, c)
        self.proj.residual_scaled = True
        # A plain attribute, not a buffer: DDP would broadcast it, and gloo has no bool.
        self.mask = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool)).view(
            1, 1, seq_len, seq_len
        )

    def forward(self, x):
        b, t, c = x.shape
        hs = c // self.n_head
        q, k, v = self.qkv(x).split(c, dim=2)
        # (B, NH, T, hs); torch 1.13 has no fused attention on the CPU.
        q = q.view(b, t, self.n_head, hs).transpose(1, 2)
        k = k.view(b, t, self.n_head, hs).transpose(1, 2)
        v = v.view(b, t, self.n_head, hs).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))
        att = att.masked_fill(~self.mask[:, :, :t, :t], float("-inf"))
        y = F.softmax(att, dim=-1) @ v
        return self.proj(y.transpose(1, 2).contiguous().view(b, t, c))


class Block(nn.Module):
    def __init__(self, c, n_head, seq_len):
        super().__init__()
        self.ln1 = nn.LayerNorm(c)
        self.attn = CausalSelfAttention(c, n_head, seq_len)
        self.ln2 = nn.LayerNorm(c)
        self.fc = nn.Linear(c, 4 * c)
        self.fcproj = nn.Linear(4 * c, c)
        self.fcproj.residual_scaled = True

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.fcproj(F.gelu(self.fc(self.ln2(x)), approximate="tanh"))


class Gpt2(nn.Module):
    def __init__(self, n_layer, n_head, n_embd, seq_len, vocab_size):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(seq_len, n_embd)
        self.blocks = nn.ModuleList(Block(n_embd, n_head, seq_len) for _ in range(n_layer))
        self.lnf = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.lm_head.weight = self.wte.weight  # tied input/output embedding
        # GPT-2 init: N(0, 0.02), residual projections scaled by 1/sqrt(2 L), biases 0.
        for m in self.modules():
            if isinstance(m, nn.Linear):
                std = 0.02 / math.sqrt(2 * n_layer) if hasattr(m, "residual_scaled") else 0.02
                nn.init.normal_(m.weight, std=std)
                if m.bias is not None:
                    nn.init.zeros_(m.bias)
            elif isinstance(m, nn.Embedding):
                nn.init.normal_(m.weight, std=0.02)

    def forward(self, idx, targets):
        t = idx.shape[1]
        x = self.wte(idx) + self.wpe(torch.arange(t, device=idx.device))
        for block in self.blocks:
            x = block(x)
        logits = self.lm_head(self.lnf(x))
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def worker(rank, args):
    torch.set_num_threads(1)
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(args.port))
    dist.init_process_group("gloo", rank=rank, world_size=args.world)
    torch.manual_seed(args.seed)
    if args.model == "micro":
        model, shape = Gpt2(**MICRO), MICRO
    else:
        shape = torch_llama.PRESETS[args.model]
        model = torch_llama.LlamaForCausalLM(shape)
    ddp = DDP(model)
    opt = ZeroRedundancyOptimizer(
        ddp.parameters(), optimizer_class=torch.optim.AdamW, lr=1e-3, weight_decay=0.1
    )
    gen = torch.Generator().manual_seed(args.seed + rank)
    b, t, v = args.micro_batch, shape["seq_len"], shape["vocab_size"]
    times = []
    for step in range(args.warmup + args.steps):
        # Random tokens: the speed does not depend on the text.
        x = torch.randint(0, v, (b, t), generator=gen)
        y = torch.randint(0, v, (b, t), generator=gen)
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        loss = ddp(x, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(ddp.parameters(), 1.0)
        opt.step()
        if step >= args.warmup:
            times.append(time.perf_counter() - t0)
        if not math.isfinite(loss.item()):
            raise RuntimeError(f"rank {rank}: loss is not finite at step {step}")
    # Peak RSS of every rank (ru_maxrss is in KiB on Linux), gathered on rank 0.
    peak = torch.tensor([resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024.0])
    peaks = [torch.zeros(1) for _ in range(args.world)]
    dist.all_gather(peaks, peak)
    if rank == 0:
        step_s = statistics.median(times)
        tokens = b * t * args.world
        out = {
            "peer": "torch",
            "model": args.model,
            "torch": torch.__version__,
            "world": args.world,
            "micro_batch": b,
            "params": sum(p.numel() for p in model.parameters()),
            "steps": args.steps,
            "step_ms": step_s * 1e3,
            "tokens_per_s": tokens / step_s,
            "peak_rss": [int(p.item()) for p in peaks],
        }
        print(json.dumps(out), flush=True)
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser(description="PyTorch DDP + ZeroRedundancyOptimizer peer (micro GPT-2)")
    p.add_argument("--world", type=int, default=2)
    p.add_argument("--model", default="micro", choices=["micro"] + sorted(torch_llama.PRESETS))
    p.add_argument("--steps", type=int, default=20, help="timed steps (median)")
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--micro-batch", type=int, default=8)
    p.add_argument("--seed", type=int, default=1337)
    p.add_argument("--port", type=int, default=29517)
    args = p.parse_args()
    if args.world < 1 or args.steps < 1 or args.warmup < 0:
        p.error("--world and --steps must be positive, --warmup non-negative")
    mp.spawn(worker, args=(args,), nprocs=args.world, join=True)


if __name__ == "__main__":
    sys.exit(main())
