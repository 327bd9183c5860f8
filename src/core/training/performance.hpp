// Predicted time of one optimizer step, term by term (docs/formulas.md "Throughput model").
// Pure and allocation-free. Constants that are fitted live in one table (performance.cpp) with
// the data they were fitted on; docs/accuracy.md reports their error on data not fitted on.
#pragma once

#include <cstdint>
#include <vector>

#include "core/explain_term.hpp"
#include "core/results.hpp"
#include "core/training/kernel_times.hpp"

namespace vramcalc {

// The constants used for a GPU family (generic for families without published runs).
const ThroughputConstants& throughput_constants(GpuFamily family);

// Fills `estimate.performance` (and, when predicted, the time/cost fields of `estimate.compute`)
// from the scenario and the rest of the estimate. Called by estimate(); exposed with explicit
// constants for the fit tool and unit tests.
void predict_performance(const Scenario& scenario, Estimate& estimate, const ThroughputConstants& constants);

// Explain terms: performance.step_seconds, compute.seconds, tokens per second, achieved TFLOP/s, MFU.
void explain_step_time(const Scenario& scenario, const Estimate& estimate, std::vector<ExplainTerm>& out);

}  // namespace vramcalc
