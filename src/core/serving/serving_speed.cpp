#include "core/serving/serving_speed.hpp"

#include <algorithm>
#include <cmath>

#include "core/training/performance.hpp"
#include "core/model/presets.hpp"
#include "core/serving/decode_step.hpp"

namespace vramcalc::serving {
namespace {

// Host memory bandwidth a CPU reaches streaming weights (dual-channel DDR5-5600: 89.6 GB/s
// nominal, ~70 % achieved in llama.cpp's CPU decode) — a seed value, docs/serving.md §4.
constexpr double host_bandwidth_bytes_per_second = 60e9;
// PCIe 4.0 x16 as achieved (~25 GB/s of 32): llama.cpp multiplies a prompt's ubatch with host-kept
// weights on the GPU, copying them over once per ubatch — a seed value, docs/serving.md §4.
constexpr double pcie_bytes_per_second = 25e9;
// One all-reduce of a few KB over NVLink is latency-bound (NCCL LL protocol ~10 µs at 2–8 GPUs).
constexpr double all_reduce_latency_seconds = 10e-6;

// Fraction of the routed experts a decode step reads: each of E experts is used by one of B
// sequences' k picks with probability 1 − (1 − k/E)^B (uniform routing).
double experts_touched(const ModelConfig& m, double sequences) {
    if (m.num_experts <= 1) return 1.0;
    const double pick = double(m.experts_per_token) / double(m.num_experts);
    return 1.0 - std::pow(1.0 - pick, sequences);
}

// TP: two all-reduces of B·h 16-bit activations per layer per step [Megatron-LM, arXiv:1909.08053 §3].
double tensor_parallel_seconds(const Scenario& sc, double tokens) {
    const double t = double(sc.parallel.tensor);
    if (t <= 1) return 0.0;
    const double bytes = tokens * double(sc.model.hidden_size) * 2.0;
    const double per_layer = 2.0 * (all_reduce_latency_seconds +
                                    perf::all_reduce_seconds(bytes, t, sc.hardware.intra_node_gbps * 1e9));
    return per_layer * double(sc.model.layers) / double(sc.parallel.pipeline);
}

// Prefill of `tokens` tokens: 2·P_active FLOPs each on the GPUs' measured GEMM efficiency, plus
// the causal attention 2·L·a·d·s per token at s/2 on average.
double prefill_seconds(const Scenario& sc, const Layout& r, const SpeedInputs& in, const ThroughputConstants& c, double tokens,
                       double prompt) {
    const double peak = sc.hardware.peak_tflops * 1e12;
    const double bandwidth = sc.hardware.memory_bandwidth_gbps * 1e9;
    const double h = double(sc.model.hidden_size);
    const double per_gpu_params = in.active_parameters / in.gpus;
    // one [tokens × h]·[h × n] GEMM that does the layers' work on this GPU
    const double gemm = perf::gemm_seconds(tokens, h, std::max(1.0, per_gpu_params / h), 1, peak, bandwidth, c);
    const double attention_flops = 2.0 * double(sc.model.layers) * double(sc.model.num_heads) * double(r.head_dim) *
                                   prompt * tokens / in.gpus;
    const double attention = attention_flops / (c.flash_peak_fraction * c.compute_factor * peak);
    const double host_copies = in.host_weight_bytes > 0 ? std::ceil(tokens / std::max(1.0, in.batched_tokens)) : 0.0;
    return gemm + attention + tensor_parallel_seconds(sc, tokens) +
           host_copies * in.host_weight_bytes / pcie_bytes_per_second;
}

// One decode step of n sequences, term by term (decode_step.hpp) [Pope et al. 2022, arXiv:2211.05102 §2].
DecodeStepTerms decode_terms(const Scenario& sc, const SpeedInputs& in, GpuFamily family, double& step_bytes) {
    const auto& inf = sc.inference;
    const auto& c = throughput_constants(family);
    const double n = double(inf.concurrency);
    const double bandwidth = sc.hardware.memory_bandwidth_gbps * 1e9;
    // weights the step touches: dense part + the distinct routed experts n sequences pick; the
    // token embedding is a row lookup (read only where it is the tied LM head)
    const double dense_bytes = in.weight_bytes_gpu - in.expert_bytes_gpu - in.embedding_bytes_gpu;
    const double weight_bytes = dense_bytes + in.expert_bytes_gpu * experts_touched(sc.model, n);
    const double kv_bytes = n * in.kv_bytes_per_sequence;
    step_bytes = weight_bytes + kv_bytes;
    DecodeStepTerms d;
    const double stream = weight_bytes / (bandwidth * matvec_bandwidth_fraction(inf.weight_format));
    // n tokens through the active weights: 2·P_active/gpus FLOPs each, at the measured GEMM efficiency
    const double flops = 2.0 * in.active_parameters / in.gpus * n;
    d.weights = std::max(stream, flops / (c.gemm_peak_fraction * c.compute_factor * sc.hardware.peak_tflops * 1e12));
    d.kv = kv_bytes / (bandwidth * c.memory_bandwidth_fraction);
    const double layers = in.gpu_layers;
    d.kernels = kernels_per_step(sc.model, inf.engine, layers) * seconds_per_kernel(inf.engine, family);
    d.all_reduce = tensor_parallel_seconds(sc, n);
    d.host = in.host_weight_bytes / host_bandwidth_bytes_per_second;
    d.engine = engine_step_seconds(inf.engine);
    return d;
}

}  // namespace

InferenceSpeed predict_serving_speed(const Scenario& sc, const Layout& r, const SpeedInputs& in) {
    const auto& inf = sc.inference;
    InferenceSpeed s;
    const double n = double(inf.concurrency), prompt = double(inf.prompt_tokens);
    const GpuFamily family = gpu_family(sc.hardware.gpu);  // one preset look-up for every term
    const auto& c = throughput_constants(family);
    const DecodeStepTerms d = decode_terms(sc, in, family, s.decode_step_bytes);
    const double step = d.total();
    s.decode_fixed_seconds = d.kernels + d.all_reduce + d.engine;
    s.inter_token_latency_seconds = step;
    s.decode_tokens_per_second = n / step;
    // the prefill's forward yields the first token; its launches and the engine's step come on top
    s.time_to_first_token_seconds = prefill_seconds(sc, r, in, c, prompt, prompt) + d.kernels + d.engine;
    const double chunk = std::max(prompt, in.batched_tokens);
    s.prefill_tokens_per_second = chunk / prefill_seconds(sc, r, in, c, chunk, prompt);
    const double dollars_per_second = sc.hardware.price_per_gpu_hour * in.gpus / 3600.0;
    s.cost_per_million_output_tokens = dollars_per_second / s.decode_tokens_per_second * 1e6;
    return s;
}

}  // namespace vramcalc::serving
