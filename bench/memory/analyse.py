#!/usr/bin/python3
"""Fits the measurements of measure.py into per-term coefficients.

  /usr/bin/python3 bench/memory/analyse.py [tests/data/memory/cpu_measurements.json]

Prints markdown tables (pasted into bench/memory/README.md) and writes
tests/data/memory/cpu_coefficients.json next to the input. Every coefficient is a least-squares fit
over the shape sweep (S1..S10, S8) with the fit's largest residual, plus the per-tensor attribution
read from the S1 record's saved-tensor list.
"""
from __future__ import annotations

import json
import os
import sys
from collections import defaultdict

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, "..", "..", "tests", "data", "memory", "cpu_measurements.json")
DTYPE_BYTES = {"float32": 4, "bfloat16": 2, "float16": 2, "int64": 8, "float64": 8, "bool": 1, "uint8": 1}
TORCH_113_ONLY_OPS = {"MeanBackward1.self"}  # torch>=2: mean.dim saves sizes/numel only


def dims(r: dict) -> dict:
    m, t = r["model"], r["training"]
    s, b, h, a, f, v = t["seq_len"], t["micro_batch_size"], m["hidden_size"], m["num_heads"], m["ffn_hidden_size"], m["vocab_size"]
    kvw = m["num_kv_heads"] * m["head_dim"]
    return {"sbh": s * b * h, "sbf": s * b * f, "sbkv": s * b * kvw, "as2b": a * s * s * b, "asb": a * s * b,
            "sb": s * b, "sbV": s * b * v, "sd": s * m["head_dim"], "s": s, "Vh": v * h, "one": 1}


def layer_params(r: dict) -> int:
    m = r["model"]
    h, f, a, d, kv = m["hidden_size"], m["ffn_hidden_size"], m["num_heads"], m["head_dim"], m["num_kv_heads"]
    if m["family"] == "gpt2":
        return h * 3 * h + 3 * h + h * h + h + h * f + f + f * h + h + 4 * h
    p = h * a * d + 2 * h * kv * d + a * d * h + 3 * h * f + 2 * h
    if m["qkv_bias"]:
        p += a * d + 2 * kv * d
    return p


LAYER_FEATURES = {"llama": ["sbh", "sbf", "sbkv", "as2b", "asb", "sb", "one"],
                  "qwen2": ["sbh", "sbf", "sbkv", "as2b", "asb", "sb", "one"],
                  "gpt2": ["sbh", "sbf", "as2b", "asb", "sb", "one"]}
HEAD_FEATURES = ["sbh", "sbV", "sb", "s", "Vh", "one"]


def layer_matmul_weights(r: dict) -> int:
    """Matmul weight elements of one layer (the autocast copies that mm/addmm save for backward)."""
    m = r["model"]
    h, f, a, d, kv = m["hidden_size"], m["ffn_hidden_size"], m["num_heads"], m["head_dim"], m["num_kv_heads"]
    if m["family"] == "gpt2":
        return 4 * h * h + 2 * h * f
    return h * a * d + 2 * h * kv * d + a * d * h + 3 * h * f


def fit(rows: list[tuple[dict, float]], features: list[str]) -> dict:
    x = np.array([[d[k] for k in features] for d, _ in rows], dtype=float)
    y = np.array([v for _, v in rows], dtype=float)
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    coef = np.where(np.abs(coef - np.round(coef, 3)) < 1e-6, np.round(coef, 3), coef)
    resid = y - x @ coef
    rank = np.linalg.matrix_rank(x)
    return {"coefficients": {k: float(round(c, 4)) for k, c in zip(features, coef)},
            "points": len(rows), "rank": int(rank), "unknowns": len(features),
            "max_abs_residual_bytes": float(np.max(np.abs(resid))) if len(rows) else None,
            "max_rel_residual": float(np.max(np.abs(resid) / np.maximum(y, 1))) if len(rows) else None}


def group_key(r: dict) -> tuple:
    t = r["training"]
    loss = t["loss"] + ("-" + t["fused_impl"] if t["loss"] == "fused" else "")
    return (r["model"]["family"], t["precision"], r["attention"], loss, t["recompute"], t["kernel_emulation"])


def classify(entry: dict, d: dict) -> str:
    numel = entry["storage_bytes"] // DTYPE_BYTES.get(entry["dtype"], 1)
    for multiple in (1, 3):  # GPT-2's fused c_attn output is 3·sbh wide
        for k in ("sbh", "sbf", "sbkv", "as2b", "asb", "sb", "sd", "sbV"):
            if numel == multiple * d[k]:
                return k
    return "other"


def attribution(r: dict, component: str) -> dict:
    """Coefficient contributions (bytes per monomial) of each tensor saved by a component."""
    d = dims(r)
    comp = r["measured"]["saved"]["components"].get(component, {})
    terms = defaultdict(list)
    for e in comp.get("tensors", []):
        if e.get("already_saved_by") or e["kind"] == "parameter":
            continue
        k = classify(e, d)
        per = e["storage_bytes"] / d[k] if k != "other" else e["storage_bytes"]
        ops = ",".join(e.get("ops", [])) or e.get("held_by", "")
        tag = " [torch 1.13 only]" if set(e.get("ops", [])) & TORCH_113_ONLY_OPS else ""
        if e["kind"] == "weight_cast":
            tag += " [autocast weight copy]"
        terms[k].append({"bytes_per_unit": per, "dtype": e["dtype"], "module": e["module"].split(".", 3)[-1],
                         "ops": ops, "note": tag.strip()})
    return dict(terms)


def mqa_view_case(r: dict) -> bool:
    """Eager attention with one KV head and batch 1: repeat_kv's expand+reshape and matmul's batch
    folding stay views, so K and V are saved at kv width (2·sbkv each) instead of repeated (2·sbh)."""
    m, t = r["model"], r["training"]
    return (m["family"] != "gpt2" and m["num_kv_heads"] == 1 and t["micro_batch_size"] == 1
            and r["attention"] == "eager" and t["recompute"] == "none")


def fmt(c: float) -> str:
    return f"{c:g}" if abs(c - round(c)) < 1e-9 else f"{c:.3f}"


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else DEFAULT
    doc = json.load(open(path))
    records = doc["records"]
    base_records = [r for r in records if r["training"]["optimizer"] == "adamw" and r["training"]["optimizer_impl"] == "foreach"
                    and r["training"]["grad_accum_steps"] == 1]
    groups = defaultdict(list)
    for r in base_records:
        groups[group_key(r)].append(r)

    out = {"source": os.path.relpath(path, os.path.dirname(path)), "provenance": doc["provenance"],
           "layer_saved_bytes": [], "head_saved_bytes": [], "loss_peak_per_logit": [], "backward_layer_working_set": [],
           "optimizer_temporaries_per_param": [], "autocast_cache_per_param": [], "peak_phase": []}

    # 1. Saved bytes per decoder layer (the last layer: no RoPE cos/sin, which layer 0 claims).
    print("## Saved bytes per decoder layer (end of forward), fitted over the shape sweep\n")
    print("| family | precision | attention | loss | recompute | kernels | sbh | sbf | sb·kv | a·s²·b | a·s·b | sb | const | 1.13-only sbh | saved weight copies B/matmul weight | pts | max resid |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for key, rs in sorted(groups.items()):
        family = key[0]
        feats = LAYER_FEATURES[family]
        rows, cast_rows = [], []
        for r in rs:
            if mqa_view_case(r):
                continue
            last = f"layer.{r['model']['layers'] - 1}"
            comp = r["measured"]["saved"]["components"].get(last)
            if comp is None:
                continue
            d = dims(r)
            rows.append((d, comp["activation_bytes"]))
            cast_rows.append((d, comp["weight_cast_bytes"]))
        if len(rows) < len(feats):
            continue
        res = fit(rows, feats)
        s1 = next((r for r in rs if r["shape_id"] == "S1"), rs[0])
        attr = attribution(s1, f"layer.{s1['model']['layers'] - 1}")
        old_sbh = sum(t["bytes_per_unit"] for t in attr.get("sbh", []) if "1.13" in t["note"])
        cast_per_param = sorted({round(v / layer_matmul_weights(r), 4) for r, (_, v) in zip(rs, cast_rows)})
        cast_total = cast_per_param
        c = res["coefficients"]
        print("| " + " | ".join([family, key[1], key[2], key[3], key[4], key[5]]
                                + [fmt(c.get(k, 0.0)) if k in c else "–" for k in ("sbh", "sbf", "sbkv", "as2b", "asb", "sb", "one")]
                                + [fmt(old_sbh), "/".join(fmt(x) for x in cast_total),
                                   str(res["points"]), f"{res['max_abs_residual_bytes']:.0f} B"]) + " |")
        out["layer_saved_bytes"].append({"family": family, "precision": key[1], "attention": key[2], "loss": key[3],
                                         "recompute": key[4], "kernel_emulation": key[5], "fit": res,
                                         "torch_113_only_sbh": old_sbh, "s1_attribution": attr,
                                         "weight_copy_bytes_per_layer_cast_param": cast_total})
    print()

    # 1b. Which tensors make up each coefficient (S1 record of each group).
    print("## Tensors behind the per-layer coefficients (last layer, shape S1)\n")
    for item in out["layer_saved_bytes"]:
        if item["kernel_emulation"] == "cuda" and item["family"] == "llama":
            continue
        label = " / ".join([item["family"], item["precision"], item["attention"], item["loss"], item["recompute"],
                            "CUDA-emulated kernels" if item["kernel_emulation"] == "cuda" else "CPU kernels"])
        if item["loss"] != "standard":
            continue
        print(f"**{label}**\n")
        for term in ("sbh", "sbf", "sbkv", "as2b", "asb", "sb", "other"):
            parts = item["s1_attribution"].get(term)
            if not parts:
                continue
            total = sum(p["bytes_per_unit"] for p in parts)
            desc = " + ".join(f"{fmt(p['bytes_per_unit'])} {p['dtype']} {p['module']} ({p['ops']})"
                              + (f" *{p['note']}*" if p["note"] else "") for p in parts)
            unit = "bytes" if term == "other" else term
            print(f"- {unit} {fmt(total)}: {desc}")
        print()

    # 2. Embedding / final norm / LM head / loss saved bytes.
    print("## Saved bytes outside the layers (end of forward + loss forward)\n")
    print("| family | precision | loss | kernels | component | " + " | ".join(HEAD_FEATURES) + " | max resid |")
    print("|---|---|---|---|---|" + "---|" * len(HEAD_FEATURES) + "---|")
    for key, rs in sorted(groups.items()):
        if key[2] != "eager" or key[4] != "none":
            continue
        for comp_name in ("embedding", "final_norm", "lm_head", "loss"):
            rows = []
            for r in rs + [x for x in records if group_key(x) == key and x["shape_id"] == "S8" and x not in rs]:
                comp = r["measured"]["saved"]["components"].get(comp_name)
                rows.append((dims(r), comp["activation_bytes"] if comp else 0))
            res = fit(rows, HEAD_FEATURES)
            c = res["coefficients"]
            print("| " + " | ".join([key[0], key[1], key[3], key[5], comp_name] + [fmt(c[k]) for k in HEAD_FEATURES]
                                    + [f"{res['max_abs_residual_bytes']:.0f} B"]) + " |")
            out["head_saved_bytes"].append({"family": key[0], "precision": key[1], "loss": key[3], "kernel_emulation": key[5],
                                            "component": comp_name, "fit": res})
    print()

    # 3. Loss working set per logit element: forward side and backward side.
    print("## Loss: bytes per logit element (s·b·V) at the loss peaks\n")
    print("| family | precision | loss | kernels | logits alive after forward | loss-phase peak | saved by loss | loss-backward peak | max of both | max: V·h coefficient |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key, rs in sorted(groups.items()):
        if key[2] != "eager" or key[4] != "none":
            continue
        rs = rs + [x for x in records if group_key(x) == key and x["shape_id"] == "S8" and x not in rs]
        rows = defaultdict(list)
        for r in rs:
            mb = r["measured"]["steps"][0]["micro_batches"][0]
            saved = r["measured"]["saved"]["components"]
            loss_saved = saved.get("loss", {}).get("activation_bytes", 0) + saved.get("loss", {}).get("weight_cast_bytes", 0)
            d = dims(r)
            out_bytes = mb["forward"]["output_bytes"]
            fwd_side = out_bytes + mb["loss"]["peak"] - mb["loss"]["start"]
            wins = mb["backward"]["windows"]
            last = max(i for i, w in enumerate(wins) if "model output" in w["until"])
            bwd_side = max(w["peak"] for w in wins[: last + 1]) - (wins[0]["live_at_start"] - loss_saved)
            rows["logits"].append((d, out_bytes if key[3] != "fused-recompute" and key[3] != "fused-liger" else 0))
            rows["fwd"].append((d, fwd_side))
            rows["saved"].append((d, loss_saved))
            rows["bwd"].append((d, bwd_side))
            rows["max"].append((d, max(fwd_side, bwd_side)))
        fits = {k: fit(v, HEAD_FEATURES) for k, v in rows.items()}
        print("| " + " | ".join([key[0], key[1], key[3], key[5]] + [fmt(fits[k]["coefficients"]["sbV"]) for k in ("logits", "fwd", "saved", "bwd", "max")]
                                + [fmt(fits["max"]["coefficients"]["Vh"])]) + " |")
        out["loss_peak_per_logit"].append({"family": key[0], "precision": key[1], "loss": key[3], "kernel_emulation": key[5],
                                           **{k: v for k, v in fits.items()}})
    print()

    # 4. Backward working set of the last decoder layer, on the activation-dominated shapes.
    print("## Backward: working set of one decoder layer (peak during its backward − live bytes when it starts)\n")
    print("Fitted on W1..W8 (+S8 where measured). pa/pm = bytes of the attention/MLP parameter gradients "
          "that appear during the window.\n")
    print("| family | precision | attention | recompute | kernels | window | sbh | sbf | sb·kv | a·s²·b | a·s·b | pa | pm | pts | max rel resid |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    wide = defaultdict(list)
    for r in records:
        if (r["shape_id"].startswith("W") or r["shape_id"] == "S8") and r["training"]["optimizer_impl"] == "foreach" \
                and r["training"]["optimizer"] == "adamw" and r["training"]["grad_accum_steps"] == 1 \
                and r["training"]["loss"] == "standard":
            wide[group_key(r)].append(r)
    window_features = {"self_attn": ["sbh", "sbkv", "as2b", "asb", "pa"], "attn": ["sbh", "as2b", "asb", "pa"],
                       "mlp": ["sbh", "sbf", "pm"], "whole layer": ["sbh", "sbf", "sbkv", "as2b", "asb", "pa", "pm"]}
    for key, rs in sorted(wide.items()):
        family = key[0]
        rows = defaultdict(list)
        for r in rs:
            last = r["model"]["layers"] - 1
            name = ("model.layers" if family != "gpt2" else "transformer.h") + f".{last}"
            wins = r["measured"]["steps"][0]["micro_batches"][0]["backward"]["windows"]
            i0 = next(i for i, w in enumerate(wins) if w["until"].startswith(f"grad of {name} output"))
            i1 = next(i for i, w in enumerate(wins) if w["until"].endswith(f"grad of {name} input"))
            grad_bytes = 2 if r["training"]["precision"] == "bf16" else 4
            pm = (2 * r["model"]["hidden_size"] * r["model"]["ffn_hidden_size"]
                  + (r["model"]["hidden_size"] * r["model"]["ffn_hidden_size"] if family != "gpt2" else 0))
            d = dict(dims(r), pa=(layer_params(r) - pm) * grad_bytes, pm=pm * grad_bytes)
            layer_wins = wins[i0 + 1: i1 + 1]
            rows["whole layer"].append((d, max(w["peak"] for w in layer_wins) - wins[i0]["live_at_end"]))
            for w in layer_wins:
                for block in ("mlp", "self_attn", "attn"):
                    if w["until"].startswith(f"grad of {name}.{block} input"):
                        rows[block].append((d, w["working_set"]))
        for window, vals in rows.items():
            feats = [f for f in window_features[window] if not (family == "gpt2" and f == "sbkv")]
            if len(vals) <= len(feats):
                continue
            res = fit(vals, feats)
            c = res["coefficients"]
            print("| " + " | ".join([family, key[1], key[2], key[4], key[5], window]
                                    + [fmt(c[k]) if k in c else "–" for k in ("sbh", "sbf", "sbkv", "as2b", "asb", "pa", "pm")]
                                    + [str(res["points"]), f"{res['max_rel_residual']:.3f}"]) + " |")
            out["backward_layer_working_set"].append({"family": family, "precision": key[1], "attention": key[2],
                                                      "recompute": key[4], "kernel_emulation": key[5], "window": window,
                                                      "fit": res, "measured": [v for _, v in vals]})
    print()

    # 4b. Recompute: the layer's backward working set against what the layer saves without recompute.
    print("## Recompute: one layer's backward working set ÷ that layer's saved bytes without recompute (same shape)\n")
    print("| family | precision | attention | recompute | W1 | W2 | W3 | W4 | W5 | W6 | W7 | W8 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    saved_none = {}
    for r in records:
        t = r["training"]
        if t["recompute"] == "none" and t["loss"] == "standard" and t["kernel_emulation"] == "cpu" and r["shape_id"].startswith("W"):
            saved_none[(r["model"]["family"], t["precision"], r["attention"], r["shape_id"])] = \
                r["measured"]["saved"]["components"][f"layer.{r['model']['layers'] - 1}"]["activation_bytes"]
    ratios = defaultdict(dict)
    for r in records:
        t = r["training"]
        if t["recompute"] == "none" or not r["shape_id"].startswith("W") or t["grad_accum_steps"] != 1 or t["optimizer"] != "adamw":
            continue
        family = r["model"]["family"]
        last = r["model"]["layers"] - 1
        name = ("model.layers" if family != "gpt2" else "transformer.h") + f".{last}"
        wins = r["measured"]["steps"][0]["micro_batches"][0]["backward"]["windows"]
        i0 = next(i for i, w in enumerate(wins) if w["until"].startswith(f"grad of {name} output"))
        i1 = next(i for i, w in enumerate(wins) if w["until"].endswith(f"grad of {name} input"))
        ws = max(w["peak"] for w in wins[i0 + 1: i1 + 1]) - wins[i0]["live_at_end"]
        base = saved_none.get((family, t["precision"], r["attention"], r["shape_id"]))
        if base:
            ratios[(family, t["precision"], r["attention"], t["recompute"])][r["shape_id"]] = ws / base
    for key, vals in sorted(ratios.items()):
        print("| " + " | ".join(list(key) + [f"{vals[s]:.2f}" if s in vals else "–" for s in [f"W{i}" for i in range(1, 9)]]) + " |")
        out.setdefault("recompute_working_set_ratio", []).append({"family": key[0], "precision": key[1], "attention": key[2],
                                                                  "recompute": key[3], "ratio_by_shape": vals})
    print()

    # 5. Optimizer step temporaries per parameter.
    print("## Optimizer step: temporaries per parameter (peak − live before the step − new states), bytes\n")
    print("| family | precision | optimizer | impl | first step | later step | state bytes/param | largest tensor share |")
    print("|---|---|---|---|---|---|---|---|")
    seen = set()
    for r in records:
        t = r["training"]
        key = (r["model"]["family"], t["precision"], t["optimizer"], t["optimizer_impl"], r["shape_id"])
        if t["grad_accum_steps"] != 1 or t["recompute"] != "none" or t["loss"] != "standard" or r["attention"] != "eager" \
                or t["kernel_emulation"] != "cpu" or r["shape_id"] not in ("S1", "S6") or key in seen:
            continue
        seen.add(key)
        m = r["measured"]
        p = m["param_count"]
        s0, s1 = m["steps"][0]["optimizer_step"], m["steps"][1]["optimizer_step"]
        first = (s0["peak"] - s0["start"] - m["optimizer_state_bytes"]) / p
        later = (s1["peak"] - s1["start"]) / p
        print(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} ({key[4]}, P={p}) | {first:.3f} | {later:.3f} | "
              f"{m['optimizer_state_bytes'] / p:.3f} | {max_param_share(r):.3f} |")
        out["optimizer_temporaries_per_param"].append({"family": key[0], "precision": key[1], "optimizer": key[2],
                                                       "optimizer_impl": key[3], "shape_id": key[4], "param_count": p,
                                                       "first_step": first, "later_step": later,
                                                       "state_bytes_per_param": m["optimizer_state_bytes"] / p})
    print()

    # 6. Autocast cache.
    print("## Autocast weight-copy cache (amp_bf16): bytes per cast parameter\n")
    print("| family | shape | cast params | cache bytes | bytes/param | saved weight copies at end of forward |")
    print("|---|---|---|---|---|---|")
    for r in records:
        m = r["measured"]
        if m.get("autocast_cache_bytes") is None or r["training"]["recompute"] != "none" or r["training"]["loss"] != "standard" \
                or r["attention"] != "eager" or r["training"]["optimizer_impl"] != "foreach" or r["training"]["grad_accum_steps"] != 1 \
                or r["training"]["optimizer"] != "adamw" or r["training"]["kernel_emulation"] != "cpu":
            continue
        per = m["autocast_cache_bytes"] / m["cast_param_count"]
        print(f"| {r['model']['family']} | {r['shape_id']} | {m['cast_param_count']} | {m['autocast_cache_bytes']} | {per:.4f} | "
              f"{m['saved']['total_weight_cast_bytes']} |")
        out["autocast_cache_per_param"].append({"family": r["model"]["family"], "shape_id": r["shape_id"],
                                                "cast_param_count": m["cast_param_count"],
                                                "cache_bytes": m["autocast_cache_bytes"], "bytes_per_param": per,
                                                "saved_weight_copies": m["saved"]["total_weight_cast_bytes"]})
    print()

    # 7. Peak phase.
    print("## Where the step peaks (tensor bytes above the pre-model baseline, MiB)\n")
    print("| record | step | forward | loss | backward | optimizer step | peak phase |")
    print("|---|---|---|---|---|---|---|")
    counts = defaultdict(int)
    for r in records:
        for si, st in enumerate(r["measured"]["steps"]):
            phases = []
            for k, mb in enumerate(st["micro_batches"]):
                for ph in ("forward", "loss", "backward"):
                    phases.append((mb[ph]["peak"], ph + (f" (micro-batch {k + 1})" if len(st["micro_batches"]) > 1 else "")))
            phases.append((st["optimizer_step"]["peak"], "optimizer_step"))
            peak, where = max(phases)
            regime = "activation-dominated" if (r["shape_id"].startswith("W") or r["shape_id"] == "S8") else "parameter-dominated"
            counts[(regime, si, where.split(" ")[0])] += 1
            out["peak_phase"].append({"id": r["id"], "step": si, "phase": where, "peak": peak,
                                      "phases": {p: v for v, p in phases}})
            show = r["shape_id"] in ("S1", "S8", "W1") and r["training"]["kernel_emulation"] == "cpu" and r["model"]["family"] == "llama" \
                and r["training"]["precision"] == "bf16"
            if show:
                def mib(ph):
                    vals = [v for v, p in phases if p.startswith(ph)]
                    return "/".join(f"{v / 2**20:.1f}" for v in vals)
                print(f"| {r['id']} | {si} | {mib('forward')} | {mib('loss')} | {mib('backward')} | {mib('optimizer')} | {where} |")
    print()
    print("| regime | step | peak phase | records |")
    print("|---|---|---|---|")
    for (regime, si, where), n in sorted(counts.items()):
        print(f"| {regime} | {si} | {where} | {n} |")
    print()

    dest = os.path.join(os.path.dirname(os.path.abspath(path)), "cpu_coefficients.json")
    with open(dest, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"\nwrote {dest}", file=sys.stderr)


def max_param_share(r: dict) -> float:
    """Largest single parameter / all parameters (for-loop optimizers allocate per parameter)."""
    m = r["model"]
    h, v, f = m["hidden_size"], m["vocab_size"], m["ffn_hidden_size"]
    largest = max(v * h, h * f, h * 3 * h if m["family"] == "gpt2" else h * h)
    return largest / r["measured"]["param_count"]


if __name__ == "__main__":
    main()
