// One explain term: the formula that produced an output, the inputs with the user's values, the
// source. Each stage writes the terms of the outputs it computes beside the code that computes
// them (e.g. explain_model_states() in training/memory_model.cpp); explain() (explain.hpp) runs
// them in order. On the ground floor with results.hpp: any stage may include it.
#pragma once

#include <vector>

#include "core/results.hpp"

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

// A term that explains output `id`: its label, value and unit come from the output table.
ExplainTerm explain_term(const Estimate& estimate, const char* id, const char* formula, const char* source,
                         std::vector<ExplainValue> inputs);

// The terms one stage adds for a training estimate, in the order explain() lists them.
using ExplainTerms = void (*)(const Scenario& scenario, const Estimate& estimate, std::vector<ExplainTerm>& out);

inline constexpr const char* tm101_source = "Transformer Math 101 (EleutherAI, https://blog.eleuther.ai/transformer-math/)";

}  // namespace vramcalc
