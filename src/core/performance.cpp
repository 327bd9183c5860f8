// Step-time model: compute at measured efficiencies + communication + bubble + optimizer + overhead.
// Sources (docs/formulas.md "Throughput model" has every term with its derivation and limits):
//   [MEGA-21]  Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters
//              Using Megatron-LM", arXiv 2104.04473 (TP all-reduces, 1F1B bubble, interleaving, scatter-gather)
//   [MEGA-ACT] Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
//              Models", arXiv 2205.05198 (sequence parallelism, selective recomputation)
//   [ZERO]     Rajbhandari et al. 2019, "ZeRO: Memory Optimizations Toward Training Trillion Parameter
//              Models", arXiv 1910.02054 §7 (communication volume per stage)
//   [FA2]      Dao 2023, "FlashAttention-2", arXiv 2307.08691 (backward = 2.5× forward FLOPs)
//   [H200-K]   tests/data/throughput/h200_kernels.json: bf16 GEMM, SDPA and copy throughput measured on
//              one H200 (PyTorch 2.11, CUDA 13), the data the curves below are fitted on
#include "performance.hpp"

#include <algorithm>
#include <cmath>

#include "estimate.hpp"
#include "presets.hpp"

namespace vramcalc {
namespace {

// ── The constants, one table. Fits: tests/throughput_fit.cpp (prints docs/accuracy.md's table). ──
// gemm_*: least squares in log time on the 26 H200 GEMMs with M ≥ 8192 [H200-K] (shorter kernels run
//   at boost clocks that sustained training does not keep: docs/formulas.md).
// flash_*: least squares on the 6 H200 causal SDPA forward+backward runs [H200-K].
// memory_bandwidth_fraction: 1 GiB device copy 4.24 TB/s of 4.8 TB/s nominal [H200-K].
// intra_node_efficiency: NCCL all_reduce bus bandwidth ≈ 200 GB/s of 300 GB/s on 8 NVLink A100-80GB
//   (github.com/NVIDIA/nccl-tests/issues/149); the same fraction is assumed for NVLink 4.
// inter_node_efficiency, compute_factor (ampere), overlap_fraction, step_overhead_seconds: fitted on
//   the "fit" cases of tests/data/throughput/ (A100: Narayanan et al. 2021 Table 1 and the 175B rows
//   of the PTD-P/ZeRO-3 comparison); the overlap and overhead describe software, so every family uses them.
constexpr double gemm_peak_fraction = 0.7175;
constexpr double gemm_operand_bandwidth_factor = 8.75 / 4.8;
constexpr double gemm_latency_seconds = 9e-6;
constexpr double flash_peak_fraction = 0.60;
constexpr double flash_bytes_per_element = 17.5;
constexpr double flash_latency_seconds = 1.8e-4;
constexpr double memory_bandwidth_fraction = 4.2397 / 4.8;
constexpr double nvlink_allreduce_efficiency = 200.0 / 300.0;
constexpr double fitted_inter_node_efficiency = 0.6698;
constexpr double fitted_ampere_compute_factor = 1.0565;
constexpr double fitted_overlap_fraction = 0.7365;
constexpr double fitted_step_overhead_seconds = 0.0;

constexpr ThroughputConstants hopper_constants = {
    gemm_peak_fraction,          gemm_operand_bandwidth_factor, gemm_latency_seconds,
    flash_peak_fraction,         flash_bytes_per_element,       flash_latency_seconds,
    memory_bandwidth_fraction,   nvlink_allreduce_efficiency,   fitted_inter_node_efficiency,
    1.0,                         fitted_overlap_fraction,       fitted_step_overhead_seconds,
    true,
};
constexpr ThroughputConstants ampere_constants = {
    gemm_peak_fraction,          gemm_operand_bandwidth_factor, gemm_latency_seconds,
    flash_peak_fraction,         flash_bytes_per_element,       flash_latency_seconds,
    memory_bandwidth_fraction,   nvlink_allreduce_efficiency,   fitted_inter_node_efficiency,
    fitted_ampere_compute_factor, fitted_overlap_fraction,      fitted_step_overhead_seconds,
    true,
};
// Families without published runs use the H200-measured curves as they are (uncalibrated).
constexpr ThroughputConstants generic_constants = [] {
    ThroughputConstants c = hopper_constants;
    c.calibrated = false;
    return c;
}();

// Offloaded optimizer (ZeRO-Offload): not validated; assumed PCIe 4.0 x16 and host-DRAM share per GPU.
constexpr double host_link_bytes_per_second = 25e9;
constexpr double host_memory_bytes_per_second = 25e9;

// Memory-bound traffic of one transformer layer, forward, per token, in activation elements
// (Megatron fused kernels [MEGA-ACT §4]): two norms read+write h (2·2h), two residual adds read 2h
// write h (2·3h) → 10h outside the TP region; 1-byte dropout masks 2h; the MLP activation reads
// and writes f (GELU 2f; SwiGLU reads gate and up, writes f: 3f) inside it; RoPE rotates q and k.
constexpr double replicated_elements_per_h = 10.0;
constexpr double dropout_mask_bytes_per_h = 2.0;
// Backward of the same ops reads the saved input and the incoming gradient and writes one gradient:
// ~1.5× the forward traffic (docs/formulas.md).
constexpr double backward_memory_factor = 1.5;
// Attention scores without FlashAttention, bytes per a·s²·b element: fused scale-mask-softmax
// reads and writes 2 B (4), dropout reads 2, writes 2 and a 1-byte mask (5); backward 6 (+5).
constexpr double scores_forward_bytes = 4.0, scores_backward_bytes = 6.0, scores_dropout_bytes = 5.0;
// Vocabulary-parallel cross-entropy, bytes per logit: fp16 logits read twice + fp32 softmax written
// (8) forward, softmax read + gradient written (6) backward.
constexpr double loss_bytes_per_logit = 14.0;
// FlashAttention-2 forward+backward FLOPs = 3.5 × forward (backward 2.5×) [FA2 §3].
constexpr double flash_train_over_forward = 3.5;

}  // namespace

const ThroughputConstants& throughput_constants(GpuFamily family) {
    switch (family) {
        case GpuFamily::ampere: return ampere_constants;
        case GpuFamily::hopper: return hopper_constants;
        default: return generic_constants;
    }
}


namespace perf {

double all_reduce_seconds(double bytes, double ranks, double bytes_per_second) {
    if (ranks <= 1) return 0;
    return 2.0 * (ranks - 1.0) / ranks * bytes / bytes_per_second;
}

double all_gather_seconds(double bytes, double ranks, double bytes_per_second) {
    if (ranks <= 1) return 0;
    return (ranks - 1.0) / ranks * bytes / bytes_per_second;
}

double gemm_seconds(double m, double k, double n, double count, double peak_flops, double memory_bytes_per_second,
                    const ThroughputConstants& c) {
    if (count <= 0 || m <= 0 || k <= 0 || n <= 0) return 0;
    double flops = 2.0 * m * k * n;
    double operand_bytes = 2.0 * (m * k + k * n + m * n);  // 16-bit A, B and C
    double one = flops / (c.gemm_peak_fraction * peak_flops) +
                 operand_bytes / (c.gemm_operand_bandwidth_factor * memory_bytes_per_second) + c.gemm_latency_seconds;
    return count * one;
}

double flash_attention_seconds(double b, double heads, double s, double head_dim, double peak_flops,
                               double memory_bytes_per_second, const ThroughputConstants& c) {
    if (b <= 0 || heads <= 0) return 0;
    // Causal forward: QKᵀ and P·V over half the s×s scores: 2·(2·b·a·s²·d)/2. [FA2]
    double forward_flops = 2.0 * b * heads * s * s * head_dim;
    double elements = b * heads * s * head_dim;
    return flash_train_over_forward * forward_flops / (c.flash_peak_fraction * peak_flops) +
           c.flash_bytes_per_element * 2.0 * elements / memory_bytes_per_second + c.flash_latency_seconds;
}

double exposed_seconds(double communication, double window, double overlap_fraction) {
    return communication - overlap_fraction * std::min(communication, std::max(window, 0.0));
}

}  // namespace perf

void predict_performance(const Scenario& sc, Estimate& e, const ThroughputConstants& c) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const auto& par = sc.parallel;
    const auto& hw = sc.hardware;
    const auto& r = e.layout;
    PerformanceEstimate& out = e.performance;
    out = PerformanceEstimate{};
    out.predicted = hw.throughput_model == ThroughputModel::predicted;

    double n_gpus = double(par.num_gpus);
    double s = double(tr.seq_len);
    out.tokens_per_step = double(r.global_batch_size) * s;
    double steps = tr.tokens / out.tokens_per_step;
    double executed_flops_per_step = e.compute.total_flops / steps;
    double model_flops_per_step = e.compute.model_flops / steps;
    out.microbatches = double(r.grad_accum_steps);

    if (!out.predicted) {
        out.step_seconds = e.compute.seconds / steps;
        out.breakdown_seconds.compute = out.step_seconds;
    } else {
        out.calibrated = c.calibrated;
        double t = double(par.tensor), p = double(par.pipeline), v = double(par.interleave);
        double dp = double(r.data_parallel);
        double b = double(tr.micro_batch_size), h = double(m.hidden_size);
        double a = double(m.num_heads), g = double(r.kv_heads), d = double(r.head_dim);
        double f = double(r.ffn_hidden_size), vocab = double(m.vocab_size);
        double experts = double(m.num_experts), top_k = double(m.experts_per_token), ep = double(par.expert);
        bool fp32 = tr.precision == Precision::fp32;
        double act_bytes = fp32 ? 4.0 : 2.0;
        // fp32 training runs matmuls as TF32: half the dense 16-bit peak (A100/H100 datasheets).
        double peak = hw.peak_tflops * 1e12 * c.compute_factor * (fp32 ? 0.5 : 1.0);
        double memory_bw = hw.memory_bandwidth_gbps * 1e9;
        double copy_bw = memory_bw * c.memory_bandwidth_fraction;
        double gpus_per_node = double(hw.gpus_per_node);
        double intra_bw = hw.intra_node_gbps * 1e9 * c.intra_node_efficiency;
        double inter_bw = hw.inter_node_gbps * 1e9 * c.inter_node_efficiency;
        bool sp = par.sequence_parallel && par.tensor > 1;
        bool full = tr.recompute == Recompute::full, selective = tr.recompute == Recompute::selective;
        bool ops = tr.recompute == Recompute::ops;
        double tokens = b * s;  // GEMM rows of one micro-batch (all-gathered under SP)
        auto gemm = [&](double mm, double kk, double nn, double count) {
            return perf::gemm_seconds(mm, kk, nn, count, peak, memory_bw, c);
        };

        // One layer, one micro-batch, forward GEMMs: QKV, output projection, MLP up (gate+up) and down.
        // Each is split over t (column- or row-parallel). [MEGA-21 §2.3]
        double local_experts = experts > 1 ? experts / ep : 1.0;
        double expert_tokens = experts > 1 ? tokens * top_k * ep / experts : tokens;
        double up_width = (m.mlp == MlpKind::swiglu ? 2.0 : 1.0) * f / t;
        double gemm_forward = gemm(tokens, h, (a * d + 2.0 * g * d) / t, 1) + gemm(tokens, a * d / t, h, 1) +
                              gemm(expert_tokens, h, up_width, local_experts) +
                              gemm(expert_tokens, f / t, h, local_experts);
        // Backward: input gradient and weight gradient, each a GEMM with the same three dimensions.
        double gemm_backward = 2.0 * gemm_forward;

        // Attention core (QKᵀ, softmax, ·V) for a/t heads.
        double heads = a / t;
        double attention_forward = 0, attention_backward = 0;
        if (tr.flash_attention) {
            double total = perf::flash_attention_seconds(b, heads, s, d, peak, memory_bw, c);
            attention_forward = total / flash_train_over_forward;
            attention_backward = total - attention_forward;
        } else {
            // Batched GEMMs per (sequence, head) plus the s×s score tensor through memory. [MEGA-ACT §4.1]
            double batches = b * heads;
            double scores_gemms = gemm(s, d, s, batches) + gemm(s, s, d, batches);
            double score_elements = batches * s * s;
            double dropout_bytes = tr.dropout ? scores_dropout_bytes : 0.0;
            attention_forward = scores_gemms + score_elements * (scores_forward_bytes + dropout_bytes) / copy_bw;
            attention_backward = 2.0 * scores_gemms + score_elements * (scores_backward_bytes + dropout_bytes) / copy_bw;
        }

        // Memory-bound elementwise ops (norms, residual adds, dropout, MLP activation, RoPE).
        double replicated_bytes = replicated_elements_per_h * h * act_bytes + (tr.dropout ? dropout_mask_bytes_per_h * h : 0.0);
        double activation_elements = (m.mlp == MlpKind::swiglu ? 3.0 : 2.0) * f / t * top_k;
        double rope_elements = m.position_embedding == PositionEmbedding::rope ? 2.0 * (a + g) * d / t : 0.0;
        double elementwise_forward =
            tokens * (replicated_bytes / (sp ? t : 1.0) + (activation_elements + rope_elements) * act_bytes) / copy_bw;
        double elementwise_backward = backward_memory_factor * elementwise_forward;

        double layer_forward = gemm_forward + attention_forward + elementwise_forward;
        double layer_backward = gemm_backward + attention_backward + elementwise_backward;
        // Full recomputation reruns the layer's forward; selective only the attention core
        // [MEGA-ACT §5]; op-level checkpointing the elementwise ops and the share of the forward
        // matmuls it does not keep (compute.recompute_flops: every second matmul).
        // LM head (vocabulary-parallel, last stage) and the cross-entropy over its logits.
        double head = 3.0 * gemm(tokens, h, vocab / t, 1) + tokens * vocab / t * loss_bytes_per_logit / copy_bw;

        double layers_per_stage = std::ceil(double(m.layers) / p);
        // training.recompute_layers = k: only k layers of a stage recompute (full and op-level).
        double recomputed_layers = (full || ops) && tr.recompute_layers > 0
                                       ? std::min(double(tr.recompute_layers), layers_per_stage)
                                       : layers_per_stage;
        double layer_recompute = 0;
        if (full) layer_recompute = layer_forward;
        if (selective) layer_recompute = attention_forward;
        if (ops) {
            double gemm_flops = 2.0 * tokens *
                                (h * (a * d + 2.0 * g * d) + a * d * h +
                                 (m.mlp == MlpKind::swiglu ? 3.0 : 2.0) * h * f * top_k) / t;
            // compute.recompute_flops per recomputed layer, this micro-batch, this GPU.
            double recomputed_flops = e.compute.recompute_flops / tr.tokens * tokens /
                                      (double(m.layers) * recomputed_layers / layers_per_stage) / t;
            layer_recompute = elementwise_forward + gemm_forward * std::min(1.0, recomputed_flops / gemm_flops);
        }

        double stage_recompute = recomputed_layers * layer_recompute;
        double stage_compute = layers_per_stage * (layer_forward + layer_backward) + stage_recompute + head;

        // Tensor parallelism: per layer 2 all-reduces of s·b·h forward and 2 backward (with SP an
        // all-gather + reduce-scatter pair each, the same time); full recompute repeats the forward 2;
        // plus the embedding's forward and the LM head's input-gradient all-reduce. [MEGA-21 §2.3, MEGA-ACT §4.2.2]
        double tp_seconds = 0;
        if (par.tensor > 1) {
            double tp_bw = t <= gpus_per_node ? intra_bw : inter_bw;
            double one = perf::all_reduce_seconds(tokens * h * act_bytes, t, tp_bw);
            tp_seconds = (layers_per_stage * 4.0 + (full ? 2.0 * recomputed_layers : 0.0) + 2.0) * one;
        }

        // Pipeline point-to-point: s·b·h/t per rank (scatter-gather [MEGA-21 §4.1], or SP shards),
        // forward activation and backward gradient, at each of the v chunks.
        double p2p_seconds = 0;
        if (par.pipeline > 1) {
            double p2p_bw = n_gpus <= gpus_per_node ? intra_bw : inter_bw;
            p2p_seconds = 2.0 * v * (tokens * h * act_bytes / t) / p2p_bw;
        }

        double microbatch = stage_compute + tp_seconds + p2p_seconds;
        double mb = out.microbatches;
        auto& br = out.breakdown_seconds;
        br.compute = mb * stage_compute;
        br.tensor_parallel = mb * tp_seconds;
        br.pipeline_p2p = mb * p2p_seconds;
        // 1F1B: (p−1) idle micro-batch slots, each 1/v as long with v interleaved chunks. [MEGA-21 §2.2]
        br.pipeline_bubble = (p - 1.0) / v * microbatch;
        out.microbatch_seconds = microbatch;
        out.recompute_seconds = mb * stage_recompute;

        // Data parallelism and ZeRO [ZERO §7]: the DP group spans t·DP consecutive ranks.
        double params = e.params_per_gpu;
        double grad_bytes = params * e.bytes_per_parameter.gradients;
        double weight_bytes = params * e.bytes_per_parameter.weights;
        double dp_bw = t * dp <= gpus_per_node ? intra_bw : inter_bw;
        int stage = par.zero_stage;
        double last_backward = layers_per_stage * layer_backward + stage_recompute;
        double first_forward = layers_per_stage * layer_forward;
        double gather_weights = perf::all_gather_seconds(weight_bytes, dp, dp_bw);
        if (stage == 0) {
            // All-reduce once per step, overlappable with the last micro-batch's backward.
            br.data_parallel = perf::exposed_seconds(perf::all_reduce_seconds(grad_bytes, dp, dp_bw), last_backward,
                                                     c.overlap_fraction);
        } else if (stage <= 2) {
            // Reduce-scatter of gradients (stage 1: once, with the last backward; stage 2: after every
            // micro-batch's backward) + all-gather of the updated weights before the next forward.
            double scatters = stage == 1 ? 1.0 : mb;
            br.data_parallel =
                perf::exposed_seconds(scatters * perf::all_gather_seconds(grad_bytes, dp, dp_bw), scatters * last_backward,
                                      c.overlap_fraction) +
                perf::exposed_seconds(gather_weights, first_forward, c.overlap_fraction);
        } else {
            // ZeRO-3: per micro-batch, parameters all-gathered for forward and again for backward,
            // gradients reduce-scattered: 3 × the parameter volume (1.5× DP). [ZERO §7.2.2]
            double comm = mb * (2.0 * perf::all_gather_seconds(weight_bytes, dp, dp_bw) +
                                perf::all_gather_seconds(grad_bytes, dp, dp_bw));
            br.zero = perf::exposed_seconds(comm, br.compute, c.overlap_fraction);
        }

        // Optimizer step, memory-bound: read gradients, read+write master weights and states, write
        // the 16-bit weights; over DP shards with ZeRO ≥ 1.
        double optimizer_params = params / (stage >= 1 ? dp : 1.0);
        const auto& bpp = e.bytes_per_parameter;
        if (par.offload_optimizer) {
            br.optimizer_step = optimizer_params * (bpp.gradients + bpp.weights) / host_link_bytes_per_second +
                                optimizer_params * (bpp.gradients + 2.0 * bpp.optimizer) / host_memory_bytes_per_second;
        } else {
            br.optimizer_step = optimizer_params * (bpp.gradients + 2.0 * bpp.optimizer + bpp.weights) / copy_bw;
        }
        br.overhead = c.step_overhead_seconds;

        out.step_seconds = br.compute + br.tensor_parallel + br.pipeline_bubble + br.pipeline_p2p +
                           br.data_parallel + br.zero + br.optimizer_step + br.overhead;
        out.bubble_fraction = br.pipeline_bubble / out.step_seconds;

        // Time and cost of the whole run follow from the step time.
        auto& cmp = e.compute;
        cmp.seconds = out.step_seconds * steps;
        cmp.cluster_flops_per_second = cmp.total_flops / cmp.seconds;
        cmp.days = cmp.seconds / 86400.0;
        cmp.gpu_hours = cmp.seconds * n_gpus / 3600.0;
        cmp.cost = cmp.gpu_hours * hw.price_per_gpu_hour;
    }

    out.tokens_per_second = out.tokens_per_step / out.step_seconds;
    out.achieved_tflops_per_gpu = executed_flops_per_step / (out.step_seconds * n_gpus) / 1e12;
    out.mfu = model_flops_per_step / (out.step_seconds * n_gpus * hw.peak_tflops * 1e12);
}

}  // namespace vramcalc
