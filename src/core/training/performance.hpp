// Predicted time of one optimizer step, term by term (docs/formulas.md "Throughput model").
// Pure and allocation-free. Constants that are fitted live in one table (performance.cpp) with
// the data they were fitted on; docs/accuracy.md reports their error on data not fitted on.
#pragma once

#include <cstdint>

#include "core/scenario.hpp"

namespace vramcalc {

struct Estimate;

// Seconds per optimizer step by cause. Without the predicted model only `compute` is set.
struct PerformanceBreakdown {
    double compute = 0;          // GEMMs, attention, memory-bound ops, recomputation (all micro-batches)
    double tensor_parallel = 0;  // TP all-reduce / reduce-scatter + all-gather, not overlapped
    double pipeline_bubble = 0;  // (p−1)/v idle micro-batch slots of 1F1B
    double pipeline_p2p = 0;     // activations and gradients sent between stages
    double context_parallel = 0; // ring-attention K,V / dK,dV sends not hidden behind attention (cp > 1)
    double data_parallel = 0;    // gradient all-reduce (or reduce-scatter + all-gather) left exposed
    double zero = 0;             // ZeRO-3 parameter all-gathers and per-micro-batch reduce-scatters left exposed
    double optimizer_step = 0;   // memory-bound optimizer update (or offloaded update over PCIe)
    double overhead = 0;         // fixed per-step cost (launch, data loading, logging, loss-scale checks)
};

struct PerformanceEstimate {
    bool predicted = false;             // hardware.throughput_model == predicted
    bool calibrated = false;            // the GPU family has fitted constants (else generic ones)
    double step_seconds = 0;
    double tokens_per_step = 0;         // global batch × sequence length
    double tokens_per_second = 0;       // whole cluster
    double achieved_tflops_per_gpu = 0; // executed FLOPs (incl. recomputation) / (N · step)
    double mfu = 0;                     // model FLOPs / (N · peak · step)
    PerformanceBreakdown breakdown_seconds;
    // Details the planner and explain view use.
    double microbatch_seconds = 0;      // one micro-batch forward + backward on the busiest stage, incl. TP comm
    double recompute_seconds = 0;       // part of `compute` spent recomputing activations
    double bubble_fraction = 0;         // pipeline_bubble / step_seconds
    double microbatches = 0;            // m per pipeline per step
};

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

// The constants used for a GPU family (generic for families without published runs).
const ThroughputConstants& throughput_constants(GpuFamily family);

// Fills `estimate.performance` (and, when predicted, the time/cost fields of `estimate.compute`)
// from the scenario and the rest of the estimate. Called by estimate(); exposed with explicit
// constants for the fit tool and unit tests.
void predict_performance(const Scenario& scenario, Estimate& estimate, const ThroughputConstants& constants);

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
// Memory-bound kernels one layer's forward launches (norms, residual adds, activation, RoPE, copies).
double memory_kernels_per_layer(const ModelConfig& model, Kernels kernels, bool dropout, bool fp32_stream);
}  // namespace perf

}  // namespace vramcalc
