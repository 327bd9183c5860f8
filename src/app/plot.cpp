#include "plot.hpp"

#include <emscripten.h>

#include <algorithm>
#include <cmath>

#include "app.hpp"
#include "widgets.hpp"

namespace vramcalc::app {

double now_ms() { return emscripten_get_now(); }

const char* axis_short(SweepAxis a) {
    switch (a) {
        case SweepAxis::micro_batch_size: return "b";
        case SweepAxis::seq_len: return "s";
        case SweepAxis::num_gpus: return "N";
        case SweepAxis::tensor: return "t";
        case SweepAxis::pipeline: return "p";
        case SweepAxis::zero_stage: return "ZeRO";
        case SweepAxis::layers: return "L";
    }
    return "";
}

bool axis_discrete(SweepAxis a) {
    return a == SweepAxis::tensor || a == SweepAxis::pipeline || a == SweepAxis::zero_stage;
}

// Position of `v` among sorted `values` as a fractional index (clamped).
float fractional_index(const std::vector<std::int64_t>& values, std::int64_t v) {
    if (values.empty()) return 0;
    if (v <= values.front()) return 0;
    for (std::size_t i = 1; i < values.size(); ++i)
        if (v <= values[i]) return float(i - 1) + float(v - values[i - 1]) / float(values[i] - values[i - 1]);
    return float(values.size() - 1);
}

double nice_step(double range, int ticks) {
    double raw = range / std::max(1, ticks);
    double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (raw <= m * mag) return m * mag;
    return 10 * mag;
}

void small_text(ImDrawList* dl, ImVec2 p, ImU32 colour, const std::string& text) {
    ImGui::PushFont(fonts().small);
    dl->AddText(p, colour, text.c_str());
    ImGui::PopFont();
}

ImVec2 small_size(const std::string& text) {
    ImGui::PushFont(fonts().small);
    ImVec2 s = ImGui::CalcTextSize(text.c_str());
    ImGui::PopFont();
    return s;
}

int SlotPlot::slot_at(float px) const { return std::clamp(int((px - pmin.x) / pw * float(n)), 0, n - 1); }

SlotPlot slot_plot(int n, double top, float width, float height, float left, float bottom) {
    SlotPlot p;
    p.origin = ImGui::GetCursorScreenPos();
    p.pmin = ImVec2(p.origin.x + left, p.origin.y + 6);
    p.pmax = ImVec2(p.origin.x + width - 8, p.origin.y + height - bottom);
    p.pw = p.pmax.x - p.pmin.x, p.ph = p.pmax.y - p.pmin.y;
    p.n = n;
    p.top = top;
    return p;
}

void chart_title(const char* title, const char* subtitle) {
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted(title);
    ImGui::PopFont();
    if (subtitle) title_hint(subtitle, 8, 2);
}

void end_chart(const SlotPlot& plot, float width, float height) {
    ImGui::SetCursorScreenPos(ImVec2(plot.origin.x, plot.origin.y + height));
    ImGui::Dummy(ImVec2(width, 0));
}

void adopt(App& app, SweepAxis axis, std::int64_t value, int stage, SweepAxis axis2, std::int64_t value2) {
    Scenario s = app.scenario;
    set_sweep_axis(s, axis, value);
    if (value2 >= 0) set_sweep_axis(s, axis2, value2);
    if (stage >= 0) s.parallel.zero_stage = stage;
    app.set_scenario(s);
}

std::string axis_value_text(SweepAxis a, std::int64_t v) {
    if (a == SweepAxis::zero_stage) return "ZeRO-" + std::to_string(v);
    return std::string(axis_short(a)) + " = " + format_grouped(double(v));
}


}  // namespace vramcalc::app
