// Planner results → JSON (the CLI's `--plan --json` and the JS API's plan()).
#pragma once

#include <nlohmann/json.hpp>

#include "core/planner.hpp"

namespace vramcalc::codec {

// {"plans": [{layout, memory_per_gpu_bytes, fits, performance, days, cost, link, slowdown, reasons}],
//  "searched": N, "feasible": K, "num_gpus", "global_batch_size"}
nlohmann::json plan_to_json(const PlanResult& result);
// {"layout": {tensor, pipeline, data_parallel, zero_stage, micro_batch_size, grad_accum_steps,
//  recompute, sequence_parallel, interleave, offload_optimizer}} of one plan's scenario.
nlohmann::json layout_to_json(const Scenario& scenario, const Estimate& estimate);

}  // namespace vramcalc::codec
