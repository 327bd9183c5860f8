#!/usr/bin/python3
"""vramcalc CPU memory harness: saved-tensor bytes and per-phase allocation peaks of tiny
GPT-2 / Llama / Qwen2 training steps, measured with torch 1.13 on CPU.

Run (from the repository root):  nice /usr/bin/python3 bench/memory/measure.py [--quick] [--out PATH]
The script compiles bench/memory/alloc_shim.c into a temporary directory and re-executes itself
with LD_PRELOAD set to it. See bench/memory/README.md for what every number means.
Not part of CI: it takes ~20 minutes on one core.
"""
from __future__ import annotations

import argparse
import contextlib
import ctypes
import datetime
import gc
import itertools
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import warnings
import weakref

HERE = os.path.dirname(os.path.abspath(__file__))
SHIM_ENV = "VRAMCALC_ALLOC_SHIM"


def reexec_under_shim() -> None:
    """Build the allocation shim and re-run this script with LD_PRELOAD pointing to it."""
    if os.environ.get(SHIM_ENV):
        return
    build_dir = tempfile.mkdtemp(prefix="vramcalc-shim-")
    lib = os.path.join(build_dir, "alloc_shim.so")
    subprocess.check_call(["gcc", "-O2", "-Wall", "-shared", "-fPIC", "-o", lib,
                           os.path.join(HERE, "alloc_shim.c"), "-ldl"])
    env = dict(os.environ)
    env[SHIM_ENV] = lib
    env["LD_PRELOAD"] = (lib + " " + env.get("LD_PRELOAD", "")).strip()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    # Optional faster fp32 GEMM: a directory holding an OpenBLAS libblas.so.3 (Debian's torch links the
    # reference BLAS through libblas.so.3). BLAS allocates no tensors, so the numbers do not change.
    blas_dir = os.environ.get("VRAMCALC_BLAS_DIR")
    if blas_dir:
        env["LD_LIBRARY_PATH"] = (blas_dir + ":" + env.get("LD_LIBRARY_PATH", "")).rstrip(":")
    os.execve(sys.executable, [sys.executable] + sys.argv, env)


if __name__ == "__main__":
    reexec_under_shim()

import torch  # noqa: E402  (imported after the re-exec so the shim sees every allocation)
import torch.nn as nn  # noqa: E402

sys.path.insert(0, HERE)
import mirrors  # noqa: E402
from mirrors import CausalLM, ModelShape, Scope  # noqa: E402

warnings.filterwarnings("ignore")


# --------------------------------------------------------------------------------------------------
# Allocation counters (alloc_shim.c)
# --------------------------------------------------------------------------------------------------
class Shim:
    def __init__(self):
        lib = ctypes.CDLL(None)
        for name in ("shim_tensor_current", "shim_tensor_peak", "shim_heap_current", "shim_heap_peak",
                     "shim_tensor_count"):
            getattr(lib, name).restype = ctypes.c_int64
        self.lib = lib

    def cur(self) -> int:
        return self.lib.shim_tensor_current()

    def peak(self) -> int:
        return self.lib.shim_tensor_peak()

    def heap(self) -> int:
        return self.lib.shim_heap_current()

    def heap_peak(self) -> int:
        return self.lib.shim_heap_peak()

    def reset(self) -> None:
        self.lib.shim_reset_peak()

    def reset_tensor_peak(self) -> None:
        self.lib.shim_reset_tensor_peak()


SHIM: Shim | None = None


class Phase:
    """Peak and end values of both counters over a block, relative to a baseline."""

    def __init__(self, base_tensor: int, base_heap: int):
        self.base_tensor, self.base_heap = base_tensor, base_heap

    def __enter__(self):
        SHIM.reset()
        self.start = SHIM.cur() - self.base_tensor
        self.start_heap = SHIM.heap() - self.base_heap
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self.peak = SHIM.peak() - self.base_tensor
        self.end = SHIM.cur() - self.base_tensor
        self.heap_peak = SHIM.heap_peak() - self.base_heap
        self.heap_end = SHIM.heap() - self.base_heap

    def as_dict(self) -> dict:
        return {"start": self.start, "peak": self.peak, "end": self.end,
                "heap_start": self.start_heap, "heap_peak": self.heap_peak, "heap_end": self.heap_end}


# --------------------------------------------------------------------------------------------------
# Saved-tensor tracker
# --------------------------------------------------------------------------------------------------
def storage_key(t: torch.Tensor):
    st = t.storage()
    return st.data_ptr(), st.nbytes()


def component_of(module_path: str) -> str:
    parts = module_path.split(".")
    for anchor in ("layers", "h"):
        if anchor in parts:
            i = parts.index(anchor)
            if i + 1 < len(parts) and parts[i + 1].isdigit():
                return f"layer.{parts[i + 1]}"
    if module_path.startswith(("model.embed_tokens", "transformer.wte", "transformer.wpe", "transformer.drop",
                               "model.rotary_emb")):
        return "embedding"
    if module_path in ("model.norm", "transformer.ln_f"):
        return "final_norm"
    if module_path.startswith("lm_head"):
        return "lm_head"
    if module_path.startswith("loss"):
        return "loss"
    return "model_top"


def is_weight_cast(t: torch.Tensor) -> bool:
    """A bf16 copy of a parameter made by autocast (ToCopyBackward0 -> AccumulateGrad), or a view of
    one (F.linear saves weight.t())."""
    while t._base is not None:
        t = t._base
    fn = t.grad_fn
    if fn is None or type(fn).__name__ != "ToCopyBackward0":
        return False
    nxt = fn.next_functions
    return bool(nxt) and nxt[0][0] is not None and type(nxt[0][0]).__name__ == "AccumulateGrad"


class SavedTracker:
    """saved_tensors_hooks pack hook + module-name stack: records each saved tensor's storage, shape,
    dtype and the module that saved it. Holds no reference to any tensor."""

    def __init__(self, model: nn.Module):
        self.model = model
        self.records: list[dict] = []
        self.param_ptrs = {p.storage().data_ptr() for p in model.parameters()}
        self.param_ptrs |= {b.storage().data_ptr() for b in model.buffers()}
        self.handles = []
        for name, module in model.named_modules():
            if name:
                self.handles.append(module.register_forward_pre_hook(self._pre(name)))
                self.handles.append(module.register_forward_hook(self._post))

    def _pre(self, name):
        def hook(module, inputs):
            Scope.stack.append(name)
        return hook

    @staticmethod
    def _post(module, inputs, output):
        Scope.stack.pop()

    def remove(self):
        for h in self.handles:
            h.remove()

    def _record(self, t: torch.Tensor, how: str):
        ptr, nbytes = storage_key(t)
        kind = "activation"
        if ptr in self.param_ptrs:
            kind = "parameter"
        elif is_weight_cast(t):
            kind = "weight_cast"
        self.records.append({
            "ptr": ptr, "nbytes": nbytes, "shape": list(t.shape), "stride": list(t.stride()),
            "offset": t.storage_offset(), "dtype": str(t.dtype).replace("torch.", ""),
            "module": Scope.current(), "kind": kind, "how": how,
        })

    def pack(self, t):
        self._record(t, "autograd")
        return t

    @staticmethod
    def unpack(t):
        return t

    @contextlib.contextmanager
    def active(self):
        mirrors.EXTERNAL_SAVE_CALLBACK[0] = lambda t, what: self._record(t, what)
        try:
            with torch.autograd.graph.saved_tensors_hooks(self.pack, self.unpack):
                yield
        finally:
            mirrors.EXTERNAL_SAVE_CALLBACK[0] = None

    def label_ops(self, roots) -> None:
        """Name the autograd op (Node + saved attribute) of every recorded tensor by walking the graph."""
        key_to_op = {}
        seen, todo = set(), [r for r in roots if r is not None]
        while todo:
            node = todo.pop()
            if node in seen:
                continue
            seen.add(node)
            tensors = []
            name = type(node).__name__
            for attr in dir(node):
                if attr.startswith("_saved_"):
                    try:
                        val = getattr(node, attr)
                    except Exception:
                        continue
                    vals = val if isinstance(val, (list, tuple)) else [val]
                    tensors += [(f"{name}.{attr[7:]}", v) for v in vals if isinstance(v, torch.Tensor)]
            if not tensors and hasattr(node, "saved_tensors"):
                try:
                    tensors = [(f"{name}.saved[{i}]", v) for i, v in enumerate(node.saved_tensors)
                               if isinstance(v, torch.Tensor)]
                except Exception:
                    pass
            for op, v in tensors:
                try:
                    key = (v.storage().data_ptr(), v.storage_offset(), tuple(v.shape), tuple(v.stride()))
                except Exception:
                    continue
                key_to_op.setdefault(key, []).append(op)
            todo += [n for n, _ in node.next_functions if n is not None]
        for r in self.records:
            ops = key_to_op.get((r["ptr"], r["offset"], tuple(r["shape"]), tuple(r["stride"])))
            if ops:
                r["ops"] = sorted(set(ops))

    def summary(self, detail_components: set[str]) -> dict:
        """Unique storages, each counted once, for the component that saved it first."""
        claimed: dict[int, str] = {}
        comps: dict[str, dict] = {}
        for r in self.records:
            comp = component_of(r["module"])
            c = comps.setdefault(comp, {"activation_bytes": 0, "weight_cast_bytes": 0, "tensors": []})
            if r["kind"] == "parameter":
                continue
            if r["ptr"] in claimed:
                # counted where first saved; listed here too, for reference
                if claimed[r["ptr"]] != comp and comp in detail_components:
                    c["tensors"].append(_tensor_entry(r, shared_with=claimed[r["ptr"]]))
                continue
            claimed[r["ptr"]] = comp
            c["weight_cast_bytes" if r["kind"] == "weight_cast" else "activation_bytes"] += r["nbytes"]
            if comp in detail_components:
                c["tensors"].append(_tensor_entry(r))
        for comp, c in comps.items():
            if comp not in detail_components:
                del c["tensors"]
        total = sum(c["activation_bytes"] for c in comps.values())
        casts = sum(c["weight_cast_bytes"] for c in comps.values())
        return {"components": comps, "total_activation_bytes": total, "total_weight_cast_bytes": casts,
                "tensor_count": len(claimed)}


def _tensor_entry(r: dict, shared_with: str | None = None) -> dict:
    e = {"shape": r["shape"], "dtype": r["dtype"], "storage_bytes": r["nbytes"], "module": r["module"],
         "kind": r["kind"]}
    if r.get("ops"):
        e["ops"] = r["ops"]
    if r["how"] != "autograd":
        e["held_by"] = r["how"]
    if shared_with:
        e["already_saved_by"] = shared_with
    return e


class BackwardMarks:
    """Tensor hooks at the backward boundaries (logits, each layer's output and input): at each one the
    live bytes and the peak since the previous boundary are recorded, so every window's working set
    (peak minus live bytes at the window's start) can be read per layer."""

    def __init__(self, base: int):
        self.base = base
        self.marks: list[dict] = []
        self.watched: dict[int, tuple] = {}  # id -> (weakref, labels); no strong reference is kept

    def watch(self, tensor, label: str):
        if not isinstance(tensor, torch.Tensor) or not tensor.requires_grad:
            return
        entry = self.watched.get(id(tensor))
        if entry is None or entry[0]() is not tensor:
            labels: list[str] = []
            self.watched[id(tensor)] = (weakref.ref(tensor), labels)

            def hook(grad, labels=labels):
                self.marks.append({"at": " | ".join(labels), "live": SHIM.cur() - self.base,
                                   "peak_since_previous": SHIM.peak() - self.base})
                SHIM.reset_tensor_peak()
            tensor.register_hook(hook)
            entry = self.watched[id(tensor)]
        entry[1].append(label)

    def layer_callback(self, name, inputs, output):
        self.watch(output, f"grad of {name} output")
        self.watch(inputs, f"grad of {name} input")

    def watch_blocks(self, model: nn.Module) -> list:
        """Also mark the attention and MLP blocks inside each layer (forward hooks, removed after forward)."""
        handles = []
        for name, module in model.named_modules():
            if name.endswith((".self_attn", ".attn", ".mlp")):
                def hook(mod, inputs, output, name=name):
                    self.watch(output, f"grad of {name} output")
                    self.watch(inputs[0], f"grad of {name} input")
                handles.append(module.register_forward_hook(hook))
        return handles

    def release(self):
        self.watched = {}

    def windows(self, start_live: int) -> list[dict]:
        out, live = [], start_live
        for m in self.marks:
            out.append({"until": m["at"], "live_at_start": live, "peak": m["peak_since_previous"],
                        "live_at_end": m["live"], "working_set": m["peak_since_previous"] - live})
            live = m["live"]
        return out


def watch_outputs(marks: BackwardMarks, outputs) -> None:
    if isinstance(outputs, list):
        for k, chunk in enumerate(outputs):
            marks.watch(chunk, f"grad of model output chunk {k}")
    else:
        marks.watch(outputs, "grad of model output")


# --------------------------------------------------------------------------------------------------
# One record: build, 2 optimizer steps (first + later) with grad-accumulation micro-batches
# --------------------------------------------------------------------------------------------------
PRECISIONS = ("fp32", "bf16", "amp_bf16")


def tensor_bytes(tensors) -> int:
    seen, total = set(), 0
    for t in tensors:
        if t is None:
            continue
        ptr, nbytes = storage_key(t)
        if ptr not in seen:
            seen.add(ptr)
            total += nbytes
    return total


def make_optimizer(name: str, impl: str, params):
    foreach = impl == "foreach"
    if name == "adamw":
        return torch.optim.AdamW(params, lr=1e-4, weight_decay=0.01, foreach=foreach)
    if name == "sgd_momentum":
        return torch.optim.SGD(params, lr=1e-3, momentum=0.9, foreach=foreach)
    raise ValueError(f"optimizer: unknown value {name!r}")


def cast_param_count(model: CausalLM) -> int:
    """Parameters that autocast casts to bf16 (and caches): weights and biases of the matmul layers
    (nn.Linear, GPT-2 Conv1D via addmm), the LM head once even when tied to the embedding."""
    seen, n = set(), 0
    for module in model.modules():
        if isinstance(module, (nn.Linear, mirrors.Conv1D)):
            for p in module.parameters(recurse=False):
                if id(p) not in seen:
                    seen.add(id(p))
                    n += p.numel()
    return n


def autocast_cache_bytes(model: CausalLM, input_ids) -> int:
    """Bytes held by autocast's cast cache after a no-grad forward: freed when the context exits."""
    with torch.no_grad():
        with torch.autocast("cpu", dtype=torch.bfloat16):
            out = model(input_ids)
            del out
            inside = SHIM.cur()
        after = SHIM.cur()
    return inside - after


def run_record(cfg: dict) -> dict:
    m, t = cfg["model"], cfg["training"]
    torch.manual_seed(0)
    gc.collect()
    mirrors.KERNEL_EMULATION[0] = t["kernel_emulation"]
    base_tensor, base_heap = SHIM.cur(), SHIM.heap()
    shape = ModelShape(family=m["family"], hidden=m["hidden_size"], heads=m["num_heads"], kv_heads=m["num_kv_heads"],
                       ffn=m["ffn_hidden_size"], vocab=m["vocab_size"], layers=m["layers"])
    model = CausalLM(shape, cfg["attention"], t["recompute"], t["loss"], t["loss_chunks"] or 8,
                     fused_impl=t.get("fused_impl", "recompute"))
    if t["precision"] == "bf16":
        model.to(torch.bfloat16)
    model.train()
    params = list(model.parameters())
    n_params = sum(p.numel() for p in params)
    weights_bytes = tensor_bytes(params)
    buffers_bytes = tensor_bytes(list(model.buffers()))
    after_build = SHIM.cur() - base_tensor
    opt = make_optimizer(t["optimizer"], t["optimizer_impl"], params)

    s, b, ga = t["seq_len"], t["micro_batch_size"], t["grad_accum_steps"]
    gen = torch.Generator().manual_seed(1)
    batches = [torch.randint(0, shape.vocab, (b, s), generator=gen) for _ in range(ga * 2)]
    num_items = torch.tensor(float(ga * b * (s - 1)))
    inputs_bytes = tensor_bytes(batches) + tensor_bytes([num_items])
    amp = t["precision"] == "amp_bf16"

    def emulation():
        if amp and t["kernel_emulation"] == "cuda":
            return mirrors.CudaAutocastOpLists()
        return contextlib.nullcontext()

    cache_bytes = None
    if amp:
        with emulation():
            cache_bytes = autocast_cache_bytes(model, batches[0])

    saved = None
    steps = []
    opt.zero_grad(set_to_none=True)
    for step in range(2):
        micro = []
        for mb in range(ga):
            ids = batches[step * ga + mb]
            track = step == 0 and mb == 0
            tracker = SavedTracker(model) if track else None
            marks = BackwardMarks(base_tensor) if track else None
            mirrors.LAYER_BOUNDARY_CALLBACK[0] = marks.layer_callback if track else None
            block_hooks = marks.watch_blocks(model) if track else []
            rec = {}
            autocast = torch.autocast("cpu", dtype=torch.bfloat16) if amp else contextlib.nullcontext()
            with (tracker.active() if track else contextlib.nullcontext()):
                fwd = Phase(base_tensor, base_heap).__enter__()
                with autocast, emulation():
                    outputs = model(ids)
                    fwd.close()
                    for handle in block_hooks:
                        handle.remove()
                    rec_output_bytes = tensor_bytes(outputs if isinstance(outputs, list) else [outputs])
                    if track:
                        watch_outputs(marks, outputs)
                    loss_phase = Phase(base_tensor, base_heap).__enter__()
                    loss = model.compute_loss(outputs, ids, num_items)
                    in_autocast_end = SHIM.cur() - base_tensor
                    if track and t["recompute"] == "none":
                        tracker.label_ops([loss.grad_fn])
                    del outputs  # Trainer.compute_loss returns the loss only: logits die here
                    before_exit = SHIM.cur() - base_tensor
                loss_phase.close()
            rec["forward"] = dict(fwd.as_dict(), output_bytes=rec_output_bytes)
            rec["loss"] = loss_phase.as_dict()
            rec["loss"]["end_with_logits_alive"] = in_autocast_end
            rec["loss"]["freed_at_autocast_exit"] = before_exit - loss_phase.end
            if track:
                detail = {f"layer.{shape.layers - 1}", "layer.0", "embedding", "final_norm", "lm_head", "loss",
                          "model_top"} if cfg["shape_id"] in DETAIL_SHAPES else set()
                saved = tracker.summary(detail_components=detail)
                tracker.remove()
                del tracker
            mirrors.LAYER_BOUNDARY_CALLBACK[0] = None
            with Phase(base_tensor, base_heap) as bwd:
                loss.backward()
                del loss
            if track:
                windows = marks.windows(bwd.start)
                last_live = marks.marks[-1]["live"] if marks.marks else bwd.start
                windows.append({"until": "end of backward", "live_at_start": last_live, "peak": bwd.peak,
                                "live_at_end": bwd.end, "working_set": bwd.peak - last_live})
                bwd.peak = max(w["peak"] for w in windows)  # the hooks restarted the tensor peak
                marks.release()
            rec["backward"] = bwd.as_dict()
            if track:
                rec["backward"]["windows"] = windows
            micro.append(rec)
        grads_bytes = tensor_bytes([p.grad for p in params])
        with Phase(base_tensor, base_heap) as ph_opt:
            opt.step()
            after_step = SHIM.cur() - base_tensor
            opt.zero_grad(set_to_none=True)
        state_tensors = [v for st in opt.state.values() for v in st.values() if isinstance(v, torch.Tensor)]
        opt_state_bytes = tensor_bytes(state_tensors)
        steps.append({"micro_batches": micro, "grads_bytes": grads_bytes,
                      "optimizer_step": dict(ph_opt.as_dict(), after_step_before_zero_grad=after_step),
                      "optimizer_state_bytes": opt_state_bytes})

    result = {
        "param_count": n_params, "weights_bytes": weights_bytes, "buffers_bytes": buffers_bytes,
        "after_build_bytes": after_build, "inputs_bytes": inputs_bytes,
        "grads_bytes": steps[0]["grads_bytes"], "optimizer_state_bytes": steps[-1]["optimizer_state_bytes"],
        "optimizer_state_tensor_count": len([v for st in opt.state.values() for v in st.values()
                                             if isinstance(v, torch.Tensor)]),
        "autocast_cache_bytes": cache_bytes,
        "cast_param_count": cast_param_count(model),
        "saved": saved, "steps": steps,
    }
    del model, opt, params, batches, state_tensors
    gc.collect()
    result["leak_bytes"] = SHIM.cur() - base_tensor
    return result


# --------------------------------------------------------------------------------------------------
# The measurement plan
# --------------------------------------------------------------------------------------------------
# Shapes chosen so that s·b·h, s·b·f, s·b·(kv width), a·s²·b, s·b and s·b·V vary independently.
SHAPES = {
    "S1": dict(hidden=256, heads=4, kv=2, ffn=688, vocab=4000, layers=2, seq=96, batch=2),
    "S2": dict(hidden=256, heads=4, kv=2, ffn=688, vocab=4000, layers=2, seq=192, batch=1),
    "S3": dict(hidden=256, heads=4, kv=2, ffn=1024, vocab=4000, layers=2, seq=96, batch=2),
    "S4": dict(hidden=384, heads=6, kv=2, ffn=1024, vocab=4000, layers=2, seq=96, batch=2),
    "S5": dict(hidden=256, heads=8, kv=4, ffn=688, vocab=4000, layers=2, seq=96, batch=2),
    "S6": dict(hidden=256, heads=4, kv=4, ffn=688, vocab=8000, layers=3, seq=80, batch=4),
    "S7": dict(hidden=256, heads=4, kv=1, ffn=688, vocab=2000, layers=2, seq=160, batch=2),
    "S9": dict(hidden=192, heads=3, kv=1, ffn=512, vocab=3000, layers=2, seq=112, batch=2),
    "S10": dict(hidden=256, heads=2, kv=2, ffn=768, vocab=4000, layers=2, seq=144, batch=1),
}
# Records of these shapes also list every saved tensor (shape, dtype, module, autograd op).
DETAIL_SHAPES = {"S1", "S8", "W1", "W8"}
# Long-sequence shapes where, as in real runs, tokens ≫ hidden and s ≫ head_dim (activations dominate
# the parameters): used for the backward working set of a layer.
WIDE = {
    "W1": dict(hidden=128, heads=2, kv=1, ffn=344, vocab=2000, layers=2, seq=512, batch=2),
    "W2": dict(hidden=128, heads=2, kv=1, ffn=344, vocab=2000, layers=2, seq=256, batch=4),
    "W3": dict(hidden=192, heads=3, kv=1, ffn=512, vocab=2000, layers=2, seq=384, batch=2),
    "W4": dict(hidden=128, heads=4, kv=2, ffn=344, vocab=2000, layers=2, seq=512, batch=1),
    "W5": dict(hidden=128, heads=2, kv=2, ffn=512, vocab=2000, layers=2, seq=320, batch=2),
    "W6": dict(hidden=160, heads=5, kv=1, ffn=432, vocab=2000, layers=2, seq=256, batch=2),
    "W7": dict(hidden=128, heads=2, kv=1, ffn=688, vocab=2000, layers=2, seq=448, batch=2),
    "W8": dict(hidden=128, heads=2, kv=1, ffn=344, vocab=2000, layers=2, seq=640, batch=1),
}
# Long-context / large-vocabulary point for the loss and the a·s²·b term.
BIG = {"S8": dict(hidden=256, heads=4, kv=2, ffn=688, vocab=32000, layers=2, seq=512, batch=2)}


def make_cfg(family, shape_id, shape, precision="bf16", attention="eager", loss="standard", recompute="none",
             optimizer="adamw", impl="foreach", ga=1, emulation="cpu", fused_impl="recompute"):
    kv = shape["heads"] if family == "gpt2" else shape["kv"]
    t = {"precision": precision, "kernels": "eager", "loss": loss,
         "loss_chunks": 8 if loss == "chunked" else None, "recompute": recompute,
         "optimizer": optimizer, "optimizer_impl": impl, "seq_len": shape["seq"],
         "micro_batch_size": shape["batch"], "grad_accum_steps": ga, "flash_attention": attention == "flash",
         "dropout": family == "gpt2", "kernel_emulation": emulation}
    if recompute == "full":
        t["use_reentrant"] = True
    if recompute == "ops":
        t["sac_policy"] = "save outputs of aten.mm/aten.addmm and flash attention; recompute the rest"
    if loss == "fused":
        t["fused_impl"] = fused_impl
    m = {"family": family, "layers": shape["layers"], "hidden_size": shape["hidden"], "num_heads": shape["heads"],
         "num_kv_heads": kv, "head_dim": shape["hidden"] // shape["heads"], "ffn_hidden_size": shape["ffn"],
         "vocab_size": shape["vocab"], "mlp": "gelu" if family == "gpt2" else "swiglu",
         "norm": "layernorm" if family == "gpt2" else "rmsnorm", "bias": family == "gpt2",
         "qkv_bias": family == "qwen2", "tied_embeddings": family == "gpt2",
         "position_embedding": "learned" if family == "gpt2" else "rope",
         "max_position_embeddings": 1024}
    rid = "/".join([family, precision, attention, loss + ("-" + fused_impl if loss == "fused" else ""), recompute,
                    f"{optimizer}-{impl}", f"ga{ga}", emulation, shape_id])
    return {"id": rid, "shape_id": shape_id, "attention": attention, "model": m, "training": t}


def plan(quick: bool) -> list[dict]:
    cfgs = []
    shapes = dict(itertools.islice(SHAPES.items(), 2)) if quick else SHAPES
    # 1. Saved-tensor sweeps: every shape for each factor varied one at a time around the baselines.
    variants = [dict()]
    variants += [dict(attention="flash"), dict(recompute="full"), dict(recompute="ops"),
                 dict(loss="chunked"), dict(loss="fused"), dict(loss="fused", fused_impl="liger")]
    for family in ("llama", "qwen2", "gpt2"):
        for precision in PRECISIONS:
            for v in variants:
                if family != "llama" and v and (precision != "bf16" or v.get("fused_impl") == "liger"):
                    continue  # qwen2/gpt2: the baselines in every precision, the variants in bf16
                for sid, sh in shapes.items():
                    cfgs.append(make_cfg(family, sid, sh, precision=precision, **v))
    # CUDA kernel emulation (autocast op lists + bool dropout mask) where CPU and CUDA differ.
    for family in ("gpt2", "llama"):
        for precision in ("amp_bf16",) if family == "llama" else PRECISIONS:
            for sid, sh in shapes.items():
                cfgs.append(make_cfg(family, sid, sh, precision=precision, emulation="cuda"))
    if quick:
        return cfgs
    # 2. Large vocabulary / long sequence: loss variants and attention kernels.
    for precision in PRECISIONS:
        for v in (dict(), dict(loss="chunked"), dict(loss="fused"), dict(attention="flash")):
            cfgs.append(make_cfg("llama", "S8", BIG["S8"], precision=precision, **v))
    # 3. Backward working set in the activation-dominated regime.
    for family in ("llama", "qwen2", "gpt2"):
        for precision in PRECISIONS:
            for v in (dict(), dict(attention="flash"), dict(recompute="full"), dict(recompute="ops")):
                if family != "llama" and v and precision != "bf16":
                    continue
                for sid, sh in WIDE.items():
                    cfgs.append(make_cfg(family, sid, sh, precision=precision, **v))
    # 4. Optimizers and gradient accumulation (phase peaks), on two shapes.
    for family in ("llama", "qwen2", "gpt2"):
        for precision in PRECISIONS:
            if family != "llama" and precision == "fp32":
                continue
            for v in (dict(impl="for_loop"), dict(optimizer="sgd_momentum"), dict(optimizer="sgd_momentum", impl="for_loop"),
                      dict(ga=2), dict(ga=2, recompute="full")):
                for sid in ("S1", "S6"):
                    if family != "llama" and sid == "S6":
                        continue
                    cfgs.append(make_cfg(family, sid, SHAPES[sid], precision=precision, **v))
    return cfgs


def noop_overhead(repeats: int = 20) -> dict:
    """The counters around an empty phase: what the bookkeeping itself allocates."""
    base_t, base_h = SHIM.cur(), SHIM.heap()
    peaks, heaps = [], []
    for _ in range(repeats):
        with Phase(base_t, base_h) as ph:
            pass
        peaks.append(ph.peak)
        heaps.append(ph.heap_peak)
    return {"tensor_peak_max": max(peaks), "heap_peak_max": max(heaps)}


def autocast_dtype_table() -> dict:
    """Output dtype of each op these models use, under CPU autocast (bf16) with bf16 and fp32 inputs."""
    x16 = torch.randn(4, 8, dtype=torch.bfloat16)
    x32 = torch.randn(4, 8)
    w = torch.randn(8, 8)
    ops = {
        "linear": lambda x: torch.nn.functional.linear(x, w),
        "matmul": lambda x: torch.matmul(x, w),
        "softmax (no dtype)": lambda x: torch.softmax(x, -1),
        "log_softmax (no dtype)": lambda x: torch.log_softmax(x, -1),
        "layer_norm": lambda x: torch.nn.functional.layer_norm(x, (8,)),
        "pow": lambda x: torch.pow(x, 3.0),
        "rsqrt": lambda x: torch.rsqrt(x.abs() + 1),
        "exp": lambda x: torch.exp(x),
        "tanh": lambda x: torch.tanh(x),
        "silu": lambda x: torch.nn.functional.silu(x),
        "cross_entropy": lambda x: torch.nn.functional.cross_entropy(x, torch.zeros(4, dtype=torch.long)),
        "sum": lambda x: x.sum(),
    }
    table = {}
    for name, fn in ops.items():
        row = {}
        for label, x in (("bf16_in", x16), ("fp32_in", x32)):
            with torch.autocast("cpu", dtype=torch.bfloat16):
                row[label] = str(fn(x).dtype).replace("torch.", "")
        table[name] = row
    return table


def main():
    global SHIM
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="two shapes only (a smoke run)")
    ap.add_argument("--out", default=os.path.join(HERE, "..", "..", "tests", "data", "memory", "cpu_measurements.json"))
    ap.add_argument("--only", default="", help="run only records whose id contains this text")
    args = ap.parse_args()
    SHIM = Shim()
    torch.set_num_threads(1)
    if SHIM.cur() < 0:
        raise SystemExit("alloc shim not active")
    cfgs = [c for c in plan(args.quick) if args.only in c["id"]]
    started = time.time()
    records = []
    overhead = noop_overhead()
    for i, cfg in enumerate(cfgs):
        t0 = time.time()
        cfg["measured"] = run_record(cfg)
        cfg["seconds"] = round(time.time() - t0, 2)
        records.append(cfg)
        print(f"[{i + 1}/{len(cfgs)}] {cfg['id']} {cfg['seconds']}s "
              f"saved={cfg['measured']['saved']['total_activation_bytes']}", flush=True)
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    blas = "unknown"
    try:
        with open("/proc/self/maps") as f:
            libs = {line.split()[-1] for line in f if "blas" in line}
        blas = sorted(libs)
    except OSError:
        pass
    try:
        debian_pkg = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Version}", "python3-torch"],
                                    capture_output=True, text=True, check=False).stdout.strip() or None
    except OSError:
        debian_pkg = None
    doc = {
        "description": "vramcalc CPU memory harness: saved-tensor bytes and per-phase allocation peaks of tiny "
                       "training steps of plain-PyTorch mirrors of Hugging Face eager GPT-2/Llama/Qwen2. "
                       "See bench/memory/README.md.",
        "provenance": {
            "torch_version": torch.__version__, "torch_package": debian_pkg, "python": platform.python_version(), "cpu": cpu,
            "blas_libraries": blas, "threads": torch.get_num_threads(),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "command": ("VRAMCALC_BLAS_DIR=<openblas dir> " if os.environ.get("VRAMCALC_BLAS_DIR") else "")
                       + "nice /usr/bin/python3 bench/memory/measure.py" + (" --quick" if args.quick else "")
                       + (f" --only {args.only}" if args.only else ""),
            "cpu_seconds": round(time.process_time(), 1),
            "runtime_seconds": round(time.time() - started, 1),
            "counters": "tensor = bytes requested from c10::alloc_cpu (interposed), live minus the live bytes "
                        "before the model was built; heap = all malloc-family bytes (malloc_usable_size)",
            "noop_overhead": overhead,
            "cpu_autocast_dtypes": autocast_dtype_table(),
        },
        "records": records,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:  # one record per line keeps diffs readable
        head = json.dumps({k: v for k, v in doc.items() if k != "records"}, indent=1)
        f.write(head[:-2] + ',\n "records": [\n')
        f.write(",\n".join(json.dumps(r, separators=(",", ":")) for r in records))
        f.write("\n ]\n}\n")
    print(f"wrote {len(records)} records to {args.out} in {time.time() - started:.0f}s")


if __name__ == "__main__":
    main()
