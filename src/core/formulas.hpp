// The formulas: every parameter, memory and compute term as one small named function, on the
// core's ground floor (model/architecture.cpp and the training stages use them). Each carries its
// formula, units and source; derivations and worked examples: docs/formulas.md.
//   [TM101]  EleutherAI "Transformer Math 101", https://blog.eleuther.ai/transformer-math/
//   [ACT34]  "LLM parameters, VRAM, TFLOPs? Training part 5" (the article docs/formulas.md's worked
//            examples check against: 34·s·b·h + 5·a·s²·b per layer)
//   [MEGA-ACT] Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models"
//   [ZERO]   Rajbhandari et al. 2019, "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models"
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/scenario.hpp"

namespace vramcalc::formulas {

// ───────────────────────── parameters (counts, not bytes) ─────────────────────────

// Token embedding V·h, plus learned absolute positions max_pos·h. [GPT-2 / Llama architectures]
inline double embedding_params(const ModelConfig& m) {
    double tokens = double(m.vocab_size) * double(m.hidden_size);
    double positions = m.position_embedding == PositionEmbedding::learned
                           ? double(m.max_position_embeddings) * double(m.hidden_size)
                           : 0.0;
    return tokens + positions;
}

// One norm: LayerNorm has weight + bias (2h), RMSNorm a weight only (h).
inline double norm_params(const ModelConfig& m) {
    return m.norm == NormKind::layernorm ? 2.0 * double(m.hidden_size) : double(m.hidden_size);
}

// Attention: Q (h × a·d), K and V (h × g·d each, GQA), O (a·d × h); biases on Q, K, V (a·d + 2·g·d)
// with `bias` or `qkv_bias`, on O (h) with `bias`. d = h/a unless head_dim is given.
inline double attention_params(const ModelConfig& m, std::int64_t kv_heads, std::int64_t head_dim) {
    double h = double(m.hidden_size);
    double q_width = double(m.num_heads) * double(head_dim);
    double kv_width = double(kv_heads) * double(head_dim);
    double weights = 2.0 * h * q_width + 2.0 * h * kv_width;
    double qkv_biases = (m.bias || m.qkv_bias) ? q_width + 2.0 * kv_width : 0.0;
    double out_bias = m.bias ? h : 0.0;
    return weights + qkv_biases + out_bias;
}

// Multi-head latent attention per layer [DeepSeek-V2, arXiv:2405.04434 §2.1; HF DeepseekV3Attention]:
// q_a_proj h×d_c' + q_a_layernorm d_c' + q_b_proj d_c'×a·(d_n+d_R) (or q_proj h×a·(d_n+d_R) when
// d_c' = 0), kv_a_proj_with_mqa h×(d_c+d_R) + kv_a_layernorm d_c, kv_b_proj d_c×a·(d_n+d_v), o_proj a·d_v×h.
inline double mla_attention_params(const ModelConfig& m, std::int64_t v_head_dim) {
    double h = double(m.hidden_size), a = double(m.num_heads);
    double qk = double(m.qk_nope_head_dim + m.qk_rope_head_dim), dv = double(v_head_dim);
    double q_lora = double(m.q_lora_rank), kv_lora = double(m.kv_lora_rank);
    double query = m.q_lora_rank > 0 ? h * q_lora + q_lora + q_lora * a * qk : h * a * qk;
    double key_value = h * (kv_lora + double(m.qk_rope_head_dim)) + kv_lora + kv_lora * a * (double(m.qk_nope_head_dim) + dv);
    return query + key_value + a * dv * h;
}

// Extras of one softmax-attention layer: q_norm and k_norm of d weights each (Qwen3, Gemma 3:
// 2·d); one sink logit per head (gpt-oss: a); the output gate of Qwen3-Next, whose q_proj emits
// a·d more outputs (h·a·d, + a·d with biases). [HF Qwen3Attention, GptOssAttention, Qwen3NextAttention]
inline double attention_extra_params(const ModelConfig& m, std::int64_t head_dim) {
    double d = double(head_dim), a = double(m.num_heads);
    double qk_norms = m.qk_norm ? 2.0 * d : 0.0;
    double sinks = m.attention_sinks ? a : 0.0;
    double gate = m.attention_output_gate ? double(m.hidden_size) * a * d + ((m.bias || m.qkv_bias) ? a * d : 0.0) : 0.0;
    return qk_norms + sinks + gate;
}

// Gated DeltaNet layer [Yang et al. 2024, arXiv:2412.06464; HF Qwen3NextGatedDeltaNet], with
// key width k = n_k·d_k and value width v = n_v·d_v: in_proj_qkvz h×(2k + 2v), in_proj_ba h×2n_v,
// depthwise conv1d (2k + v)×K (no bias), dt_bias n_v, A_log n_v, gated RMSNorm d_v, out_proj v×h.
inline double gated_deltanet_params(const ModelConfig& m) {
    double h = double(m.hidden_size), heads_v = double(m.linear_num_value_heads);
    double k = double(m.linear_num_key_heads) * double(m.linear_key_head_dim);
    double v = heads_v * double(m.linear_value_head_dim);
    double projections = h * (2.0 * k + 2.0 * v) + h * 2.0 * heads_v + v * h;
    double conv = (2.0 * k + v) * double(m.linear_conv_kernel);
    return projections + conv + 2.0 * heads_v + double(m.linear_value_head_dim);
}

// Mamba-1 mixer as Jamba builds it [Gu & Dao 2023, arXiv:2312.00752; Lieber et al. 2024,
// arXiv:2403.19887; HF JambaMambaMixer], d_i = expand·h, R = ceil(h/16): in_proj h×2d_i,
// conv1d d_i×K + d_i bias, x_proj d_i×(R + 2N), dt_proj R×d_i + d_i, A_log d_i×N, D d_i,
// out_proj d_i×h, and Jamba's dt/B/C RMSNorms R + 2N.
inline double mamba_params(const ModelConfig& m) {
    double h = double(m.hidden_size), inner = double(m.ssm_expand) * h, n = double(m.ssm_state_size);
    double rank = double((m.hidden_size + 15) / 16);
    double projections = h * 2.0 * inner + inner * (rank + 2.0 * n) + rank * inner + inner + inner * h;
    double conv = inner * double(m.linear_conv_kernel) + inner;
    return projections + conv + inner * n + inner + rank + 2.0 * n;
}

// Layers of a hybrid stack that are linear-attention / Mamba layers: all but every N-th
// (Qwen3-Next layer_types, N = full_attention_interval): L − floor(L / N); 0 without hybrid layers.
inline std::int64_t linear_layer_count(const ModelConfig& m) {
    return m.full_attention_interval > 0 ? m.layers - m.layers / m.full_attention_interval : 0;
}

// Softmax-attention layers that use the sliding window: all but every N-th (N =
// global_attention_interval; Gemma 3 sliding_window_pattern), of the n softmax layers.
inline std::int64_t windowed_layer_count(const ModelConfig& m) {
    std::int64_t softmax = m.layers - linear_layer_count(m);
    if (m.sliding_window == 0) return 0;
    return m.global_attention_interval > 0 ? softmax - softmax / m.global_attention_interval : softmax;
}

// One MLP (one expert): GELU 2·h·f (+ f + h biases); SwiGLU 3·h·f (+ 2f + h biases).
inline double mlp_params(const ModelConfig& m, std::int64_t ffn) {
    double h = double(m.hidden_size), f = double(ffn);
    if (m.mlp == MlpKind::gelu) return 2.0 * h * f + (m.bias ? f + h : 0.0);
    return 3.0 * h * f + (m.bias ? 2.0 * f + h : 0.0);
}

// MoE router: h·E, + E with a router bias (gpt-oss; DeepSeek-V3's e_score_correction_bias), + h
// for a shared-expert gate (Qwen2-MoE, Qwen3-Next); only when E > 1. [Mixtral / Switch; HF]
inline double router_params(const ModelConfig& m) {
    if (m.num_experts <= 1) return 0.0;
    double e = double(m.num_experts), h = double(m.hidden_size);
    return h * e + (m.router_bias ? e : 0.0) + (m.shared_expert_gate ? h : 0.0);
}

// ───────────────────────── bytes per parameter [TM101 "memory per parameter"] ─────────────────────────

inline bool is_mixed(Precision p) { return p == Precision::mixed_bf16 || p == Precision::mixed_fp16; }
inline bool is_amp(Precision p) { return p == Precision::amp_bf16 || p == Precision::amp_fp16; }
inline bool is_pure_16bit(Precision p) { return p == Precision::bf16 || p == Precision::fp16; }

// Weights: fp32 4 B; fp16/bf16 and mixed precision 2 B (the fp32 master copy is counted in the
// optimizer); autocast (amp_*) keeps fp32 weights, 4 B. [TM101; PyTorch AMP docs]
inline double weight_bytes_per_param(Precision p) { return p == Precision::fp32 || is_amp(p) ? 4.0 : 2.0; }

// Gradients follow the weights' dtype (2 B for 16-bit and mixed, 4 B for fp32 and autocast) unless
// grad_dtype = fp32. [TM101]
inline double gradient_bytes_per_param(Precision p, GradDtype g) {
    return g == GradDtype::fp32 ? 4.0 : weight_bytes_per_param(p);
}

// Bytes of one optimizer state element: the 16-bit dtype in pure bf16/fp16 training (PyTorch keeps
// states in the parameter dtype), fp32 otherwise.
inline double optimizer_state_bytes(Precision p) { return is_pure_16bit(p) ? 2.0 : 4.0; }

// Optimizer state: fp32 master copy (4 B, mixed precision only) + states. AdamW: 2 states,
// 8-bit Adam: 2 × 1 B, SGD with momentum: 1 state, SGD: none. Autocast needs no master copy (the
// weights are fp32). Mixed AdamW 4+4+4 = 12, 8-bit 4+1+1 = 6, SGD-momentum 4+4 = 8. [TM101 "optimizer states"]
inline double optimizer_bytes_per_param(Precision p, Optimizer o) {
    double master = is_mixed(p) ? 4.0 : 0.0;
    double state = optimizer_state_bytes(p);
    switch (o) {
        case Optimizer::adamw: return master + 2.0 * state;
        case Optimizer::adamw_8bit: return master + 2.0 * 1.0;
        case Optimizer::sgd_momentum: return master + state;
        case Optimizer::sgd: return master;
    }
    return master;
}

// Bytes of one activation element that a matmul produces: 4 in fp32 training, 2 otherwise
// (autocast runs matmuls in 16 bits).
inline double activation_bytes(Precision p) { return p == Precision::fp32 ? 4.0 : 2.0; }

// ───────────────────────── compute [TM101 "compute requirements"] ─────────────────────────

// Training FLOPs per token: 6·P (forward 2P, backward 4P). [TM101: C ≈ 6PD; Kaplan et al. 2020]
inline double dense_flops_per_token(double params) { return 6.0 * params; }

// Attention score FLOPs per token, forward: QKᵀ and scores·V, 2·s·h each per layer → 4·L·s·h;
// training (×3) 12·L·s·h. [Chowdhery et al. 2022 (PaLM) App. B; Hoffmann et al. 2022]
inline double attention_forward_flops_per_token(const ModelConfig& m, std::int64_t seq_len) {
    return 4.0 * double(m.layers) * double(seq_len) * double(m.hidden_size);
}

// PetaFLOP-day = 1e15 · 24 · 3600 FLOPs. [TM101]
inline constexpr double flops_per_pflop_day = 1e15 * 24.0 * 3600.0;
// TFLOP-hour = 1e12 · 3600 FLOPs.
inline constexpr double flops_per_tflop_hour = 1e12 * 3600.0;
// Chinchilla compute-optimal tokens D ≈ 20·P. [Hoffmann et al. 2022; TM101]
inline constexpr double chinchilla_tokens_per_param = 20.0;
// "We do not recommend training an LLM on fewer than 200B tokens." [TM101]
inline constexpr double min_recommended_tokens = 200e9;
// "Below 115 TFLOP/s/A100 something is wrong with the model or hardware configuration." [TM101]
inline constexpr double a100_min_healthy_tflops = 115.0;

}  // namespace vramcalc::formulas
