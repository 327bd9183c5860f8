#include "core/serving/engines.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/model/presets.hpp"

namespace vramcalc::serving {
namespace {

constexpr double gib = 1024.0 * 1024.0 * 1024.0;

// Overheads outside the tensors (docs/serving.md §3). CUDA graphs: a seed, vLLM's "Graph capturing
// finished … took ~0.5 GiB" for 7–8B models at the default capture sizes. NCCL at t > 1: a seed for
// SGLang and TRT-LLM. vLLM's non-torch memory (the increase over the start-up baseline, which holds
// the CUDA context) is fitted on the `fit` cases of tests/data/inference/measured_cases.json:
// vllm-10517 len20000 (V0, RTX 3090: 0.15 GiB), vllm-v01011 gmu025 (V1, A100: 0.25 GiB) → 0.20 GiB
// at t = 1; vllm-v01011 tp2-gmu05 (A100 TP2: 0.64 GiB in all) → 0.44 GiB more at t > 1 (NCCL,
// custom all-reduce). Reported on the held-out cases (docs/accuracy.md "Serving").
constexpr double graph_seed = 0.5 * gib;
constexpr double nccl_seed = 0.25 * gib;
constexpr double vllm_non_torch_fitted = 0.20 * gib;
constexpr double vllm_nccl_fitted = 0.44 * gib;

constexpr std::array<EngineProfile, 5> engine_table = {{
    {Engine::vllm, "vllm", "vLLM", PoolRule::utilisation_of_total, 0.9, 16, MlaStorage::latent, graph_seed,
     vllm_nccl_fitted, vllm_non_torch_fitted, "vLLM 0.6.5–0.10"},
    {Engine::sglang, "sglang", "SGLang", PoolRule::static_fraction, 0.88, 1, MlaStorage::latent, graph_seed, nccl_seed, 0,
     "SGLang 0.4"},
    {Engine::trtllm, "trtllm", "TensorRT-LLM", PoolRule::fraction_of_free, 0.9, 32, MlaStorage::latent, graph_seed,
     nccl_seed, 0, "TensorRT-LLM 0.20 (LLM API / trtllm-serve)"},
    {Engine::llamacpp, "llamacpp", "llama.cpp", PoolRule::exact_buffers, 1.0, 256, MlaStorage::latent_k_and_v, 0, 0, 0,
     "llama.cpp b6000+ (llama-server)"},
    {Engine::hf, "hf", "Hugging Face generate", PoolRule::grows_with_sequence, 1.0, 1, MlaStorage::full, 0, 0, 0,
     "transformers 4.5x"},
}};

}  // namespace

std::span<const EngineProfile> engine_profiles() { return engine_table; }
const EngineProfile& engine_profile(Engine engine) { return engine_table[std::size_t(engine)]; }

double default_memory_fraction(const EngineProfile& engine, std::int64_t tensor) {
    if (engine.id != Engine::sglang) return engine.default_fraction;
    // [SGL] server_args.py: the larger t, the more memory NCCL and graphs keep outside the pool
    if (tensor >= 16) return 0.79;
    if (tensor >= 8) return 0.81;
    if (tensor >= 4) return 0.85;
    if (tensor >= 2) return 0.87;
    return 0.88;
}

double default_batched_tokens(const EngineProfile& engine, const Scenario& sc) {
    const double memory = sc.hardware.memory_gib;
    switch (engine.id) {
        // [VLLM] arg_utils.py: the larger default needs >= 70 GiB and a device name without "a100"
        case Engine::vllm: return memory >= 70 && sc.hardware.gpu.rfind("A100", 0) != 0 ? 8192 : 2048;
        case Engine::sglang: return memory >= 60 ? 8192 : memory >= 35 ? 4096 : 2048;
        case Engine::trtllm: return 8192;
        case Engine::llamacpp: return 512;
        case Engine::hf: return double(sc.inference.prompt_tokens) * double(sc.inference.concurrency);
    }
    return 8192;
}

double forward_activation_bytes(const Scenario& sc, const Layout& r, double tokens, double rows) {
    const ModelConfig& m = sc.model;
    const double t = double(std::max<std::int64_t>(1, sc.parallel.tensor));
    const double h = double(m.hidden_size);
    const bool moe = m.num_experts > 1;
    // the widest MLP a token passes: dense f, or k routed + shared experts of f_e (fused MoE keeps them all)
    const double experts = double(m.experts_per_token + m.num_shared_experts) * double(r.moe_ffn_hidden_size);
    const double dense = !moe || m.dense_layers > 0 ? double(r.ffn_hidden_size) : 0.0;
    const double width = std::max(moe ? experts : 0.0, dense);
    const double gate_up = m.mlp == MlpKind::swiglu ? 3.0 : 2.0;  // gate + up outputs and the activation
    const double mlp = 2.0 * h + gate_up * width / t;
    const double attention = 2.0 * h + double(m.num_heads + 2 * r.kv_heads) * double(r.head_dim) / t;
    const double forward = tokens * 2.0 * std::max(mlp, attention);
    const double sampler = tokens * h * 2.0 + rows * double(m.vocab_size) * 4.0 * 2.0;  // hidden kept + fp32 logits, probs
    return forward + sampler;
}

bool vllm_runs_v0(const HardwareConfig& hw) { return gpu_family(hw.gpu) == GpuFamily::volta || hw.gpu == "T4"; }

double vllm_v0_profile_bytes(const Scenario& sc, const Layout& r, double tokens, double rows) {
    const double sampler_v1 = rows * double(sc.model.vocab_size) * 4.0 * 2.0;
    const double forward = forward_activation_bytes(sc, r, tokens, rows) - sampler_v1 - tokens * double(sc.model.hidden_size) * 2.0;
    // V0 sampler (vllm/model_executor/layers/sampler.py, the profile's top-k/top-p run) per logit: fp16 logits 2,
    // fp32 copy 4, sorted values 4 + int64 indices 8, softmax of the sorted 4, cumsum 4, mask 1, inverse
    // index 8, gathered logits 4 = 39 B; it runs after the forward's intermediates are freed
    const double sampler = tokens * double(sc.model.hidden_size) * 2.0 + rows * double(sc.model.vocab_size) * 39.0;
    return std::max(forward, sampler);
}

double llamacpp_compute_bytes(const ModelConfig& m, const Layout& r, double ubatch, double kv_cells, bool flash_attention,
                              bool output_on_gpu) {
    const double h = double(m.hidden_size);
    if (!output_on_gpu) return 4.0 * ubatch * (double(m.vocab_size) + h);  // logits + one hidden row; the caller adds the staged output weight
    const double logits = 4.0 * ubatch * (double(m.vocab_size) + 2.0 * h + 1.0);  // f32 logits + two hidden rows
    if (flash_attention) return logits;
    const double q = double(m.num_heads * r.head_dim), kv = double(r.kv_heads * r.head_dim);
    const double scores = 4.0 * ubatch * kv_cells * (double(m.num_heads) + 1.0);  // f32 KQ and mask
    return std::max(logits, scores + 4.0 * ubatch * (3.0 * h + 2.0 * q + 2.0 * kv));
}

double llamacpp_output_bytes(const ModelConfig& m, double sequences) { return 4.0 * double(m.vocab_size) * sequences; }

VllmGroups vllm_groups(const KvShape& k) {
    VllmGroups g;
    const double full = k.full_layers, window = k.window_layers;
    if (full == 0 || window == 0) {
        g.group_size = std::max(1.0, full + window);
        g.full_groups = full > 0 ? 1 : 0;
        g.window_groups = window > 0 ? 1 : 0;
        return g;
    }
    const double lo = std::min(full, window), hi = std::max(full, window);
    g.group_size = hi < 1.25 * lo ? hi : lo;
    g.full_groups = std::ceil(full / g.group_size);
    g.window_groups = std::ceil(window / g.group_size);
    return g;
}

}  // namespace vramcalc::serving
