# An HF-style Llama in torch for the benchmarks (never a test or build dependency): the
# math of transformers' LlamaForCausalLM (RMSNorm, rotate_half RoPE, GQA by repeat_kv,
# SwiGLU MLP, tied or untied head, Qwen2's optional q/k/v biases), its modules named as HF
# names them, so that state_dict() keys are a Hugging Face checkpoint's tensor names.
# Used by llama_torch_parity.py (the same weights and tokens as zerolab-train) and
# torch_gpt2_peer.py --model llama-* (the DDP + ZeroRedundancyOptimizer speed peer).
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

# zerolab's tiny Llama presets (runtime/model/llama/llama_tensors.h).
PRESETS = {
    "llama-nano": dict(n_layer=2, n_head=4, n_kv_head=2, n_embd=64, head_dim=16, ffn=176,
                       seq_len=64, vocab_size=256, tied=True, qkv_bias=False),
    "llama-micro": dict(n_layer=4, n_head=4, n_kv_head=2, n_embd=256, head_dim=64, ffn=688,
                        seq_len=128, vocab_size=256, tied=False, qkv_bias=False),
    "llama-mini": dict(n_layer=6, n_head=6, n_kv_head=2, n_embd=384, head_dim=64, ffn=1024,
                       seq_len=256, vocab_size=256, tied=False, qkv_bias=False),
}


class RMSNorm(nn.Module):
    def __init__(self, c, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(c))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


class Attention(nn.Module):
    def __init__(self, s):
        super().__init__()
        c, hd = s["n_embd"], s["head_dim"]
        self.nh, self.nkv, self.hd = s["n_head"], s["n_kv_head"], hd
        self.q_proj = nn.Linear(c, self.nh * hd, bias=s["qkv_bias"])
        self.k_proj = nn.Linear(c, self.nkv * hd, bias=s["qkv_bias"])
        self.v_proj = nn.Linear(c, self.nkv * hd, bias=s["qkv_bias"])
        self.o_proj = nn.Linear(self.nh * hd, c, bias=False)

    def forward(self, x, cos, sin, mask):
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, self.nh, self.hd).transpose(1, 2)
        k = self.k_proj(x).view(b, t, self.nkv, self.hd).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.nkv, self.hd).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        rep = self.nh // self.nkv  # repeat_kv: query head j reads key/value head j // rep
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.hd)
        att = att.masked_fill(~mask, float("-inf")).softmax(-1)
        return self.o_proj((att @ v).transpose(1, 2).reshape(b, t, self.nh * self.hd))


class Mlp(nn.Module):
    def __init__(self, s):
        super().__init__()
        c, f = s["n_embd"], s["ffn"]
        self.gate_proj = nn.Linear(c, f, bias=False)
        self.up_proj = nn.Linear(c, f, bias=False)
        self.down_proj = nn.Linear(f, c, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Layer(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.input_layernorm = RMSNorm(s["n_embd"], s["eps"])
        self.self_attn = Attention(s)
        self.post_attention_layernorm = RMSNorm(s["n_embd"], s["eps"])
        self.mlp = Mlp(s)

    def forward(self, x, cos, sin, mask):
        x = x + self.self_attn(self.input_layernorm(x), cos, sin, mask)
        return x + self.mlp(self.post_attention_layernorm(x))


class Body(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.embed_tokens = nn.Embedding(s["vocab_size"], s["n_embd"])
        self.layers = nn.ModuleList(Layer(s) for _ in range(s["n_layer"]))
        self.norm = RMSNorm(s["n_embd"], s["eps"])


class LlamaForCausalLM(nn.Module):
    """`shape`: a PRESETS entry, plus eps (rms_norm_eps) and theta (rope_theta)."""

    def __init__(self, shape):
        super().__init__()
        s = dict(eps=1e-5, theta=10000.0)
        s.update(shape)
        self.s = s
        self.model = Body(s)
        self.lm_head = None
        if not s["tied"]:
            self.lm_head = nn.Linear(s["n_embd"], s["vocab_size"], bias=False)
        # HF's init (initializer_range 0.02): every Linear and the embedding N(0, 0.02),
        # biases 0, norms 1.
        for m in self.modules():
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, std=0.02)
                if isinstance(m, nn.Linear) and m.bias is not None:
                    nn.init.zeros_(m.bias)

    def logits(self, idx):
        t, hd = idx.shape[1], self.s["head_dim"]
        inv_freq = 1.0 / (self.s["theta"] ** (torch.arange(0, hd, 2, dtype=torch.float32) / hd))
        freqs = torch.outer(torch.arange(t, dtype=torch.float32), inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos(), emb.sin()
        mask = torch.tril(torch.ones(t, t, dtype=torch.bool))
        x = self.model.embed_tokens(idx)
        for layer in self.model.layers:
            x = layer(x, cos, sin, mask)
        x = self.model.norm(x)
        head = self.model.embed_tokens.weight if self.lm_head is None else self.lm_head.weight
        return F.linear(x, head)

    def forward(self, idx, targets):
        logits = self.logits(idx)
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
