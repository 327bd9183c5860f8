#!/usr/bin/python3
"""What one LoRA / QLoRA / frozen Llama decoder layer keeps for backward, measured with PyTorch's
saved-tensor hooks on the CPU (Debian python3-torch; no GPU, no PyPI), compared with vramcalc.

The layer mirrors Hugging Face transformers' LlamaDecoderLayer in eager mode (LlamaRMSNorm with its
fp32 upcast, q/k/v/o projections, rotary embedding, repeat_kv, eager attention with the softmax in
fp32, SwiGLU MLP) and wraps the targeted linears the way PEFT's lora.Linear.forward does
(huggingface/peft src/peft/tuners/lora/layer.py at 5d602fd):

    result = self.base_layer(x)
    x = self._cast_input_dtype(x, lora_A.weight.dtype)     # x.to(dtype) when the dtypes differ
    result = result + lora_B(lora_A(dropout(x))) * scaling

with nn.Identity as the dropout when lora_dropout == 0. Base weights are frozen; the layer input
requires grad, as it does for every layer after the first adapted one. Every tensor autograd saves is
recorded once per storage; parameters and the rotary tables (computed once per forward, shared by all
layers) are left out, as vramcalc counts them elsewhere.

Run:  /usr/bin/python3 bench/memory/lora_saved_tensors.py [path/to/vramcalc]
Writes tests/data/memory/lora_saved_tensors.json (read by tests/test_finetune.cpp).
"""
import json
import os
import subprocess
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build-native/src/cli/vramcalc")

# A small Llama shape with grouped-query attention (repeat_kv copies K and V).
H, HEADS, KV_HEADS, FFN, SEQ, BATCH = 256, 4, 2, 688, 128, 2
HEAD_DIM = H // HEADS
DTYPE = torch.bfloat16


class RMSNorm(nn.Module):  # transformers LlamaRMSNorm
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim, dtype=DTYPE))

    def forward(self, x):
        input_dtype = x.dtype
        x = x.to(torch.float32)
        variance = x.pow(2).mean(-1, keepdim=True)
        x = x * torch.rsqrt(variance + 1e-6)
        return self.weight * x.to(input_dtype)


class CudaDropout(torch.autograd.Function):
    """torch.native_dropout as it runs on CUDA: saves a bool mask (1 byte per element). The CPU
    kernel of torch 1.13 saves a mask in the input's dtype instead, which GPUs never do."""

    @staticmethod
    def forward(ctx, x, p):
        mask = torch.rand(x.shape) >= p
        ctx.save_for_backward(mask)
        ctx.scale = 1.0 / (1.0 - p)
        return x * mask * ctx.scale

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors
        return grad * mask * ctx.scale, None


class Dropout(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, x):
        return CudaDropout.apply(x, self.p)


class LoraLinear(nn.Module):  # peft lora.Linear.forward (vanilla LoRA)
    def __init__(self, base, rank, dropout, adapter_dtype):
        super().__init__()
        self.base_layer = base
        self.lora_A = nn.Linear(base.in_features, rank, bias=False).to(adapter_dtype)
        self.lora_B = nn.Linear(rank, base.out_features, bias=False).to(adapter_dtype)
        nn.init.normal_(self.lora_B.weight)  # non-zero, so every gradient path is exercised
        self.dropout = Dropout(dropout) if dropout > 0 else nn.Identity()
        self.scaling = 2.0

    def forward(self, x):
        result = self.base_layer(x)
        torch_result_dtype = result.dtype
        if x.dtype != self.lora_A.weight.dtype:
            x = x.to(self.lora_A.weight.dtype)
        result = result + self.lora_B(self.lora_A(self.dropout(x))) * self.scaling
        return result.to(torch_result_dtype)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


class Layer(nn.Module):  # transformers LlamaDecoderLayer, eager attention
    def __init__(self):
        super().__init__()
        lin = lambda i, o: nn.Linear(i, o, bias=False).to(DTYPE)
        self.q_proj, self.k_proj = lin(H, HEADS * HEAD_DIM), lin(H, KV_HEADS * HEAD_DIM)
        self.v_proj, self.o_proj = lin(H, KV_HEADS * HEAD_DIM), lin(HEADS * HEAD_DIM, H)
        self.gate_proj, self.up_proj, self.down_proj = lin(H, FFN), lin(H, FFN), lin(FFN, H)
        self.input_layernorm, self.post_attention_layernorm = RMSNorm(H), RMSNorm(H)

    def attention(self, x, cos, sin, mask):
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, HEADS, HEAD_DIM).transpose(1, 2)
        k = self.k_proj(x).view(b, s, KV_HEADS, HEAD_DIM).transpose(1, 2)
        v = self.v_proj(x).view(b, s, KV_HEADS, HEAD_DIM).transpose(1, 2)
        q = (q * cos) + (rotate_half(q) * sin)
        k = (k * cos) + (rotate_half(k) * sin)
        rep = HEADS // KV_HEADS
        k = k[:, :, None].expand(b, KV_HEADS, rep, s, HEAD_DIM).reshape(b, HEADS, s, HEAD_DIM)
        v = v[:, :, None].expand(b, KV_HEADS, rep, s, HEAD_DIM).reshape(b, HEADS, s, HEAD_DIM)
        w = torch.matmul(q, k.transpose(2, 3)) * HEAD_DIM ** -0.5
        w = w + mask
        w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        w = F.dropout(w, p=0.0, training=True)
        out = torch.matmul(w, v).transpose(1, 2).contiguous().reshape(b, s, -1)
        return self.o_proj(out)

    def forward(self, x, cos, sin, mask):
        residual = x
        x = residual + self.attention(self.input_layernorm(x), cos, sin, mask)
        residual = x
        h = self.post_attention_layernorm(x)
        return residual + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))


TARGETS = {"q": "q_proj", "k": "k_proj", "v": "v_proj", "o": "o_proj", "gate": "gate_proj", "up": "up_proj",
           "down": "down_proj"}


def build(method, targets, rank, dropout, adapter_dtype):
    layer = Layer()
    if method == "full":
        return layer
    for p in layer.parameters():
        p.requires_grad_(False)
    for name in targets:
        attr = TARGETS[name]
        setattr(layer, attr, LoraLinear(getattr(layer, attr), rank, dropout, adapter_dtype))
    return layer


def saved_bytes(layer):
    position = torch.arange(SEQ, dtype=torch.float32)
    inv_freq = 1.0 / (10000 ** (torch.arange(0, HEAD_DIM, 2, dtype=torch.float32) / HEAD_DIM))
    freqs = torch.outer(position, inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos().to(DTYPE)[None, None], emb.sin().to(DTYPE)[None, None]
    mask = torch.full((SEQ, SEQ), torch.finfo(DTYPE).min, dtype=DTYPE).triu(1)[None, None]
    x = torch.randn(BATCH, SEQ, H, dtype=DTYPE, requires_grad=True)
    excluded = {t.untyped_storage().data_ptr() if hasattr(t, "untyped_storage") else t.storage().data_ptr()
                for t in [cos, sin, mask, x] + list(layer.parameters())}
    seen = {}

    def pack(t):
        storage = t.storage()
        key = storage.data_ptr()
        if key not in excluded and key not in seen:
            seen[key] = storage.nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = layer(x, cos, sin, mask)
    out.float().sum().backward()  # the graph is complete and runs
    return sum(seen.values())


def vramcalc_layer_bytes(method, targets, rank, dropout, adapter_dtype):
    scenario = {
        "model": {"name": "tiny-llama", "layers": 1, "hidden_size": H, "num_heads": HEADS, "num_kv_heads": KV_HEADS,
                  "ffn_hidden_size": FFN, "vocab_size": 1000, "mlp": "swiglu", "norm": "rmsnorm", "bias": False,
                  "tied_embeddings": False, "position_embedding": "rope", "max_position_embeddings": SEQ},
        "training": {"seq_len": SEQ, "micro_batch_size": BATCH, "global_batch_size": BATCH, "precision": "bf16",
                     "kernels": "eager", "flash_attention": False, "dropout": False, "recompute": "none",
                     "method": method, "lora_rank": rank, "lora_targets": ",".join(targets) or "q",
                     "lora_dropout": dropout, "adapter_dtype": "fp32" if adapter_dtype == torch.float32 else "match"},
        "parallel": {"num_gpus": 1, "zero_stage": 0},
    }
    out = subprocess.run([CLI, "--config", "-", "--json"], input=json.dumps(scenario), capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)["activations"]["per_layer_bytes"]


CASES = [
    ("full", [], 8, 0.0, DTYPE),
    ("lora", ["q", "v"], 8, 0.0, DTYPE),
    ("lora", ["q", "k", "v", "o"], 16, 0.0, DTYPE),
    ("lora", ["q", "k", "v", "o", "gate", "up", "down"], 8, 0.0, DTYPE),
    ("lora", ["q", "v"], 8, 0.1, DTYPE),
    ("lora", ["q", "k", "v", "o", "gate", "up", "down"], 16, 0.05, DTYPE),
    ("lora", ["q", "v"], 8, 0.0, torch.float32),
    ("lora", ["q", "k", "v", "o"], 16, 0.1, torch.float32),
    ("lora", ["gate", "up", "down"], 32, 0.0, DTYPE),
]


def main():
    records = []
    for method, targets, rank, dropout, adapter_dtype in CASES:
        measured = saved_bytes(build(method, targets, rank, dropout, adapter_dtype))
        predicted = vramcalc_layer_bytes(method, targets, rank, dropout, adapter_dtype)
        name = f"{method} {','.join(targets) or '-'} r{rank} dropout {dropout} adapters {str(adapter_dtype)[6:]}"
        print(f"{name:60s} measured {measured:10d}  vramcalc {predicted:12.0f}  {100 * (predicted - measured) / measured:+6.2f} %")
        records.append({"method": method, "lora_targets": ",".join(targets), "lora_rank": rank, "lora_dropout": dropout,
                         "adapter_dtype": "fp32" if adapter_dtype == torch.float32 else "match",
                         "saved_bytes": measured})
    out = {
        "about": ("Bytes autograd saves in one Llama decoder layer (HF eager mirror, bf16, eager attention, no dropout "
                  "in the base model) under full training and PEFT-style LoRA on a frozen base, measured with "
                  "torch.autograd.graph.saved_tensors_hooks on the CPU; parameters and the shared rotary tables excluded. "
                  "Produced by bench/memory/lora_saved_tensors.py with torch " + torch.__version__ + "."),
        "shape": {"hidden_size": H, "num_heads": HEADS, "num_kv_heads": KV_HEADS, "ffn_hidden_size": FFN,
                  "seq_len": SEQ, "micro_batch_size": BATCH, "precision": "bf16"},
        "records": records,
    }
    with open(os.path.join(ROOT, "tests/data/memory/lora_saved_tensors.json"), "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
