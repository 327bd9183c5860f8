#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_import_gguf: tiny GGUF v3 headers (8-token vocabularies) of a
llama, a Gemma 3 and a MoE, in the layout of bench/inference/write_gguf.py (no tensor data)."""
import os
import struct

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fuzz", "corpus", "fuzz_import_gguf")


def s(text):
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def kv(key, value):
    if isinstance(value, str):
        return s(key) + struct.pack("<I", 8) + s(value)
    if isinstance(value, float):
        return s(key) + struct.pack("<If", 6, value)
    if isinstance(value, list):
        return s(key) + struct.pack("<IIQ", 9, 8, len(value)) + b"".join(s(v) for v in value)
    return s(key) + struct.pack("<II", 4, value)


def header(arch, meta, tensors, ftype):
    md = [("general.architecture", arch), ("general.file_type", ftype)] + [(f"{arch}.{k}", v) for k, v in meta] + [
        ("tokenizer.ggml.tokens", [f"t{i}" for i in range(8)])]
    out = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(md)) + b"".join(kv(k, v) for k, v in md)
    for name, dims, type_id in tensors:
        out += s(name) + struct.pack("<I", len(dims)) + struct.pack(f"<{len(dims)}Q", *dims) + struct.pack("<IQ", type_id, 0)
    return out


def layer_tensors(i, h, q, kv_out, ff, mat, experts=0):
    p = f"blk.{i}."
    t = [(p + "attn_norm.weight", [h], 0), (p + "attn_q.weight", [h, q], mat), (p + "attn_k.weight", [h, kv_out], mat),
         (p + "attn_v.weight", [h, kv_out], mat), (p + "attn_output.weight", [q, h], mat), (p + "ffn_norm.weight", [h], 0)]
    if experts:
        return t + [(p + "ffn_gate_inp.weight", [h, experts], 0), (p + "ffn_gate_exps.weight", [h, ff, experts], mat),
                    (p + "ffn_up_exps.weight", [h, ff, experts], mat), (p + "ffn_down_exps.weight", [ff, h, experts], mat)]
    return t + [(p + "ffn_gate.weight", [h, ff], mat), (p + "ffn_up.weight", [h, ff], mat), (p + "ffn_down.weight", [ff, h], mat)]


base = [("context_length", 2048), ("embedding_length", 64), ("block_count", 2), ("feed_forward_length", 128),
        ("attention.head_count", 4), ("attention.head_count_kv", 2), ("attention.layer_norm_rms_epsilon", 1e-6)]
llama = [("token_embd.weight", [64, 8], 8), ("output_norm.weight", [64], 0), ("output.weight", [64, 8], 8)]
for i in range(2):
    llama += layer_tensors(i, 64, 64, 32, 128, 8)
gemma = [("token_embd.weight", [64, 8], 8), ("output_norm.weight", [64], 0)]
for i in range(2):
    gemma += layer_tensors(i, 64, 128, 32, 128, 8) + [(f"blk.{i}.attn_q_norm.weight", [32], 0),
                                                     (f"blk.{i}.attn_k_norm.weight", [32], 0),
                                                     (f"blk.{i}.post_attention_norm.weight", [64], 0),
                                                     (f"blk.{i}.post_ffw_norm.weight", [64], 0)]
moe = [("token_embd.weight", [64, 8], 2), ("output_norm.weight", [64], 0), ("output.weight", [64, 8], 2)]
for i in range(2):
    moe += layer_tensors(i, 64, 64, 32, 128, 2, experts=4)
seeds = {
    "llama-q8_0.gguf": header("llama", base, llama, 7),
    "gemma3-q8_0.gguf": header("gemma3", base[:5] + [("attention.head_count_kv", 1), ("attention.key_length", 32),
                                                     ("attention.value_length", 32), ("attention.sliding_window", 512),
                                                     ("attention.layer_norm_rms_epsilon", 1e-6)], gemma, 7),
    "moe-q4_0.gguf": header("llama", base + [("expert_count", 4), ("expert_used_count", 2)], moe, 2),
}
for name, data in seeds.items():
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
