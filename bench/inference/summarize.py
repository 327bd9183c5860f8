#!/usr/bin/env python3
"""Tables from the measured JSON files (tests/data/inference/), in Markdown.

Checks llama.cpp's printed KV sizes against cells·streams·layers·(n_embd_k_gqa·b_K + n_embd_v_gqa·b_V),
and the exact compute buffer against two candidate formulas (written out below). Usage:
  python3 summarize.py [LLAMACPP_JSON] [TORCH_JSON] > RESULTS.md
"""
import json
import statistics
import sys

DATA = "tests/data/inference/"


def compute_logits_phase(ub, vocab, n_embd):
    """Peak while the output layer runs: f32 logits of the ubatch + two f32 hidden-state rows + 4·ub."""
    return 4 * ub * (vocab + 2 * n_embd + 1)


def compute_attention_phase(ub, n_kv, n_head, n_embd, q_dim, kv_dim):
    """Peak inside attention without flash attention: f32 KQ scores (n_head·n_kv·ub) and f32 mask
    (n_kv·ub), plus per-token f32 activations 3·h + 2·q_dim + 2·kv_dim. Structure read off the data."""
    return 4 * ub * n_kv * (n_head + 1) + 4 * ub * (3 * n_embd + 2 * q_dim + 2 * kv_dim)


def compute_h4_candidate(ub, vocab, n_embd):
    """The serving estimator's candidate at the time of measuring: 4·n_ubatch·(V + h)."""
    return 4 * ub * (vocab + n_embd)


def pct(measured, predicted):
    return 100.0 * (predicted - measured) / measured


def llamacpp_rows(doc):
    rows = []
    for model in doc["models"]:
        spec = model["spec"]
        head_dim = spec.get("head_dim", spec["n_embd"] // spec["n_head"])
        q_dim, kv_dim = spec["n_head"] * head_dim, spec["n_head_kv"] * head_dim
        for run in model.get("runs", []):
            st = run["settings"]
            base = {"file": model["file"], "st": st}
            if "error" in run:
                rows.append({**base, "error": run["log_tail"][-1] if run.get("log_tail") else run["error"]})
                continue
            p = run["parsed"]
            ub = p["n_ubatch"]
            n_kv = max(c["cells"] for c in p["kv_caches"])
            logits = compute_logits_phase(ub, spec["n_vocab"], spec["n_embd"])
            attention = compute_attention_phase(ub, n_kv, spec["n_head"], spec["n_embd"], q_dim, kv_dim)
            predicted = logits if p["flash_attn"] == "enabled" else max(logits, attention)
            rows.append({**base, "p": p, "run": run, "compute": run["compute_bytes_exact"], "predicted": predicted,
                         "h4": compute_h4_candidate(ub, spec["n_vocab"], spec["n_embd"])})
    return rows


def kv_cell_text(p):
    return " + ".join(f"{c['cells']}×{c['streams']}×{c['layers']}L" for c in p["kv_caches"])


def print_llamacpp(doc):
    print(f"## llama.cpp on CPU (node-llama-cpp {doc['node_llama_cpp_version']}, llama.cpp "
          f"{doc['llama_cpp']['release']}, {doc['llama_cpp']['build_type']})\n")
    print("### Weights\n")
    print("| file | tensor bytes (exact) | model buffers printed (MiB) | decode tok/s (1 thread, median of 3) |")
    print("|---|---:|---|---:|")
    for m in doc["models"]:
        buffers = ", ".join(f"{b['buffer']} {b['mib']:.2f}" for b in m.get("model_buffers", []))
        speed = m.get("decode_speed", {}).get("llama_perf_decode_tokens_per_s", "")
        print(f"| {m['file']} | {m.get('model_size_bytes_exact', m.get('error'))} | {buffers} | {speed} |")
    rows = llamacpp_rows(doc)
    print("\n### KV cache and compute buffer per context\n")
    print("KV formula: cells · streams · layers · (n_embd_k_gqa·b_K + n_embd_v_gqa·b_V), b = 2 (f16), 4 (f32), "
          "34/32 (q8_0), 18/32 (q4_0). `compute` is exact (memory_breakdown − KV formula, agreeing with the "
          "4-decimal debug line). `pred` = logits phase with flash attention, max(logits, attention) without.\n")
    print("| file | n_ctx asked → n_ctx (seq) | n_ubatch | K/V | FA | KV cells×streams×layers | KV printed MiB | "
          "KV formula bytes | KV ok | compute bytes | pred err % | 4·ub·(V+h) err % |")
    print("|---|---|---:|---|---|---|---:|---:|---|---:|---:|---:|")
    for r in rows:
        st = r["st"]
        kv_types = f"{st['kv_cache_type_k']}/{st['kv_cache_type_v']}"
        fa = "on" if st["flash_attention"] else "off"
        if "error" in r:
            print(f"| {r['file']} | {st['n_ctx_requested']} | {st['n_ubatch_requested']} | {kv_types} | {fa} | "
                  f"refused: {r['error']} | | | | | | |")
            continue
        p, run = r["p"], r["run"]
        kv_mib = " + ".join(f"{c['total']['mib']:.2f}" for c in p["kv_caches"])
        formula = sum(c["formula_bytes"] for c in run["kv_formula_check"])
        ok = all(c["printed_total_within_rounding"] for c in run["kv_formula_check"])
        seq = f" ({p['n_ctx_seq']}×{st['sequences']})" if st["sequences"] > 1 else ""
        swa = " swa-full" if st.get("swa_full_cache") else ""
        print(f"| {r['file']}{swa} | {st['n_ctx_requested']} → {p['n_ctx']}{seq} | {p['n_ubatch']} | {kv_types} | {fa} | "
              f"{kv_cell_text(p)} | {kv_mib} | {formula} | {'yes' if ok else 'NO'} | {r['compute']} | "
              f"{pct(r['compute'], r['predicted']):+.2f} | {pct(r['compute'], r['h4']):+.2f} |")
    ok_rows = [r for r in rows if "error" not in r]
    for label, sel in (("flash attention on", lambda r: r["st"]["flash_attention"]),
                       ("flash attention off", lambda r: not r["st"]["flash_attention"])):
        errs = [abs(pct(r["compute"], r["predicted"])) for r in ok_rows if sel(r)]
        h4 = [pct(r["compute"], r["h4"]) for r in ok_rows if sel(r)]
        print(f"\n{label}: {len(errs)} runs; pred |err| median {statistics.median(errs):.2f} %, max {max(errs):.2f} %; "
              f"4·ub·(V+h) err median {statistics.median(h4):+.2f} %, min {min(h4):+.2f} %, max {max(h4):+.2f} %")
    kv_all = all(c["printed_total_within_rounding"] for r in ok_rows for c in r["run"]["kv_formula_check"])
    print(f"\nKV formula within print rounding in all {len(ok_rows)} runs: {kv_all}; "
          f"refused contexts: {sum('error' in r for r in rows)}")


def print_torch(doc):
    print(f"\n## PyTorch {doc['torch_version']} on CPU: engine KV layouts\n")
    print("| arch | dtype | layout | tokens | total bytes | bytes/token | formula bytes/token | peak factor (live tensors / mmapped) |")
    print("|---|---|---|---:|---:|---:|---:|---|")
    for arch in doc["archs"]:
        for run in arch["runs"]:
            tokens = run.get("tokens", run.get("final_tokens"))
            total = run.get("total_bytes", run.get("final_bytes"))
            per = run.get("bytes_per_token_slot", run.get("bytes_per_token"))
            peak = ""
            if "peak_factor_live_tensors" in run:
                peak = f"{run['peak_factor_live_tensors']:.4f} / {run['peak_factor_mmapped']:.4f}"
            print(f"| {arch['arch']} | {run['dtype']} | {run['layout']} | {tokens} | {total} | {per:g} | "
                  f"{run['formula_bytes_per_token']} | {peak} |")


def main(argv):
    llamacpp = argv[0] if argv else DATA + "llamacpp_cpu_3.21.1.json"
    torch_file = argv[1] if len(argv) > 1 else DATA + "torch_kv_cpu_1.13.json"
    with open(llamacpp) as f:
        print_llamacpp(json.load(f))
    with open(torch_file) as f:
        print_torch(json.load(f))


if __name__ == "__main__":
    main(sys.argv[1:])
