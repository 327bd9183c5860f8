#include "explain.hpp"

#include <algorithm>
#include <bit>

#include "core/training/finetune.hpp"
#include "outputs.hpp"

namespace vramcalc {
namespace {

// The parameter formula of this model's layers (docs/formulas.md §1).
const char* parameter_formula(const ModelConfig& m) {
    if (m.full_attention_interval > 0)
        return "P = embedding + Σ layers + final_norm + lm_head; every N-th layer attention, the others Gated DeltaNet "
               "or Mamba mixers; per_layer = their mean + E · MLP + norms + router";
    if (m.kv_lora_rank > 0)
        return "P = embedding + L · per_layer + final_norm + lm_head; per_layer = MLA (q_a, q_b, kv_a, kv_b, o and "
               "the latent norms) + E · MLP + norms + router";
    return "P = embedding + L · per_layer + final_norm + lm_head; per_layer = attention (2·h·a·d + 2·h·g·d + biases) + "
           "E · MLP + 2 norms + router";
}

constexpr const char* tm101 = "Transformer Math 101 (EleutherAI, https://blog.eleuther.ai/transformer-math/)";

ExplainTerm term(const Estimate& e, const char* id, const char* formula, const char* source,
                 std::vector<ExplainValue> inputs) {
    return explain_term(e, id, formula, source, std::move(inputs));
}

}  // namespace

ExplainTerm explain_term(const Estimate& e, const char* id, const char* formula, const char* source,
                         std::vector<ExplainValue> inputs) {
    const OutputSpec* o = find_output(id);  // every id is an output (tests/test_outputs.cpp)
    if (!o) return {id, id, formula, source, 0.0, "", std::move(inputs)};
    return {o->path, o->label, formula, source, o->value(e), unit_symbol(o->unit), std::move(inputs)};
}

std::vector<ExplainTerm> explain(const Scenario& sc, const Estimate& e) {
    if (e.workload == Workload::inference) return explain_serving(sc, e);
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const auto& par = sc.parallel;
    const auto& r = e.layout;
    const auto& mem = e.memory_per_gpu_bytes;
    const auto& a = e.activations;
    const auto& c = e.compute;
    const auto& p = e.parameters;
    int stage = par.zero_stage;
    double t = double(par.tensor), pp = double(par.pipeline), dp = double(r.data_parallel);
    std::vector<ExplainTerm> out;

    out.push_back(term(e, "parameters.total",
                       p.overridden ? "P = params_override" : parameter_formula(m),
                       "architecture (Vaswani et al. 2017, arXiv:1706.03762; GQA, SwiGLU, MoE variants; MLA "
                       "arXiv:2405.04434; Gated DeltaNet arXiv:2412.06464; Mamba arXiv:2312.00752)",
                       {{"embedding", p.embedding, "parameters"},
                        {"L", double(m.layers), ""},
                        {"per_layer", p.per_layer, "parameters"},
                        {"final_norm", p.final_norm, "parameters"},
                        {"lm_head", p.lm_head, "parameters"}}));
    {
        const char* peft = "Hu et al. 2021, LoRA (arXiv:2106.09685) §4.1; PEFT LoraLayer.update_layer (r·d_in + d_out·r, no "
                           "biases); LLaMA-Factory _setup_freeze_tuning (last k layers)";
        switch (tr.method) {
            case TrainingMethod::full:
                out.push_back(term(e, "parameters.trainable", "P_trainable = P (full training)", peft, {{"P", p.total, "parameters"}}));
                break;
            case TrainingMethod::freeze:
                out.push_back(term(e, "parameters.trainable",
                                   "P_trainable = k · per_layer (the last k layers; embeddings, final norm, LM head frozen)", peft,
                                   {{"k", p.trained_layers, "layers"}, {"per_layer", p.per_layer, "parameters"}}));
                break;
            case TrainingMethod::lora:
            case TrainingMethod::qlora:
                out.push_back(term(e, "parameters.trainable",
                                   "P_trainable = L · Σ_targeted r · (d_in + d_out) (× E for expert linears)", peft,
                                   {{"L", double(m.layers), ""},
                                    {"r", double(tr.lora_rank), ""},
                                    {"targeted modules (q,k,v,o,gate,up,down)", double(std::popcount(tr.lora_targets & lora_all_linear)), ""},
                                    {"P_adapter", p.adapter, "parameters"}}));
                break;
        }
        {
            const char* formula =
                tr.method == TrainingMethod::full ? "frozen = 0 (every parameter trains)"
                : tr.method == TrainingMethod::qlora
                    ? "frozen = (P − P_quantized) · bytes_w + Σ quantised matrices (NF4: 0.5 + 1/64 + 4/(64·256) bytes per "
                      "weight with double quantisation; int8: 1 byte + 4 per row); one 16-bit copy of the largest is made per matmul"
                    : "frozen = (P − P_trainable) · bytes_w (no gradient, no optimizer state)";
            out.push_back(term(e, "model_states_bytes.frozen_weights", formula,
                               "Dettmers et al. 2023, QLoRA (arXiv:2305.14314) §3; Dettmers et al. 2022, LLM.int8() "
                               "(arXiv:2208.07339); bitsandbytes MatMul4Bit, torchao linear_nf4 (dequantise per use)",
                               {{"P", p.total, "parameters"},
                                {"P_quantized", p.quantized, "parameters"},
                                {"bytes_w", e.bytes_per_parameter.weights, "bytes/param"},
                                {"quantised bytes", p.quantized_bytes, "bytes"},
                                {"dequantised copy", e.model_states_bytes.dequantized, "bytes"}}));
        }
    }
    out.push_back(term(e, "layout.data_parallel", "DP = N / (t · p · cp)", tm101,
                       {{"N", double(par.num_gpus), ""}, {"t", t, ""}, {"p", pp, ""}, {"cp", double(par.context), ""}}));

    const auto& peak = e.memory_timeline.at(mem.peak_phase);
    const char* zero = "Transformer Math 101; Rajbhandari et al. 2019, ZeRO (arXiv:1910.02054)";
    out.push_back(term(e, "model_states_bytes.weights",
                       stage >= 3 ? "weights = P/(t·p) / DP · bytes_w (ZeRO-3; 0 for FSDP's 16-bit copy)"
                                  : "weights = P/(t·p) · bytes_w",
                       zero,
                       {{"P/(t·p)", e.params_per_gpu, "parameters"},
                        {"bytes_w", e.bytes_per_parameter.weights, "bytes/param"},
                        {"DP", stage >= 3 ? dp : 1.0, ""}}));
    out.push_back(term(e, "model_states_bytes.gradients",
                       stage >= 2 ? "gradients = P/(t·p) / DP · bytes_g (ZeRO-2/3)" : "gradients = P/(t·p) · bytes_g",
                       zero,
                       {{"P/(t·p)", e.params_per_gpu, "parameters"},
                        {"bytes_g", e.bytes_per_parameter.gradients, "bytes/param"},
                        {"DP", stage >= 2 ? dp : 1.0, ""}}));
    out.push_back(term(e, "model_states_bytes.optimizer",
                       (par.offload_optimizer || par.offload_params)
                           ? "optimizer = 0 on the GPU (offloaded: P/(t·p) / DP · bytes_opt in host memory)"
                       : tr.paged_optimizer ? "optimizer = P/(t·p) / DP · master bytes (paged states on the host)"
                       : stage >= 1         ? "optimizer = P/(t·p) / DP · bytes_opt (ZeRO-1+)"
                                            : "optimizer = P/(t·p) · bytes_opt",
                       zero,
                       {{"P/(t·p)", e.params_per_gpu, "parameters"},
                        {"bytes_opt", e.bytes_per_parameter.optimizer, "bytes/param"},
                        {"DP", stage >= 1 ? dp : 1.0, ""},
                        {"host bytes per GPU", e.host_memory_bytes.per_gpu, "bytes"}}));
    out.push_back(term(e, "model_states_bytes.live_params",
                       par.zero_impl == ZeroImpl::fsdp
                           ? "live = (2 layers + root: embeddings, LM head) · compute bytes; the whole stage with p > 1"
                           : "live = min(zero3_live_params, P/(t·p)) · compute bytes",
                       "DeepSpeed stage3_max_live_parameters; PyTorch FSDP2 (Zhao et al. 2023, arXiv:2304.11277)",
                       {{"zero3_live_params", par.zero3_live_params, "parameters"},
                        {"P/(t·p)", e.params_per_gpu, "parameters"}}));
    out.push_back(term(e, "model_states_bytes.autocast_copies",
                       "copies = 2 bytes · matmul weights (incl. the LM head); each freed at its layer's backward",
                       "PyTorch torch.autocast weight cast cache (amp_bf16 / amp_fp16)",
                       {{"P/(t·p)", e.params_per_gpu, "parameters"}}));
    out.push_back(term(e, "model_states_bytes.optimizer_temporaries",
                       tr.optimizer_impl == OptimizerImpl::foreach
                           ? "temporaries = stepped parameters · state bytes (foreach AdamW: sqrt(v) for every tensor)"
                           : "temporaries = 0 (fused step in place), or DeepSpeed's fp32 gradient partition",
                       "torch.optim.AdamW _multi_tensor_adam (torch._foreach_sqrt); DeepSpeed stage_1_and_2.py",
                       {{"P/(t·p)", e.params_per_gpu, "parameters"}}));

    const auto& l = a.layer;
    out.push_back(term(e, "activations.per_layer_bytes",
                       "per_layer = s·b·(outside_tp / sp + inside_tp / t) + scores·a·s²·b / t; GPT, fused kernels, "
                       "t = 1: 34·s·b·h + 5·a·s²·b",
                       "Korthikanti et al. 2022 (arXiv:2205.05198) eq. 1–2 for fused kernels; PyTorch's saved tensors "
                       "of Hugging Face modules for eager (bench/memory); docs/formulas.md §4",
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
                        {"LoRA adapters (inputs, dropout masks, r-wide)", l.adapters, "bytes/token"},
                        {"c_sbh", a.sbh_coefficient, "bytes"},
                        {"c_as2b", a.as2b_coefficient, "bytes"}}));
    out.push_back(term(e, "activations.transformer_layers_bytes",
                       "layers = (recomputed · checkpointed_layer + (ceil(L/p) − recomputed) · per_layer) · in_flight",
                       "Korthikanti et al. 2022 (arXiv:2205.05198) §4.2.3: 1F1B keeps p micro-batches in flight on "
                       "the first stage",
                       {{"per_layer", a.per_layer_bytes, "bytes"},
                        {"ceil(L/p)", a.layers_on_gpu, ""},
                        {"recomputed", a.recomputed_layers, "layers"},
                        {"in_flight", a.in_flight_microbatches, "micro-batches"}}));
    out.push_back(term(e, "activations.loss_peak_bytes",
                       "loss = s·b·V/t · max(forward peak, backward peak) bytes per logit",
                       "PyTorch cross_entropy (log_softmax + nll_loss on fp32-upcast logits); Korthikanti et al. 2022 "
                       "§4.3 (4·s·b·V/t fp32 logits); torchtune CEWithChunkedOutputLoss; Liger-Kernel",
                       {{"s·b·V/t", a.logits_elements, "elements"},
                        {"kept", a.loss_per_logit.saved, "bytes/logit"},
                        {"forward peak", a.loss_per_logit.forward_peak, "bytes/logit"},
                        {"backward peak", a.loss_per_logit.backward_peak, "bytes/logit"}}));
    out.push_back(term(e, "activations.backward_working_bytes",
                       "working = s·b·(2·residual·h + max(MLP: 2·e·f·k/t, attention: flash (4 + e)·q/t + 2·e·kv/t, "
                       "eager (e + 4)·a·s/t))",
                       "PyTorch autograd, measured with the CPU harness (bench/memory); FlashAttention-2 backward "
                       "(arXiv:2307.08691)",
                       {{"s", double(tr.seq_len), "tokens"}, {"b", double(tr.micro_batch_size), ""}}));
    out.push_back(term(e, "activations.recompute_working_bytes",
                       "recompute = per_layer (nothing recomputed) − checkpointed layer",
                       "Korthikanti et al. 2022 §5; PyTorch torch.utils.checkpoint",
                       {{"per_layer", a.per_layer_bytes, "bytes"}}));
    out.push_back(term(e, "memory_per_gpu_bytes.peak_allocated",
                       "peak = max over forward, loss, backward, optimizer step of weights + gradients + optimizer + "
                       "activations + logits + temporaries",
                       "docs/formulas.md §6 (the step as a timeline)",
                       {{"weights", peak.weights, "bytes"},
                        {"gradients", peak.gradients, "bytes"},
                        {"optimizer", peak.optimizer, "bytes"},
                        {"activations", peak.activations, "bytes"},
                        {"logits", peak.logits, "bytes"},
                        {"temporaries", peak.temporaries, "bytes"}}));
    out.push_back(term(e, "memory_per_gpu_bytes.peak_reserved",
                       "reserved = peak_allocated · (1 + allocator_overhead) + largest transient block",
                       "PyTorch CUDA caching allocator (block splitting and caching); docs/accuracy.md",
                       {{"peak_allocated", mem.peak_allocated, "bytes"},
                        {"allocator_overhead", sc.hardware.allocator_overhead, ""},
                        {"largest block", mem.peak_reserved - mem.peak_allocated * (1 + sc.hardware.allocator_overhead),
                         "bytes"}}));
    double nccl = mem.total - mem.peak_reserved - (sc.hardware.cuda_context_gib + sc.hardware.reserved_gib) * bytes_per_gib;
    out.push_back(term(e, "memory_per_gpu_bytes.total",
                       "total = peak_reserved + cuda_context + NCCL buffers (0.5 GiB per communicator) + reserved",
                       "CUDA context and NCCL buffers live outside PyTorch's allocator; docs/accuracy.md",
                       {{"peak_reserved", mem.peak_reserved, "bytes"},
                        {"cuda_context", sc.hardware.cuda_context_gib * bytes_per_gib, "bytes"},
                        {"NCCL buffers", nccl, "bytes"},
                        {"reserved", sc.hardware.reserved_gib * bytes_per_gib, "bytes"},
                        {"capacity", e.capacity_bytes, "bytes"}}));

    if (tr.method == TrainingMethod::full) {
        out.push_back(term(e, "compute.model_flops", tr.attention_flops ? "C = (6·P_active + 12·L·s·h) · D" : "C = 6 · P_active · D",
                           "Transformer Math 101 (C ≈ 6PD); Chowdhery et al. 2022, PaLM (arXiv:2204.02311) App. B for the "
                           "attention term",
                           {{"P_active", p.active, "parameters"},
                            {"D", tr.tokens, "tokens"},
                            {"L", double(m.layers), ""},
                            {"s", double(tr.seq_len), ""},
                            {"h", double(m.hidden_size), ""}}));
    } else {
        out.push_back(term(e, "compute.model_flops",
                           "C = [2·(P + P_adapter) + 2·P_through + 2·P_trainable] · D; P_through = P + P_adapter − (L − k)·per_layer "
                           "(activation gradients through every layer a gradient reaches, weight gradients for trainable "
                           "parameters only)",
                           "Transformer Math 101 (C ≈ 6PD = 2PD forward + 2PD activation gradients + 2PD weight gradients); "
                           "Hu et al. 2021, LoRA (arXiv:2106.09685) §4.2",
                           {{"P_active", p.active, "parameters"},
                            {"P_adapter", p.adapter_active, "parameters"},
                            {"P_trainable", p.trainable, "parameters"},
                            {"k", p.trained_layers, "layers"},
                            {"D", tr.tokens, "tokens"}}));
    }
    out.push_back(term(e, "compute.total_flops",
                       tr.recompute == Recompute::full        ? "C_total = C + one extra forward (2·P·D + attention)"
                       : tr.recompute == Recompute::selective ? "C_total = C + attention-core forward 4·L·s·h·D"
                                                              : "C_total = C (no recomputation)",
                       "Transformer Math 101: 2PD ≤ C_forward ≤ 4PD",
                       {{"C", c.model_flops, "FLOPs"}, {"recompute", c.recompute_flops, "FLOPs"}}));
    bool from_mfu = !(sc.hardware.achieved_tflops > 0);
    const auto& pf = e.performance;
    const auto& br = pf.breakdown_seconds;
    double steps = tr.tokens / pf.tokens_per_step;
    if (pf.predicted) {
        constexpr const char* perf_source =
            "docs/formulas.md §10: Narayanan et al. 2021 (arXiv 2104.04473), Korthikanti et al. 2022 (arXiv "
            "2205.05198), ZeRO (arXiv 1910.02054), efficiencies fitted on measured H200 kernels";
        out.push_back(term(e, "performance.step_seconds",
                           "step = compute + TP + bubble (p−1)/v·t_mb + p2p + CP + DP + ZeRO + optimizer + overhead", perf_source,
                           {{"compute", br.compute, "s"},
                            {"of which recompute", pf.recompute_seconds, "s"},
                            {"tensor_parallel", br.tensor_parallel, "s"},
                            {"pipeline_bubble", br.pipeline_bubble, "s"},
                            {"pipeline_p2p", br.pipeline_p2p, "s"},
                            {"context_parallel", br.context_parallel, "s"},
                            {"data_parallel", br.data_parallel, "s"},
                            {"zero", br.zero, "s"},
                            {"optimizer_step", br.optimizer_step, "s"},
                            {"overhead", br.overhead, "s"},
                            {"m (micro-batches)", pf.microbatches, ""},
                            {"t_mb (one micro-batch, busiest stage)", pf.microbatch_seconds, "s"}}));
        out.push_back(term(e, "compute.seconds", "T = D / (B · s) · step", perf_source,
                           {{"D", tr.tokens, "tokens"}, {"B · s", pf.tokens_per_step, "tokens"}, {"step", pf.step_seconds, "s"}}));
    } else {
        out.push_back(term(e, "compute.seconds", from_mfu ? "T = C / (N · peak · MFU)" : "T = C_total / (N · achieved FLOP/s)",
                           tm101,
                           {{"C", from_mfu ? c.model_flops : c.total_flops, "FLOPs"},
                            {"N", double(par.num_gpus), "GPUs"},
                            {"FLOP/s per GPU", r.achieved_flops_per_gpu, "FLOP/s"}}));
        out.push_back(term(e, "performance.step_seconds", "step = T · B · s / D", tm101,
                           {{"T", c.seconds, "s"}, {"B · s", pf.tokens_per_step, "tokens"}, {"D", tr.tokens, "tokens"}}));
    }
    out.push_back(term(e, "performance.tokens_per_second", "tokens/s = B · s / step", tm101,
                       {{"B · s", pf.tokens_per_step, "tokens"}, {"step", pf.step_seconds, "s"}}));
    out.push_back(term(e, "performance.achieved_tflops_per_gpu",
                       "achieved = C_total per step / (N · step) (executed FLOPs, with recomputation)", tm101,
                       {{"C_total per step", c.total_flops / steps, "FLOPs"},
                        {"N", double(par.num_gpus), "GPUs"},
                        {"step", pf.step_seconds, "s"}}));
    out.push_back(term(e, "performance.mfu", "MFU = C per step / (N · peak · step)",
                       "Chowdhery et al. 2022, PaLM (arXiv:2204.02311), App. B",
                       {{"C per step", c.model_flops / steps, "FLOPs"},
                        {"N", double(par.num_gpus), "GPUs"},
                        {"peak", sc.hardware.peak_tflops, "TFLOP/s"},
                        {"step", pf.step_seconds, "s"}}));
    out.push_back(term(e, "compute.gpu_hours", "GPU-hours = T · N / 3600", tm101,
                       {{"T", c.seconds, "s"}, {"N", double(par.num_gpus), "GPUs"}}));
    out.push_back(term(e, "compute.tflop_hours", "TFLOP-hours = C_total / (10^12 · 3600)", tm101,
                       {{"C_total", c.total_flops, "FLOPs"}}));
    out.push_back(term(e, "compute.pflop_days", "PF-days = C_total / (10^15 · 24 · 3600)", tm101,
                       {{"C_total", c.total_flops, "FLOPs"}}));
    out.push_back(term(e, "compute.cost", "cost = GPU-hours · price", "user input",
                       {{"GPU-hours", c.gpu_hours, "GPU-h"}, {"price", sc.hardware.price_per_gpu_hour, "$/GPU-h"}}));
    out.push_back(term(e, "compute.chinchilla_tokens", "D_opt = 20 · P",
                       "Hoffmann et al. 2022, Training Compute-Optimal Large Language Models (arXiv:2203.15556); "
                       "Transformer Math 101",
                       {{"P", p.total, "parameters"}}));
    explain_fp8_and_context(sc, e, out);  // parallelism_explain.cpp
    return out;
}

}  // namespace vramcalc
