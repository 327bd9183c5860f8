// Planner results → JSON (the CLI's `--plan --json` and the JS API's plan()).
#pragma once

#include <nlohmann/json.hpp>

#include "core/training/planner.hpp"

namespace vramcalc::codec {

// {"plans": [{layout, memory_per_gpu_bytes, fits, performance, days, cost, link, slowdown, reasons}],
//  "searched": N, "feasible": K, "num_gpus", "global_batch_size", "errors": []}
nlohmann::json plan_to_json(const PlanResult& result);
// {"layout": {tensor, pipeline, data_parallel, zero_stage, micro_batch_size, grad_accum_steps,
//  recompute, sequence_parallel, interleave, offload_optimizer}} of one plan's scenario.
nlohmann::json layout_to_json(const Scenario& scenario, const Estimate& estimate);

// Planner options from JSON: {num_gpus, global_batch_size, seq_len, max_results, min_headroom_fraction,
// hold: ["tensor", "recompute", "sequence_parallel", "zero_stage", "interleave", "offload_optimizer"]}.
// Every problem names its key ("options.max_results").
PlanOptions plan_options_from_json(const nlohmann::json& options, std::vector<ValidationIssue>& issues);

}  // namespace vramcalc::codec
