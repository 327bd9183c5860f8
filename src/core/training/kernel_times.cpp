// Kernel and collective times (kernel_times.hpp). Sources: Patarasuk & Yuan 2009 and the NCCL
// docs (ring collectives, bus bandwidth); Dao 2023, FlashAttention-2, arXiv 2307.08691 [FA2];
// tests/data/throughput/h200_kernels.json (the GEMM and attention curves the constants are fitted on).
#include "core/training/kernel_times.hpp"

#include <algorithm>
#include <cmath>

namespace vramcalc {

namespace perf {

double all_reduce_seconds(double bytes, double ranks, double bytes_per_second) {
    if (ranks <= 1) return 0;
    return 2.0 * (ranks - 1.0) / ranks * bytes / bytes_per_second;
}

double all_gather_seconds(double bytes, double ranks, double bytes_per_second) {
    if (ranks <= 1) return 0;
    return (ranks - 1.0) / ranks * bytes / bytes_per_second;
}

double collective_bus_bandwidth(double ranks, double ranks_per_node, double intra_bytes_per_second,
                                double inter_bytes_per_second_per_gpu) {
    double k = std::clamp(ranks_per_node, 1.0, std::max(ranks, 1.0));
    if (ranks <= k) return intra_bytes_per_second;
    double network = k * inter_bytes_per_second_per_gpu;             // k rings, one NIC each
    double nvlink = k > 1 ? intra_bytes_per_second * k / (k - 1.0) : network;  // (k−1)/k of the traffic
    return std::min(network, nvlink);
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

double chunked_overlap_exposed_seconds(double communication, double gemm, double chunks, bool last_chunk_exposed) {
    double hidden_by = chunks > 1.0 ? gemm * (chunks - 1.0) / chunks : gemm;
    double floor = last_chunk_exposed && chunks > 1.0 ? communication / chunks : 0.0;
    return std::max(floor, communication - std::max(hidden_by, 0.0));
}

// Memory-bound kernels of one layer's forward (GEMMs and attention carry their own latency).
// eager [HF]: LlamaRMSNorm 8 kernels (to fp32, pow, mean, +eps, rsqrt, ·, to 16-bit, ·weight; 6 on an
// fp32 stream), LayerNorm 1; 2 residual adds; SwiGLU act + mul 2, gelu_new 8, GELU 1; RoPE 5 per q and
// k (·cos, neg, cat, ·sin, +); the attention output's transpose().contiguous() 1; 2 dropouts.
// fused [MEGA-ACT §4]: one kernel per norm, bias-dropout-add, activation and RoPE tensor. compiled
// (Inductor): one kernel per region between matmuls: norm, RoPE, residual + norm, activation, residual.
double memory_kernels_per_layer(const ModelConfig& m, Kernels kernels, bool dropout, bool fp32_stream) {
    bool rope = m.position_embedding == PositionEmbedding::rope;
    if (kernels == Kernels::compiled) return rope ? 5.0 : 4.0;
    if (kernels == Kernels::fused) return 2.0 + 2.0 + 1.0 + (rope ? 2.0 : 0.0);
    double norm = m.norm == NormKind::rmsnorm ? (fp32_stream ? 6.0 : 8.0) : 1.0;
    double activation = m.mlp == MlpKind::swiglu ? 2.0 : m.activation == Activation::gelu_new ? 8.0 : 1.0;
    return 2.0 * norm + 2.0 + activation + (rope ? 10.0 : 0.0) + 1.0 + (dropout ? 2.0 : 0.0);
}

}  // namespace perf

}  // namespace vramcalc
