// What a model's architecture derives, whatever the workload: the resolved widths and layout
// (resolve_layout, declared in scenario.hpp), the parameter counts (docs/formulas.md §1) and the
// longest sequence it takes; and the explain terms of those counts.
#pragma once

#include <cstdint>
#include <vector>

#include "core/explain_term.hpp"
#include "core/results.hpp"

namespace vramcalc {

// The longest sequence the model takes: its learned position table; RoPE sets no limit.
std::int64_t longest_sequence(const ModelConfig& model);

// Parameter counts of a model (the architecture's, or params_override).
ParameterCounts count_model_parameters(const ModelConfig& model, const Layout& layout);

// Explain terms: parameters.total; layout.data_parallel.
void explain_parameters(const Scenario& scenario, const Estimate& estimate, std::vector<ExplainTerm>& out);
void explain_layout(const Scenario& scenario, const Estimate& estimate, std::vector<ExplainTerm>& out);

}  // namespace vramcalc
