// Small helpers the chart panels share: axis names and tick values, text in the small font, the
// frame of a chart with one slot per value (SlotPlot: the sweeps and the planner's scaling chart)
// and its title, the action of adopting a chart point into the scenario. What each chart draws
// is in its panel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "imgui.h"

namespace vramcalc::app {

struct App;

double now_ms();                                   // the browser's monotonic clock
const char* axis_short(SweepAxis axis);             // "b", "s", "N", "ZeRO"
bool axis_discrete(SweepAxis axis);                 // t, p, ZeRO: whole cells, no interpolation
std::string axis_value_text(SweepAxis axis, std::int64_t value);  // "b = 8", "ZeRO-3"
// Position of `v` among sorted `values` as a fractional index (clamped).
float fractional_index(const std::vector<std::int64_t>& values, std::int64_t v);
double nice_step(double range, int ticks);          // 1, 2, 2.5 or 5 × 10^k: a tick step
void small_text(ImDrawList* draw_list, ImVec2 at, ImU32 colour, const std::string& text);
ImVec2 small_size(const std::string& text);

// A chart with one x slot per value (the sweeps, the planner's scaling chart): the plot
// rectangle, and where slot i and a y value (0 at the bottom, `top` at the top) are drawn.
struct SlotPlot {
    ImVec2 origin, pmin, pmax;  // where the chart starts; the plot's corners
    float pw = 0, ph = 0;       // the plot's width and height
    int n = 0;                  // slots
    double top = 1;             // the y value at the plot's top edge
    float x(float slot) const { return pmin.x + (n <= 1 ? pw * 0.5f : (slot + 0.5f) / n * pw); }
    float y(double value) const { return pmax.y - float(value / top) * ph; }
    int slot_at(float x) const;  // the slot under an x position (clamped)
};
// The plot of `n` slots in the chart starting at the cursor, `width` × `height`, with `left` and
// `bottom` pixels kept for the labels.
SlotPlot slot_plot(int n, double top, float width, float height, float left, float bottom);
// A chart's bold title and, unless nullptr, a faint small subtitle on the same line.
void chart_title(const char* title, const char* subtitle);
// After a chart: the cursor below its `width` × `height`.
void end_chart(const SlotPlot& plot, float width, float height);

// Uses a chart point: sets the axis (and a second axis / ZeRO stage when given) in the scenario.
void adopt(App& app, SweepAxis axis, std::int64_t value, int stage = -1, SweepAxis axis2 = SweepAxis::layers,
           std::int64_t value2 = -1);

}  // namespace vramcalc::app
