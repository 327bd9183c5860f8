// Estimate: everything the estimator derives from a Scenario. Units are in the names:
// bytes, flops, seconds. Parameter counts are doubles (exact up to 2^53).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "scenario.hpp"

namespace vramcalc {

struct ParameterCounts {
    double embedding = 0;         // token embedding V·h (+ learned positions max_pos·h)
    double per_layer = 0;         // one transformer layer, all experts
    double per_layer_active = 0;  // one transformer layer, the k experts a token uses
    double expert_per_layer = 0;  // the expert MLPs of one layer (MoE only), all experts
    double layers = 0;            // L · per_layer
    double final_norm = 0;
    double lm_head = 0;           // V·h when embeddings are untied, else 0
    double total = 0;
    double active = 0;            // parameters one token passes through (MoE: k of E experts)
    bool overridden = false;      // params_override replaced the architecture's count
};

// Activation memory of one GPU, in bytes. Coefficients are per layer for one micro-batch.
struct ActivationBreakdown {
    double sbh_coefficient = 0;    // bytes per s·b·h element on this GPU (after TP/SP division)
    double as2b_coefficient = 0;   // bytes per a·s²·b element on this GPU
    double per_layer_bytes = 0;    // one layer, one micro-batch
    double layers_on_gpu = 0;      // ceil(L / p)
    double in_flight_microbatches = 0;  // 1F1B: first stage holds min(p, grad_accum) micro-batches
    double transformer_layers_bytes = 0;  // per_layer · layers_on_gpu · in_flight
    double embedding_bytes = 0;    // embedding dropout mask (first stage)
    double output_bytes = 0;       // final norm + LM-head input + fp32 logits for the loss (last stage)
    double total_bytes = 0;        // busiest stage
};

struct MemoryBreakdown {
    double weights = 0;      // incl. ZeRO-3 live (gathered) parameters
    double zero3_live_params = 0;  // the part of `weights` that is ZeRO-3 live parameters
    double gradients = 0;
    double optimizer = 0;    // on the GPU (0 when offloaded)
    double activations = 0;
    double overhead = 0;     // reserved_gib
    double total = 0;
};

// Host (CPU) memory for offloaded optimizer states, bytes.
struct HostMemory {
    double per_gpu = 0;
    double total = 0;  // all GPUs
};

struct BytesPerParameter {
    double weights = 0;
    double gradients = 0;
    double optimizer = 0;  // master copy + states
};

struct ComputeEstimate {
    double flops_per_token = 0;    // 6·P_active (+ 12·L·s·h with attention_flops)
    double model_flops = 0;        // flops_per_token · D (no recomputation): C = 6PD
    double forward_flops = 0;      // 2PD (+ attention)
    double backward_flops = 0;     // 4PD (+ attention)
    double recompute_flops = 0;    // extra forward work from activation recomputation
    double total_flops = 0;        // model_flops + recompute_flops: what the hardware executes
    double cluster_flops_per_second = 0;  // tau = num_gpus · achieved FLOP/s
    double seconds = 0;
    double days = 0;
    double gpu_hours = 0;
    double tflop_hours = 0;        // total_flops / (1e12 · 3600)
    double pflop_days = 0;         // total_flops / (1e15 · 86400)
    double cost = 0;               // gpu_hours · price_per_gpu_hour
    double chinchilla_tokens = 0;  // D = 20·P (Hoffmann et al. 2022)
};

enum class Warning {
    few_tokens,               // D < 200B: Transformer Math 101 advises against training LLMs on fewer tokens
    below_chinchilla,         // D < 20·P
    low_throughput,           // < 115 TFLOP/s on an A100-class GPU: Transformer Math 101 rule of thumb
    pipeline_with_zero23,     // DeepSpeed disallows PP with ZeRO-2/3
    does_not_fit,             // per-GPU total exceeds capacity
    zero_without_data_parallel,  // ZeRO stage > 0 with DP = 1 shards nothing
    sequence_parallel_without_tp,
    partition_activations_without_tp,
    uneven_pipeline_stages,   // L not divisible by p
    pipeline_bubble_large,    // grad_accum < p: the 1F1B bubble dominates
    zero3_live_params_not_counted,  // ZeRO-3 with zero3_live_params = 0
};

const char* warning_id(Warning warning);       // stable snake_case id
const char* warning_message(Warning warning);  // one sentence with its source

struct Warnings {
    std::array<Warning, 16> items{};
    int count = 0;
    void add(Warning w) {
        if (count < static_cast<int>(items.size())) items[count++] = w;
    }
    bool has(Warning w) const {
        for (int i = 0; i < count; ++i)
            if (items[i] == w) return true;
        return false;
    }
};

struct Estimate {
    Layout layout{};
    ParameterCounts parameters;
    BytesPerParameter bytes_per_parameter;
    double params_per_gpu = 0;         // model states held by one GPU before ZeRO (P/(t·p), experts /ep)
    ActivationBreakdown activations;
    MemoryBreakdown memory_per_gpu_bytes;
    HostMemory host_memory_bytes;      // offloaded optimizer states
    double capacity_bytes = 0;         // memory_gib · 2^30
    double headroom_bytes = 0;         // capacity − total (negative: does not fit)
    bool fits = false;
    ComputeEstimate compute;
    Warnings warnings;
};

// A problem with one field of a Scenario: `field` is its path ("model.hidden_size").
struct ValidationIssue {
    std::string field;
    std::string message;
};

// A value changed on the user's behalf (not a problem), e.g. a sequence length lowered to what a
// chosen model supports: `field` is its path, `message` says from what to what and why.
struct Note {
    std::string field;
    std::string message;
};

// Every rule a Scenario must satisfy; empty when the scenario is valid.
std::vector<ValidationIssue> validate(const Scenario& scenario);
// validate(scenario).empty(), without building a message or allocating: the same rules.
bool is_valid(const Scenario& scenario);

// The longest sequence the model takes: its learned position table; RoPE sets no limit.
std::int64_t longest_sequence(const ModelConfig& model);

// The whole estimate. Precondition: validate(scenario) is empty. Pure and allocation-free.
Estimate estimate(const Scenario& scenario);

// validate + estimate: the entry point for front-ends.
struct Evaluation {
    std::vector<ValidationIssue> errors;
    Estimate estimate;  // meaningful only when errors is empty
    bool ok() const { return errors.empty(); }
};
Evaluation evaluate(const Scenario& scenario);

inline constexpr double bytes_per_gib = 1024.0 * 1024.0 * 1024.0;

}  // namespace vramcalc
