// Every memory and compute term as one small named function.
// Each carries its formula, units and source:
//   [TM101]  Anthony, Biderman, Schoelkopf 2023, "Transformer Math 101", EleutherAI blog,
//            https://blog.eleuther.ai/transformer-math/
//   [ACT34]  "LLM 参数，显存，Tflops? 训练篇(5)" ("LLM parameters, VRAM, TFLOPs? Training part 5"),
//            WeChat article (mp.weixin.qq.com): 34·sbh + 5·as²b per layer and the Llama-65B worked example
//   [MEGA-ACT] Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models",
//            arXiv:2205.05198
//   [ZERO]   Rajbhandari et al. 2019, "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models",
//            arXiv:1910.02054
#pragma once

#include <algorithm>
#include <cstdint>

#include "scenario.hpp"

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

// One MLP (one expert): GELU 2·h·f (+ f + h biases); SwiGLU 3·h·f (+ 2f + h biases).
inline double mlp_params(const ModelConfig& m, std::int64_t ffn) {
    double h = double(m.hidden_size), f = double(ffn);
    if (m.mlp == MlpKind::gelu) return 2.0 * h * f + (m.bias ? f + h : 0.0);
    return 3.0 * h * f + (m.bias ? 2.0 * f + h : 0.0);
}

// MoE router: h·E (no bias), only when E > 1. [Mixtral / Switch]
inline double router_params(const ModelConfig& m) {
    return m.num_experts > 1 ? double(m.hidden_size) * double(m.num_experts) : 0.0;
}

// ───────────────────────── bytes per parameter [TM101 "memory per parameter"] ─────────────────────────

inline bool is_mixed(Precision p) { return p == Precision::mixed_bf16 || p == Precision::mixed_fp16; }

// Weights: fp32 4 B; fp16/bf16 and mixed precision 2 B (the fp32 master copy is counted in the optimizer). [TM101]
inline double weight_bytes_per_param(Precision p) { return p == Precision::fp32 ? 4.0 : 2.0; }

// Gradients follow the model dtype (2 B for 16-bit and mixed, 4 B for fp32) unless grad_dtype = fp32. [TM101]
inline double gradient_bytes_per_param(Precision p, GradDtype g) {
    return g == GradDtype::fp32 ? 4.0 : weight_bytes_per_param(p);
}

// Optimizer state: fp32 master copy (4 B, mixed precision only) + states. AdamW: 2 states,
// 8-bit Adam: 2 × 1 B, SGD with momentum: 1 state, SGD: none. States are fp32 (4 B) in mixed
// and fp32 training, and follow the 16-bit dtype (2 B) in pure bf16/fp16 training.
// Mixed AdamW 4+4+4 = 12, 8-bit 4+1+1 = 6, SGD-momentum 4+4 = 8. [TM101 "optimizer states"]
inline double optimizer_bytes_per_param(Precision p, Optimizer o) {
    double master = is_mixed(p) ? 4.0 : 0.0;
    double state = (p == Precision::bf16 || p == Precision::fp16) ? 2.0 : 4.0;
    switch (o) {
        case Optimizer::adamw: return master + 2.0 * state;
        case Optimizer::adamw_8bit: return master + 2.0 * 1.0;
        case Optimizer::sgd_momentum: return master + state;
        case Optimizer::sgd: return master;
    }
    return master;
}

// ───────────────────────── activations per layer [ACT34], [MEGA-ACT] ─────────────────────────
// 16-bit values (2 B), 1-byte dropout masks. Coefficients multiply s·b·h or a·s²·b (bytes).

// Outside the tensor-parallel region (replicated across TP ranks without SP):
// two norm inputs 4 + QKV input 2 + MLP input 2 (+ attention-output and MLP-output dropout masks 1 + 1).
// At t = 1 with GPT shapes this is the "10" of TM101's sbh·(10 + 24/t + 5as/(ht)). [MEGA-ACT §4.1, ACT34]
inline double replicated_sbh_coefficient(bool dropout) { return 4.0 + 2.0 + 2.0 + (dropout ? 2.0 : 0.0); }

// Inside the tensor-parallel region (divided by t): Q 2·(a·d/h) + K,V 4·(g·d/h), output-projection
// input 2·(a·d/h), MLP inner tensors: GELU input and output 2·(2f/h) = 4f/h; SwiGLU gate, up, SiLU
// output and product 4·(2f/h) = 8f/h (× k experts per token for MoE).
// GPT (d = h/a, g = a, f = 4h): 2+4+2+16 = 24. [MEGA-ACT eq. 2, ACT34]
inline double tensor_parallel_sbh_coefficient(const ModelConfig& m, std::int64_t kv_heads, std::int64_t head_dim,
                                              std::int64_t ffn) {
    double h = double(m.hidden_size);
    double q_over_h = double(m.num_heads) * double(head_dim) / h;
    double kv_over_h = double(kv_heads) * double(head_dim) / h;
    double qkv = 2.0 * q_over_h + 4.0 * kv_over_h;
    double out_proj_input = 2.0 * q_over_h;
    double f_over_h = double(ffn) / h;
    double mlp_inner = (m.mlp == MlpKind::gelu ? 4.0 : 8.0) * f_over_h * double(m.experts_per_token);
    return qkv + out_proj_input + mlp_inner;
}

// Attention scores: softmax output 2 + dropout mask 1 + dropout output 2 = 5 (2 without dropout).
// Dropped entirely by FlashAttention (never materialised) and selective recomputation. [ACT34, MEGA-ACT §5]
inline double attention_scores_as2b_coefficient(bool dropout) { return dropout ? 5.0 : 2.0; }

// Full recomputation keeps only each layer's input: 2·s·b·h bytes. [TM101, MEGA-ACT §5]
inline constexpr double full_recompute_sbh_coefficient = 2.0;

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
