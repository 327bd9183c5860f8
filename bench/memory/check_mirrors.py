#!/usr/bin/python3
"""Checks that the emulations change memory, not maths: flash attention, both fused linear+CE
Functions, the chunked loss, full and op-level selective recompute give the same loss and gradients
as the eager/standard/no-recompute model (fp32, dropout off). Run: /usr/bin/python3 bench/memory/check_mirrors.py"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mirrors import CausalLM, ModelShape  # noqa: E402


def grads(family, attention="eager", recompute="none", loss="standard", fused_impl="recompute", precision="fp32"):
    torch.manual_seed(0)
    shape = ModelShape(family, hidden=64, heads=4, kv_heads=2 if family != "gpt2" else 4, ffn=96, vocab=300, layers=2)
    model = CausalLM(shape, attention, recompute, loss, 4, fused_impl=fused_impl)
    for mod in model.modules():
        if isinstance(mod, torch.nn.Dropout):
            mod.p = 0.0
    ids = torch.randint(0, 300, (2, 40), generator=torch.Generator().manual_seed(3))
    n = torch.tensor(float(2 * 39))
    amp = precision == "amp_bf16"
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=amp):
        out = model(ids)
        value = model.compute_loss(out, ids, n)
    value.backward()
    return value.item(), {k: p.grad.clone() for k, p in model.named_parameters()}


def main():
    failures = 0
    for family in ("llama", "qwen2", "gpt2"):
        ref_loss, ref = grads(family)
        for kw in (dict(attention="flash"), dict(recompute="full"), dict(recompute="ops"),
                   dict(recompute="ops", attention="flash"), dict(loss="chunked"), dict(loss="fused"),
                   dict(loss="fused", fused_impl="liger")):
            loss, g = grads(family, **kw)
            err = max(((g[k] - ref[k]).abs().max() / (ref[k].abs().max() + 1e-12)).item() for k in ref)
            ok = abs(loss - ref_loss) < 1e-4 and err < 1e-3
            failures += not ok
            print(f"{family:6s} {str(kw):55s} loss {loss:.6f} vs {ref_loss:.6f}  max rel grad err {err:.2e}  {'ok' if ok else 'FAIL'}")
        # amp: recompute must reproduce the autocast forward (same loss as no recompute under amp)
        amp_loss, amp_ref = grads(family, precision="amp_bf16")
        for kw in (dict(recompute="full"), dict(recompute="ops")):
            loss, g = grads(family, precision="amp_bf16", **kw)
            err = max(((g[k] - amp_ref[k]).abs().max() / (amp_ref[k].abs().max() + 1e-12)).item() for k in amp_ref)
            ok = abs(loss - amp_loss) < 1e-6 and err < 1e-2
            failures += not ok
            print(f"{family:6s} amp_bf16 {str(kw):46s} loss {loss:.6f} vs {amp_loss:.6f}  max rel grad err {err:.2e}  {'ok' if ok else 'FAIL'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
