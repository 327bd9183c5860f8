// Small helpers the chart panels share: axis names and tick values, text in the small font, the
// action of adopting a chart point into the scenario. Drawing of the charts is in the panels.
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

// Uses a chart point: sets the axis (and a second axis / ZeRO stage when given) in the scenario.
void adopt(App& app, SweepAxis axis, std::int64_t value, int stage = -1, SweepAxis axis2 = SweepAxis::layers,
           std::int64_t value2 = -1);

}  // namespace vramcalc::app
