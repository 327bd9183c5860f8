#include "ui_charts.hpp"

#include <emscripten.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app.hpp"
#include "core/analysis.hpp"
#include "fitmap.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "ui_explain.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

constexpr int stages = 4;
const ImU32 stage_colours[stages] = {IM_COL32(0x9A, 0xA4, 0xB8, 255), IM_COL32(0x6E, 0xA8, 0xFE, 255),
                                     IM_COL32(0xB2, 0x8D, 0xF5, 255), IM_COL32(0x3E, 0xCF, 0xB2, 255)};

struct SweepData {
    SweepAxis axis;
    std::vector<std::int64_t> values;
    std::array<std::vector<SweepPoint>, stages> lines;
};

struct MapData {
    SweepAxis x_axis = SweepAxis::micro_batch_size, y_axis = SweepAxis::seq_len;
    std::vector<std::int64_t> xs, ys;
    std::vector<float> grid;
    unsigned revision = ~0u;
    bool smooth_x = true, smooth_y = true;
    // Hover cache: the estimate of the hovered cell, computed once per cell.
    int hover_x = -1, hover_y = -1;
    unsigned hover_revision = ~0u;
    bool hover_valid = false;
    Estimate hover_estimate;
    std::string hover_issue;
};

// What the last frame drew, for the test hook (CSS pixels).
struct DrawnSweep {
    std::string axis;
    std::vector<std::int64_t> values;
    std::array<std::vector<std::array<float, 3>>, stages> points;  // x, y, visible (1/0)
};
struct TestState {
    std::vector<DrawnSweep> sweeps;
    float map_rect[4] = {0, 0, 0, 0};
    bool map_drawn = false;
    int marker_cell[2] = {-1, -1};
};

Analysis the_analysis;
std::array<SweepData, 3> sweeps_data = {SweepData{SweepAxis::micro_batch_size, {}, {}}, SweepData{SweepAxis::seq_len, {}, {}},
                                        SweepData{SweepAxis::num_gpus, {}, {}}};
unsigned sweeps_revision = ~0u;
MapData map_data;
TestState test_state;
bool hook_installed = false;

double now_ms() { return emscripten_get_now(); }

std::string compact_value(std::int64_t v) {
    if (v >= 1024 && v % 1024 == 0) return std::to_string(v / 1024) + "K";
    if (v >= 10000 && v % 1000 == 0) return std::to_string(v / 1000) + "k";
    return format_grouped(double(v));
}

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

// Evenly spaced integers lo..hi (at most n of them, distinct, in order).
std::vector<std::int64_t> linear_values(std::int64_t lo, std::int64_t hi, int n, std::int64_t multiple = 1) {
    std::vector<std::int64_t> out;
    if (hi < lo) hi = lo;
    for (int k = 0; k < n; ++k) {
        double t = n == 1 ? 0.0 : double(k) / (n - 1);
        std::int64_t v = std::int64_t(std::llround(lo + (hi - lo) * t));
        v = std::max(multiple, (v + multiple / 2) / multiple * multiple);
        if (out.empty() || v > out.back()) out.push_back(v);
    }
    return out;
}

// The values of a fit-map axis: dense numeric axes get up to 128 evenly spaced values over a
// range that shows where the boundary is; discrete axes their valid values.
std::vector<std::int64_t> map_axis_values(const Scenario& s, SweepAxis axis, const Analysis& an) {
    constexpr int n = 128;
    std::int64_t current = sweep_axis_value(s, axis);
    switch (axis) {
        case SweepAxis::micro_batch_size: {
            std::int64_t edge = std::max(current, an.largest_b);
            std::int64_t hi = std::clamp<std::int64_t>(std::int64_t(std::bit_ceil(std::uint64_t(edge * 2))), 16, 4096);
            return linear_values(1, hi, int(std::min<std::int64_t>(n, hi)));
        }
        case SweepAxis::seq_len: {
            std::int64_t hi;
            if (s.model.position_embedding == PositionEmbedding::learned) {
                hi = s.model.max_position_embeddings;
            } else {
                std::int64_t edge = std::max(current, an.largest_s);
                hi = std::clamp<std::int64_t>(std::int64_t(std::bit_ceil(std::uint64_t(edge * 2))), 2048, 1 << 21);
            }
            std::int64_t step = std::max<std::int64_t>(1, hi / n);
            return linear_values(step, hi, n);
        }
        case SweepAxis::num_gpus: {
            std::int64_t unit = std::max<std::int64_t>(1, s.parallel.tensor * s.parallel.pipeline * s.parallel.expert);
            std::int64_t hi = std::max(current * 4, unit * 16);
            int count = int(std::min<std::int64_t>(n, hi / unit));
            return linear_values(unit, hi, count, unit);
        }
        default: return sweep_axis_values(s, axis, 16);
    }
}

void refresh_sweeps(const App& app) {
    if (sweeps_revision == app.revision) return;
    sweeps_revision = app.revision;
    double t0 = now_ms();
    for (SweepData& d : sweeps_data) {
        d.values = sweep_axis_values(app.scenario, d.axis, d.axis == SweepAxis::num_gpus ? 11 : 12);
        for (int z = 0; z < stages; ++z) {
            Scenario base = app.scenario;
            base.parallel.zero_stage = z;
            d.lines[z].resize(d.values.size());
            sweep_into(base, d.axis, d.values, d.lines[z]);
        }
    }
    the_analysis.sweeps_ms = now_ms() - t0;
}

void refresh_map(const App& app) {
    if (map_data.revision == app.revision) return;
    map_data.revision = app.revision;
    const Analysis& an = analysis(app);
    double t0 = now_ms();
    map_data.xs = map_axis_values(app.scenario, map_data.x_axis, an);
    map_data.ys = map_axis_values(app.scenario, map_data.y_axis, an);
    map_data.grid.assign(map_data.xs.size() * map_data.ys.size(), invalid_cell);
    fit_grid_into(app.scenario, map_data.x_axis, map_data.xs, map_data.y_axis, map_data.ys, map_data.grid);
    the_analysis.grid_ms = now_ms() - t0;
    map_data.smooth_x = !axis_discrete(map_data.x_axis) && map_data.xs.size() >= 24;
    map_data.smooth_y = !axis_discrete(map_data.y_axis) && map_data.ys.size() >= 24;
    fitmap::upload(map_data.grid.data(), int(map_data.xs.size()), int(map_data.ys.size()));
    map_data.hover_x = map_data.hover_y = -1;
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

void adopt(App& app, SweepAxis axis, std::int64_t value, int stage = -1, SweepAxis axis2 = SweepAxis::layers,
           std::int64_t value2 = -1) {
    Scenario s = app.scenario;
    set_sweep_axis(s, axis, value);
    if (value2 >= 0) set_sweep_axis(s, axis2, value2);
    if (stage >= 0) s.parallel.zero_stage = stage;
    app.set_scenario(s);
}

// One sweep chart: per-GPU memory (y) against an axis (x, one slot per value), a line per ZeRO
// stage, the capacity line, the current point. Hover shows the values; click adopts a point.
void sweep_chart(App& app, SweepData& d, float width, float height, DrawnSweep& drawn) {
    const Palette& pal = palette();
    const Estimate& e = app.evaluation.estimate;
    const ByteUnits u = app.units;
    const double cap = e.capacity_bytes;
    const int n = int(d.values.size());
    drawn.axis = sweep_axis_id(d.axis);
    drawn.values = d.values;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGui::PushID(sweep_axis_id(d.axis));

    // Title.
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted((std::string("vs ") + sweep_axis_label(d.axis)).c_str());
    ImGui::PopFont();
    ImGui::SameLine(0, 8);
    ImGui::PushFont(fonts().small);
    ImGui::SetCursorPosY(ImGui::GetCursorPosY() + 2);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
    ImGui::TextUnformatted((std::string(unit_name(u)) + " per GPU").c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();

    // y range: up to the largest value, at most 2.5× capacity (taller lines leave the chart).
    double top = cap * 1.1;
    for (int z = 0; z < stages; ++z)
        for (const auto& p : d.lines[z])
            if (p.valid) top = std::max(top, std::min(p.memory.total, cap * 2.5));
    double top_u = bytes_in_unit(top, u) * 1.05;
    double step = nice_step(top_u, 4);
    top_u = std::ceil(top_u / step) * step;

    std::string widest = format_sig(top_u, 3);
    const float left = std::max(28.0f, small_size(widest).x + 10);
    const float bottom = small_size("0").y * 2 + 12;
    ImVec2 origin = ImGui::GetCursorScreenPos();
    ImVec2 pmin(origin.x + left, origin.y + 6), pmax(origin.x + width - 8, origin.y + height - bottom);
    const float pw = pmax.x - pmin.x, ph = pmax.y - pmin.y;
    auto xpos = [&](float i) { return pmin.x + (n <= 1 ? pw * 0.5f : (i + 0.5f) / n * pw); };
    auto ypos = [&](double bytes) { return pmax.y - float(bytes_in_unit(bytes, u) / top_u) * ph; };

    dl->AddRectFilled(pmin, pmax, IM_COL32(255, 255, 255, 6), 4);
    // Grid + y ticks.
    for (double v = 0; v <= top_u + step * 0.01; v += step) {
        float y = pmax.y - float(v / top_u) * ph;
        dl->AddLine(ImVec2(pmin.x, y), ImVec2(pmax.x, y), IM_COL32(255, 255, 255, v == 0 ? 40 : 16), 1);
        std::string label = format_sig(v, 3);
        ImVec2 ts = small_size(label);
        small_text(dl, ImVec2(pmin.x - ts.x - 6, y - ts.y * 0.5f), pal.text_faint, label);
    }
    // x ticks: every value if they fit, else every k-th.
    float max_label = 0;
    for (auto v : d.values) max_label = std::max(max_label, small_size(compact_value(v)).x);
    int every = 1;
    while (every < n && (pw / n) * every < max_label + 6) ++every;
    for (int i = 0; i < n; ++i) {
        float x = xpos(float(i));
        dl->AddLine(ImVec2(x, pmax.y), ImVec2(x, pmax.y + 3), IM_COL32(255, 255, 255, 50), 1);
        if (i % every) continue;
        std::string label = compact_value(d.values[i]);
        ImVec2 ts = small_size(label);
        small_text(dl, ImVec2(x - ts.x * 0.5f, pmax.y + 4), pal.text_faint, label);
    }
    {
        std::string xl = sweep_axis_label(d.axis);
        if (d.axis != SweepAxis::seq_len || d.values.size() < 2 || d.values[1] == 2 * d.values[0]) xl += " (log\xE2\x82\x82)";
        if (d.axis == SweepAxis::seq_len) xl += ", tokens";
        ImVec2 ts = small_size(xl);
        small_text(dl, ImVec2(pmin.x + (pw - ts.x) * 0.5f, pmax.y + 4 + ts.y + 2), pal.text_dim, xl);
    }

    // Capacity line.
    float cap_y = ypos(cap);
    for (float x = pmin.x; x < pmax.x; x += 8)
        dl->AddLine(ImVec2(x, cap_y), ImVec2(std::min(x + 4.5f, pmax.x), cap_y), pal.bad, 1.5f);
    {
        std::string cl = format_bytes(cap, u) + " capacity";
        ImVec2 ts = small_size(cl);
        small_text(dl, ImVec2(pmax.x - ts.x - 2, cap_y - ts.y - 1), pal.bad, cl);
    }

    // Lines (clipped to the plot), current stage drawn last and thicker.
    const int current_stage = app.scenario.parallel.zero_stage;
    const std::int64_t current_value = sweep_axis_value(app.scenario, d.axis);
    ImGui::PushClipRect(ImVec2(pmin.x - 4, pmin.y - 4), ImVec2(pmax.x + 4, pmax.y + 4), true);
    int order[stages], filled = 0;
    for (int z = 0; z < stages; ++z)
        if (z != current_stage) order[filled++] = z;
    order[stages - 1] = std::clamp(current_stage, 0, stages - 1);
    for (int pass = 0; pass < stages; ++pass) {
        const int z = order[pass];
        const auto& line = d.lines[z];
        const float thick = z == current_stage ? 2.6f : 1.6f;
        drawn.points[z].clear();
        for (int i = 0; i < n; ++i) {
            const SweepPoint& p = line[i];
            float x = xpos(float(i)), y = p.valid ? ypos(p.memory.total) : 0;
            bool visible = p.valid && y >= pmin.y - 1;
            drawn.points[z].push_back({x, y, visible ? 1.0f : 0.0f});
            if (!p.valid) continue;
            if (i + 1 < n && line[i + 1].valid)
                dl->AddLine(ImVec2(x, y), ImVec2(xpos(float(i + 1)), ypos(line[i + 1].memory.total)), stage_colours[z], thick);
        }
        for (int i = 0; i < n; ++i) {
            const SweepPoint& p = line[i];
            if (!p.valid) continue;
            ImVec2 c(xpos(float(i)), ypos(p.memory.total));
            if (p.fits) dl->AddCircleFilled(c, z == current_stage ? 3.2f : 2.4f, stage_colours[z], 12);
            else {
                dl->AddCircleFilled(c, 3.0f, IM_COL32(0x12, 0x18, 0x28, 255), 12);
                dl->AddCircle(c, 3.0f, stage_colours[z], 12, 1.4f);
            }
        }
    }
    // The current scenario.
    {
        float ci = fractional_index(d.values, current_value);
        float x = xpos(ci);
        dl->AddLine(ImVec2(x, pmin.y), ImVec2(x, pmax.y), IM_COL32(255, 255, 255, 36), 1);
        ImVec2 c(x, ypos(e.memory_per_gpu_bytes.total));
        dl->AddCircle(c, 6.5f, IM_COL32(255, 255, 255, 235), 20, 2.0f);
    }
    ImGui::PopClipRect();

    // Interaction.
    ImGui::SetCursorScreenPos(pmin);
    ImGui::InvisibleButton("plot", ImVec2(std::max(pw, 1.0f), std::max(ph, 1.0f)));
    record_item(std::string("sweep:") + sweep_axis_id(d.axis));
    if (ImGui::IsItemHovered() && n > 0) {
        ImVec2 m = ImGui::GetIO().MousePos;
        int col = std::clamp(int((m.x - pmin.x) / pw * n), 0, n - 1);
        int best_z = -1;
        float best = 14.0f;
        for (int z = 0; z < stages; ++z) {
            const SweepPoint& p = d.lines[z][col];
            if (!p.valid) continue;
            float dy = std::fabs(ypos(p.memory.total) - m.y);
            float dx = std::fabs(xpos(float(col)) - m.x);
            float dist = std::sqrt(dx * dx + dy * dy);
            if (dist < best) {
                best = dist;
                best_z = z;
            }
        }
        float x = xpos(float(col));
        dl->AddLine(ImVec2(x, pmin.y), ImVec2(x, pmax.y), IM_COL32(255, 255, 255, 60), 1);
        if (best_z >= 0) dl->AddCircle(ImVec2(x, ypos(d.lines[best_z][col].memory.total)), 7.0f, stage_colours[best_z], 20, 2.0f);
        ImGui::BeginTooltip();
        ImGui::PushFont(fonts().bold);
        ImGui::Text("%s = %s", axis_short(d.axis), format_grouped(double(d.values[col])).c_str());
        ImGui::PopFont();
        if (ImGui::BeginTable("tip", 3, ImGuiTableFlags_SizingFixedFit)) {
            for (int z = 0; z < stages; ++z) {
                const SweepPoint& p = d.lines[z][col];
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImVec2 q = ImGui::GetCursorScreenPos();
                float fh = ImGui::GetFontSize();
                ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(q.x, q.y + fh * 0.3f), ImVec2(q.x + 10, q.y + fh * 0.3f + 4),
                                                          stage_colours[z], 2);
                ImGui::SetCursorScreenPos(ImVec2(q.x + 16, q.y));
                if (z == best_z) ImGui::PushFont(fonts().bold);
                ImGui::Text("ZeRO-%d", z);
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(p.valid ? format_bytes(p.memory.total, u).c_str() : "invalid layout");
                if (z == best_z) ImGui::PopFont();
                ImGui::TableNextColumn();
                if (p.valid) {
                    ImGui::PushStyleColor(ImGuiCol_Text, p.fits ? pal.good : pal.bad);
                    ImGui::TextUnformatted(p.fits ? "\xE2\x9C\x93 fits" : "\xE2\x9C\x95 over");
                    ImGui::PopStyleColor();
                }
            }
            ImGui::EndTable();
        }
        ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
        if (best_z >= 0)
            ImGui::Text("Click to use %s = %s with ZeRO-%d", axis_short(d.axis), format_grouped(double(d.values[col])).c_str(),
                        best_z);
        else
            ImGui::Text("Click to use %s = %s", axis_short(d.axis), format_grouped(double(d.values[col])).c_str());
        ImGui::PopStyleColor();
        ImGui::EndTooltip();
        if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) {
            bool valid = best_z >= 0 ? true : d.lines[current_stage][col].valid;
            if (valid) adopt(app, d.axis, d.values[col], best_z);
        }
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x, origin.y + height));
    ImGui::Dummy(ImVec2(width, 0));
    ImGui::PopID();
}

void stage_legend(int current_stage) {
    const Palette& pal = palette();
    ImGui::PushFont(fonts().small);
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    auto next = [&](const char* text) {  // same line unless the item would overflow
        ImGui::SameLine(0, 16);
        if (ImGui::GetCursorScreenPos().x + 22 + ImGui::CalcTextSize(text).x > right) ImGui::NewLine();
    };
    for (int z = 0; z < stages; ++z) {
        if (z) next(z == current_stage ? "ZeRO-0 (current)" : "ZeRO-0");
        ImVec2 p = ImGui::GetCursorScreenPos();
        float fh = ImGui::GetFontSize();
        ImGui::GetWindowDrawList()->AddLine(ImVec2(p.x, p.y + fh * 0.55f), ImVec2(p.x + 16, p.y + fh * 0.55f), stage_colours[z],
                                            z == current_stage ? 3.0f : 2.0f);
        ImGui::SetCursorScreenPos(ImVec2(p.x + 22, p.y));
        if (z == current_stage) ImGui::PushStyleColor(ImGuiCol_Text, pal.text);
        else ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
        ImGui::Text(z == current_stage ? "ZeRO-%d (current)" : "ZeRO-%d", z);
        ImGui::PopStyleColor();
    }
    next("capacity");
    {
        ImVec2 p = ImGui::GetCursorScreenPos();
        float fh = ImGui::GetFontSize();
        for (float x = 0; x < 16; x += 6)
            ImGui::GetWindowDrawList()->AddLine(ImVec2(p.x + x, p.y + fh * 0.55f), ImVec2(p.x + x + 3.5f, p.y + fh * 0.55f),
                                                pal.bad, 1.5f);
        ImGui::SetCursorScreenPos(ImVec2(p.x + 22, p.y));
        text_dim("capacity");
    }
    next("this scenario");
    {
        ImVec2 p = ImGui::GetCursorScreenPos();
        float fh = ImGui::GetFontSize();
        ImGui::GetWindowDrawList()->AddCircle(ImVec2(p.x + 6, p.y + fh * 0.55f), 5.0f, IM_COL32(255, 255, 255, 235), 16, 1.8f);
        ImGui::SetCursorScreenPos(ImVec2(p.x + 16, p.y));
        text_dim("this scenario");
    }
    ImGui::PopFont();
}

// Colour of the map's ramp (the same stops as shaders/fitmap.frag), for the legend.
ImU32 ramp(float r) {
    struct Stop {
        float at, rgb[3];
    };
    static const Stop stops[] = {{0.0f, {0.082f, 0.176f, 0.322f}},
                                 {0.45f, {0.118f, 0.420f, 0.561f}},
                                 {0.8f, {0.188f, 0.647f, 0.471f}},
                                 {1.0f, {0.910f, 0.737f, 0.259f}}};
    r = std::clamp(r, 0.0f, 1.0f);
    for (int i = 1; i < 4; ++i)
        if (r <= stops[i].at) {
            float t = (r - stops[i - 1].at) / (stops[i].at - stops[i - 1].at);
            auto ch = [&](int k) { return int(255 * (stops[i - 1].rgb[k] + (stops[i].rgb[k] - stops[i - 1].rgb[k]) * t)); };
            return IM_COL32(ch(0), ch(1), ch(2), 255);
        }
    return IM_COL32(232, 188, 66, 255);
}

void map_legend(float width) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGui::PushFont(fonts().small);
    const float fh = ImGui::GetFontSize();
    ImVec2 p = ImGui::GetCursorScreenPos();
    const char* mid = "fits: memory / capacity";
    const float needed = ImGui::CalcTextSize("0 %").x + ImGui::CalcTextSize(mid).x + ImGui::CalcTextSize("100 %").x + 20;
    const float bar_w = std::min(width, std::max(std::min(260.0f, width * 0.45f), needed)), bar_h = 10;
    for (int i = 0; i < 22; ++i) {
        float a = float(i) / 22, b = float(i + 1) / 22;
        dl->AddRectFilledMultiColor(ImVec2(p.x + a * bar_w, p.y), ImVec2(p.x + b * bar_w + 0.5f, p.y + bar_h), ramp(a), ramp(b),
                                    ramp(b), ramp(a));
    }
    dl->AddText(ImVec2(p.x, p.y + bar_h + 2), pal.text_faint, "0 %");
    dl->AddText(ImVec2(p.x + (bar_w - ImGui::CalcTextSize(mid).x) * 0.5f, p.y + bar_h + 2), pal.text_dim, mid);
    dl->AddText(ImVec2(p.x + bar_w - ImGui::CalcTextSize("100 %").x, p.y + bar_h + 2), pal.text_faint, "100 %");
    float x = p.x + bar_w + 18;
    auto swatch = [&](ImU32 c, const char* label, ImU32 line = 0) {
        if (x + 16 + ImGui::CalcTextSize(label).x > p.x + width) {  // wrap below
            x = p.x;
            p.y += bar_h + fh + 8;
        }
        dl->AddRectFilled(ImVec2(x, p.y - 1), ImVec2(x + 12, p.y + 11), c, 2);
        if (line) dl->AddRect(ImVec2(x, p.y - 1), ImVec2(x + 12, p.y + 11), line, 2, 0, 1.0f);
        dl->AddText(ImVec2(x + 17, p.y - 2), pal.text_dim, label);
        x += 17 + ImGui::CalcTextSize(label).x + 16;
    };
    swatch(IM_COL32(0xED, 0x4A, 0x4D, 255), "does not fit");
    swatch(IM_COL32(0x34, 0x38, 0x41, 255), "invalid layout", IM_COL32(0x55, 0x5B, 0x68, 255));
    {
        if (x + 24 + ImGui::CalcTextSize("capacity boundary").x > p.x + width) {
            x = p.x;
            p.y += bar_h + fh + 8;
        }
        dl->AddLine(ImVec2(x, p.y + 5), ImVec2(x + 14, p.y + 5), IM_COL32(248, 250, 255, 255), 2.0f);
        dl->AddText(ImVec2(x + 19, p.y - 2), pal.text_dim, "capacity boundary");
    }
    ImGui::PopFont();
    ImGui::SetCursorScreenPos(ImVec2(ImGui::GetCursorScreenPos().x, p.y + bar_h + fh + 6));
    ImGui::Dummy(ImVec2(width, 0));
}

struct AxisOption {
    SweepAxis axis;
    const char* label;
};
const AxisOption axis_options[] = {
    {SweepAxis::micro_batch_size, "Micro-batch b"}, {SweepAxis::seq_len, "Sequence length s"},
    {SweepAxis::num_gpus, "GPUs N"},                {SweepAxis::tensor, "Tensor parallel t"},
    {SweepAxis::pipeline, "Pipeline parallel p"},   {SweepAxis::zero_stage, "ZeRO stage"},
};

bool axis_combo(const char* id, SweepAxis* axis, SweepAxis other, float width) {
    bool changed = false;
    const char* current = sweep_axis_label(*axis);
    ImGui::SetNextItemWidth(width);
    if (ImGui::BeginCombo(id, current)) {
        for (const auto& o : axis_options) {
            if (o.axis == other) continue;
            if (ImGui::Selectable(o.label, o.axis == *axis) && o.axis != *axis) {
                *axis = o.axis;
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    return changed;
}

std::string axis_value_text(SweepAxis a, std::int64_t v) {
    if (a == SweepAxis::zero_stage) return "ZeRO-" + std::to_string(v);
    return std::string(axis_short(a)) + " = " + format_grouped(double(v));
}

// ── Test hook: window.vramcalcChartsTest (installed at the first draw) ──
EM_JS(void, js_install_charts_hook, (), {
    const call = (name, ...args) => {
        const ptrs = args.map((v) => {
            const s = String(v);
            const n = lengthBytesUTF8(s) + 1;
            const p = _malloc(n);
            stringToUTF8(s, p, n);
            return p;
        });
        try { return UTF8ToString(Module['_' + name](...ptrs)); } finally { ptrs.forEach((p) => _free(p)); }
    };
    const wake = () => { if (Module['_vramcalc_wake']) Module['_vramcalc_wake'](); };
    window.vramcalcChartsTest = Object.freeze({
        state: () => JSON.parse(call('vramcalc_charts_state')),
        shaders: () => JSON.parse(call('vramcalc_charts_shaders')),
        explain: () => JSON.parse(call('vramcalc_charts_explain')),
        markdown: () => call('vramcalc_charts_markdown'),
        setMapAxes: (x, y) => { const r = call('vramcalc_charts_set_map_axes', x, y); wake(); return r; },
        bench: (runs) => JSON.parse(call('vramcalc_charts_bench', runs || 10)),
    });
});

std::string scratch;

}  // namespace

const Analysis& analysis(const App& app) {
    if (the_analysis.revision == app.revision) return the_analysis;
    the_analysis.revision = app.revision;
    the_analysis.largest_b = the_analysis.largest_s = 0;
    if (!app.evaluation.ok()) return the_analysis;
    double t0 = now_ms();
    the_analysis.b_upper = 1 << 16;
    the_analysis.s_upper = app.scenario.model.position_embedding == PositionEmbedding::learned
                               ? app.scenario.model.max_position_embeddings
                               : std::int64_t(1) << 22;
    the_analysis.largest_b = largest_fitting(app.scenario, SweepAxis::micro_batch_size, the_analysis.b_upper);
    the_analysis.largest_s = largest_fitting(app.scenario, SweepAxis::seq_len, the_analysis.s_upper);
    the_analysis.largest_ms = now_ms() - t0;
    return the_analysis;
}

void draw_largest_fit(App& app) {
    if (!app.evaluation.ok()) return;
    const Analysis& an = analysis(app);
    const Palette& pal = palette();
    auto value = [](std::int64_t v, std::int64_t upper) {
        if (v == 0) return std::string("none (even 1 is over)");
        return (v >= upper ? "\xE2\x89\xA5 " : "") + format_grouped(double(v));
    };
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
    std::string b = "Largest micro-batch that fits: ";
    std::string bv = value(an.largest_b, an.b_upper);
    std::string s = "Longest sequence that fits: ";
    const bool learned = app.scenario.model.position_embedding == PositionEmbedding::learned;
    std::string sv = an.largest_s > 0 && an.largest_s >= an.s_upper && learned
                         ? format_grouped(double(an.largest_s)) + " tokens (model max.)"
                         : value(an.largest_s, an.s_upper) + (an.largest_s > 0 ? " tokens" : "");
    ImGui::TextUnformatted(b.c_str());
    ImGui::SameLine(0, 0);
    ImGui::PushStyleColor(ImGuiCol_Text, an.largest_b > 0 ? pal.text : pal.bad);
    ImGui::TextUnformatted(bv.c_str());
    ImGui::PopStyleColor();
    record_item("largest_b");
    help_tooltip("Largest micro-batch that fits",
                 "The largest micro-batch size b whose per-GPU memory stays within the GPU's capacity, everything else "
                 "as set (binary search over the core's estimate).");
    float need = ImGui::CalcTextSize((s + sv).c_str()).x + 24;
    ImGui::SameLine(0, 0);
    if (ImGui::GetContentRegionAvail().x >= need) {
        ImGui::TextUnformatted("   \xC2\xB7   ");
        ImGui::SameLine(0, 0);
    } else {
        ImGui::NewLine();
    }
    ImGui::TextUnformatted(s.c_str());
    ImGui::SameLine(0, 0);
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(sv.c_str()).x) ImGui::NewLine();
    ImGui::PushStyleColor(ImGuiCol_Text, an.largest_s > 0 ? pal.text : pal.bad);
    ImGui::TextUnformatted(sv.c_str());
    ImGui::PopStyleColor();
    record_item("largest_s");
    help_tooltip("Longest sequence that fits",
                 "The longest sequence length s (at the current micro-batch) whose per-GPU memory stays within capacity. "
                 "Models with learned positions stop at their maximum position count.");
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

void draw_sweeps(App& app) {
    if (!hook_installed) {
        hook_installed = true;
        js_install_charts_hook();
    }
    if (!app.evaluation.ok()) return;
    refresh_sweeps(app);
    begin_card("sweeps_card");
    section_title("Memory vs one setting", ImGui::GetContentRegionAvail().x > 480 ? "per GPU, one line per ZeRO stage" : nullptr);
    stage_legend(app.scenario.parallel.zero_stage);
    ImGui::Dummy(ImVec2(0, 2));
    const float avail = ImGui::GetContentRegionAvail().x;
    const int columns = avail >= 760 ? 3 : (avail >= 520 ? 2 : 1);
    const float gap = 14;
    const float w = (avail - gap * (columns - 1)) / columns;
    const float h = columns == 1 ? 210.0f : 220.0f;
    test_state.sweeps.resize(sweeps_data.size());
    for (std::size_t i = 0; i < sweeps_data.size(); ++i) {
        if (i % columns) ImGui::SameLine(0, gap);
        ImGui::BeginGroup();
        sweep_chart(app, sweeps_data[i], w, h, test_state.sweeps[i]);
        ImGui::EndGroup();
    }
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, palette().text_faint);
    ImGui::TextWrapped("Hover a point for its values; click one to use that value (and that ZeRO stage). Filled dots fit, "
                       "hollow dots do not. Grad accumulation is held fixed, so the global batch follows b and N.");
    ImGui::PopStyleColor();
    ImGui::PopFont();
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

void draw_fit_map(App& app) {
    if (!app.evaluation.ok()) return;
    const Palette& pal = palette();
    const ByteUnits u = app.units;
    refresh_map(app);
    MapData& m = map_data;
    begin_card("fitmap_card");
    section_title("Fit map", ImGui::GetContentRegionAvail().x > 420 ? "where this GPU runs out of memory" : nullptr);
    // Axis pickers.
    {
        ImGui::PushFont(fonts().small);
        const float avail = ImGui::GetContentRegionAvail().x;
        const float combo_w = std::min(190.0f, (avail - 90) * 0.5f);
        ImGui::AlignTextToFramePadding();
        text_dim("Across");
        ImGui::SameLine();
        SweepAxis x = m.x_axis, y = m.y_axis;
        bool changed = axis_combo("##fitmap_x", &x, y, combo_w);
        record_item("fitmap_x");
        ImGui::SameLine();
        text_dim("up");
        ImGui::SameLine();
        changed |= axis_combo("##fitmap_y", &y, x, combo_w);
        record_item("fitmap_y");
        ImGui::PopFont();
        if (changed) {
            m.x_axis = x;
            m.y_axis = y;
            m.revision = ~0u;
            refresh_map(app);
        }
    }
    const int nx = int(m.xs.size()), ny = int(m.ys.size());
    const float avail = ImGui::GetContentRegionAvail().x;
    ImGui::PushFont(fonts().small);
    const float fh = ImGui::GetFontSize();
    float left = 0;
    for (auto v : m.ys) left = std::max(left, ImGui::CalcTextSize(compact_value(v).c_str()).x);
    if (m.y_axis == SweepAxis::zero_stage) left = ImGui::CalcTextSize("ZeRO-3").x;
    ImGui::PopFont();
    left += 12;
    const float map_w = std::max(60.0f, avail - left - 6);
    const float map_h = std::clamp(map_w * 0.55f, 180.0f, 340.0f);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // y-axis title above the map.
    {
        std::string yl = std::string("\xE2\x86\x91 ") + sweep_axis_label(m.y_axis) + (m.y_axis == SweepAxis::seq_len ? ", tokens" : "");
        ImVec2 p = ImGui::GetCursorScreenPos();
        small_text(dl, ImVec2(p.x, p.y), pal.text_dim, yl);
        ImGui::Dummy(ImVec2(0, fh + 2));
    }
    ImVec2 origin = ImGui::GetCursorScreenPos();
    // Whole framebuffer pixels, so the rendered texture maps 1:1 onto the screen.
    const float ratio = std::max(1.0f, ImGui::GetIO().DisplayFramebufferScale.x);
    ImVec2 mmin(std::round((origin.x + left) * ratio) / ratio, std::round(origin.y * ratio) / ratio);
    ImVec2 mmax(mmin.x + std::round(map_w * ratio) / ratio, mmin.y + std::round(map_h * ratio) / ratio);
    bool visible = ImGui::IsRectVisible(mmin, mmax);
    if (visible && nx > 0 && ny > 0) {
        unsigned tex = fitmap::texture(int(std::lround(map_w * ratio)), int(std::lround(map_h * ratio)), m.smooth_x,
                                       m.smooth_y, ratio);
        if (tex) {
            dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(tex)), mmin, mmax, ImVec2(0, 1),
                         ImVec2(1, 0));
        } else {
            ImGui::PushFont(fonts().small);
            dl->AddText(ImVec2(mmin.x + 12, mmin.y + 12), pal.bad, "The fit map's shader did not build in this browser.");
            ImGui::PopFont();
        }
    }
    dl->AddRect(ImVec2(mmin.x - 1, mmin.y - 1), ImVec2(mmax.x + 1, mmax.y + 1), pal.card_border, 0, 0, 1.0f);
    auto cell_x = [&](float i) { return mmin.x + (i + 0.5f) / nx * map_w; };  // centre of column i
    auto cell_y = [&](float j) { return mmax.y - (j + 0.5f) / ny * map_h; };
    // Ticks: (fractional index, value). Dense axes get round values (powers of two for s),
    // discrete ones every k-th cell.
    auto ticks = [&](const std::vector<std::int64_t>& values, SweepAxis axis, bool dense, float length, float label_w) {
        std::vector<std::pair<float, std::int64_t>> out;
        const int n = int(values.size());
        if (n == 0) return out;
        int want = std::max(2, std::min(n, int(length / std::max(label_w + 18, 34.0f))));
        if (dense) {
            double lo = double(values.front()), hi = double(values.back());
            double raw = (hi - lo) / want;
            double step = axis == SweepAxis::seq_len ? double(std::bit_ceil(std::uint64_t(std::max(1.0, raw))))
                                                     : std::max(1.0, nice_step(hi - lo, want));
            for (double v = std::ceil(lo / step) * step; v <= hi + 0.5; v += step) {
                if (v < lo) continue;
                out.push_back({fractional_index(values, std::int64_t(v)), std::int64_t(v)});
            }
            if (out.empty() || out.front().first > 1.5f) out.insert(out.begin(), {0.0f, values.front()});
            return out;
        }
        int every = std::max(1, int(std::ceil(double(n) / want)));
        for (int i = 0; i < n; i += every) out.push_back({float(i), values[i]});
        return out;
    };
    ImGui::PushFont(fonts().small);
    float xlabel_w = 0;
    for (auto v : m.xs) xlabel_w = std::max(xlabel_w, ImGui::CalcTextSize(compact_value(v).c_str()).x);
    if (m.x_axis == SweepAxis::zero_stage) xlabel_w = ImGui::CalcTextSize("ZeRO-3").x;
    for (auto [fi, v] : ticks(m.xs, m.x_axis, m.smooth_x, map_w, xlabel_w)) {
        float x = cell_x(fi);
        std::string label = m.x_axis == SweepAxis::zero_stage ? "ZeRO-" + std::to_string(v) : compact_value(v);
        ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        dl->AddLine(ImVec2(x, mmax.y + 1), ImVec2(x, mmax.y + 4), IM_COL32(255, 255, 255, 70), 1);
        dl->AddText(ImVec2(std::clamp(x - ts.x * 0.5f, mmin.x - 4, mmax.x - ts.x + 4), mmax.y + 5), pal.text_faint, label.c_str());
    }
    for (auto [fj, v] : ticks(m.ys, m.y_axis, m.smooth_y, map_h, fh * 1.6f)) {
        float y = cell_y(fj);
        std::string label = m.y_axis == SweepAxis::zero_stage ? "ZeRO-" + std::to_string(v) : compact_value(v);
        ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        dl->AddLine(ImVec2(mmin.x - 4, y), ImVec2(mmin.x - 1, y), IM_COL32(255, 255, 255, 70), 1);
        dl->AddText(ImVec2(mmin.x - 6 - ts.x, std::clamp(y - ts.y * 0.5f, mmin.y - 2, mmax.y - ts.y + 2)), pal.text_faint,
                    label.c_str());
    }
    {
        std::string xl = std::string(sweep_axis_label(m.x_axis)) + (m.x_axis == SweepAxis::seq_len ? ", tokens" : "") + " \xE2\x86\x92";
        ImVec2 ts = ImGui::CalcTextSize(xl.c_str());
        dl->AddText(ImVec2(mmin.x + (map_w - ts.x) * 0.5f, mmax.y + 5 + fh + 2), pal.text_dim, xl.c_str());
    }
    ImGui::PopFont();
    // The current scenario.
    const float cx = cell_x(fractional_index(m.xs, sweep_axis_value(app.scenario, m.x_axis)));
    const float cy = cell_y(fractional_index(m.ys, sweep_axis_value(app.scenario, m.y_axis)));
    dl->AddCircle(ImVec2(cx, cy), 7.0f, IM_COL32(10, 14, 24, 220), 20, 4.0f);
    dl->AddCircle(ImVec2(cx, cy), 7.0f, IM_COL32(255, 255, 255, 255), 20, 2.0f);
    // Hover + click.
    ImGui::SetCursorScreenPos(mmin);
    ImGui::InvisibleButton("fitmap", ImVec2(map_w, map_h));
    record_item("fitmap");
    test_state.map_drawn = visible;
    test_state.map_rect[0] = mmin.x;
    test_state.map_rect[1] = mmin.y;
    test_state.map_rect[2] = map_w;
    test_state.map_rect[3] = map_h;
    if (ImGui::IsItemHovered() && nx > 0 && ny > 0) {
        ImVec2 mp = ImGui::GetIO().MousePos;
        int ix = std::clamp(int((mp.x - mmin.x) / map_w * nx), 0, nx - 1);
        int iy = std::clamp(int((mmax.y - mp.y) / map_h * ny), 0, ny - 1);
        if (ix != m.hover_x || iy != m.hover_y || m.hover_revision != app.revision) {
            m.hover_x = ix;
            m.hover_y = iy;
            m.hover_revision = app.revision;
            Scenario s = app.scenario;
            set_sweep_axis(s, m.x_axis, m.xs[ix]);
            set_sweep_axis(s, m.y_axis, m.ys[iy]);
            m.hover_valid = sweep_point_valid(s);
            m.hover_issue.clear();
            if (m.hover_valid) {
                m.hover_estimate = estimate(s);
            } else {
                auto issues = validate(s);
                if (!issues.empty()) {
                    const FieldSpec* f = find_field_by_path(issues[0].field);
                    m.hover_issue = (f ? std::string(f->label) : issues[0].field) + " " + issues[0].message;
                }
            }
        }
        float x0 = mmin.x + float(ix) / nx * map_w, x1 = mmin.x + float(ix + 1) / nx * map_w;
        float y1 = mmax.y - float(iy) / ny * map_h, y0 = mmax.y - float(iy + 1) / ny * map_h;
        if (x1 - x0 < 6) {
            x0 = (x0 + x1) * 0.5f - 3;
            x1 = x0 + 6;
        }
        if (y1 - y0 < 6) {
            y0 = (y0 + y1) * 0.5f - 3;
            y1 = y0 + 6;
        }
        dl->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), IM_COL32(255, 255, 255, 230), 0, 0, 1.5f);
        ImGui::BeginTooltip();
        ImGui::PushFont(fonts().bold);
        ImGui::Text("%s  \xC2\xB7  %s", axis_value_text(m.x_axis, m.xs[ix]).c_str(), axis_value_text(m.y_axis, m.ys[iy]).c_str());
        ImGui::PopFont();
        if (m.hover_valid) {
            const Estimate& he = m.hover_estimate;
            ImGui::Text("%s of %s per GPU (%s)", format_bytes(he.memory_per_gpu_bytes.total, u).c_str(),
                        format_bytes(he.capacity_bytes, u).c_str(),
                        format_percent(he.memory_per_gpu_bytes.total / he.capacity_bytes).c_str());
            ImGui::PushStyleColor(ImGuiCol_Text, he.fits ? pal.good : pal.bad);
            ImGui::TextUnformatted(he.fits ? ("\xE2\x9C\x93 fits, " + format_bytes(he.headroom_bytes, u) + " headroom").c_str()
                                           : ("\xE2\x9C\x95 does not fit, short by " + format_bytes(-he.headroom_bytes, u)).c_str());
            ImGui::PopStyleColor();
            ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
            ImGui::Text("activations %s \xC2\xB7 weights %s", format_bytes(he.memory_per_gpu_bytes.activations, u).c_str(),
                        format_bytes(he.memory_per_gpu_bytes.weights, u).c_str());
            ImGui::PopStyleColor();
            ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
            ImGui::TextUnformatted("Click to use these values");
            ImGui::PopStyleColor();
        } else {
            ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24);
            ImGui::TextUnformatted(("Not a valid layout" + (m.hover_issue.empty() ? std::string(".") : ": " + m.hover_issue)).c_str());
            ImGui::PopTextWrapPos();
            ImGui::PopStyleColor();
        }
        ImGui::EndTooltip();
        if (ImGui::IsItemClicked(ImGuiMouseButton_Left) && m.hover_valid)
            adopt(app, m.x_axis, m.xs[ix], -1, m.y_axis, m.ys[iy]);
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x, mmax.y + 2 * fh + 14));
    ImGui::Dummy(ImVec2(avail, 0));
    map_legend(avail);
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
    char timing[200];
    std::snprintf(timing, sizeof timing, "%d \xC3\x97 %d estimates in %.1f ms (computed when the scenario changes). Hover a cell for its numbers; click to use it.",
                  nx, ny, the_analysis.grid_ms);
    ImGui::TextWrapped("%s", timing);
    ImGui::PopStyleColor();
    ImGui::PopFont();
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

}  // namespace vramcalc::app

using namespace vramcalc;
using namespace vramcalc::app;

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* vramcalc_charts_state() {
    const App& app = the_app();
    const Analysis& an = analysis(app);
    nlohmann::json j;
    j["largest_micro_batch"] = an.largest_b;
    j["longest_sequence"] = an.largest_s;
    j["timings_ms"] = {{"largest", an.largest_ms}, {"sweeps", an.sweeps_ms}, {"grid", an.grid_ms}};
    nlohmann::json sweeps = nlohmann::json::array();
    for (const auto& s : test_state.sweeps) {
        nlohmann::json pts = nlohmann::json::array();
        for (const auto& line : s.points) {
            nlohmann::json l = nlohmann::json::array();
            for (const auto& p : line) l.push_back({p[0], p[1], p[2] > 0});
            pts.push_back(l);
        }
        sweeps.push_back({{"axis", s.axis}, {"values", s.values}, {"points", pts}});
    }
    j["sweeps"] = sweeps;
    j["map"] = {{"x_axis", sweep_axis_id(map_data.x_axis)},
                {"y_axis", sweep_axis_id(map_data.y_axis)},
                {"xs", map_data.xs},
                {"ys", map_data.ys},
                {"rect", {test_state.map_rect[0], test_state.map_rect[1], test_state.map_rect[2], test_state.map_rect[3]}},
                {"drawn", test_state.map_drawn},
                {"hover", {map_data.hover_x, map_data.hover_y}},
                {"shader_draws", fitmap::draws()},
                {"ratios", map_data.grid}};
    scratch = j.dump();
    return scratch.c_str();
}

// {"ok": bool, "tried": bool, "error": "..."}: builds the fit-map program if it was not yet.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_charts_shaders() {
    bool ok = fitmap::build_now();
    nlohmann::json j = {{"ok", ok}, {"tried", fitmap::tried()}, {"error", fitmap::error()}};
    scratch = j.dump();
    return scratch.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* vramcalc_charts_set_map_axes(const char* x, const char* y) {
    SweepAxis ax = map_data.x_axis, ay = map_data.y_axis;
    for (SweepAxis a : all_sweep_axes) {
        if (std::string(x) == sweep_axis_id(a)) ax = a;
        if (std::string(y) == sweep_axis_id(a)) ay = a;
    }
    if (ax == ay) {
        scratch = "the two axes must differ";
        return scratch.c_str();
    }
    map_data.x_axis = ax;
    map_data.y_axis = ay;
    map_data.revision = ~0u;
    scratch.clear();
    return scratch.c_str();
}

// Times, in this browser's wasm, the fit-map grid over the same axes as bench/bench_estimate.cpp's
// BM_FitGrid (b = 1..128 × s = 128..16384, 128² cells) and all sweep charts (b, s, N × 4 ZeRO
// stages + largest b and s, as BM_AllSweeps) for the current scenario. Medians of `runs`; each
// sweep sample repeats 20 times (one pass is below the browser's timer resolution).
EMSCRIPTEN_KEEPALIVE const char* vramcalc_charts_bench(const char* runs_text) {
    App& app = the_app();
    int runs = std::clamp(std::atoi(runs_text ? runs_text : "10"), 1, 200);
    std::vector<double> grid_t, sweep_t;
    std::vector<std::int64_t> xs(128), ys(128);
    for (int i = 0; i < 128; ++i) {
        xs[i] = i + 1;
        ys[i] = 128 * (i + 1);
    }
    std::vector<float> grid(xs.size() * ys.size());
    std::vector<SweepPoint> points(64);
    constexpr int sweep_reps = 20;
    for (int r = 0; r < runs; ++r) {
        double t0 = now_ms();
        fit_grid_into(app.scenario, SweepAxis::micro_batch_size, xs, SweepAxis::seq_len, ys, grid);
        double t1 = now_ms();
        for (int rep = 0; rep < sweep_reps; ++rep) {
            for (SweepAxis axis : {SweepAxis::micro_batch_size, SweepAxis::seq_len, SweepAxis::num_gpus}) {
                auto values = sweep_axis_values(app.scenario, axis, 12);
                for (int z = 0; z < 4; ++z) {
                    Scenario base = app.scenario;
                    base.parallel.zero_stage = z;
                    sweep_into(base, axis, values, std::span(points).first(values.size()));
                }
            }
            largest_fitting(app.scenario, SweepAxis::micro_batch_size, 1 << 16);
            largest_fitting(app.scenario, SweepAxis::seq_len, 1 << 22);
        }
        double t2 = now_ms();
        grid_t.push_back(t1 - t0);
        sweep_t.push_back((t2 - t1) / sweep_reps);
    }
    std::sort(grid_t.begin(), grid_t.end());
    std::sort(sweep_t.begin(), sweep_t.end());
    nlohmann::json j = {{"grid_ms", grid_t[grid_t.size() / 2]},
                        {"sweeps_ms", sweep_t[sweep_t.size() / 2]},
                        {"cells", xs.size() * ys.size()},
                        {"runs", runs}};
    scratch = j.dump();
    return scratch.c_str();
}

}  // extern "C"
