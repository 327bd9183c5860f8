// Human-readable report of an estimate (the CLI's default output).
#pragma once

#include <string>

#include "core/estimate.hpp"

namespace vramcalc::cli {

enum class Units { gib, gb };

std::string format_bytes(double bytes, Units units);
std::string format_count(double value);      // 6,738,415,616
std::string format_scaled(double value);     // 6.74 B, 3.14e23
std::string format_report(const Scenario& scenario, const Estimate& estimate, Units units);

}  // namespace vramcalc::cli
