// Training compute: the FLOPs of the run (C = 6PD and its fine-tuning and recomputation terms),
// its time at a fixed efficiency and its cost (docs/formulas.md §6); and their explain terms.
// With throughput_model = predicted, performance.hpp replaces the time and cost by its step time.
#pragma once

#include <vector>

#include "core/explain_term.hpp"
#include "core/results.hpp"

namespace vramcalc {

ComputeEstimate training_compute(const Scenario& scenario, const Layout& layout, const ParameterCounts& parameters);

// Explain terms: compute.model_flops and total_flops; the run's GPU-hours, FLOP totals, cost and
// Chinchilla tokens.
void explain_flops(const Scenario& scenario, const Estimate& estimate, std::vector<ExplainTerm>& out);
void explain_run_cost(const Scenario& scenario, const Estimate& estimate, std::vector<ExplainTerm>& out);

}  // namespace vramcalc
