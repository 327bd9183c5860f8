#include "core/serving/serving_speed.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string_view>

#include "core/training/performance.hpp"
#include "core/model/presets.hpp"
#include "core/serving/decode_step.hpp"
#include "core/serving/weight_formats.hpp"

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

// ── Prefill (docs/serving.md §4 "Prefill"). Fitted constants: the `fit` cases of
//    tests/data/inference/measured_cases.json only; the held-out ones are reported in docs/accuracy.md. ──
// ggml-cuda (ggml/src/ggml-cuda/mmq.cu, ggml_cuda_should_use_mmq): a quantized weight goes through
// MMQ — activations quantized to q8_1, int8 tensor-core tiles — on every GPU with int8 MMA (Turing and
// newer) at any batch; on Volta (fp16 MMA only) a batch of MMQ_DP4A_MAX_BATCH_SIZE = 64 columns or
// more is dequantized to f16 and multiplied by cuBLAS instead.
constexpr double mmq_dp4a_max_batch_size = 64;
// ggml-cuda.cu ggml_backend_cuda_device_offload_op: the scheduler copies host-kept weights to the GPU
// for an op only when its batch has >= 32 rows; a smaller ubatch runs the host layers on the CPU.
constexpr double offload_min_batch_size = 32;
// Dense int8 tensor-core rate = 2 × the fp16 (fp16-accumulate) rate on Turing, Ampere, Ada and Hopper
// (Turing whitepaper: RTX 2080 Ti 107.6 / 215.2; GA102 whitepaper: RTX 3080 119 / 238; A100 312 / 624).
constexpr double int8_over_fp16_rate = 2.0;
// Fraction of the fp16 tensor peak ggml's cuBLAS prefill reaches (f16 weights, or quantized ones
// dequantized on Volta; CUBLAS_COMPUTE_16F): fitted on the three V100 fit cases (llama-perplexity
// f16, q5_k, q3_k, ubatch 512). Those runs had flash attention off and every token's logits
// copied out, which this fraction absorbs.
constexpr double ggml_cublas_peak_fraction = 0.20;
// Fraction of the int8 tensor peak ggml's MMQ kernels reach at ubatch 512 (tile unpacking and
// q8_1 scales bound them, not the MMA): fitted on the RTX 3080 fit case (llama-bench pp512).
constexpr double mmq_int8_peak_fraction = 0.23;
// Host FLOP/s of llama.cpp's CPU mat-mul for host-kept layers in a ubatch under 32 tokens (quantized
// dot products on a laptop CPU): fitted on the one fit case that runs layers on the host (RTX 4060
// Laptop, 12 of 32 layers, a 23-token prompt).
constexpr double host_prefill_flops = 360e9;
// A request's path outside the forward in vLLM (API server, tokenizer, ZMQ to the engine core,
// scheduling, detokenizing and streaming the first token; benchmark_serving TTFT): fitted on the
// two vLLM TTFT fit cases (tt-inference-server Qwen3-1.7B A100, Qwen2.5-72B TP 2 H100); SGLang and
// TensorRT-LLM taken alike.
constexpr double request_overhead_seconds = 6.9e-3;

// GeForce cards run fp16 MMA with fp32 accumulate at half the fp16-accumulate rate; the presets give
// the fp32-accumulate peak, ggml's cuBLAS (CUBLAS_COMPUTE_16F) and MMQ (int8) get the full rate:
// Ampere GA102 whitepaper (RTX 3090 142 / 71 TFLOP/s), Ada whitepaper (RTX 4090 330.3 / 165.2),
// Blackwell GeForce whitepaper (RTX 5090 419 / 209.5). Datacenter/workstation cards: the same rate.
double fp16_accumulate_peak_flops(const HardwareConfig& hw) {
    constexpr std::string_view geforce[] = {"RTX-3090", "RTX-4090", "RTX-5090"};
    const double peak = hw.peak_tflops * 1e12;
    return std::find(std::begin(geforce), std::end(geforce), hw.gpu) != std::end(geforce) ? 2.0 * peak : peak;
}

// Prefill of `tokens` prompt tokens (of `prompts` prompts): the engine cuts them into chunks of its
// batch (vLLM max_num_batched_tokens, llama.cpp n_ubatch); each chunk's GEMMs read every weight once.
double prefill_seconds(const Scenario& sc, const Layout& r, const SpeedInputs& in, GpuFamily family,
                       const ThroughputConstants& c, double tokens, double prompts) {
    const auto& inf = sc.inference;
    const bool ggml = inf.engine == Engine::llamacpp;
    const double peak = sc.hardware.peak_tflops * 1e12;
    const double bandwidth = sc.hardware.memory_bandwidth_gbps * 1e9;
    const double copy = bandwidth * c.memory_bandwidth_fraction;  // B/s a streaming kernel reaches
    const double h = double(sc.model.hidden_size), L = double(sc.model.layers);
    const double chunk = std::max(1.0, std::min(tokens, in.batched_tokens));  // tokens per forward
    const double chunks = std::ceil(tokens / chunk);
    const double gpu_share = ggml && L > 0 ? std::min(1.0, in.gpu_layers / L) : 1.0;  // llama.cpp -ngl
    const double t = double(sc.parallel.tensor);
    // FLOPs on this GPU: 2 per layer parameter per token [Kaplan et al. 2020, arXiv:2001.08361 §2.1] + the
    // LM head for each prompt's last token (vLLM and llama-bench compute logits only where they sample)
    const double layer_params = in.layer_parameters / in.gpus * gpu_share;
    const double flops = 2.0 * layer_params * tokens + 2.0 * in.head_parameters / t * std::max(1.0, prompts);
    // each chunk streams this GPU's weights (not the embedding rows) once, at the copy bandwidth (bytes / B/s)
    const double weight_bytes = in.weight_bytes_gpu - in.embedding_bytes_gpu;
    const double stream = chunks * weight_bytes / copy;
    double gemm = 0, dequant = 0;
    if (ggml) {
        const bool quantized = is_gguf(inf.weight_format);
        const bool mmq = quantized && (family != GpuFamily::volta || chunk < mmq_dp4a_max_batch_size);
        const double fp16_peak = fp16_accumulate_peak_flops(sc.hardware);
        const double rate = mmq ? int8_over_fp16_rate * fp16_peak * mmq_int8_peak_fraction  // FLOP/s
                                : fp16_peak * ggml_cublas_peak_fraction;
        gemm = std::max(flops / rate, stream);
        // dequantize to f16 before cuBLAS, every chunk: read the blocks, write 2 B per weight (bytes / B/s)
        if (quantized && !mmq) dequant = chunks * (weight_bytes + 2.0 * layer_params) / copy;
    } else {
        // the H200-measured GEMM curve, one [chunk × h]·[h × n] GEMM per chunk, never faster than the stream
        const double n = std::max(1.0, layer_params / h);
        gemm = std::max(chunks * perf::gemm_seconds(chunk, h, n, 1, peak * c.compute_factor, bandwidth, c) +
                            2.0 * in.head_parameters / t * std::max(1.0, prompts) / (c.gemm_peak_fraction * c.compute_factor * peak),
                        stream);
    }
    // causal attention: 4·a·d FLOPs per layer per token per earlier token, mean position tokens/prompts/2
    const double position = tokens / std::max(1.0, prompts) / 2.0;
    const double attention_flops = 4.0 * L * gpu_share * double(sc.model.num_heads) * double(r.head_dim) * position * tokens / in.gpus;
    const double attention = attention_flops / (c.flash_peak_fraction * c.compute_factor * peak);
    // each chunk's kernels at the engine's per-kernel cost, and its TP all-reduces
    const double kernels = chunks * kernels_per_step(sc.model, inf.engine, in.gpu_layers) * seconds_per_kernel(inf.engine, family);
    const double all_reduce = chunks * tensor_parallel_seconds(sc, chunk);
    // llama.cpp host-kept layers: copied over PCIe per chunk of >= 32 tokens, else computed on the CPU
    double host = 0;
    if (in.host_weight_bytes > 0)
        host = chunk >= offload_min_batch_size
                   ? chunks * in.host_weight_bytes / pcie_bytes_per_second
                   : 2.0 * in.layer_parameters * (1.0 - gpu_share) * tokens / host_prefill_flops;
    return gemm + dequant + attention + kernels + all_reduce + host;
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
    // the prefill's forward yields the first token; the engine's step and a request's path around it come on top
    const bool fused = inf.engine != Engine::llamacpp && inf.engine != Engine::hf;
    const double one_prompt = prefill_seconds(sc, r, in, family, c, prompt, 1.0);
    s.time_to_first_token_seconds = one_prompt + d.engine + (fused ? request_overhead_seconds : 0.0);
    // prompt tokens per second: one prompt alone, or, where a batching engine serves several, full chunks
    const double tokens = fused && n > 1 ? std::max(prompt, in.batched_tokens) : prompt;
    s.prefill_tokens_per_second =
        tokens / (tokens == prompt ? one_prompt : prefill_seconds(sc, r, in, family, c, tokens, tokens / prompt));
    const double dollars_per_second = sc.hardware.price_per_gpu_hour * in.gpus / 3600.0;
    s.cost_per_million_output_tokens = dollars_per_second / s.decode_tokens_per_second * 1e6;
    return s;
}

}  // namespace vramcalc::serving
