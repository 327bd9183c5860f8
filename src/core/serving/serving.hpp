// Serving (workload = inference): can the engine load the model, how many tokens of context and
// how many sequences fit, and how fast it serves them (docs/serving.md). Pure, allocation-free.
// Its result types (InferenceEstimate and its parts) are on the ground floor, core/results.hpp.
#pragma once

#include "core/results.hpp"

namespace vramcalc {

// The serving estimate. Precondition: validate(scenario) is empty.
InferenceEstimate estimate_inference(const Scenario& scenario, const Layout& layout, const ParameterCounts& params);

}  // namespace vramcalc
