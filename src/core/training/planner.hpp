// Layout planner: for a model, GPU type and GPU count, every valid layout (t, p, DP, ZeRO stage,
// micro-batch, recomputation, sequence parallelism, interleaving, optimizer offload) that fits in
// memory, ranked by predicted step time (ties: less memory), each with why it wins or loses.
// Pure; uses estimate() for memory and the throughput model for time.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/estimate.hpp"

namespace vramcalc {

struct PlanOptions {
    std::int64_t num_gpus = 0;           // 0 = the scenario's
    std::int64_t global_batch_size = 0;  // sequences per step, held fixed; 0 = the scenario's (resolved)
    std::int64_t seq_len = 0;            // 0 = the scenario's
    int max_results = 10;                // plans returned, best first
    std::int64_t max_micro_batch = 64;   // largest micro-batch tried (powers of two)
    std::int64_t max_interleave = 8;     // largest virtual-stage count tried
    // Fraction of each GPU's memory a plan must leave free: the memory model is within ±15 % of
    // measured peaks (docs/accuracy.md, "Peak memory"), so a layout that fits with no margin may
    // not run; 0 = the estimate's own verdict.
    double min_headroom_fraction = 0.10;
    // Hold a choice at the scenario's value instead of searching it.
    bool search_tensor = true;
    bool search_recompute = true;
    bool search_sequence_parallel = true;
    bool search_zero_stage = true;
    bool search_interleave = true;
    bool search_offload = true;
    bool search_context = true;  // context parallelism, for sequences of at least 32k tokens (context_parallel.hpp)
};

// Holds one layout choice at the scenario's value by its field name ("tensor", "recompute",
// "sequence_parallel", "zero_stage", "interleave", "offload_optimizer", "context"); false for another name.
bool hold_plan_choice(PlanOptions& options, std::string_view name);
inline constexpr const char* plan_hold_names = "tensor, recompute, sequence_parallel, zero_stage, interleave, offload_optimizer, context";

// The causes a plan's step time is made of (performance.breakdown_seconds) plus recomputation,
// and its memory headroom.
enum class PlanFactor {
    compute,          // compute without recomputation
    recompute,        // recomputation part of compute
    tensor_parallel,
    pipeline_bubble,
    pipeline_p2p,
    data_parallel,
    zero,
    optimizer_step,
    memory_headroom,  // bytes: capacity − total (more is safer)
};
inline constexpr int plan_factor_count = 9;
const char* plan_factor_id(PlanFactor factor);     // "pipeline_bubble"
const char* plan_factor_label(PlanFactor factor);  // "pipeline bubble"

// One factor of a comparison with the reference plan (the best plan; for the best, the runner-up):
// `delta` = this plan − reference, seconds (bytes for memory_headroom). For time factors a positive
// delta loses time; for memory_headroom a positive delta is more headroom.
struct PlanReason {
    PlanFactor factor = PlanFactor::compute;
    double delta = 0;
};

struct Plan {
    Scenario scenario;  // the base scenario with this layout applied (throughput_model = predicted)
    Estimate estimate;
    double slowdown = 0;  // step_seconds / best step_seconds − 1
    // Largest differences from the reference plan, most important first (up to 3).
    std::array<PlanReason, 3> reasons{};
    int reason_count = 0;
};

struct PlanResult {
    std::vector<Plan> plans;     // best first, at most max_results
    std::int64_t searched = 0;   // layouts estimated
    std::int64_t feasible = 0;   // of those, the ones that fit in memory
    std::int64_t num_gpus = 0;
    std::int64_t global_batch_size = 0;
};

// What keeps plan(base, options) from searching, each naming the field and the rule (empty: it can
// search): validate()'s rules for what the search holds — its layout fields (t, p, micro-batch,
// interleave, DP) checked at the first layout searched — and the GPU count's own rule: some t × p × DP
// must equal it ("options.num_gpus" when the options set it, else "parallel.num_gpus"). The CLI's
// --plan and the JS API's plan() both ask it.
std::vector<ValidationIssue> plan_issues(const Scenario& base, const PlanOptions& options = {});

// Precondition: plan_issues(base, options) is empty. The model, training precision/optimizer/flash/dropout,
// tokens and hardware come from `base`; the layout fields are searched.
PlanResult plan(const Scenario& base, const PlanOptions& options = {});

// The best plan's step time for each GPU count (0 where nothing fits): the page's scaling chart.
struct ScalingPoint {
    std::int64_t num_gpus = 0;
    bool found = false;        // some layout fits
    double step_seconds = 0;   // of the best layout; 0 when none fits
    double tokens_per_second = 0;
    Scenario scenario;         // the best layout (when found)
};
std::vector<ScalingPoint> plan_scaling(const Scenario& base, const std::vector<std::int64_t>& gpu_counts,
                                       const PlanOptions& options = {});

}  // namespace vramcalc
