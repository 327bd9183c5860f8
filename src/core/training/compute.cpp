// Training FLOPs, time and cost. Sources:
//   [TM101]    EleutherAI, "Transformer Math 101", https://blog.eleuther.ai/transformer-math/ (C ≈ 6PD, T = C/τ)
//   [MEGA-ACT] Korthikanti et al. 2022, arXiv:2205.05198 §5 (selective recomputation)
//   [LORA]     Hu et al. 2021, arXiv:2106.09685 §4.2 (fine-tuning's backward)
#include "core/training/compute.hpp"

#include <algorithm>

#include "core/formulas.hpp"
#include "core/training/finetune.hpp"

namespace vramcalc {
namespace f = formulas;

namespace {

double ceil_div(std::int64_t a, std::int64_t b) { return double((a + b - 1) / b); }

// Model FLOPs: per token and for the run, split into forward and backward.
void model_flops(const Scenario& sc, const ParameterCounts& params, ComputeEstimate& c) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    double tokens = tr.tokens;
    double attention_fwd = f::attention_forward_flops_per_token(m, tr.seq_len);
    // Layers whose activations are kept (and recomputed): the trained ones under freeze.
    double trained_fraction = params.trained_layers / double(m.layers);
    if (tr.method == TrainingMethod::full) {
        double dense = f::dense_flops_per_token(params.active);
        double attention_train = tr.attention_flops ? 3.0 * attention_fwd : 0.0;
        c.flops_per_token = dense + attention_train;
        c.model_flops = c.flops_per_token * tokens;
        c.forward_flops = c.model_flops / 3.0;  // forward is 1/3 of forward + backward (2PD of 6PD)
    } else {
        // Fine-tuning: forward 2·(P + P_adapter) over every weight; backward 2·P_through for the
        // activation gradients of every layer a gradient reaches and 2·P_trainable for weight
        // gradients of the trainable parameters only (frozen ones get none). [TM101; LORA §4.2]
        double layers_frozen = double(m.layers) - params.trained_layers;
        double through = params.active + params.adapter_active - layers_frozen * params.per_layer_active;
        double trained_weights = is_adapter_method(tr.method) ? params.adapter_active
                                                              : params.trained_layers * params.per_layer_active;
        double forward = 2.0 * (params.active + params.adapter_active) + (tr.attention_flops ? attention_fwd : 0.0);
        double backward = 2.0 * through + 2.0 * trained_weights +
                          (tr.attention_flops ? 2.0 * attention_fwd * trained_fraction : 0.0);
        c.flops_per_token = forward + backward;
        c.model_flops = c.flops_per_token * tokens;
        c.forward_flops = forward * tokens;
    }
    c.backward_flops = c.model_flops - c.forward_flops;
}

// The extra forward work activation recomputation adds, FLOPs.
double recompute_flops(const Scenario& sc, const Layout& r, const ParameterCounts& params, const ComputeEstimate& c) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    double tokens = tr.tokens;
    double attention_fwd = f::attention_forward_flops_per_token(m, tr.seq_len);
    // With recompute_layers = k only k of the ceil(L/p) layers of a stage are recomputed.
    double stage_layers = ceil_div(m.layers, sc.parallel.pipeline);
    double recomputed_fraction =
        tr.recompute_layers > 0 ? std::min(double(tr.recompute_layers), stage_layers) / stage_layers : 1.0;
    double flops = 0;
    switch (tr.recompute) {
        case Recompute::none: flops = 0; break;
        // Full: one more forward pass, C_forward ≤ 4PD. [TM101]
        case Recompute::full:
            flops = (c.forward_flops + (tr.attention_flops ? 0.0 : attention_fwd * tokens)) * recomputed_fraction;
            break;
        // Selective: the attention core (QKᵀ, softmax, ·V) forward again. [MEGA-ACT §5]
        case Recompute::selective: flops = attention_fwd * tokens; break;
        // Op-level: every second matmul forward again (K, O, up for Llama-family layers; O and
        // fc2 with fused QKV), 2 FLOPs per multiply-add; attention outputs are kept.
        case Recompute::ops: {
            double h = double(m.hidden_size), q = double(m.num_heads) * double(r.head_dim);
            double kv = double(r.kv_heads) * double(r.head_dim);
            double ffn = double(m.num_experts > 1 ? r.moe_ffn_hidden_size : r.ffn_hidden_size);
            double k = double(m.experts_per_token + (m.num_experts > 1 ? m.num_shared_experts : 0));
            double per_token_layer = m.norm == NormKind::rmsnorm ? 2.0 * (h * kv + q * h + (m.mlp == MlpKind::swiglu ? h * ffn * k : 0.0))
                                                                 : 2.0 * (q * h + ffn * h * k);
            flops = per_token_layer * double(m.layers) * tokens * recomputed_fraction;
            break;
        }
    }
    // Frozen layers below the first trained one build no autograd graph: nothing to recompute.
    if (tr.method == TrainingMethod::freeze) flops *= params.trained_layers / double(m.layers);
    return flops;
}

}  // namespace

ComputeEstimate training_compute(const Scenario& sc, const Layout& r, const ParameterCounts& params) {
    ComputeEstimate c;
    model_flops(sc, params, c);
    c.recompute_flops = recompute_flops(sc, r, params, c);
    c.total_flops = c.model_flops + c.recompute_flops;
    c.cluster_flops_per_second = double(sc.parallel.num_gpus) * r.achieved_flops_per_gpu;
    // T = C / tau. An achieved rate counts executed FLOPs (incl. recomputation); an MFU counts
    // model FLOPs only (Chowdhery et al. 2022, App. B). [TM101]
    bool from_mfu = !(sc.hardware.achieved_tflops > 0);
    double counted = from_mfu ? c.model_flops : c.total_flops;
    c.seconds = counted / c.cluster_flops_per_second;
    c.days = c.seconds / 86400.0;
    c.gpu_hours = c.seconds * double(sc.parallel.num_gpus) / 3600.0;
    c.tflop_hours = c.total_flops / f::flops_per_tflop_hour;
    c.pflop_days = c.total_flops / f::flops_per_pflop_day;
    c.cost = c.gpu_hours * sc.hardware.price_per_gpu_hour;
    c.chinchilla_tokens = f::chinchilla_tokens_per_param * params.total;
    return c;
}

// Training FLOPs: C = 6PD and what recomputation adds (docs/formulas.md §6).
void explain_flops(const Scenario& sc, const Estimate& e, std::vector<ExplainTerm>& out) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const auto& c = e.compute;
    const auto& p = e.parameters;
    if (tr.method == TrainingMethod::full) {
        out.push_back(explain_term(e, "compute.model_flops", tr.attention_flops ? "C = (6·P_active + 12·L·s·h) · D" : "C = 6 · P_active · D",
                                   "Transformer Math 101 (C ≈ 6PD); Chowdhery et al. 2022, PaLM (arXiv:2204.02311) App. B for the "
                                   "attention term",
                                   {{"P_active", p.active, "parameters"},
                                    {"D", tr.tokens, "tokens"},
                                    {"L", double(m.layers), ""},
                                    {"s", double(tr.seq_len), ""},
                                    {"h", double(m.hidden_size), ""}}));
    } else {
        out.push_back(explain_term(e, "compute.model_flops",
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
    out.push_back(explain_term(e, "compute.total_flops",
                               tr.recompute == Recompute::full        ? "C_total = C + one extra forward (2·P·D + attention)"
                               : tr.recompute == Recompute::selective ? "C_total = C + attention-core forward 4·L·s·h·D"
                                                                      : "C_total = C (no recomputation)",
                               "Transformer Math 101: 2PD ≤ C_forward ≤ 4PD",
                               {{"C", c.model_flops, "FLOPs"}, {"recompute", c.recompute_flops, "FLOPs"}}));
}

// GPU-hours, FLOP totals, cost and Chinchilla tokens of the whole run (Transformer Math 101).
void explain_run_cost(const Scenario& sc, const Estimate& e, std::vector<ExplainTerm>& out) {
    const auto& par = sc.parallel;
    const auto& c = e.compute;
    const auto& p = e.parameters;
    out.push_back(explain_term(e, "compute.gpu_hours", "GPU-hours = T · N / 3600", tm101_source,
                               {{"T", c.seconds, "s"}, {"N", double(par.num_gpus), "GPUs"}}));
    out.push_back(explain_term(e, "compute.tflop_hours", "TFLOP-hours = C_total / (10^12 · 3600)", tm101_source,
                               {{"C_total", c.total_flops, "FLOPs"}}));
    out.push_back(explain_term(e, "compute.pflop_days", "PF-days = C_total / (10^15 · 24 · 3600)", tm101_source,
                               {{"C_total", c.total_flops, "FLOPs"}}));
    out.push_back(explain_term(e, "compute.cost", "cost = GPU-hours · price", "user input",
                               {{"GPU-hours", c.gpu_hours, "GPU-h"}, {"price", sc.hardware.price_per_gpu_hour, "$/GPU-h"}}));
    out.push_back(explain_term(e, "compute.chinchilla_tokens", "D_opt = 20 · P",
                               "Hoffmann et al. 2022, Training Compute-Optimal Large Language Models (arXiv:2203.15556); "
                               "Transformer Math 101",
                               {{"P", p.total, "parameters"}}));
}

}  // namespace vramcalc
