// Serving engines as profiles: each sizes its KV pool its own way (docs/serving.md §3). Sources:
//   [VLLM]  vllm-project/vllm v0.10: vllm/v1/worker/gpu_worker.py determine_available_memory
//           (requested = utilisation × total; KV = requested − weights − torch peak − non-torch
//           increase), vllm/v1/core/kv_cache_utils.py (num_blocks, "GPU KV cache size", "Maximum
//           concurrency"), vllm/engine/arg_utils.py (max_num_batched_tokens 8192 / max_num_seqs 1024
//           on GPUs of ≥ 70 GiB for the OpenAI server, else 2048 / 256).
//   [SGL]   sgl-project/sglang v0.4: server_args.py (mem_fraction_static 0.88 / 0.87 / 0.85 / 0.81 /
//           0.79 for t = 1 / 2 / 4 / 8 / 16), model_runner.py profile_max_num_token (rest = free after
//           weights − total·(1 − fraction), tokens = rest / cell_size).
//   [TRT]   NVIDIA/TensorRT-LLM KvCacheConfig.free_gpu_memory_fraction = 0.9 of the memory free after
//           the engine loads; tokens_per_block = 32.
//   [LLAMA] ggml-org/llama.cpp: KV allocated at n_ctx (padded to 256), compute buffer sized for n_ubatch
//           (512), token embedding always on the host, -ngl layers on the GPU.
//   [HF]    huggingface/transformers generate with DynamicCache: memory grows with the sequence.
#pragma once

#include <cstdint>
#include <span>

#include "core/scenario.hpp"
#include "core/serving/kv_cache.hpp"

namespace vramcalc::serving {

// How the KV budget is found.
enum class PoolRule {
    utilisation_of_total,    // vLLM: fraction × device memory − weights − activation peak − non-torch
    static_fraction,         // SGLang: fraction × device memory − weights − CUDA context
    fraction_of_free,        // TRT-LLM: fraction × (memory free after weights and buffers)
    exact_buffers,           // llama.cpp: KV allocated at n_ctx, nothing pooled
    grows_with_sequence,     // HF generate: the cache grows token by token
};

struct EngineProfile {
    Engine id;
    const char* name;             // JSON / CLI spelling
    const char* label;
    PoolRule pool;
    double default_fraction;      // gpu_memory_utilization / free fraction default (SGLang: by t, see below)
    double block_tokens;          // KV page: vLLM 16, SGLang 1, TRT-LLM 32, llama.cpp 256 (n_ctx padding), HF 1
    MlaStorage mla;               // how a latent (MLA) cache is stored
    double cuda_graph_bytes;      // captured graphs' memory (seed value, to be fitted; docs/serving.md §3)
    double nccl_bytes;            // communicator buffers at t > 1 (vLLM: fitted, others: seed)
    double non_torch_bytes;       // vLLM: memory outside PyTorch at t = 1 that the budget counts (fitted); 0 = the CUDA context
    const char* version;          // the version whose code this follows
};
std::span<const EngineProfile> engine_profiles();  // in enum order
const EngineProfile& engine_profile(Engine engine);

// The engine's default fraction for this scenario (SGLang's depends on t).
double default_memory_fraction(const EngineProfile& engine, std::int64_t tensor);
// max_batched_tokens when 0: vLLM 8192 on ≥ 70 GiB GPUs but A100s, else 2048 (OpenAI server); SGLang chunked prefill 8192 on
// ≥ 60 GiB, 4096 on ≥ 35 GiB, else 2048; TRT-LLM max_num_tokens 8192; llama.cpp n_ubatch 512;
// HF: the whole prompt batch.
double default_batched_tokens(const EngineProfile& engine, const Scenario& sc);
// vLLM max_num_seqs default (SchedulerConfig, V0 and GPUs under 70 GiB): 256 sequences; the planner's cap.
inline constexpr double vllm_max_num_seqs = 256;
// vLLM V1's max_num_seqs default for this GPU [VLLM arg_utils.py]: 1024 on GPUs of ≥ 70 GiB whose name has
// no "a100" (H100, H200, MI300X), else 256 — the rows of the profile run's sampler warm-up.
double vllm_default_max_num_seqs(const Scenario& sc);

// Activation peak of one forward over `tokens` tokens on one GPU (the profile run of vLLM, SGLang's
// chunked prefill, TRT-LLM's max_num_tokens buffers): the larger of the MLP block
// (residual + normed input + gate/up + activation) and the attention block (QKV), 2 bytes per
// element, plus the hidden states and the sampler's fp32 logits + probabilities for `rows`
// sequences over the vocabulary (added, not the larger: vLLM's profile of Llama-3-8B at 8192 tokens
// peaks at 1.26 GiB, the larger alone would be 0.78 GiB; docs/serving.md §3).
double forward_activation_bytes(const Scenario& sc, const Layout& r, double tokens, double rows);

// The forward alone: one pass over `tokens` tokens, the larger of the MLP block (`held_rows` hidden-size
// rows per token beside the gate/up outputs and the activation) and the attention block, 2 B per element.
double forward_only_bytes(const Scenario& sc, const Layout& r, double tokens, double held_rows);

// vLLM V1's profile run (gpu_model_runner.py profile_run): _dummy_run's forward over `tokens` (its
// intermediates freed), then _dummy_sampler_run on the kept hidden states: the torch peak is
// max(forward, tokens·h·2 + rows·V·B), B the bytes per logit of inference.sampler's top-k/top-p pass
// (vllm_sampler_logit_bytes). gpt-oss-120b on one H100, 1024 rows × 201,088 logits at 38 B: 7.29 GiB,
// against the 7.5 GiB its two logs leave (docs/serving.md §3).
double vllm_v1_profile_bytes(const Scenario& sc, const Layout& r, double tokens, double rows);
double vllm_sampler_logit_bytes(Sampler sampler);

// vLLM 0.8–0.9 falls back to its V0 engine below compute capability 8.0 (V100, T4): "Compute Capability
// < 8.0 is not supported by the V1 Engine. Falling back to V0." (vLLM 0.8.2 log, measured_cases.json).
bool vllm_runs_v0(const HardwareConfig& hw);
// V0's profile peak: the larger of the forward and the sampler's top-k/top-p pass over `rows` × V
// logits at 39 B each (docs/serving.md §3); T4 logs: 0.90 GiB (Llama-3.2-3B, 2048 tokens, 192 rows), 1.40
// GiB (Qwen2.5-3B, 4096 tokens, 256 rows).
double vllm_v0_profile_bytes(const Scenario& sc, const Layout& r, double tokens, double rows);

// llama.cpp compute buffer of one device for n_ubatch tokens over kv_cells cells (the graph
// allocator's peak; 330 real runs, bench/inference/README.md): on the device with the output layer
// the logits phase 4·n_ubatch·(V + 2h + 1) (f32 logits + two hidden rows); without flash attention
// the larger of that and the attention phase 4·n_ubatch·kv_cells·(a + 1) (f32 KQ scores and mask)
// + 4·n_ubatch·(3h + 2·a·d + 2·g·d). A GPU without the output layer still runs it (op offload of a
// host tensor for ubatches ≥ 32 tokens): 4·n_ubatch·(V + h) plus a copy of the output weight, which the
// caller adds (arXiv 2509.11947's Mistral-7B Q4_K_M, -ngl 20, n_ubatch 256: 102.54 + 31.25 + 4 = 137.79 MiB as logged).
double llamacpp_compute_bytes(const ModelConfig& m, const Layout& r, double ubatch, double kv_cells, bool flash_attention,
                              bool output_on_gpu);
// llama.cpp's output buffer (host): f32 logits of one row per sequence, 4·V·n_seq bytes (measured exactly).
double llamacpp_output_bytes(const ModelConfig& m, double sequences);

// vLLM's KV groups (kv_cache_utils.py _get_kv_cache_groups_uniform_page_size): one group for a
// uniform model; with full and window layers, groups of min(counts) layers (max when
// max < 1.25 · min), each pool block holds one page per layer of a group.
struct VllmGroups {
    double group_size = 1;   // layers per group
    double full_groups = 0, window_groups = 0;
};
VllmGroups vllm_groups(const KvShape& k);

}  // namespace vramcalc::serving
