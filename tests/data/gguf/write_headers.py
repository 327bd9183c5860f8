#!/usr/bin/env python3
"""Write the header-only GGUF fixtures of tests/test_import_gguf.cpp.

Each file is the first bytes of a GGUF that bench/inference/write_gguf.py writes in full (same
metadata, same tensor infos, same offsets) up to the aligned start of the tensor data; the data
itself is left out (the reader reads headers only). llama.cpp's own numbers for the full files
(tensor bytes, file size, "model params") are in tests/data/inference/llamacpp_cpu_3.21.1.json.

Usage: python3 tests/data/gguf/write_headers.py   (numpy needed, as for write_gguf.py)
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "bench", "inference"))
import write_gguf as w  # noqa: E402

FIXTURES = [("llama-gqa", "Q4_0"), ("gemma3", "Q8_0"), ("mixtral", "Q4_0")]


class ShapesOnly:
    """Stands in for numpy's generator: the header needs the shapes, not the random values."""
    def standard_normal(self, count, dtype=None):
        return w.np.zeros(1, w.np.float32)


def header(name, weight_type):
    spec = w.MODELS[name]
    metadata = w.model_metadata(name, spec, weight_type)
    tensors = w.model_tensors(spec, weight_type, ShapesOnly())
    out = w.GGUF_MAGIC + struct.pack("<IQQ", w.GGUF_VERSION, len(tensors), len(metadata))
    for key, value in metadata:
        type_id, body = w.kv_value(value)
        out += w.gguf_string(key) + struct.pack("<I", type_id) + body
    offset = 0
    for tensor_name, shape, type_name, _ in tensors:
        out += w.gguf_string(tensor_name) + struct.pack("<I", len(shape)) + struct.pack(f"<{len(shape)}Q", *shape)
        out += struct.pack("<IQ", w.GGML_TYPES[type_name][0], offset)
        offset = w.pad_to(offset + w.expected_nbytes(shape, type_name))
    return out + b"\0" * (w.pad_to(len(out)) - len(out))


if __name__ == "__main__":
    for name, weight_type in FIXTURES:
        path = os.path.join(HERE, f"{name}-{weight_type}.header.gguf")
        data = header(name, weight_type)
        with open(path, "wb") as f:
            f.write(data)
        print(path, len(data))
