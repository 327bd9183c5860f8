#!/usr/bin/env python3
"""Write small GGUF v3 files with random weights, for measuring llama.cpp's load-time buffers.

The writer follows the GGUF v3 layout (ggml's docs/gguf.md): header, key/value metadata,
tensor infos, padding to `general.alignment`, then the aligned tensor data. Quantised blocks
(Q8_0, Q4_0) are packed here by ggml's reference rules. Weights are random; only sizes matter.

Usage: python3 write_gguf.py OUT_DIR [--only NAME ...]   (writes OUT_DIR/<name>.gguf + manifest.json)
"""
import argparse
import json
import os
import struct
import sys

import numpy as np

GGUF_MAGIC = b"GGUF"
GGUF_VERSION = 3
ALIGNMENT = 32  # GGUF default when general.alignment is absent

# gguf value types (docs/gguf.md: enum gguf_metadata_value_type)
T_UINT32, T_INT32, T_FLOAT32, T_BOOL, T_STRING, T_ARRAY, T_UINT64 = 4, 5, 6, 7, 8, 9, 10

# ggml tensor types: id, block elements, bytes per block (ggml.h enum ggml_type; ggml-common.h blocks)
GGML_TYPES = {
    "F32": (0, 1, 4),
    "F16": (1, 1, 2),
    "Q4_0": (2, 32, 18),  # fp16 scale + 16 bytes of nibbles
    "Q8_0": (8, 32, 34),  # fp16 scale + 32 int8
}
# llama_ftype (llama.h) written as general.file_type
FILE_TYPE = {"F32": 0, "F16": 1, "Q4_0": 2, "Q8_0": 7}


def gguf_string(text):
    data = text.encode("utf-8")
    return struct.pack("<Q", len(data)) + data


def kv_value(value):
    """Encode one metadata value; returns (type id, bytes). Arrays hold one scalar type."""
    if isinstance(value, bool):
        return T_BOOL, struct.pack("<?", value)
    if isinstance(value, int):
        return T_UINT32, struct.pack("<I", value)
    if isinstance(value, float):
        return T_FLOAT32, struct.pack("<f", value)
    if isinstance(value, str):
        return T_STRING, gguf_string(value)
    if isinstance(value, tuple) and value[0] == "i32_array":
        items = value[1]
        return T_ARRAY, struct.pack("<IQ", T_INT32, len(items)) + np.asarray(items, "<i4").tobytes()
    if isinstance(value, tuple) and value[0] == "f32_array":
        items = value[1]
        return T_ARRAY, struct.pack("<IQ", T_FLOAT32, len(items)) + np.asarray(items, "<f4").tobytes()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        body = b"".join(gguf_string(v) for v in value)
        return T_ARRAY, struct.pack("<IQ", T_STRING, len(value)) + body
    raise TypeError(f"unsupported metadata value {value!r}")


def quantize_q8_0(x):
    """ggml reference: d = max|x| / 127, q = round(x / d) in int8, block = {fp16 d, int8 q[32]}."""
    blocks = x.reshape(-1, 32).astype(np.float32)
    amax = np.abs(blocks).max(axis=1)
    d = amax / 127.0
    inv = np.where(d > 0, 1.0 / np.where(d > 0, d, 1.0), 0.0)
    q = np.round(blocks * inv[:, None]).astype(np.int8)
    out = np.empty(len(blocks), dtype=[("d", "<f2"), ("qs", "i1", 32)])
    out["d"] = d.astype(np.float16)
    out["qs"] = q
    return out.tobytes()


def quantize_q4_0(x):
    """ggml reference: d = (signed value of max |x|) / -8, q = min(15, trunc(x/d + 8.5)),
    byte j holds element j in the low nibble and element j+16 in the high nibble."""
    blocks = x.reshape(-1, 32).astype(np.float32)
    idx = np.abs(blocks).argmax(axis=1)
    vmax = blocks[np.arange(len(blocks)), idx]
    d = vmax / -8.0
    inv = np.where(d != 0, 1.0 / np.where(d != 0, d, 1.0), 0.0)
    q = np.minimum(15, np.trunc(blocks * inv[:, None] + 8.5)).astype(np.uint8)
    packed = q[:, :16] | (q[:, 16:] << 4)
    out = np.empty(len(blocks), dtype=[("d", "<f2"), ("qs", "u1", 16)])
    out["d"] = d.astype(np.float16)
    out["qs"] = packed
    return out.tobytes()


def tensor_bytes(values, type_name):
    if type_name == "F32":
        return values.astype("<f4").tobytes()
    if type_name == "F16":
        return values.astype("<f2").tobytes()
    if type_name == "Q8_0":
        return quantize_q8_0(values)
    if type_name == "Q4_0":
        return quantize_q4_0(values)
    raise ValueError(type_name)


def expected_nbytes(shape, type_name):
    """ggml_nbytes for a contiguous tensor: rows of ne[0]/block blocks times bytes per block."""
    _, block, block_bytes = GGML_TYPES[type_name]
    assert shape[0] % block == 0, f"ne[0]={shape[0]} not a multiple of {block} for {type_name}"
    count = 1
    for n in shape[1:]:
        count *= n
    return shape[0] // block * block_bytes * count


def pad_to(n, alignment=ALIGNMENT):
    return (n + alignment - 1) // alignment * alignment


def write_gguf(path, metadata, tensors):
    """metadata: list of (key, value); tensors: list of (name, shape ne0-first, type, ndarray)."""
    header = GGUF_MAGIC + struct.pack("<IQQ", GGUF_VERSION, len(tensors), len(metadata))
    kv_part = b""
    for key, value in metadata:
        type_id, body = kv_value(value)
        kv_part += gguf_string(key) + struct.pack("<I", type_id) + body
    infos = b""
    offset = 0
    blobs = []
    for name, shape, type_name, values in tensors:
        blob = tensor_bytes(values, type_name)
        assert len(blob) == expected_nbytes(shape, type_name), name
        infos += gguf_string(name) + struct.pack("<I", len(shape))
        infos += struct.pack(f"<{len(shape)}Q", *shape)
        infos += struct.pack("<IQ", GGML_TYPES[type_name][0], offset)
        blobs.append((offset, blob))
        offset = pad_to(offset + len(blob))
    prefix = header + kv_part + infos
    data_start = pad_to(len(prefix))
    with open(path, "wb") as out:
        out.write(prefix + b"\0" * (data_start - len(prefix)))
        for tensor_offset, blob in blobs:
            out.seek(data_start + tensor_offset)
            out.write(blob)
        out.truncate(data_start + offset)
    return {"data_offset": data_start, "data_bytes": offset,
            "tensor_bytes": sum(len(b) for _, b in blobs), "file_bytes": data_start + offset}


def spm_vocab(n_vocab):
    """A SentencePiece-style ('llama') vocabulary: <unk>, <s>, </s>, 256 byte tokens, then pieces."""
    tokens = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)]
    types = [2, 3, 3] + [6] * 256  # llama_token_type: UNKNOWN=2, CONTROL=3, BYTE=6, NORMAL=1
    pieces = ["\u2581"] + [chr(c) for c in range(33, 127)] + ["\u2581" + chr(c) for c in range(97, 123)]
    i = 0
    while len(tokens) < n_vocab:
        tokens.append(pieces[i] if i < len(pieces) else f"\u2581tok{i}")
        types.append(1)
        i += 1
    scores = [0.0] * 259 + [-float(k) for k in range(n_vocab - 259)]
    return tokens[:n_vocab], scores[:n_vocab], types[:n_vocab]


# Small models. head_dim is written explicitly (attention.key_length / value_length) where set.
MODELS = {
    "llama-gqa": dict(arch="llama", n_layer=4, n_embd=512, n_head=8, n_head_kv=2, n_ff=1376, n_vocab=32000),
    "llama-mha": dict(arch="llama", n_layer=4, n_embd=512, n_head=8, n_head_kv=8, n_ff=1376, n_vocab=32000),
    "qwen2": dict(arch="qwen2", n_layer=4, n_embd=512, n_head=8, n_head_kv=2, n_ff=1376, n_vocab=32000,
                  qkv_bias=True),
    "qwen3": dict(arch="qwen3", n_layer=4, n_embd=512, n_head=8, n_head_kv=2, head_dim=128, n_ff=1376,
                  n_vocab=32000, qk_norm=True),
    "gemma3": dict(arch="gemma3", n_layer=6, n_embd=512, n_head=4, n_head_kv=1, head_dim=256, n_ff=1376,
                   n_vocab=32000, qk_norm=True, post_norms=True, sliding_window=512, swa_pattern=6,
                   tied_embeddings=True),
    "mixtral": dict(arch="llama", n_layer=4, n_embd=512, n_head=8, n_head_kv=2, n_ff=1376, n_vocab=32000,
                    n_expert=4, n_expert_used=2),
    # the same llama with one dimension changed, to separate the terms of the compute buffer
    "llama-v8k": dict(arch="llama", n_layer=4, n_embd=512, n_head=8, n_head_kv=2, n_ff=1376, n_vocab=8192),
    "llama-v128k": dict(arch="llama", n_layer=4, n_embd=512, n_head=8, n_head_kv=2, n_ff=1376, n_vocab=128256,
                        tied_embeddings=True),
    "llama-h1024": dict(arch="llama", n_layer=4, n_embd=1024, n_head=16, n_head_kv=4, n_ff=2816, n_vocab=32000),
    "gemma2": dict(arch="gemma2", n_layer=4, n_embd=512, n_head=8, n_head_kv=4, head_dim=128, n_ff=1376,
                   n_vocab=32000, post_norms=True, sliding_window=1024, swa_pattern=2, tied_embeddings=True),
}
# which (model, weight type) files to write: the GQA llama in every type, the others in F16 (+Q8_0 MoE)
FILES = [("llama-gqa", t) for t in ("F32", "F16", "Q8_0", "Q4_0")] + [
    ("llama-mha", "F16"), ("qwen2", "F16"), ("qwen3", "F16"), ("gemma3", "F16"),
    ("gemma3", "Q8_0"), ("mixtral", "F16"), ("mixtral", "Q4_0"), ("gemma2", "F16"),
    ("llama-v8k", "F16"), ("llama-v128k", "Q8_0"), ("llama-h1024", "F16")]


def model_metadata(name, spec, weight_type):
    a = spec["arch"]
    tokens, scores, types = spm_vocab(spec["n_vocab"])
    md = [("general.architecture", a), ("general.name", f"vramcalc-random-{name}"),
          ("general.file_type", FILE_TYPE[weight_type]),
          (f"{a}.context_length", 32768), (f"{a}.embedding_length", spec["n_embd"]),
          (f"{a}.block_count", spec["n_layer"]), (f"{a}.feed_forward_length", spec["n_ff"]),
          (f"{a}.attention.head_count", spec["n_head"]), (f"{a}.attention.head_count_kv", spec["n_head_kv"]),
          (f"{a}.attention.layer_norm_rms_epsilon", 1e-6), (f"{a}.rope.freq_base", 10000.0)]
    if "head_dim" in spec:
        md += [(f"{a}.attention.key_length", spec["head_dim"]), (f"{a}.attention.value_length", spec["head_dim"])]
    if a == "llama":
        md.append((f"{a}.rope.dimension_count", spec.get("head_dim", spec["n_embd"] // spec["n_head"])))
    if "sliding_window" in spec:
        md += [(f"{a}.attention.sliding_window", spec["sliding_window"]),
               (f"{a}.attention.sliding_window_pattern", spec["swa_pattern"])]
    if "n_expert" in spec:
        md += [(f"{a}.expert_count", spec["n_expert"]), (f"{a}.expert_used_count", spec["n_expert_used"])]
    md += [("tokenizer.ggml.model", "llama"), ("tokenizer.ggml.tokens", tokens),
           ("tokenizer.ggml.scores", ("f32_array", scores)), ("tokenizer.ggml.token_type", ("i32_array", types)),
           ("tokenizer.ggml.bos_token_id", 1), ("tokenizer.ggml.eos_token_id", 2),
           ("tokenizer.ggml.unknown_token_id", 0)]
    return md


def model_tensors(spec, weight_type, rng):
    """(name, shape ne0-first, type) per tensor as llama.cpp's loader expects for the architecture."""
    h, ff, v = spec["n_embd"], spec["n_ff"], spec["n_vocab"]
    hd = spec.get("head_dim", h // spec["n_head"])
    q_out, kv_out = hd * spec["n_head"], hd * spec["n_head_kv"]
    mat, vec = weight_type, "F32"  # norms and biases stay F32, as llama.cpp's quantizer keeps 1-D tensors
    out = [("token_embd.weight", [h, v], mat), ("output_norm.weight", [h], vec)]
    if not spec.get("tied_embeddings"):
        out.append(("output.weight", [h, v], mat))
    for i in range(spec["n_layer"]):
        p = f"blk.{i}."
        out += [(p + "attn_norm.weight", [h], vec), (p + "attn_q.weight", [h, q_out], mat),
                (p + "attn_k.weight", [h, kv_out], mat), (p + "attn_v.weight", [h, kv_out], mat),
                (p + "attn_output.weight", [q_out, h], mat), (p + "ffn_norm.weight", [h], vec)]
        if spec.get("qkv_bias"):
            out += [(p + "attn_q.bias", [q_out], vec), (p + "attn_k.bias", [kv_out], vec),
                    (p + "attn_v.bias", [kv_out], vec)]
        if spec.get("qk_norm"):
            out += [(p + "attn_q_norm.weight", [hd], vec), (p + "attn_k_norm.weight", [hd], vec)]
        if spec.get("post_norms"):
            out += [(p + "post_attention_norm.weight", [h], vec), (p + "post_ffw_norm.weight", [h], vec)]
        if "n_expert" in spec:
            e = spec["n_expert"]
            out += [(p + "ffn_gate_inp.weight", [h, e], vec), (p + "ffn_gate_exps.weight", [h, ff, e], mat),
                    (p + "ffn_up_exps.weight", [h, ff, e], mat), (p + "ffn_down_exps.weight", [ff, h, e], mat)]
        else:
            out += [(p + "ffn_gate.weight", [h, ff], mat), (p + "ffn_up.weight", [h, ff], mat),
                    (p + "ffn_down.weight", [ff, h], mat)]
    result = []
    for name, shape, type_name in out:
        count = int(np.prod(shape))
        values = np.ones(count, np.float32) if name.endswith("norm.weight") else \
            rng.standard_normal(count, dtype=np.float32) * np.float32(0.02)
        result.append((name, shape, type_name, values))
    return result


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("--only", nargs="*", help="file stems to write, e.g. llama-gqa-F16")
    args = parser.parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    manifest = {}
    for name, weight_type in FILES:
        stem = f"{name}-{weight_type}"
        if args.only and stem not in args.only:
            continue
        spec = MODELS[name]
        rng = np.random.default_rng(24)
        tensors = model_tensors(spec, weight_type, rng)
        info = write_gguf(os.path.join(args.out_dir, stem + ".gguf"),
                          model_metadata(name, spec, weight_type), tensors)
        info.update(model=name, weight_type=weight_type, spec=spec,
                    tensors={t[0]: {"shape": t[1], "type": t[2], "bytes": expected_nbytes(t[1], t[2])}
                             for t in tensors})
        manifest[stem] = info
        print(f"{stem}: {info['file_bytes']} bytes, tensor data {info['tensor_bytes']}", flush=True)
    with open(os.path.join(args.out_dir, "manifest.json"), "w") as out:
        json.dump(manifest, out, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
