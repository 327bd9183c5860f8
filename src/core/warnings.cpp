#include "core/warnings.hpp"

#include <cmath>
#include <iterator>
#include <utility>

#include "core/formulas.hpp"

namespace vramcalc {
namespace f = formulas;
namespace {

constexpr unsigned training_only = 1u << unsigned(Workload::training);
constexpr unsigned inference_only = 1u << unsigned(Workload::inference);
constexpr unsigned every_workload = training_only | inference_only;

bool is_a100_class(const HardwareConfig& hw) {
    return hw.gpu.rfind("A100", 0) == 0 || std::fabs(hw.peak_tflops - 312.0) < 1.0;
}

// FLOP/s one GPU achieves: predicted, or the fixed rate the scenario gives.
double achieved_flops(const Estimate& e) {
    return e.performance.predicted ? e.performance.achieved_tflops_per_gpu * 1e12 : e.layout.achieved_flops_per_gpu;
}

// Token-count advice is about pre-training; fine-tuning runs use few tokens by design.
bool pretraining(const Scenario& sc) { return sc.training.method == TrainingMethod::full; }

using S = const Scenario&;
using E = const Estimate&;

// Rows in the order estimate() has always listed them (the JSON's "warnings" keep that order).
constexpr WarningSpec table[] = {
    {Warning::few_tokens, "few_tokens", training_only,
     [](S sc, E) { return pretraining(sc) && sc.training.tokens < f::min_recommended_tokens; },
     "Fewer than 200B training tokens: EleutherAI advises against training an LLM on fewer (Transformer Math 101)."},
    {Warning::below_chinchilla, "below_chinchilla", training_only,
     [](S sc, E e) { return pretraining(sc) && sc.training.tokens < e.compute.chinchilla_tokens; },
     "Fewer tokens than the Chinchilla compute-optimal D = 20·P (Hoffmann et al. 2022)."},
    {Warning::low_throughput, "low_throughput", training_only,
     [](S sc, E e) { return is_a100_class(sc.hardware) && achieved_flops(e) < f::a100_min_healthy_tflops * 1e12; },
     "Achieved throughput below 115 TFLOP/s per A100: the model or hardware setup is likely misconfigured (Transformer Math 101 expects ~120+)."},
    {Warning::throughput_uncalibrated, "throughput_uncalibrated", training_only,
     [](S, E e) { return e.performance.predicted && !e.performance.calibrated; },
     "Predicted throughput for a GPU without published measured runs: it uses efficiency curves measured on an H200, uncalibrated for this GPU (docs/accuracy.md)."},
    {Warning::pipeline_with_zero23, "pipeline_with_zero23", training_only,
     [](S sc, E) { return sc.parallel.pipeline > 1 && sc.parallel.zero_stage >= 2; },
     "Pipeline parallelism with ZeRO-2/3 is disallowed by DeepSpeed (gradient sharding conflicts with pipeline gradient accumulation)."},
    {Warning::engine_does_not_start, "engine_does_not_start", inference_only,
     [](S, E e) { return !e.inference.starts; },
     "The engine would not start: after the weights, activations and overheads its KV pool cannot hold one sequence of inference.context_len (vLLM: \"max_model_len … is larger than the maximum number of tokens that can be stored in KV cache\")."},
    {Warning::does_not_fit, "does_not_fit", every_workload,
     [](S, E e) { return !e.fits; },
     "Does not fit: the per-GPU total exceeds the GPU's memory."},
    {Warning::zero_without_data_parallel, "zero_without_data_parallel", training_only,
     [](S sc, E e) { return sc.parallel.zero_stage > 0 && e.layout.data_parallel == 1; },
     "ZeRO shards over the data-parallel degree, which is 1 here: nothing is sharded."},
    {Warning::sequence_parallel_without_tp, "sequence_parallel_without_tp", training_only,
     [](S sc, E) { return sc.parallel.sequence_parallel && sc.parallel.tensor == 1; },
     "Sequence parallelism needs tensor parallelism (t > 1): it has no effect at t = 1."},
    {Warning::partition_activations_without_tp, "partition_activations_without_tp", training_only,
     [](S sc, E) { return sc.parallel.partition_activations && sc.parallel.tensor == 1; },
     "ZeRO-R partition_activations divides activations by t, which is 1: no effect."},
    {Warning::uneven_pipeline_stages, "uneven_pipeline_stages", training_only,
     [](S sc, E) { return sc.model.layers % sc.parallel.pipeline != 0; },
     "Layers are not divisible by the pipeline degree: the busiest stage holds ceil(L/p) layers."},
    {Warning::pipeline_bubble_large, "pipeline_bubble_large", training_only,
     [](S sc, E e) { return sc.parallel.pipeline > 1 && e.layout.grad_accum_steps < sc.parallel.pipeline; },
     "Fewer micro-batches per step than pipeline stages: the pipeline bubble dominates step time."},
    {Warning::zero3_live_params_not_counted, "zero3_live_params_not_counted", training_only,
     [](S sc, E) { return sc.parallel.zero_stage >= 3 && sc.parallel.zero3_live_params <= 0; },
     "ZeRO-3 live parameters are not counted (zero3_live_params = 0); set DeepSpeed's stage3_max_live_parameters (its default is 1e9) to include them."},
    {Warning::sequence_beyond_positions, "sequence_beyond_positions", training_only,
     [](S sc, E) { return sc.training.seq_len > sc.model.max_position_embeddings; },
     "Sequence longer than the model's max_position_embeddings: it was trained on shorter contexts; beyond them RoPE "
     "needs position scaling (e.g. YaRN, arXiv:2309.00071) or quality drops. Memory is estimated as set."},
};

const WarningSpec* find(Warning w) {
    for (const auto& row : table)
        if (row.warning == w) return &row;
    return nullptr;
}

}  // namespace

std::span<const WarningSpec> warning_table() { return table; }

Warnings raised_warnings(const Scenario& sc, const Estimate& e) {
    Warnings w;
    const unsigned workload = 1u << unsigned(e.workload);
    // For each row in order: if it applies to this workload and its rule holds, add it. Written as a
    // fold over the row indices so that each rule is a direct call the compiler inlines (a loop over
    // the function pointers costs BM_Estimate ~200 instructions).
    [&]<std::size_t... row>(std::index_sequence<row...>) {
        ((void)((table[row].workloads & workload) && table[row].rule(sc, e) && (w.add(table[row].warning), true)), ...);
    }(std::make_index_sequence<std::size(table)>{});
    return w;
}

const char* warning_id(Warning w) {
    const WarningSpec* row = find(w);
    return row ? row->id : "unknown";
}

const char* warning_message(Warning w) {
    const WarningSpec* row = find(w);
    return row ? row->message : "";
}

}  // namespace vramcalc
