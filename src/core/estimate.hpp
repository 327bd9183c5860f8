// Estimate: everything the estimator derives from a Scenario. Units are in the names:
// bytes, flops, seconds. Parameter counts are doubles (exact up to 2^53).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/error_bands.hpp"
#include "core/training/memory_model.hpp"
#include "core/training/performance.hpp"
#include "scenario.hpp"
#include "serving/serving.hpp"

namespace vramcalc {

struct ParameterCounts {
    double embedding = 0;         // token embedding V·h (+ learned positions max_pos·h)
    double per_layer = 0;         // one transformer layer, all experts
    double per_layer_active = 0;  // one transformer layer, the k experts a token uses
    double expert_per_layer = 0;  // the expert MLPs of one layer (MoE only), all experts
    double layers = 0;            // L · per_layer (dense_layers of them per_dense_layer)
    double dense_layers = 0;      // MoE models: leading layers with a dense MLP
    double per_dense_layer = 0;   // one of those (= per_layer for dense models)
    double final_norm = 0;
    double lm_head = 0;           // V·h when embeddings are untied, else 0
    double total = 0;
    double active = 0;            // parameters one token passes through (MoE: k of E experts)
    bool overridden = false;      // params_override replaced the architecture's count
    // Fine-tuning (docs/formulas.md "Fine-tuning"); `total` stays the base model's count.
    double adapter = 0;           // LoRA A and B of every targeted linear, added to the base model
    double adapter_expert = 0;    // the part of `adapter` on expert MLPs (all experts)
    double adapter_active = 0;    // adapters one token passes through (MoE: k of E experts)
    double trainable = 0;         // parameters with gradients and optimizer states (total for full training)
    double trained_layers = 0;    // layers whose parameters train (freeze: the last k), or all layers
    double quantized = 0;         // base parameters stored quantised (QLoRA)
    double quantized_bytes = 0;   // their storage with the quantisation constants
    double quantization_constants = 0;  // bytes of those constants (absmax, scales): not sharded by FSDP / ZeRO-3
    double largest_quantized_matrix = 0;  // elements of the largest quantised weight (dequantised per use)
};

// Activation memory of one GPU, in bytes. Coefficients are per layer for one micro-batch.
struct ActivationBreakdown {
    LayerActivationBytes layer;    // what one layer keeps per token (before parallel splits)
    double sbh_coefficient = 0;    // bytes per s·b·h element on this GPU (after TP/SP division)
    double as2b_coefficient = 0;   // bytes per a·s²·b element on this GPU
    double per_layer_bytes = 0;    // one layer, one micro-batch, as kept until its backward
    double layers_on_gpu = 0;      // ceil(L / p)
    double recomputed_layers = 0;  // layers per stage whose activations are recomputed
    double in_flight_microbatches = 0;  // 1F1B: first stage holds min(p, grad_accum) micro-batches
    double transformer_layers_bytes = 0;  // all layers on the GPU, all in-flight micro-batches
    double embedding_bytes = 0;    // embedding dropout mask (first stage)
    double output_bytes = 0;       // final norm and LM-head input (last stage)
    double total_bytes = 0;        // busiest stage, without the loss
    double recompute_working_bytes = 0;  // one layer re-materialised during backward (full / ops)
    double backward_working_bytes = 0;   // gradients of one layer's activations in flight
    double forward_working_bytes = 0;    // one layer's forward temporaries (eager attention scores, ...)
    LossBytesPerLogit loss_per_logit;    // bytes per logit element (s·b·V/t)
    double loss_peak_bytes = 0;          // the loss's largest working set, all logits included
    double logits_elements = 0;          // s·b·V/t on the last stage
    double host_bytes = 0;               // offloaded activations (per GPU)
};

// Parameters, gradients and optimizer states when all of them exist (ZeRO sharding applied): the
// "model states" of the ZeRO paper. The timeline says how much of each is alive at each phase.
struct ModelStates {
    double weights = 0;     // persistent parameters (ZeRO-3 sharded; 0 for FSDP's 16-bit copy)
    double gradients = 0;
    double optimizer = 0;   // on the GPU (0 when offloaded)
    double live_params = 0; // ZeRO-3 / FSDP parameters gathered for compute
    double autocast_copies = 0;  // 16-bit copies of the matmul weights autocast keeps for backward
    double buckets = 0;          // communication buckets (DDP, DeepSpeed)
    double optimizer_temporaries = 0;  // extra buffers of one optimizer step
    double frozen_weights = 0;   // the part of `weights` that gets no gradient (fine-tuning's frozen base)
    double dequantized = 0;      // 16-bit copy of the quantised weight being used (QLoRA), a temporary
    double fp8_weight_copies = 0;  // the part of `weights` that is Transformer Engine's FP8 weight copies (training.fp8)
};

// Memory of one GPU at its peak phase, by component; the device total adds the allocator's
// reserve, the CUDA context and any fixed reserve.
struct MemoryBreakdown {
    double weights = 0;      // incl. ZeRO-3 live (gathered) parameters and autocast copies
    double zero3_live_params = 0;  // the part of `weights` that is ZeRO-3 / FSDP gathered parameters
    double gradients = 0;
    double optimizer = 0;    // on the GPU (0 when offloaded)
    double activations = 0;
    double logits = 0;       // logits and loss tensors
    double temporaries = 0;  // working buffers
    double overhead = 0;     // allocator reserve + CUDA context + reserved_gib
    double kv_cache = 0;     // inference: the KV cache `concurrency` sequences of `context_len` hold
    double total = 0;        // device total as nvidia-smi shows it: peak_reserved + context + reserved_gib
    double peak_allocated = 0;  // max over phases of what tensors occupy (torch.cuda.max_memory_allocated)
    double peak_reserved = 0;   // what the caching allocator holds (torch.cuda.max_memory_reserved)
    StepPhase peak_phase = StepPhase::forward;
};

// Host (CPU) memory for offloaded optimizer states, parameters and activations, bytes.
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
    throughput_uncalibrated,  // predicted throughput for a GPU family without published runs
    sequence_beyond_positions,  // RoPE model with seq_len > max_position_embeddings (learned positions: an error)
    engine_does_not_start,    // inference: the engine cannot load the model and hold one sequence of context_len
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
    Workload workload = Workload::training;  // which estimate this is; inference fills `inference`
    TrainingMethod scenario_method = TrainingMethod::full;  // training.method of the estimated scenario
    Layout layout{};
    ParameterCounts parameters;
    BytesPerParameter bytes_per_parameter;
    double params_per_gpu = 0;         // model states held by one GPU before ZeRO (P/(t·p), experts /ep)
    ActivationBreakdown activations;
    ModelStates model_states_bytes;
    MemoryTimeline memory_timeline;
    MemoryBreakdown memory_per_gpu_bytes;
    HostMemory host_memory_bytes;      // offloaded optimizer states, parameters, activations
    double capacity_bytes = 0;         // memory_gib · 2^30
    double headroom_bytes = 0;         // capacity − total (negative: does not fit)
    bool fits = false;
    ComputeEstimate compute;       // with throughput_model = predicted, seconds…cost follow performance.step_seconds
    PerformanceEstimate performance;
    InferenceEstimate inference;   // workload = inference only (docs/serving.md)
    Warnings warnings;
    ErrorRegime error_regime;      // what the error bands of its figures are looked up by (error_bands.hpp)
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

// Whether every field resolve_layout() reads (widths, heads, layers, batch fields, GPU counts) is in
// validate()'s range and the global batch it derives is at most 10^9: its products cannot overflow,
// though layout rules (divisibility) may still be broken. The planner checks it before searching.
bool layout_inputs_in_range(const Scenario& scenario);

// The longest sequence the model takes: its learned position table; RoPE sets no limit.
std::int64_t longest_sequence(const ModelConfig& model);

// Parameter counts of a model (the architecture's, or params_override).
ParameterCounts count_model_parameters(const ModelConfig& model, const Layout& layout);

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
