// Kernel and collective times (seconds): the building blocks of the step-time model
// (performance.hpp) and of the FP8 and context-parallel terms, with the per-GPU-family constants
// they take (docs/formulas.md "Throughput model"). Pure; no other stage of the core below it.
#pragma once

#include "core/scenario.hpp"

namespace vramcalc {

// Per GPU family: the constants the model uses. `fitted` ones come from the validation cases
// marked "fit" (tests/data/throughput/); the others from measurements or vendor tests.
struct ThroughputConstants {
    // Dense GEMM time = FLOPs/(gemm_peak_fraction·peak) + operand bytes/(gemm_operand_bandwidth_factor·BW)
    // + gemm_latency_seconds. Fitted on measured H200 bf16 GEMMs (h200_kernels.json, M ≥ 8192).
    double gemm_peak_fraction;
    double gemm_operand_bandwidth_factor;  // × memory bandwidth
    double gemm_latency_seconds;
    // FlashAttention forward+backward = 3.5·causal FLOPs/(flash_peak_fraction·peak) + flash_bytes_per_element ·
    // (b·a·s·d·2 B)/BW + flash_latency_seconds. Fitted on measured H200 SDPA (h200_kernels.json).
    double flash_peak_fraction;
    double flash_bytes_per_element;
    double flash_latency_seconds;
    double memory_bandwidth_fraction;  // achieved copy bandwidth / nominal (H200 1 GiB copy)
    double intra_node_efficiency;      // NCCL bus bandwidth / link bandwidth inside a node
    double inter_node_efficiency;      // same across nodes (fitted)
    double compute_factor;             // family's GEMM/attention efficiency relative to the H200 curve (fitted)
    double overlap_fraction;           // share of DP/ZeRO communication hidden behind compute (fitted)
    double step_overhead_seconds;      // fixed per-step overhead (fitted)
    bool calibrated;                   // fitted on published runs of this family
    // DeepSpeed ZeRO-3's parameter all-gathers and gradient reduce-scatters as a share of NCCL's bus
    // bandwidth (fitted): it gathers parameter by parameter (partition_parameters.py _allgather_param).
    double deepspeed_zero3_efficiency = 1.0;
};

// FlashAttention-2 forward+backward FLOPs = 3.5 × forward (backward 2.5×) [FA2 §3].
inline constexpr double flash_train_over_forward = 3.5;

// Building blocks (seconds), exposed for unit tests against hand-computed values.
namespace perf {
// Ring all-reduce of `bytes` over n ranks: 2(n−1)/n · bytes / bandwidth. [Patarasuk & Yuan 2009; NCCL docs]
double all_reduce_seconds(double bytes, double ranks, double bytes_per_second);
// Reduce-scatter or all-gather: (n−1)/n · bytes / bandwidth (bytes = the full, unsharded tensor).
double all_gather_seconds(double bytes, double ranks, double bytes_per_second);
// NCCL bus bandwidth of a ring collective over `ranks` ranks, `ranks_per_node` of them in each
// node. Inside one node: the NVLink bus bandwidth. Across nodes NCCL runs one ring per NIC, each
// leaving the node through a different GPU's NIC, so the group's k GPUs move k NICs' worth (the
// per-GPU inter-node bandwidth × k), while (k−1)/k of each GPU's ring traffic stays on NVLink.
// [NCCL docs "Performance" busBw; NVIDIA/nccl src/graph/rings, one ring per net device]
double collective_bus_bandwidth(double ranks, double ranks_per_node, double intra_bytes_per_second,
                                double inter_bytes_per_second_per_gpu);
// Dense [M×K]·[K×N] GEMM, `count` times (batched).
double gemm_seconds(double m, double k, double n, double count, double peak_flops, double memory_bytes_per_second,
                    const ThroughputConstants& c);
// FlashAttention forward + backward for b sequences, `heads` heads on this GPU, causal.
double flash_attention_seconds(double b, double heads, double s, double head_dim, double peak_flops,
                               double memory_bytes_per_second, const ThroughputConstants& c);
// Exposed part of communication that can overlap a compute window: comm − φ·min(comm, window).
double exposed_seconds(double communication, double window, double overlap_fraction);
// Exposed part of a collective split into `chunks` pieces pipelined with a GEMM of `gemm` seconds
// split alike (Transformer Engine userbuffers): each chunk's transfer runs under the next chunk's
// GEMM, so (chunks−1)/chunks of the GEMM hides it; a reduce-scatter after its GEMM
// (last_chunk_exposed) also waits for the last chunk's transfer. chunks = 1: a bulk overlap, the
// whole GEMM beside the whole collective.
double chunked_overlap_exposed_seconds(double communication, double gemm, double chunks, bool last_chunk_exposed);
// Memory-bound kernels one layer's forward launches (norms, residual adds, activation, RoPE, copies).
double memory_kernels_per_layer(const ModelConfig& model, Kernels kernels, bool dropout, bool fp32_stream);
}  // namespace perf

}  // namespace vramcalc
