// Human-readable report of an estimate (the CLI's default output).
#pragma once

#include <string>

#include "codec/markdown.hpp"
#include "core/estimate.hpp"
#include "core/explain.hpp"

namespace vramcalc::cli {

using Units = codec::ByteUnits;

std::string format_count(double value);      // 6,738,415,616
std::string format_scaled(double value);     // 6.74 B, 3.14e23
std::string format_report(const Scenario& scenario, const Estimate& estimate, Units units);
// Every result with its formula, this scenario's inputs and the source.
std::string format_explain(const std::vector<ExplainTerm>& terms);

}  // namespace vramcalc::cli
