// "Explain": for each result, the formula that produced it, the inputs with the user's values,
// the intermediate terms and the source — so a reader can check every number by hand.
// The core returns values; front-ends format them. Each term is written beside the code that
// computes its value (explain_term.hpp); explain() runs the stages' term lists in order.
#pragma once

#include <vector>

#include "core/explain_term.hpp"

namespace vramcalc {

std::vector<ExplainTerm> explain(const Scenario& scenario, const Estimate& estimate);

// The terms of a serving estimate (workload = inference; src/core/serving/serving_explain.cpp).
std::vector<ExplainTerm> explain_serving(const Scenario& scenario, const Estimate& estimate);
// The terms of training.fp8, parallel.context and parallel.shard_group, appended when they are on.
void explain_fp8_and_context(const Scenario& scenario, const Estimate& estimate, std::vector<ExplainTerm>& out);

}  // namespace vramcalc
