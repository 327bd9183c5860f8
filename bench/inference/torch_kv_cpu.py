#!/usr/bin/env python3
"""Build KV caches with PyTorch on CPU the way serving engines lay them out, and measure their bytes.

- vLLM paged pool: per layer one tensor [2, num_blocks, block_size, kv_heads, head_dim]
  (vllm/v1/attention/backends/flash_attn.py, get_kv_cache_shape); MLA: [num_blocks, block_size,
  kv_lora_rank + qk_rope_head_dim] (vllm/v1/attention/backends/mla/common.py).
- HF static cache: per layer K and V [batch, kv_heads, max_len, head_dim], preallocated.
- HF dynamic cache: per layer K and V grown with torch.cat along the sequence axis, one token per
  decode step (transformers cache_utils.DynamicCache.update). cat allocates a new tensor while the
  old one is alive, so the peak is above the final size; it is measured two ways: live tensor storage
  bytes (tracked per tensor) and glibc's mmapped bytes (mallinfo2, every allocation forced to mmap).

Usage: /usr/bin/python3 torch_kv_cpu.py OUT.json      (Debian python3-torch; not part of CI)
"""
import ctypes
import json
import math
import platform
import sys
import weakref

import torch

# Public config.json values (Hugging Face model cards): layers, KV heads, head_dim.
ARCHS = {
    "Llama-3.1-8B (GQA)": dict(layers=32, kv_heads=8, head_dim=128),
    "Llama-2-7B (MHA)": dict(layers=32, kv_heads=32, head_dim=128),
    "Qwen2.5-7B (GQA 7:1)": dict(layers=28, kv_heads=4, head_dim=128),
    "Qwen3-8B (GQA, qk-norm)": dict(layers=36, kv_heads=8, head_dim=128),
    "Gemma-2-9B (head_dim 256)": dict(layers=42, kv_heads=8, head_dim=256),
    "DeepSeek-V2-Lite (MLA)": dict(layers=27, mla_latent=512, mla_rope=64),
}
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}

libc = ctypes.CDLL("libc.so.6")


class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
                 "fordblks", "keepcost")]


libc.mallinfo2.restype = MallInfo2
M_MMAP_THRESHOLD = -3
libc.mallopt(M_MMAP_THRESHOLD, 4096)  # every allocation ≥ 4 KiB is its own mmap: hblkhd = their bytes


def mmapped_bytes():
    return libc.mallinfo2().hblkhd


class LiveBytes:
    """Sum of storage bytes of the tensors it was shown, minus those already freed."""

    def __init__(self):
        self.live = 0
        self.peak = 0

    def track(self, tensor):
        size = tensor.element_size() * tensor.nelement()
        self.live += size
        self.peak = max(self.peak, self.live)
        weakref.finalize(tensor, self._free, size)
        return tensor

    def _free(self, size):
        self.live -= size


def paged_pool(arch, dtype, tokens, block_size=16):
    blocks = math.ceil(tokens / block_size)
    if "mla_latent" in arch:
        shape = (blocks, block_size, arch["mla_latent"] + arch["mla_rope"])
    else:
        shape = (2, blocks, block_size, arch["kv_heads"], arch["head_dim"])
    pool = [torch.empty(shape, dtype=dtype) for _ in range(arch["layers"])]
    total = sum(t.element_size() * t.nelement() for t in pool)
    return {"layout": "vllm paged", "block_size": block_size, "tokens": tokens, "num_blocks": blocks,
            "per_layer_shape": list(shape), "total_bytes": total,
            "bytes_per_token_slot": total // (blocks * block_size),
            "bytes_per_requested_token": total / tokens}


def static_cache(arch, dtype, tokens, batch=1):
    if "mla_latent" in arch:
        return None  # HF stores MLA as full K/V per head after up-projection; not measured here
    shape = (batch, arch["kv_heads"], tokens, arch["head_dim"])
    layers = [(torch.zeros(shape, dtype=dtype), torch.zeros(shape, dtype=dtype)) for _ in range(arch["layers"])]
    total = sum(k.element_size() * k.nelement() + v.element_size() * v.nelement() for k, v in layers)
    return {"layout": "hf static", "tokens": tokens, "per_layer_k_shape": list(shape), "total_bytes": total,
            "bytes_per_token": total / tokens}


def dynamic_cache_growth(arch, dtype, prompt, new_tokens):
    """Prefill stores the prompt's K/V as they are; each decode step cats one token per layer."""
    if "mla_latent" in arch:
        return None
    tracker = LiveBytes()
    base_mmap = mmapped_bytes()
    peak_mmap = 0
    shape = lambda n: (1, arch["kv_heads"], n, arch["head_dim"])  # noqa: E731
    keys = [tracker.track(torch.zeros(shape(prompt), dtype=dtype)) for _ in range(arch["layers"])]
    values = [tracker.track(torch.zeros(shape(prompt), dtype=dtype)) for _ in range(arch["layers"])]
    for _ in range(new_tokens):
        for layer in range(arch["layers"]):
            for cache in (keys, values):
                new_state = tracker.track(torch.ones(shape(1), dtype=dtype))
                grown = tracker.track(torch.cat([cache[layer], new_state], dim=-2))
                peak_mmap = max(peak_mmap, mmapped_bytes() - base_mmap)
                cache[layer] = grown
                del new_state, grown
    final_tokens = prompt + new_tokens
    final_bytes = sum(k.element_size() * k.nelement() + v.element_size() * v.nelement()
                      for k, v in zip(keys, values))
    final_mmap = mmapped_bytes() - base_mmap
    one_layer_k = final_bytes / (2 * arch["layers"])
    return {"layout": "hf dynamic (torch.cat per token)", "prompt_tokens": prompt, "decode_tokens": new_tokens,
            "final_tokens": final_tokens, "final_bytes": final_bytes, "bytes_per_token": final_bytes / final_tokens,
            "peak_live_tensor_bytes": tracker.peak, "peak_factor_live_tensors": tracker.peak / final_bytes,
            "final_mmapped_bytes": final_mmap, "peak_mmapped_bytes": peak_mmap,
            "peak_factor_mmapped": peak_mmap / final_mmap,
            "expected_peak_factor_one_old_tensor": (final_bytes + one_layer_k) / final_bytes,
            "note": "peak includes the old K (or V) of one layer alive during its cat plus the new token's state"}


def formula_bytes_per_token(arch, dtype):
    size = torch.tensor([], dtype=dtype).element_size()
    if "mla_latent" in arch:
        return arch["layers"] * (arch["mla_latent"] + arch["mla_rope"]) * size
    return 2 * arch["layers"] * arch["kv_heads"] * arch["head_dim"] * size


def main(out_path):
    torch.set_num_threads(1)
    result = {"what": "KV caches built with PyTorch on CPU in engine layouts; bytes from tensor storage "
                      "and glibc mmapped bytes", "torch_version": torch.__version__,
              "python": platform.python_version(), "machine": platform.machine(), "archs": []}
    for name, arch in ARCHS.items():
        entry = {"arch": name, "config": arch, "runs": []}
        for dtype_name in ("bf16", "fp16"):
            dtype = DTYPES[dtype_name]
            formula = formula_bytes_per_token(arch, dtype)
            for tokens in (1000, 4096):
                pool = paged_pool(arch, dtype, tokens)
                entry["runs"].append({"dtype": dtype_name, "formula_bytes_per_token": formula, **pool})
                static = static_cache(arch, dtype, tokens)
                if static:
                    entry["runs"].append({"dtype": dtype_name, "formula_bytes_per_token": formula, **static})
        growth = dynamic_cache_growth(arch, torch.bfloat16, prompt=64, new_tokens=192)
        if growth:
            entry["runs"].append({"dtype": "bf16", "formula_bytes_per_token": formula_bytes_per_token(arch, torch.bfloat16),
                                  **growth})
        result["archs"].append(entry)
        print(name, "done", flush=True)
    with open(out_path, "w") as out:
        json.dump(result, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "torch_kv_cpu.json")
