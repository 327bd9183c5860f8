// The chart panels: the largest micro-batch / longest sequence that fits (ui_largest_fit.cpp), the
// sweep charts (ui_sweeps.cpp: per-GPU memory against b, s and N, one line per ZeRO stage) and the
// fit map (ui_fitmap.cpp: a heatmap over two axes drawn by shaders/fitmap.frag). Every number comes
// from src/core/analysis.hpp; results are recomputed only when the scenario changes
// (App::revision), never per frame. Shared drawing helpers: plot.hpp. Their draw functions are
// declared in panels.hpp, their state in panel_state.hpp; here: what the charts compute and drew.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/training/fixes.hpp"

namespace vramcalc::app {

struct App;

struct Analysis {
    unsigned revision = ~0u;
    std::int64_t largest_b = 0, largest_s = 0;  // 0: even 1 does not fit
    std::int64_t b_upper = 0, s_upper = 0;      // search bounds (a value equal to it means "at least")
    double largest_ms = 0;
};

// Recomputes when the scenario changed since the last call (cheap otherwise).
const Analysis& analysis(const App& app);

const std::vector<Fix>& fixes_for(const App& app);  // those changes, recomputed when the scenario changed

// ── What the charts drew in the last frame, for the test hooks (test_hooks.cpp) ──
struct DrawnSweep {
    std::string axis;
    std::vector<std::int64_t> values;
    std::array<std::vector<std::array<float, 3>>, 4> points;  // per ZeRO stage: x, y (CSS px), visible 1/0
};
struct SweepsView {
    const std::vector<DrawnSweep>& sweeps;
    double ms;  // time of the last recomputation
};
SweepsView sweeps_view();

struct FitMapView {
    SweepAxis x_axis, y_axis;
    const std::vector<std::int64_t>& xs;
    const std::vector<std::int64_t>& ys;
    const std::vector<float>& ratios;  // per cell, x fastest; invalid_cell for invalid layouts
    std::array<float, 4> rect;         // x, y, w, h in CSS px
    bool drawn;
    int hover_x, hover_y;
    double ms;
};
FitMapView fit_map_view();
bool set_fit_map_axes(SweepAxis x, SweepAxis y);  // false (nothing changed) when they are equal

// What the timeline chart (ui_timeline.cpp) drew in the last frame.
struct TimelineBar {
    std::string phase;
    double allocated;  // the phase's total of the estimate's memory_timeline (bytes)
    double top;        // the bar's top: allocated, or the device total for the peak phase (bytes)
    float x, y;        // centre x and top y (CSS px)
};
struct TimelineDrawn {
    std::vector<TimelineBar> bars;
    std::string peak;
    std::array<float, 4> rect{};  // plot area x, y, w, h (CSS px)
    float capacity_y = 0;
    bool drawn = false;
};
const TimelineDrawn& timeline_drawn();

}  // namespace vramcalc::app
