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
// vllm-10517 len20000 (V0, RTX 3090: 0.40 GiB; its log prints non_torch_memory=0.35GiB), vllm-v01011
// gmu025 (V1, A100: 0.28 GiB) → 0.34 GiB at t = 1; vllm-v01011 tp2-gmu05 (A100 TP2: 0.56 GiB in all) →
// 0.22 GiB more at t > 1 (NCCL, custom all-reduce). Refitted after the profile run's terms were traced
// (the sampler warm-up, the decoder layer's held input; 0.20 and 0.44 before). Reported on the held-out
// cases (docs/accuracy.md "Serving").
constexpr double graph_seed = 0.5 * gib;
constexpr double nccl_seed = 0.25 * gib;
constexpr double vllm_non_torch_fitted = 0.34 * gib;
constexpr double vllm_nccl_fitted = 0.22 * gib;

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

double vllm_default_max_num_seqs(const Scenario& sc) {
    // [VLLM] arg_utils.py: the same test as max_num_batched_tokens' larger default
    return sc.hardware.memory_gib >= 70 && sc.hardware.gpu.rfind("A100", 0) != 0 ? 1024 : vllm_max_num_seqs;
}

// Bytes per logit at the peak of vLLM V1's sampler warm-up (_dummy_sampler_run: top-k = V − 1, top-p = 0.9).
// FlashInfer (topk_topp_sampler.py forward_cuda → flashinfer.sampling.top_k_top_p_sampling_from_logits):
constexpr double flashinfer_logit_bytes = 2   // the model's bf16 logits, held by _dummy_sampler_run
                                        + 4   // Sampler.forward: logits.to(torch.float32)
                                        + 4   // top_k_mask_logits: the masked copy
                                        + 4;  // torch.softmax of the masked logits
// PyTorch (apply_top_k_top_p: logits.sort over rows ≥ 128; ATen Sort.cu segmented_sort_pairs), at the sort:
constexpr double pytorch_logit_bytes = 2 + 4  // the bf16 logits and their fp32 copy, as above
                                     + 4 + 8  // the sort's outputs: values, int64 indices
                                     + 8      // segmented_sort_pairs: its int64 index input (fill_reverse_indices)
                                     + 4 + 8; // cub DeviceSegmentedRadixSort::SortPairs: alternate key and value buffers

double vllm_sampler_logit_bytes(Sampler sampler) {
    return sampler == Sampler::pytorch ? pytorch_logit_bytes : flashinfer_logit_bytes;
}

double forward_only_bytes(const Scenario& sc, const Layout& r, double tokens, double held_rows) {
    const ModelConfig& m = sc.model;
    const double t = double(std::max<std::int64_t>(1, sc.parallel.tensor));
    const double h = double(m.hidden_size);
    const bool moe = m.num_experts > 1;
    // the widest MLP a token passes: dense f, or k routed + shared experts of f_e (fused MoE keeps them all)
    const double experts = double(m.experts_per_token + m.num_shared_experts) * double(r.moe_ffn_hidden_size);
    const double dense = !moe || m.dense_layers > 0 ? double(r.ffn_hidden_size) : 0.0;
    const double width = std::max(moe ? experts : 0.0, dense);
    const double gate_up = m.mlp == MlpKind::swiglu ? 3.0 : 2.0;  // gate + up outputs and the activation
    const double mlp = held_rows * h + gate_up * width / t;
    const double attention = 2.0 * h + double(m.num_heads + 2 * r.kv_heads) * double(r.head_dim) / t;
    return tokens * 2.0 * std::max(mlp, attention);
}

double forward_activation_bytes(const Scenario& sc, const Layout& r, double tokens, double rows) {
    const double h = double(sc.model.hidden_size);
    const double sampler = tokens * h * 2.0 + rows * double(sc.model.vocab_size) * 4.0 * 2.0;  // hidden kept + fp32 logits, probs
    return forward_only_bytes(sc, r, tokens, 2.0) + sampler;
}

// vLLM's decoder layers (vllm/model_executor/models/llama.py and alike) while the MLP runs hold three
// hidden-size rows per token: the layer's input (still referenced by LlamaModel.forward's loop; the
// fused add-RMSNorm normalised it in place), the residual, and the MLP's input. The V0 logs of
// vllm-10517 (Llama-3.1-8B, 20,000 and 29,000 tokens) grow 0.92 GiB over 9,000 tokens: 109.8 kB per
// token, against 2·(3h + 3f) = 110.6 kB (2·(2h + 3f) = 102.4 kB).
constexpr double vllm_mlp_held_rows = 3.0;

double vllm_v1_profile_bytes(const Scenario& sc, const Layout& r, double tokens, double rows) {
    const double hidden = tokens * double(sc.model.hidden_size) * 2.0;  // _dummy_run's bf16 hidden states, kept
    const double sampler = rows * double(sc.model.vocab_size) * vllm_sampler_logit_bytes(sc.inference.sampler);
    return std::max(forward_only_bytes(sc, r, tokens, vllm_mlp_held_rows), hidden + sampler);
}

bool vllm_runs_v0(const HardwareConfig& hw) { return gpu_family(hw.gpu) == GpuFamily::volta || hw.gpu == "T4"; }

double vllm_v0_profile_bytes(const Scenario& sc, const Layout& r, double tokens, double rows) {
    const double forward = forward_only_bytes(sc, r, tokens, vllm_mlp_held_rows);
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
