#include "core/serving/decode_step.hpp"

#include <algorithm>
#include <cmath>

#include "core/serving/weight_formats.hpp"

namespace vramcalc::serving {
namespace {

// ── Constants (docs/serving.md §4 "Speed constants"; fits on the `fit` cases of
//    tests/data/inference/measured_cases.json, reported on the held-out ones in docs/accuracy.md) ──
// A bf16 mat-vec streams its weights like a copy: the H200's 1 GiB device copy reaches 4.24 of 4.8 TB/s
// (../shared/measurements/h200_kernels.json), the fraction the training model uses too.
constexpr double copy_bandwidth_fraction = 4.2397 / 4.8;
// ggml's dequantising mat-vec kernels (mmvq: unpack the blocks, dp4a dot products) reach less: fitted
// on the fit cases (llama-bench tg128 on an RTX 3080 and an RTX 4090, ggml-ci on a V100).
constexpr double gguf_bandwidth_fraction = 0.78;
// Fixed cost of one kernel in a CUDA-graph replay, fused engines (vLLM, SGLang, TRT-LLM): the H200's
// 16 MiB copy takes 12.61 µs, 4.70 µs more than its 33.5 MB at the 1 GiB copy's 4.24 TB/s
// (h200_kernels.json: launch, ramp-up and tail of one kernel).
constexpr double graph_kernel_seconds = 12.611e-6 - 2.0 * 16777216.0 / 4239.695e9;
// llama.cpp's gap between kernels under its CUDA graph (Ampere and newer) or a Vulkan command
// buffer: fitted (RTX 3080 / RTX 4090 tg128).
constexpr double ggml_graph_kernel_seconds = 1.2e-6;
// Without CUDA graphs the CPU launches every kernel and the small ones wait for it: llama.cpp
// disables its graphs below compute capability 8.0 (ggml-cuda.cu, disable_due_to_gpu_arch), HF
// generate runs eagerly. Fitted on the V100 ggml-ci decode runs (f16, q5_k, q3_k).
constexpr double cpu_launch_seconds = 7.0e-6;
// vLLM's host work per step (V1 scheduler, input preparation, sampler, detokenizer; benchmark_serving
// TPOT): fitted on the two vLLM fit cases (tt-inference-server Qwen2.5-72B TP2 H100, Qwen3-1.7B A100).
constexpr double fused_engine_step_seconds = 0.8e-3;

// Kernels of one layer's decode, by block (counted from each engine's forward).
struct KernelCounts {
    double attention;     // norm (+ residual), QKV, RoPE, KV-cache write, attention, output projection
    double qk_norm;       // per-head q and k norms (Qwen3)
    double mla;           // MLA instead: q_a/kv_a, their norms, q_b, RoPE, cache write, absorbed W_UK, attention, W_UV, o
    double linear;        // linear-attention / SSM layer instead (projections, conv update, recurrence, gate, out)
    double dense_mlp;     // norm, gate-up, activation, down
    double moe_mlp;       // norm, router, top-k, sort, two grouped GEMMs, activation, sum
    double per_expert;    // per routed expert k (ggml adds the k expert outputs one by one)
    double shared_expert; // shared experts: gate-up, activation, down (+ gate)
    double per_step;      // embedding, final norm, LM head, sampler
};
// vLLM / SGLang / TRT-LLM fuse the residual into the norm, gate and up into one GEMM, SiLU·mul into one
// kernel (vllm/model_executor/models/llama.py, deepseek_v2.py; fused_moe).
constexpr KernelCounts fused_counts = {6, 2, 12, 8, 4, 8, 0, 4, 8};
// llama.cpp's ggml graph (src/llama-model.cpp build_llama: rms_norm, mul, q/k/v mul_mat, rope ×2,
// set_rows ×2, flash_attn_ext, wo, add; ffn: rms_norm, mul, gate, up, glu, down, add; MoE: router,
// softmax, argsort, get_rows, mul_mat_id ×3, glu, weights mul, k − 1 adds).
constexpr KernelCounts ggml_counts = {12, 2, 18, 10, 8, 11, 1, 5, 5};
// HF eager: norms, RoPE and the cache update are several PyTorch ops each (modeling_llama.py).
constexpr KernelCounts eager_counts = {24, 4, 36, 20, 16, 22, 2, 10, 10};

const KernelCounts& counts_of(Engine engine) {
    if (engine == Engine::llamacpp) return ggml_counts;
    if (engine == Engine::hf) return eager_counts;
    return fused_counts;
}

}  // namespace

double matvec_bandwidth_fraction(WeightFormat format) {
    return is_gguf(format) ? gguf_bandwidth_fraction : copy_bandwidth_fraction;
}

double kernels_per_step(const ModelConfig& m, Engine engine, double layers) {
    const KernelCounts& c = counts_of(engine);
    const double L = double(m.layers);
    const double softmax_share = m.full_attention_interval > 0 ? 1.0 / double(m.full_attention_interval) : 1.0;
    const double attention = m.kv_lora_rank > 0 ? c.mla : c.attention + (m.qk_norm ? c.qk_norm : 0.0);
    const double mixer = softmax_share * attention + (1.0 - softmax_share) * c.linear;
    double mlp = c.dense_mlp;
    if (m.num_experts > 1) {
        const double moe = c.moe_mlp + c.per_expert * double(m.experts_per_token) +
                           (m.num_shared_experts > 0 ? c.shared_expert : 0.0);
        const double dense_share = std::min(1.0, double(m.dense_layers) / L);
        mlp = dense_share * c.dense_mlp + (1.0 - dense_share) * moe;
    }
    return layers * (mixer + mlp) + c.per_step;
}

double seconds_per_kernel(Engine engine, GpuFamily family) {
    switch (engine) {
        case Engine::llamacpp: return family == GpuFamily::volta ? cpu_launch_seconds : ggml_graph_kernel_seconds;
        case Engine::hf: return cpu_launch_seconds;
        default: return graph_kernel_seconds;
    }
}

double engine_step_seconds(Engine engine) {
    // llama.cpp (llama-bench) and HF do no scheduling between steps; their host work is the launches.
    return engine == Engine::llamacpp || engine == Engine::hf ? 0.0 : fused_engine_step_seconds;
}

}  // namespace vramcalc::serving
