#include "explain.hpp"

#include <algorithm>

namespace vramcalc {
namespace {

constexpr const char* tm101 = "Transformer Math 101 (EleutherAI, https://blog.eleuther.ai/transformer-math/)";

}  // namespace

std::vector<ExplainTerm> explain(const Scenario& sc, const Estimate& e) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const auto& par = sc.parallel;
    const auto& r = e.resolved;
    const auto& mem = e.memory_per_gpu_bytes;
    const auto& a = e.activations;
    const auto& c = e.compute;
    const auto& p = e.parameters;
    int stage = par.zero_stage;
    double t = double(par.tensor), pp = double(par.pipeline), dp = double(r.data_parallel);
    std::vector<ExplainTerm> out;

    out.push_back({"parameters.total", "Parameters",
                   p.overridden ? "P = params_override"
                                : "P = embedding + L · per_layer + final_norm + lm_head; per_layer = attention "
                                  "(2·h·a·d + 2·h·g·d + biases) + E · MLP + 2 norms + router",
                   "architecture (Vaswani et al. 2017; GQA, SwiGLU, MoE variants)", p.total, "parameters",
                   {{"embedding", p.embedding, "parameters"},
                    {"L", double(m.layers), ""},
                    {"per_layer", p.per_layer, "parameters"},
                    {"final_norm", p.final_norm, "parameters"},
                    {"lm_head", p.lm_head, "parameters"}}});
    out.push_back({"layout.data_parallel", "Data-parallel degree", "DP = N / (t · p)", tm101, dp, "",
                   {{"N", double(par.num_gpus), ""}, {"t", t, ""}, {"p", pp, ""}}});

    const auto& ms = e.model_states_bytes;
    const auto& peak = e.memory_timeline.at(mem.peak_phase);
    const char* zero = "Transformer Math 101; Rajbhandari et al. 2019 (ZeRO, arXiv:1910.02054)";
    out.push_back({"model_states_bytes.weights", "Weights per GPU (persistent)",
                   stage >= 3 ? "weights = P/(t·p) / DP · bytes_w (ZeRO-3; 0 for FSDP's 16-bit copy)"
                              : "weights = P/(t·p) · bytes_w",
                   zero, ms.weights, "bytes",
                   {{"P/(t·p)", e.params_per_gpu, "parameters"},
                    {"bytes_w", e.bytes_per_parameter.weights, "bytes/param"},
                    {"DP", stage >= 3 ? dp : 1.0, ""}}});
    out.push_back({"model_states_bytes.gradients", "Gradients per GPU (all of them)",
                   stage >= 2 ? "gradients = P/(t·p) / DP · bytes_g (ZeRO-2/3)" : "gradients = P/(t·p) · bytes_g",
                   zero, ms.gradients, "bytes",
                   {{"P/(t·p)", e.params_per_gpu, "parameters"},
                    {"bytes_g", e.bytes_per_parameter.gradients, "bytes/param"},
                    {"DP", stage >= 2 ? dp : 1.0, ""}}});
    out.push_back({"model_states_bytes.optimizer", "Optimizer states per GPU",
                   (par.offload_optimizer || par.offload_params)
                       ? "optimizer = 0 on the GPU (offloaded: P/(t·p) / DP · bytes_opt in host memory)"
                   : stage >= 1 ? "optimizer = P/(t·p) / DP · bytes_opt (ZeRO-1+)"
                                : "optimizer = P/(t·p) · bytes_opt",
                   zero, ms.optimizer, "bytes",
                   {{"P/(t·p)", e.params_per_gpu, "parameters"},
                    {"bytes_opt", e.bytes_per_parameter.optimizer, "bytes/param"},
                    {"DP", stage >= 1 ? dp : 1.0, ""},
                    {"host bytes per GPU", e.host_bytes_per_gpu, "bytes"}}});

    const auto& l = a.layer;
    out.push_back({"activations.per_layer_bytes", "Activations of one layer, one micro-batch",
                   "per_layer = s·b·(outside_tp / sp + inside_tp / t) + scores·a·s²·b / t; GPT, fused kernels, t = 1: "
                   "34·s·b·h + 5·a·s²·b",
                   "Korthikanti et al. 2022 (arXiv:2205.05198) eq. 1–2 for fused kernels; PyTorch saved tensors of "
                   "Hugging Face modules for eager; docs/formulas.md §4",
                   a.per_layer_bytes, "bytes",
                   {{"s", double(tr.seq_len), "tokens"},
                    {"b", double(tr.micro_batch_size), ""},
                    {"h", double(m.hidden_size), ""},
                    {"a", double(m.num_heads), ""},
                    {"t", t, ""},
                    {"norms", l.norms, "bytes/token"},
                    {"linear inputs", l.linear_inputs, "bytes/token"},
                    {"dropout masks", l.dropout_masks, "bytes/token"},
                    {"checkpoint", l.checkpoint, "bytes/token"},
                    {"Q, K, V", l.qkv, "bytes/token"},
                    {"attention output", l.attention, "bytes/token"},
                    {"MLP", l.mlp, "bytes/token"},
                    {"scores", l.scores_per_as, "bytes per a·s"},
                    {"c_sbh", a.sbh_coefficient, "bytes"},
                    {"c_as2b", a.as2b_coefficient, "bytes"}}});
    out.push_back({"activations.transformer_layers_bytes", "Activations of all layers on the GPU",
                   "layers = (recomputed · checkpointed_layer + (ceil(L/p) − recomputed) · per_layer) · in_flight",
                   "Korthikanti et al. 2022 §4.2.3 (1F1B keeps p micro-batches in flight on the first stage)",
                   a.transformer_layers_bytes, "bytes",
                   {{"per_layer", a.per_layer_bytes, "bytes"},
                    {"ceil(L/p)", a.layers_on_gpu, ""},
                    {"recomputed", a.recomputed_layers, "layers"},
                    {"in_flight", a.in_flight_microbatches, "micro-batches"}}});
    out.push_back({"activations.loss_bytes", "Logits and loss at their peak",
                   "loss = s·b·V/t · max(forward peak, backward peak) bytes per logit",
                   "PyTorch cross_entropy (log_softmax + nll_loss, fp32 upcast); Korthikanti et al. 2022 §4.3 "
                   "(4·s·b·V/t fp32 logits); torchtune CEWithChunkedOutputLoss",
                   std::max(a.loss_per_logit.forward_peak, a.loss_per_logit.backward_peak) * a.logits_elements, "bytes",
                   {{"s·b·V/t", a.logits_elements, "elements"},
                    {"kept", a.loss_per_logit.saved, "bytes/logit"},
                    {"forward peak", a.loss_per_logit.forward_peak, "bytes/logit"},
                    {"backward peak", a.loss_per_logit.backward_peak, "bytes/logit"}}});
    out.push_back({"model_states_bytes.live_params", "Gathered parameters (ZeRO-3 / FSDP)",
                   par.zero_impl == ZeroImpl::fsdp
                       ? "live = (2 · layer + root: embeddings, LM head) · compute bytes; the whole stage with p > 1"
                       : "live = min(zero3_live_params, P/(t·p)) · compute bytes",
                   "DeepSpeed stage3_max_live_parameters; PyTorch FSDP2 (Zhao et al. 2023, arXiv:2304.11277)",
                   ms.live_params, "bytes",
                   {{"zero3_live_params", par.zero3_live_params, "parameters"},
                    {"P/(t·p)", e.params_per_gpu, "parameters"}}});
    out.push_back({"model_states_bytes.autocast_copies", "Autocast 16-bit weight copies",
                   "copies = 2 bytes · matmul weights (incl. the LM head); each freed at its layer's backward",
                   "PyTorch torch.autocast weight cast cache (amp_bf16 / amp_fp16)", ms.autocast_copies, "bytes",
                   {{"P/(t·p)", e.params_per_gpu, "parameters"}}});
    out.push_back({"model_states_bytes.optimizer_temporaries", "Optimizer-step temporaries",
                   tr.optimizer_impl == OptimizerImpl::foreach
                       ? "temporaries = optimizer parameters · state bytes (foreach AdamW: sqrt(v) for every tensor)"
                       : "temporaries = 0 (fused step in place), or DeepSpeed's fp32 gradient partition",
                   "torch.optim.AdamW _multi_tensor_adam (torch._foreach_sqrt); DeepSpeed stage_1_and_2.py",
                   ms.optimizer_temporaries, "bytes", {{"P/(t·p)", e.params_per_gpu, "parameters"}}});
    out.push_back({"activations.backward_working_bytes", "Backward working set of one layer",
                   "working = s·b·(2·residual·h + max(MLP: 2·e·f·k/t, attention: flash (4 + e)·q/t + 2·e·kv/t, "
                   "eager (e + 4)·a·s/t))",
                   "PyTorch autograd, measured with the CPU harness (bench/memory); FlashAttention-2 backward (arXiv:2307.08691)", a.backward_working_bytes,
                   "bytes", {{"s", double(tr.seq_len), "tokens"}, {"b", double(tr.micro_batch_size), ""}}});
    out.push_back({"activations.recompute_working_bytes", "Re-materialised layer (full / ops recomputation)",
                   "recompute = per_layer (nothing recomputed) − checkpointed layer",
                   "Korthikanti et al. 2022 §5; PyTorch torch.utils.checkpoint", a.recompute_working_bytes, "bytes",
                   {{"per_layer", a.per_layer_bytes, "bytes"}}});
    out.push_back({"memory_per_gpu_bytes.peak_allocated", "Peak allocated per GPU",
                   "peak = max over forward, loss, backward, optimizer step of weights + gradients + optimizer + "
                   "activations + logits + temporaries",
                   "docs/formulas.md §5 (timeline of one step)", mem.peak_allocated, "bytes",
                   {{"weights", peak.weights, "bytes"},
                    {"gradients", peak.gradients, "bytes"},
                    {"optimizer", peak.optimizer, "bytes"},
                    {"activations", peak.activations, "bytes"},
                    {"logits", peak.logits, "bytes"},
                    {"temporaries", peak.temporaries, "bytes"}}});
    out.push_back({"memory_per_gpu_bytes.peak_reserved", "Peak reserved by PyTorch's allocator",
                   "reserved = peak_allocated · (1 + allocator_overhead) + largest transient block",
                   "PyTorch CUDA caching allocator (block splitting and caching); docs/accuracy.md", mem.peak_reserved,
                   "bytes",
                   {{"peak_allocated", mem.peak_allocated, "bytes"},
                    {"allocator_overhead", sc.hardware.allocator_overhead, ""},
                    {"largest block", mem.peak_reserved - mem.peak_allocated * (1 + sc.hardware.allocator_overhead),
                     "bytes"}}});
    double nccl = mem.total - mem.peak_reserved - (sc.hardware.cuda_context_gib + sc.hardware.reserved_gib) * bytes_per_gib;
    out.push_back({"memory_per_gpu_bytes.total", "Total per GPU (as nvidia-smi shows it)",
                   "total = peak_reserved + cuda_context + NCCL buffers (N > 1) + reserved",
                   "CUDA context and NCCL buffers live outside PyTorch's allocator; docs/accuracy.md", mem.total, "bytes",
                   {{"peak_reserved", mem.peak_reserved, "bytes"},
                    {"cuda_context", sc.hardware.cuda_context_gib * bytes_per_gib, "bytes"},
                    {"NCCL buffers", nccl, "bytes"},
                    {"reserved", sc.hardware.reserved_gib * bytes_per_gib, "bytes"},
                    {"capacity", e.capacity_bytes, "bytes"}}});

    out.push_back({"compute.model_flops", "Model FLOPs",
                   tr.attention_flops ? "C = (6·P_active + 12·L·s·h) · D" : "C = 6 · P_active · D",
                   "Transformer Math 101 (C ≈ 6PD); PaLM App. B for the attention term", c.model_flops, "FLOPs",
                   {{"P_active", p.active, "parameters"},
                    {"D", tr.tokens, "tokens"},
                    {"L", double(m.layers), ""},
                    {"s", double(tr.seq_len), ""},
                    {"h", double(m.hidden_size), ""}}});
    out.push_back({"compute.total_flops", "Executed FLOPs",
                   tr.recompute == Recompute::full        ? "C_total = C + one extra forward (2·P·D + attention)"
                   : tr.recompute == Recompute::selective ? "C_total = C + attention-core forward 4·L·s·h·D"
                                                          : "C_total = C (no recomputation)",
                   "Transformer Math 101: 2PD ≤ C_forward ≤ 4PD", c.total_flops, "FLOPs",
                   {{"C", c.model_flops, "FLOPs"}, {"recompute", c.recompute_flops, "FLOPs"}}});
    bool from_mfu = !(sc.hardware.achieved_tflops > 0);
    out.push_back({"compute.seconds", "Training time",
                   from_mfu ? "T = C / (N · peak · MFU)" : "T = C_total / (N · achieved FLOP/s)", tm101, c.seconds,
                   "s",
                   {{"C", from_mfu ? c.model_flops : c.total_flops, "FLOPs"},
                    {"N", double(par.num_gpus), "GPUs"},
                    {"FLOP/s per GPU", r.achieved_flops_per_gpu, "FLOP/s"}}});
    out.push_back({"compute.gpu_hours", "GPU-hours", "GPU-hours = T · N / 3600", tm101, c.gpu_hours, "GPU-h",
                   {{"T", c.seconds, "s"}, {"N", double(par.num_gpus), "GPUs"}}});
    out.push_back({"compute.tflop_hours", "TFLOP-hours", "TFLOP-hours = C_total / (10^12 · 3600)", tm101,
                   c.tflop_hours, "TFLOP-h", {{"C_total", c.total_flops, "FLOPs"}}});
    out.push_back({"compute.pflop_days", "PetaFLOP-days", "PF-days = C_total / (10^15 · 24 · 3600)", tm101,
                   c.pflop_days, "PF-days", {{"C_total", c.total_flops, "FLOPs"}}});
    out.push_back({"compute.cost", "Cost", "cost = GPU-hours · price", "user input", c.cost, "$",
                   {{"GPU-hours", c.gpu_hours, "GPU-h"}, {"price", sc.hardware.price_per_gpu_hour, "$/GPU-h"}}});
    out.push_back({"compute.chinchilla_tokens", "Chinchilla-optimal tokens", "D_opt = 20 · P",
                   "Hoffmann et al. 2022; Transformer Math 101", c.chinchilla_tokens, "tokens",
                   {{"P", p.total, "parameters"}}});
    return out;
}

}  // namespace vramcalc
