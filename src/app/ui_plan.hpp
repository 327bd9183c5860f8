// The "Plan" panel (issue 12): the fastest layouts for the scenario's model, GPU and GPU count,
// each adoptable with one click, and the predicted step time of the best layout against the GPU
// count. Every number comes from src/core/training/planner.hpp; recomputed only when the scenario changes.
// draw_plan is declared in panels.hpp.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/training/planner.hpp"

namespace vramcalc::app {

struct App;

void scroll_to_plan();  // brings the Plan panel into view on its next frame

// What the panel shows, recomputed when the scenario changed (test_hooks.cpp reads it).
struct PlanView {
    unsigned revision = ~0u;
    PlanResult result;                  // the best layouts for the scenario's GPU count
    std::vector<ScalingPoint> scaling;  // the best layout at N·2^k GPUs, k = −3…3
    double plan_ms = 0, scaling_ms = 0;
};
const PlanView& plan_view(const App& app);

// Shared with the Serve-mode planner (ui_serving_plan.cpp): a small faint note, the faint header
// row of a ranked table, and a row's rank and title (bold for the best, rank 0).
void plan_note(const std::string& text);
void plan_table_headers();
void plan_row_title(std::size_t rank, const std::string& title);

}  // namespace vramcalc::app
