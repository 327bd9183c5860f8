// Peak memory of one training step as a timeline: what each GPU holds at the end of the forward
// pass, in the loss, in the backward pass and in the optimizer step, by component. The peak is the
// largest phase, not the sum of every term (docs/formulas.md §4–5).
//
// Stages, each a pure function of what it names (memory_model.cpp, in this order): parameter
// shards → model states → activations → the timeline of the busiest pipeline stage → the peak,
// the allocator's reserve and the device total.
#pragma once

#include <vector>

#include "core/explain_term.hpp"
#include "core/results.hpp"

namespace vramcalc {

// Where training_memory() writes its values: the memory rows of an Estimate, which estimate()
// passes as they are (writing them in place keeps BM_Estimate from copying ~700 bytes).
struct TrainingMemory {
    double& params_per_gpu;  // model states held by one GPU before ZeRO (P/(t·p), experts /ep)
    ModelStates& model_states;
    ActivationBreakdown& activations;
    MemoryTimeline& timeline;
    MemoryBreakdown& per_gpu;
    HostMemory& host;
};

// The memory of one training step on one GPU, from the resolved layout, the parameter counts and
// the bytes per parameter of the precision; sets every member of `out` and nothing else.
void training_memory(const Scenario& scenario, const Layout& layout, const ParameterCounts& parameters,
                     const BytesPerParameter& bytes_per_parameter, const TrainingMemory& out);

// Explain terms, beside the code in memory_model.cpp: the model states (weights … optimizer
// temporaries), the activations (per layer … recompute working set), the peak, reserve and total.
void explain_model_states(const Scenario& scenario, const Estimate& estimate, std::vector<ExplainTerm>& out);
void explain_activations(const Scenario& scenario, const Estimate& estimate, std::vector<ExplainTerm>& out);
void explain_peak_memory(const Scenario& scenario, const Estimate& estimate, std::vector<ExplainTerm>& out);

}  // namespace vramcalc
