// explain(): the terms of every stage, in the order the stages run. Each term is written beside
// the code that computes its value (the functions below live in those stages' files).
#include "explain.hpp"

#include "core/model/architecture.hpp"
#include "core/training/compute.hpp"
#include "core/training/finetune.hpp"
#include "core/training/memory_model.hpp"
#include "core/training/performance.hpp"

namespace vramcalc {
namespace {

constexpr ExplainTerms training_terms[] = {
    explain_parameters,    // model/architecture.cpp
    explain_fine_tuning,   // training/finetune.cpp
    explain_layout,        // model/architecture.cpp
    explain_model_states,  // training/memory_model.cpp
    explain_activations,   // training/memory_model.cpp
    explain_peak_memory,   // training/memory_model.cpp
    explain_flops,         // training/compute.cpp
    explain_step_time,     // training/performance.cpp
    explain_run_cost,      // training/compute.cpp
    explain_fp8_and_context,  // training/parallelism_explain.cpp
};

}  // namespace

std::vector<ExplainTerm> explain(const Scenario& sc, const Estimate& e) {
    if (e.workload == Workload::inference) return explain_serving(sc, e);
    std::vector<ExplainTerm> out;
    for (ExplainTerms terms : training_terms) terms(sc, e, out);
    return out;
}

}  // namespace vramcalc
