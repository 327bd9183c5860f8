// Charts of issue 5: the largest micro-batch / longest sequence that fits, the sweep charts
// (per-GPU memory against b, s and N, one line per ZeRO stage) and the fit map (a heatmap over two
// axes drawn by shaders/fitmap.frag). Every number comes from src/core/analysis.hpp; the results
// are recomputed only when the scenario changes (App::revision), never per frame.
#pragma once

#include <cstdint>

namespace vramcalc::app {

struct App;

struct Analysis {
    unsigned revision = ~0u;
    std::int64_t largest_b = 0, largest_s = 0;  // 0: even 1 does not fit
    std::int64_t b_upper = 0, s_upper = 0;      // search bounds (a value equal to it means "at least")
    double largest_ms = 0, sweeps_ms = 0, grid_ms = 0;
};

// Recomputes when the scenario changed since the last call (cheap otherwise).
const Analysis& analysis(const App& app);

void draw_largest_fit(App& app);  // one line for the verdict card
void draw_sweeps(App& app);       // the sweep charts card
void draw_fit_map(App& app);      // the fit map card

}  // namespace vramcalc::app
