// Inference planner results and options <-> JSON (the CLI's `--workload inference --plan --json`
// and the JS API's planInference()).
#pragma once

#include <nlohmann/json.hpp>

#include "core/serving/planner.hpp"

namespace vramcalc::codec {

// {"plans": [{gpu, gpus, nodes, tensor, pipeline, engine, weight_format, bits_per_weight, concurrency,
//  price_per_gpu_hour, cost_per_million_output_tokens, decode_tokens_per_second,
//  sequence_tokens_per_second, memory_per_gpu_bytes, inference, performance, link}],
//  "searched", "fitting", "meeting", "below_min_bits": [...], "shortfall", "message", "errors": []}
nlohmann::json serving_plan_to_json(const ServingPlanResult& result);

// Options from JSON: {min_tokens_per_second, min_sequence_tokens_per_second, min_bits_per_weight,
// all_engines, max_gpus, max_results, gpus: ["H100-SXM", ...]}. Each problem names its key.
ServingPlanOptions serving_plan_options_from_json(const nlohmann::json& options, std::vector<ValidationIssue>& issues);

}  // namespace vramcalc::codec
