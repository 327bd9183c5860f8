// The warnings an estimate can carry: one table, a row per warning with its stable id, the rule
// that raises it and its message with the source. estimate() adds, in table order, every row
// whose rule holds for the scenario and its estimate.
#pragma once

#include <span>

#include "core/results.hpp"

namespace vramcalc {

struct WarningSpec {
    Warning warning;
    const char* id;       // stable snake_case id (JSON, CLI, JS API)
    unsigned workloads;   // bit set of 1 << Workload: the estimates the rule applies to
    bool (*rule)(const Scenario& scenario, const Estimate& estimate);
    const char* message;  // one sentence with its source
};

// Every warning once, in the order an estimate lists them.
std::span<const WarningSpec> warning_table();

// The warnings whose rule holds for `estimate` (made from `scenario`), in table order.
Warnings raised_warnings(const Scenario& scenario, const Estimate& estimate);

}  // namespace vramcalc
