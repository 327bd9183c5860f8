// The entry points of the estimator: validate() a Scenario, estimate() it, or both (evaluate()).
// estimate() dispatches to the stages (training/: memory_model, performance; serving/) and returns
// their values in one Estimate; the result types live on the ground floor, results.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "results.hpp"

namespace vramcalc {

// Every rule a Scenario must satisfy; empty when the scenario is valid.
std::vector<ValidationIssue> validate(const Scenario& scenario);
// validate(scenario).empty(), without building a message or allocating: the same rules.
bool is_valid(const Scenario& scenario);

// Whether every field resolve_layout() reads (widths, heads, layers, batch fields, GPU counts) is in
// validate()'s range and the global batch it derives is at most 10^9: its products cannot overflow,
// though layout rules (divisibility) may still be broken. The planner checks it before searching.
bool layout_inputs_in_range(const Scenario& scenario);

// The whole estimate. Precondition: validate(scenario) is empty. Pure and allocation-free.
Estimate estimate(const Scenario& scenario);

// validate + estimate: the entry point for front-ends.
struct Evaluation {
    std::vector<ValidationIssue> errors;
    Estimate estimate;  // meaningful only when errors is empty
    bool ok() const { return errors.empty(); }
};
Evaluation evaluate(const Scenario& scenario);

}  // namespace vramcalc
