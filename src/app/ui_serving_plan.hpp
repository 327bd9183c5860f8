// The Serve-mode "Plan" panel (issue 24 item 8): the cheapest GPU × tensor parallel × weight format
// (× engine) that serve the scenario's sequences, each adoptable with "Use". Every number comes from
// src/core/serving/planner.hpp; recomputed only when the scenario or the panel's choices change.
#pragma once

#include "core/serving/planner.hpp"

namespace vramcalc::app {

struct App;

// What the panel shows (test_hooks.cpp reads it).
struct ServingPlanView {
    unsigned revision = ~0u;
    int floor_choice = 2;       // quality floor: 16-bit, ≥ 8, ≥ 4 (default), any
    int engines_choice = 0;     // the scenario's engine, or every engine
    int options_key = -1;       // floor_choice · 2 + engines_choice of the last search
    ServingPlanResult result;
    double plan_ms = 0;
};
const ServingPlanView& serving_plan_view(const App& app);  // draw_serving_plan is declared in panels.hpp

}  // namespace vramcalc::app
