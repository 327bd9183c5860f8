// Parameter counts and the resolved layout (docs/formulas.md §1). Sources: Vaswani et al. 2017
// (arXiv:1706.03762); GQA, SwiGLU and MoE variants; MLA (DeepSeek-V2, arXiv:2405.04434); Gated
// DeltaNet (arXiv:2412.06464); Mamba (arXiv:2312.00752) — each formula in core/formulas.hpp.
#include "core/model/architecture.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/formulas.hpp"

namespace vramcalc {
namespace f = formulas;

namespace {

// One softmax-attention layer's attention: MLA when kv_lora_rank > 0, else Q/K/V/O with GQA; plus
// q/k norms, sinks and an output gate.
double softmax_attention_params(const ModelConfig& m, const Layout& r) {
    double core = m.kv_lora_rank > 0 ? f::mla_attention_params(m, m.v_head_dim > 0 ? m.v_head_dim : r.head_dim)
                                     : f::attention_params(m, r.kv_heads, r.head_dim);
    return core + f::attention_extra_params(m, r.head_dim);
}

// The token mixers of all L layers: n_softmax attention layers and L − n_softmax linear ones.
double token_mixer_params(const ModelConfig& m, const Layout& r) {
    double linear_layers = double(f::linear_layer_count(m));
    double linear = m.linear_attention == LinearAttention::mamba ? f::mamba_params(m) : f::gated_deltanet_params(m);
    double softmax = (double(m.layers) - linear_layers) * softmax_attention_params(m, r);
    return softmax + (linear_layers > 0 ? linear_layers * linear : 0.0);
}

ParameterCounts count_parameters(const ModelConfig& m, const Layout& r) {
    ParameterCounts c;
    const bool moe = m.num_experts > 1;
    const double layers = double(m.layers), experts = double(m.num_experts);
    // Attention (or linear mixer) and norms, summed over the stack; per_layer holds its mean (exact
    // when every layer has the same mixer).
    const double mixers = token_mixer_params(m, r);
    const double norms = double(m.norms_per_layer) * f::norm_params(m);
    const double mixer_mean = f::linear_layer_count(m) > 0 ? mixers / layers : softmax_attention_params(m, r);
    const double attention_norms = mixer_mean + norms;
    // MoE layers: router, S shared experts (DeepSeekMoE stores them as one MLP of width S·f_e, same
    // count) and E routed experts of width f_e; the first `dense_layers` layers have a dense MLP of
    // width f. [DeepSeekMoE, Dai et al. 2024, arXiv:2401.06066 §3]
    double expert_mlp = f::mlp_params(m, moe ? r.moe_ffn_hidden_size : r.ffn_hidden_size);
    double shared_mlp = moe && m.num_shared_experts > 0 ? f::mlp_params(m, m.num_shared_experts * r.moe_ffn_hidden_size) : 0.0;
    double moe_shared = f::router_params(m) + shared_mlp;
    c.embedding = f::embedding_params(m);
    c.expert_per_layer = moe ? experts * expert_mlp : 0.0;
    c.per_layer = attention_norms + moe_shared + experts * expert_mlp;
    c.per_layer_active = attention_norms + moe_shared + double(m.experts_per_token) * expert_mlp;
    c.dense_layers = moe ? double(std::min(m.dense_layers, m.layers)) : 0.0;
    double dense_mlp = f::mlp_params(m, r.ffn_hidden_size);
    c.per_dense_layer = moe ? attention_norms + dense_mlp : c.per_layer;
    double moe_layers = layers - c.dense_layers;
    // Summed, not per_layer × L, so that a hybrid stack's total stays exact.
    c.layers = mixers + layers * norms + moe_layers * (moe_shared + experts * expert_mlp) + c.dense_layers * dense_mlp;
    c.final_norm = f::norm_params(m);
    c.lm_head = m.tied_embeddings ? 0.0 : double(m.vocab_size) * double(m.hidden_size);
    c.total = c.embedding + c.layers + c.final_norm + c.lm_head;
    c.active = c.total - moe_layers * (experts - double(m.experts_per_token)) * expert_mlp;
    if (m.params_override > 0) {
        // A given count replaces the architecture's; active scales in the same proportion.
        double ratio = c.active / c.total;
        c.total = m.params_override;
        c.active = m.params_override * ratio;
        c.overridden = true;
    }
    return c;
}

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

}  // namespace

Layout resolve_layout(const Scenario& sc) {
    Layout r{};
    r.kv_heads = sc.model.num_kv_heads > 0 ? sc.model.num_kv_heads : sc.model.num_heads;
    r.head_dim = sc.model.head_dim > 0 ? sc.model.head_dim : sc.model.hidden_size / std::max<std::int64_t>(1, sc.model.num_heads);
    r.ffn_hidden_size = sc.model.ffn_hidden_size > 0 ? sc.model.ffn_hidden_size : 4 * sc.model.hidden_size;
    r.moe_ffn_hidden_size = sc.model.moe_ffn_hidden_size > 0 ? sc.model.moe_ffn_hidden_size : r.ffn_hidden_size;
    // Context parallelism splits each sequence over cp GPUs: N = t·p·cp·DP (Megatron parallel_state.py).
    // (In doubles: t·p·cp of unvalidated input may exceed an int64; DP is at most num_gpus.)
    const double model_parallel = std::max(1.0, double(sc.parallel.tensor) * double(sc.parallel.pipeline) *
                                                    double(std::max<std::int64_t>(1, sc.parallel.context)));
    r.data_parallel = std::max<std::int64_t>(1, std::int64_t(std::floor(double(sc.parallel.num_gpus) / model_parallel)));
    std::int64_t per_step = std::max<std::int64_t>(1, sc.training.micro_batch_size * r.data_parallel);
    if (sc.training.global_batch_size > 0) {
        r.global_batch_size = sc.training.global_batch_size;
        r.grad_accum_steps = std::max<std::int64_t>(1, sc.training.global_batch_size / per_step);
    } else {
        r.grad_accum_steps = std::max<std::int64_t>(1, sc.training.grad_accum_steps);
        r.global_batch_size = r.grad_accum_steps * per_step;
    }
    const auto& hw = sc.hardware;
    r.achieved_flops_per_gpu = (hw.achieved_tflops > 0 ? hw.achieved_tflops : hw.peak_tflops * hw.mfu) * 1e12;
    return r;
}

ParameterCounts count_model_parameters(const ModelConfig& model, const Layout& layout) {
    return count_parameters(model, layout);
}

std::int64_t longest_sequence(const ModelConfig& m) {
    return m.position_embedding == PositionEmbedding::learned ? m.max_position_embeddings
                                                              : std::numeric_limits<std::int64_t>::max();
}

// parameters.total: the architecture's count (docs/formulas.md §1).
void explain_parameters(const Scenario& sc, const Estimate& e, std::vector<ExplainTerm>& out) {
    const auto& m = sc.model;
    const auto& p = e.parameters;
    out.push_back(explain_term(e, "parameters.total",
                               p.overridden ? "P = params_override" : parameter_formula(m),
                               "architecture (Vaswani et al. 2017, arXiv:1706.03762; GQA, SwiGLU, MoE variants; MLA "
                               "arXiv:2405.04434; Gated DeltaNet arXiv:2412.06464; Mamba arXiv:2312.00752)",
                               {{"embedding", p.embedding, "parameters"},
                                {"L", double(m.layers), ""},
                                {"per_layer", p.per_layer, "parameters"},
                                {"final_norm", p.final_norm, "parameters"},
                                {"lm_head", p.lm_head, "parameters"}}));
}

// layout.data_parallel.
void explain_layout(const Scenario& sc, const Estimate& e, std::vector<ExplainTerm>& out) {
    const auto& par = sc.parallel;
    double t = double(par.tensor), pp = double(par.pipeline);
    out.push_back(explain_term(e, "layout.data_parallel", "DP = N / (t · p · cp)", tm101_source,
                               {{"N", double(par.num_gpus), ""}, {"t", t, ""}, {"p", pp, ""}, {"cp", double(par.context), ""}}));
}

}  // namespace vramcalc
