// "Explain": for each result, the formula that produced it, the inputs with the user's values,
// the intermediate terms and the source — so a reader can check every number by hand.
// The core returns values; front-ends format them.
#pragma once

#include <vector>

#include "estimate.hpp"

namespace vramcalc {

struct ExplainValue {
    const char* symbol;  // "s", "P/(t·p)", "per_layer"
    double value;
    const char* unit;    // "", "bytes", "parameters", "FLOPs", "s", ...
};

struct ExplainTerm {
    const char* id;       // the output it explains: "memory_per_gpu_bytes.activations" (outputs.hpp)
    const char* label;    // the output's label: "Activations per GPU"
    const char* formula;  // the formula as applied to this scenario (branch-specific)
    const char* source;   // paper (title, arXiv id) or URL
    double value;         // the output's value
    const char* unit;     // unit_symbol() of the output's unit
    std::vector<ExplainValue> inputs;  // symbols of the formula with this scenario's values
};

std::vector<ExplainTerm> explain(const Scenario& scenario, const Estimate& estimate);

// A term that explains output `id`: its label, value and unit come from the output table.
ExplainTerm explain_term(const Estimate& estimate, const char* id, const char* formula, const char* source,
                         std::vector<ExplainValue> inputs);
// The terms of a serving estimate (workload = inference; src/core/serving/serving_explain.cpp).
std::vector<ExplainTerm> explain_serving(const Scenario& scenario, const Estimate& estimate);
// The terms of training.fp8, parallel.context and parallel.shard_group, appended when they are on.
void explain_fp8_and_context(const Scenario& scenario, const Estimate& estimate, std::vector<ExplainTerm>& out);

}  // namespace vramcalc
