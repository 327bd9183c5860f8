// The estimator's results: every type a stage returns and an Estimate holds, on the ground floor of
// the core (docs/architecture.md "The core's floors"): it includes only the scenario, so every
// part of the core — training and serving stages, tables, front-ends — may include it.
// Units are in the names: bytes, flops, seconds. Parameter counts are doubles (exact up to 2^53).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/scenario.hpp"

namespace vramcalc {

inline constexpr double bytes_per_gib = 1024.0 * 1024.0 * 1024.0;

// Saved activation bytes of one transformer layer per token (s·b = 1), before any parallel split.
// `replicated` terms sit outside the tensor-parallel region (÷ t only with sequence parallelism),
// `tensor_parallel` terms inside it (÷ t), `scores_per_as` multiplies a·s (÷ t).
struct LayerActivationBytes {
    double norms = 0;          // norm inputs and what eager norms save (fp32 upcasts)
    double linear_inputs = 0;  // inputs kept by the QKV and MLP-in projections (one per cast under autocast)
    double dropout_masks = 0;  // 1-byte masks after attention and MLP
    double checkpoint = 0;     // layer input kept by activation checkpointing
    double qkv = 0;            // Q, K, V kept for the attention core
    double attention = 0;      // attention output (out-projection input) and FlashAttention's log-sum-exp
    double mlp = 0;            // MLP inner tensors (× experts per token)
    double scores_per_as = 0;  // attention scores/probabilities kept, bytes per a·s
    double adapters = 0;       // LoRA: adapter inputs (and dropout masks) and r-wide intermediates
    double replicated() const { return norms + linear_inputs + dropout_masks + checkpoint + adapters; }
    double tensor_parallel() const { return qkv + attention + mlp; }
};

enum class StepPhase { forward, loss, backward, optimizer_step };
inline constexpr int step_phase_count = 4;
inline constexpr StepPhase all_step_phases[] = {StepPhase::forward, StepPhase::loss, StepPhase::backward,
                                                StepPhase::optimizer_step};
const char* step_phase_id(StepPhase phase);     // "forward", "loss", "backward", "optimizer_step"
const char* step_phase_label(StepPhase phase);  // "Forward", "Loss", "Backward", "Optimizer step"

// Bytes one GPU's tensors occupy at one phase, by component (what torch.cuda.memory_allocated counts).
struct PhaseMemory {
    double weights = 0;      // parameters incl. gathered ZeRO-3/FSDP and autocast 16-bit copies
    double gradients = 0;
    double optimizer = 0;    // master copy + states on the GPU
    double activations = 0;  // saved activations of the layers (and checkpoints)
    double logits = 0;       // logits and loss tensors
    double temporaries = 0;  // working buffers: backward/recompute working set, optimizer-step temporaries, buckets
    double total() const { return weights + gradients + optimizer + activations + logits + temporaries; }
};

// The components of PhaseMemory, one row each, in the order charts stack them and JSON lists them.
// The JSON writer (codec::memory_timeline_components), the page's timeline chart and its palette
// (Palette::terms[colour_slot], src/app) read this table; tests/test_core_tables.cpp checks that
// the rows add up to PhaseMemory::total().
struct MemoryComponent {
    const char* id;               // JSON key of a timeline entry
    const char* label;            // legend and tooltip
    double PhaseMemory::*bytes;   // the member it reads
    int colour_slot;              // index into the page palette's memory-term colours
};
inline constexpr MemoryComponent memory_components[] = {
    {"weights", "Weights", &PhaseMemory::weights, 0},
    {"gradients", "Gradients", &PhaseMemory::gradients, 1},
    {"optimizer", "Optimizer states", &PhaseMemory::optimizer, 2},
    {"activations", "Activations", &PhaseMemory::activations, 3},
    {"logits", "Logits and loss", &PhaseMemory::logits, 4},
    {"temporaries", "Temporaries", &PhaseMemory::temporaries, 5},
};
// The colour of what lives outside the tensors (allocator reserve, CUDA context, NCCL) at the peak.
inline constexpr int overhead_colour_slot = 6;
// Palette colours the memory components and the overhead need.
constexpr int memory_colour_slots() {
    int slots = overhead_colour_slot + 1;
    for (const auto& c : memory_components) slots = c.colour_slot + 1 > slots ? c.colour_slot + 1 : slots;
    return slots;
}

struct MemoryTimeline {
    std::array<PhaseMemory, step_phase_count> phases{};
    const PhaseMemory& at(StepPhase p) const { return phases[static_cast<int>(p)]; }
    PhaseMemory& at(StepPhase p) { return phases[static_cast<int>(p)]; }
};

// Bytes per logit element held by the loss: `saved` from forward to backward, and the two peaks.
struct LossBytesPerLogit {
    double saved = 0;
    double forward_peak = 0;
    double backward_peak = 0;
};

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

// Serving (workload = inference; docs/serving.md): what estimate_inference() returns.
struct InferenceMemory {
    double weights = 0;      // the GPU's share of the checkpoint
    double kv_cache = 0;     // what `concurrency` sequences of `context_len` tokens hold (the need)
    double activations = 0;  // the engine's activation peak (vLLM's profiled forward, llama.cpp's compute buffer)
    double overhead = 0;     // CUDA context, NCCL, CUDA graphs, allocator reserve
    double total = 0;        // weights + kv_cache + activations + overhead
};

struct InferenceSpeed {
    double time_to_first_token_seconds = 0;  // one prompt of prompt_tokens, alone, with the engine's request path
    double prefill_tokens_per_second = 0;    // prompt tokens per second: one prompt, or full batches where a batching engine serves several
    double decode_tokens_per_second = 0;     // all `concurrency` sequences together
    double inter_token_latency_seconds = 0;  // one decode step, every sequence advances one token
    double decode_step_bytes = 0;            // bytes one decode step reads on one GPU (weights + KV)
    double decode_fixed_seconds = 0;         // the step's part that does not scale with bytes: kernels, all-reduces, engine
    double cost_per_million_output_tokens = 0;
};

struct InferenceEstimate {
    double gpus = 1;                    // t · p GPUs serve one replica
    double weights_total_bytes = 0;     // the whole checkpoint in its format
    InferenceMemory memory;             // per GPU
    double host_bytes = 0;              // llama.cpp: layers left on the host (gpu_layers < L) and the token embedding
    double kv_bytes_per_token = 0;      // per GPU: one sequence's KV at context_len / context_len
    double kv_pool_bytes = 0;           // what the engine sets aside for KV (vLLM "Available KV cache memory")
    double kv_pool_tokens = 0;          // its capacity in tokens (vLLM "GPU KV cache size: N tokens")
    double max_concurrency = 0;         // sequences of context_len that fit at once
    double max_context_len = 0;         // longest context that fits at the given concurrency
    double memory_budget_bytes = 0;     // what the engine allows itself (vLLM: utilisation × memory)
    double memory_fraction = 0;         // the fraction used (gpu_memory_utilization or its default)
    double batched_tokens = 0;          // max_batched_tokens or the engine's default
    double tm101_bytes = 0;             // Transformer Math 101: 1.2 × weights (the seed's rule, for comparison)
    bool starts = false;                // the engine loads and can hold one sequence of context_len
    bool fits = false;                  // and all `concurrency` of them at once
    InferenceSpeed speed;
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

// What makes measured runs comparable to this estimate: the regime its error bands are looked up
// by (error_bands.hpp). Allocation-free: the GPU family is copied into a small buffer.
enum class ModelSize : std::uint8_t { below_1b, b1_to_10, b10_to_100, above_100b };

struct ErrorRegime {
    char gpu[24] = {};             // GPU family: hardware.gpu without a "-80GB" style memory suffix
    bool inference = false;
    bool several_nodes = false;    // more GPUs than hardware.gpus_per_node in one replica / job
    std::uint8_t stack = 0;        // Framework (training) or Engine (serving), as its enum value
    ModelSize size = ModelSize::below_1b;
    bool long_sequence = false;    // training.seq_len (serving: inference.context_len) ≥ 16,384
    bool predicted_time = false;   // hardware.throughput_model = predicted (else time is an input)
};

inline constexpr std::int64_t long_sequence_tokens = 16384;

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

}  // namespace vramcalc
