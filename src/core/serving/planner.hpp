// Inference planner (issue 24 item 8, docs/serving.md §7): for the scenario's model, context length
// and concurrency (or a decode tokens/s target), every GPU preset × tensor parallel (× pipeline
// across nodes when one node does not fit) × weight format × engine whose serving estimate fits
// and meets the target, ranked by cost per million output tokens. Pure: every candidate is the
// scenario with those fields set, judged by estimate() — the same path as one estimate.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/estimate.hpp"

namespace vramcalc {

struct ServingPlanOptions {
    // Aggregate decode tokens/s one replica must reach (0 = none). The concurrency is raised from
    // inference.concurrency to the smallest that reaches it (at most the engine's sequence cap).
    double min_tokens_per_second = 0;
    // Decode tokens/s each sequence must see, 1 / inter-token latency (0 = none).
    double min_sequence_tokens_per_second = 0;
    // Quality floor: formats whose checkpoint stores fewer bits per parameter are left out.
    double min_bits_per_weight = 4;
    bool all_engines = false;       // search every engine, not only inference.engine
    std::int64_t max_gpus = 64;     // GPUs of one replica at most (t · p)
    int max_results = 10;
    std::vector<std::string> gpus;  // GPU preset ids to search; empty = every preset
};

// Bounds of the options (messages name them "options.<key>").
inline constexpr double serving_plan_max_tokens_per_second = 1e9;
inline constexpr std::int64_t serving_plan_max_gpus = 4096;

struct ServingPlan {
    Scenario scenario;   // the base with the GPU preset, t, p, weight format, engine and concurrency set
    Estimate estimate;   // estimate(scenario)
    double bits_per_weight = 0;  // checkpoint bytes · 8 / parameters (llama.cpp's "BPW")
    double gpus = 1;             // t · p
    double nodes = 1;            // ⌈t·p / hardware.gpus_per_node⌉
    double cost_per_million_output_tokens = 0;
    double decode_tokens_per_second = 0;    // aggregate, at the plan's concurrency
    double sequence_tokens_per_second = 0;  // per sequence: 1 / inter-token latency
};

enum class ServingPlanShortfall { none, nothing_fits, target_unreached };

struct ServingPlanResult {
    std::vector<ServingPlan> plans;  // cheapest first, at most max_results
    std::int64_t searched = 0;       // candidates estimated
    std::int64_t fitting = 0;        // of those, the ones whose engine fits the sequences
    std::int64_t meeting = 0;        // of those, the ones that meet the target
    std::vector<WeightFormat> below_min_bits;  // formats left out by the quality floor
    ServingPlanShortfall shortfall = ServingPlanShortfall::none;
    double best_tokens_per_second = 0;           // fastest aggregate decode among the fitting ones
    double best_sequence_tokens_per_second = 0;  // fastest per-sequence decode among them
    std::string message;  // why `plans` is empty (empty when it is not)
};

// Formats the planner tries for an engine, highest bits first (docs/serving.md §7).
std::vector<WeightFormat> serving_plan_formats(Engine engine);
// Whether the engine has kernels for the format on that GPU family (vLLM's quantization hardware table).
bool format_runs_on(Engine engine, WeightFormat format, GpuFamily family);

// What keeps serving_plan() from searching, each naming the field or option and the rule.
std::vector<ValidationIssue> serving_plan_issues(const Scenario& base, const ServingPlanOptions& options);

// Precondition: serving_plan_issues(base, options) is empty.
ServingPlanResult serving_plan(const Scenario& base, const ServingPlanOptions& options = {});

}  // namespace vramcalc
