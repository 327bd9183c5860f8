#include "explain.hpp"

#include "outputs.hpp"

namespace vramcalc {
namespace {

constexpr const char* tm101 = "Transformer Math 101 (EleutherAI, https://blog.eleuther.ai/transformer-math/)";
constexpr const char* korthikanti =
    "Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models (arXiv:2205.05198), "
    "eq. 1: 34·sbh + 5·as²b";

// A term explains one output: its label, value and unit come from the output table.
ExplainTerm term(const Estimate& e, const char* id, const char* formula, const char* source,
                 std::vector<ExplainValue> inputs) {
    const OutputSpec* o = find_output(id);  // every id is an output (tests/test_outputs.cpp)
    if (!o) return {id, id, formula, source, 0.0, "", std::move(inputs)};
    return {o->path, o->label, formula, source, o->value(e), unit_symbol(o->unit), std::move(inputs)};
}

}  // namespace

std::vector<ExplainTerm> explain(const Scenario& sc, const Estimate& e) {
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
                       p.overridden ? "P = params_override"
                                    : "P = embedding + L · per_layer + final_norm + lm_head; per_layer = attention "
                                      "(2·h·a·d + 2·h·g·d + biases) + E · MLP + 2 norms + router",
                       "architecture (Vaswani et al. 2017, arXiv:1706.03762; GQA, SwiGLU, MoE variants)",
                       {{"embedding", p.embedding, "parameters"},
                        {"L", double(m.layers), ""},
                        {"per_layer", p.per_layer, "parameters"},
                        {"final_norm", p.final_norm, "parameters"},
                        {"lm_head", p.lm_head, "parameters"}}));
    out.push_back(term(e, "layout.data_parallel", "DP = N / (t · p)", tm101,
                       {{"N", double(par.num_gpus), ""}, {"t", t, ""}, {"p", pp, ""}}));

    const char* weights_formula = stage >= 3 ? "weights = P/(t·p) / DP · bytes_w + live_params · bytes_w (ZeRO-3)"
                                             : "weights = P/(t·p) · bytes_w";
    out.push_back(term(e, "memory_per_gpu_bytes.weights", weights_formula, tm101,
                       {{"P/(t·p)", e.params_per_gpu, "parameters"},
                        {"bytes_w", e.bytes_per_parameter.weights, "bytes/param"},
                        {"DP", stage >= 3 ? dp : 1.0, ""},
                        {"live_params · bytes_w", mem.zero3_live_params, "bytes"}}));
    out.push_back(term(e, "memory_per_gpu_bytes.gradients",
                       stage >= 2 ? "gradients = P/(t·p) / DP · bytes_g (ZeRO-2/3)" : "gradients = P/(t·p) · bytes_g",
                       tm101,
                       {{"P/(t·p)", e.params_per_gpu, "parameters"},
                        {"bytes_g", e.bytes_per_parameter.gradients, "bytes/param"},
                        {"DP", stage >= 2 ? dp : 1.0, ""}}));
    out.push_back(term(e, "memory_per_gpu_bytes.optimizer",
                       par.offload_optimizer
                           ? "optimizer = 0 on the GPU (offloaded: P/(t·p) / DP · bytes_opt in host memory)"
                       : stage >= 1 ? "optimizer = P/(t·p) / DP · bytes_opt (ZeRO-1+)"
                                    : "optimizer = P/(t·p) · bytes_opt",
                       "Transformer Math 101; Rajbhandari et al. 2019, ZeRO (arXiv:1910.02054)",
                       {{"P/(t·p)", e.params_per_gpu, "parameters"},
                        {"bytes_opt", e.bytes_per_parameter.optimizer, "bytes/param"},
                        {"DP", stage >= 1 ? dp : 1.0, ""},
                        {"host bytes per GPU", e.host_memory_bytes.per_gpu, "bytes"}}));

    const char* per_layer_formula =
        tr.recompute == Recompute::full
            ? "per_layer = 2·s·b·h (full recomputation keeps each layer's input)"
            : (a.as2b_coefficient > 0 ? "per_layer = c_sbh·s·b·h + c_as2b·a·s²·b; GPT at t = 1: c_sbh = 34, c_as2b = 5"
                                      : "per_layer = c_sbh·s·b·h (attention scores not stored: FlashAttention or "
                                        "selective recomputation)");
    out.push_back(term(e, "activations.per_layer_bytes", per_layer_formula, korthikanti,
                       {{"s", double(tr.seq_len), "tokens"},
                        {"b", double(tr.micro_batch_size), ""},
                        {"h", double(m.hidden_size), ""},
                        {"a", double(m.num_heads), ""},
                        {"t", t, ""},
                        {"c_sbh", a.sbh_coefficient, "bytes"},
                        {"c_as2b", a.as2b_coefficient, "bytes"}}));
    out.push_back(term(e, "memory_per_gpu_bytes.activations",
                       pp > 1 ? "activations = max(first stage: per_layer · ceil(L/p) · in_flight + embedding, "
                                "last stage: per_layer · ceil(L/p) + output)"
                              : "activations = per_layer · L + embedding + output",
                       "Korthikanti et al. 2022 (arXiv:2205.05198) §4.2.3 (1F1B in-flight micro-batches), §4.3 "
                       "(embedding, logits)",
                       {{"per_layer", a.per_layer_bytes, "bytes"},
                        {"ceil(L/p)", a.layers_on_gpu, ""},
                        {"in_flight", a.in_flight_microbatches, "micro-batches"},
                        {"embedding", a.embedding_bytes, "bytes"},
                        {"output (norm, head input, fp32 logits 4·s·b·V/t)", a.output_bytes, "bytes"}}));
    out.push_back(term(e, "memory_per_gpu_bytes.overhead", "overhead = reserved_gib · 2^30",
                       "user input (CUDA context, NCCL, allocator)", {{"reserved_gib", sc.hardware.reserved_gib, "GiB"}}));
    out.push_back(term(e, "memory_per_gpu_bytes.total", "total = weights + gradients + optimizer + activations + overhead",
                       tm101,
                       {{"weights", mem.weights, "bytes"},
                        {"gradients", mem.gradients, "bytes"},
                        {"optimizer", mem.optimizer, "bytes"},
                        {"activations", mem.activations, "bytes"},
                        {"overhead", mem.overhead, "bytes"},
                        {"capacity", e.capacity_bytes, "bytes"}}));

    out.push_back(term(e, "compute.model_flops", tr.attention_flops ? "C = (6·P_active + 12·L·s·h) · D" : "C = 6 · P_active · D",
                       "Transformer Math 101 (C ≈ 6PD); Chowdhery et al. 2022, PaLM (arXiv:2204.02311) App. B for the "
                       "attention term",
                       {{"P_active", p.active, "parameters"},
                        {"D", tr.tokens, "tokens"},
                        {"L", double(m.layers), ""},
                        {"s", double(tr.seq_len), ""},
                        {"h", double(m.hidden_size), ""}}));
    out.push_back(term(e, "compute.total_flops",
                       tr.recompute == Recompute::full        ? "C_total = C + one extra forward (2·P·D + attention)"
                       : tr.recompute == Recompute::selective ? "C_total = C + attention-core forward 4·L·s·h·D"
                                                              : "C_total = C (no recomputation)",
                       "Transformer Math 101: 2PD ≤ C_forward ≤ 4PD",
                       {{"C", c.model_flops, "FLOPs"}, {"recompute", c.recompute_flops, "FLOPs"}}));
    bool from_mfu = !(sc.hardware.achieved_tflops > 0);
    out.push_back(term(e, "compute.seconds", from_mfu ? "T = C / (N · peak · MFU)" : "T = C_total / (N · achieved FLOP/s)",
                       tm101,
                       {{"C", from_mfu ? c.model_flops : c.total_flops, "FLOPs"},
                        {"N", double(par.num_gpus), "GPUs"},
                        {"FLOP/s per GPU", r.achieved_flops_per_gpu, "FLOP/s"}}));
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
    return out;
}

}  // namespace vramcalc
