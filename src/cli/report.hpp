// Human-readable report of an estimate (the CLI's default output): the rows of the output table
// marked show_report, by section, formatted by src/format.
#pragma once

#include <string>
#include <vector>

#include "core/explain.hpp"
#include "core/training/planner.hpp"
#include "core/serving/planner.hpp"
#include "format/format.hpp"

namespace vramcalc::cli {

std::string format_report(const Scenario& scenario, const Estimate& estimate, ByteUnits units);
// The report of a serving estimate (workload = inference).
std::string format_serving_report(const Scenario& scenario, const Estimate& estimate, ByteUnits units);
// The rows of every section that belong to the estimate's workload.
std::string format_report_rows(const Estimate& estimate, ByteUnits units);
// The planner's best layouts as a text table.
std::string format_plan(const PlanResult& result, ByteUnits units);
// The inference planner's cheapest configurations as a text table (or why there are none).
std::string format_serving_plan(const Scenario& scenario, const ServingPlanResult& result, ByteUnits units);
// Every result with its formula, this scenario's inputs and the source.
std::string format_explain(const std::vector<ExplainTerm>& terms, ByteUnits units);

}  // namespace vramcalc::cli
