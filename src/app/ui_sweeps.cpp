// The sweep charts card: per-GPU memory against b, s and N, one line per ZeRO stage; hover shows
// the values, a click adopts the point. Recomputed only when the scenario changes.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "app.hpp"
#include "core/analysis.hpp"
#include "imgui.h"
#include "plot.hpp"
#include "ui_charts.hpp"
#include "dom.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

constexpr int stages = sweep_stages;
const ImU32 stage_colours[stages] = {IM_COL32(0x9A, 0xA4, 0xB8, 255), IM_COL32(0x6E, 0xA8, 0xFE, 255),
                                     IM_COL32(0xB2, 0x8D, 0xF5, 255), IM_COL32(0x3E, 0xCF, 0xB2, 255)};

SweepsState& st() { return the_app().panels.sweeps; }

void refresh_sweeps(const App& app) {
    if (st().revision == app.revision) return;
    st().revision = app.revision;
    double t0 = now_ms();
    for (SweepData& d : st().data) {
        d.values = sweep_axis_values(app.scenario, d.axis, d.axis == SweepAxis::num_gpus ? 11 : 12);
        for (int z = 0; z < stages; ++z) {
            Scenario base = app.scenario;
            base.parallel.zero_stage = z;
            d.lines[z].resize(d.values.size());
            sweep_into(base, d.axis, d.values, d.lines[z]);
        }
    }
    st().ms = now_ms() - t0;
}

// The y range of a sweep chart in `u`: up to the largest value, at most 2.5× capacity (taller
// lines leave the chart), a whole number of tick steps.
void sweep_range(const SweepData& d, double cap, ByteUnits u, double& top_u, double& step) {
    double top = cap * 1.1;
    for (int z = 0; z < stages; ++z)
        for (const auto& p : d.lines[z])
            if (p.valid) top = std::max(top, std::min(p.memory.total, cap * 2.5));
    top_u = bytes_in_unit(top, u) * 1.05;
    step = nice_step(top_u, 4);
    top_u = std::ceil(top_u / step) * step;
}

// The plot background, the grid and the y ticks, every `step` (in the chart's unit).
void sweep_grid(ImDrawList* dl, const SlotPlot& pl, double step) {
    dl->AddRectFilled(pl.pmin, pl.pmax, IM_COL32(255, 255, 255, 6), 4);
    for (double v = 0; v <= pl.top + step * 0.01; v += step) {
        float y = pl.pmax.y - float(v / pl.top) * pl.ph;
        dl->AddLine(ImVec2(pl.pmin.x, y), ImVec2(pl.pmax.x, y), IM_COL32(255, 255, 255, v == 0 ? 40 : 16), 1);
        std::string label = format_sig(v, 3);
        ImVec2 ts = small_size(label);
        small_text(dl, ImVec2(pl.pmin.x - ts.x - 6, y - ts.y * 0.5f), palette().text_faint, label);
    }
}

// x ticks (every value if they fit, else every k-th) and the axis name.
void sweep_x_axis(ImDrawList* dl, const SlotPlot& pl, const SweepData& d) {
    const Palette& pal = palette();
    const int n = pl.n;
    float max_label = 0;
    for (auto v : d.values) max_label = std::max(max_label, small_size(format_tick(v)).x);
    int every = 1;
    while (every < n && (pl.pw / n) * every < max_label + 6) ++every;
    for (int i = 0; i < n; ++i) {
        float x = pl.x(float(i));
        dl->AddLine(ImVec2(x, pl.pmax.y), ImVec2(x, pl.pmax.y + 3), IM_COL32(255, 255, 255, 50), 1);
        if (i % every) continue;
        std::string label = format_tick(d.values[i]);
        ImVec2 ts = small_size(label);
        small_text(dl, ImVec2(x - ts.x * 0.5f, pl.pmax.y + 4), pal.text_faint, label);
    }
    std::string xl = sweep_axis_label(d.axis);
    if (d.axis != SweepAxis::seq_len || d.values.size() < 2 || d.values[1] == 2 * d.values[0]) xl += " (log\xE2\x82\x82)";
    if (d.axis == SweepAxis::seq_len) xl += ", tokens";
    ImVec2 ts = small_size(xl);
    small_text(dl, ImVec2(pl.pmin.x + (pl.pw - ts.x) * 0.5f, pl.pmax.y + 4 + ts.y + 2), pal.text_dim, xl);
}

// The dashed capacity line and its label.
void capacity_line(ImDrawList* dl, const SlotPlot& pl, double cap, ByteUnits u) {
    const Palette& pal = palette();
    float cap_y = pl.y(bytes_in_unit(cap, u));
    for (float x = pl.pmin.x; x < pl.pmax.x; x += 8)
        dl->AddLine(ImVec2(x, cap_y), ImVec2(std::min(x + 4.5f, pl.pmax.x), cap_y), pal.bad, 1.5f);
    std::string cl = format_bytes(cap, u) + " capacity";
    ImVec2 ts = small_size(cl);
    small_text(dl, ImVec2(pl.pmax.x - ts.x - 2, cap_y - ts.y - 1), pal.bad, cl);
}

// One ZeRO stage's line and its dots (filled: fits; hollow: does not); `points` gets where each
// value was drawn (for the test hooks).
void stage_line(ImDrawList* dl, const SlotPlot& pl, const std::vector<SweepPoint>& line, int z, bool current, ByteUnits u,
                std::vector<std::array<float, 3>>& points) {
    auto ypos = [&](double bytes) { return pl.y(bytes_in_unit(bytes, u)); };
    const int n = pl.n;
    const float thick = current ? 2.6f : 1.6f;
    points.clear();
    for (int i = 0; i < n; ++i) {
        const SweepPoint& p = line[i];
        float x = pl.x(float(i)), y = p.valid ? ypos(p.memory.total) : 0;
        bool visible = p.valid && y >= pl.pmin.y - 1;
        points.push_back({x, y, visible ? 1.0f : 0.0f});
        if (!p.valid) continue;
        if (i + 1 < n && line[i + 1].valid)
            dl->AddLine(ImVec2(x, y), ImVec2(pl.x(float(i + 1)), ypos(line[i + 1].memory.total)), stage_colours[z], thick);
    }
    for (int i = 0; i < n; ++i) {
        const SweepPoint& p = line[i];
        if (!p.valid) continue;
        ImVec2 c(pl.x(float(i)), ypos(p.memory.total));
        if (p.fits) dl->AddCircleFilled(c, current ? 3.2f : 2.4f, stage_colours[z], 12);
        else {
            dl->AddCircleFilled(c, 3.0f, palette().backdrop, 12);
            dl->AddCircle(c, 3.0f, stage_colours[z], 12, 1.4f);
        }
    }
}

// Every stage's line, the current stage drawn last (and thicker).
void stage_lines(ImDrawList* dl, const SlotPlot& pl, const SweepData& d, int current_stage, ByteUnits u,
                 DrawnSweep& drawn) {
    int order[stages], filled = 0;
    for (int z = 0; z < stages; ++z)
        if (z != current_stage) order[filled++] = z;
    order[stages - 1] = std::clamp(current_stage, 0, stages - 1);
    for (int pass = 0; pass < stages; ++pass) {
        const int z = order[pass];
        stage_line(dl, pl, d.lines[z], z, z == current_stage, u, drawn.points[z]);
    }
}

// For screen readers: the current stage's line in words.
void sweep_summary(const SweepData& d, int current_stage, ByteUnits u) {
    const int n = int(d.values.size());
    const int z = std::clamp(current_stage, 0, stages - 1);
    int fit = 0;
    for (int i = 0; i < n; ++i)
        if (d.lines[z][i].valid && d.lines[z][i].fits) ++fit;
    std::string text = format_grouped(fit) + " of " + format_grouped(n) + " values fit with ZeRO-" + std::to_string(z) + ": ";
    for (int i = 0; i < n; ++i) {
        const SweepPoint& p = d.lines[z][i];
        text += (i ? "; " : "") + axis_value_text(d.axis, d.values[i]) + " " +
                (p.valid ? format_bytes(p.memory.total, u) : std::string("invalid"));
    }
    dom::add({std::string("sweep:") + sweep_axis_id(d.axis), dom::Role::image,
              std::string("Memory per GPU against ") + sweep_axis_label(d.axis), text + "."});
}

// The stage whose point in column `col` is nearest the mouse (within 14 px), or -1.
int nearest_stage(const SlotPlot& pl, const SweepData& d, int col, ImVec2 m, ByteUnits u) {
    int best_z = -1;
    float best = 14.0f;
    for (int z = 0; z < stages; ++z) {
        const SweepPoint& p = d.lines[z][col];
        if (!p.valid) continue;
        float dy = std::fabs(pl.y(bytes_in_unit(p.memory.total, u)) - m.y);
        float dx = std::fabs(pl.x(float(col)) - m.x);
        float dist = std::sqrt(dx * dx + dy * dy);
        if (dist < best) {
            best = dist;
            best_z = z;
        }
    }
    return best_z;
}

// The hover tooltip of column `col`: every stage's memory and verdict, and what a click does.
void sweep_tooltip(const SweepData& d, int col, int best_z, ByteUnits u) {
    const Palette& pal = palette();
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
}

// The mouse over the plot: the column's guide, the nearest point ringed, the tooltip; a click
// adopts the value (and that point's stage).
void sweep_hover(App& app, ImDrawList* dl, const SlotPlot& pl, const SweepData& d, int current_stage) {
    const ByteUnits u = app.units;
    ImVec2 m = ImGui::GetIO().MousePos;
    int col = pl.slot_at(m.x);
    int best_z = nearest_stage(pl, d, col, m, u);
    float x = pl.x(float(col));
    dl->AddLine(ImVec2(x, pl.pmin.y), ImVec2(x, pl.pmax.y), with_alpha(palette().ink, 60), 1);
    if (best_z >= 0)
        dl->AddCircle(ImVec2(x, pl.y(bytes_in_unit(d.lines[best_z][col].memory.total, u))), 7.0f, stage_colours[best_z],
                      20, 2.0f);
    sweep_tooltip(d, col, best_z, u);
    if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) {
        bool valid = best_z >= 0 ? true : d.lines[current_stage][col].valid;
        if (valid) adopt(app, d.axis, d.values[col], best_z);
    }
}

// One sweep chart: per-GPU memory (y) against an axis (x, one slot per value), a line per ZeRO
// stage, the capacity line, the current point. Hover shows the values; click adopts a point.
void sweep_chart(App& app, SweepData& d, float width, float height, DrawnSweep& drawn) {
    const Estimate& e = app.evaluation.estimate;
    const ByteUnits u = app.units;
    const double cap = e.capacity_bytes;
    drawn.axis = sweep_axis_id(d.axis);
    drawn.values = d.values;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGui::PushID(sweep_axis_id(d.axis));
    chart_title((std::string("vs ") + sweep_axis_label(d.axis)).c_str(), (std::string(unit_name(u)) + " per GPU").c_str());

    double top_u = 1, step = 1;
    sweep_range(d, cap, u, top_u, step);
    const float left = std::max(28.0f, small_size(format_sig(top_u, 3)).x + 10);
    const float bottom = small_size("0").y * 2 + 12;
    const SlotPlot pl = slot_plot(int(d.values.size()), top_u, width, height, left, bottom);
    sweep_grid(dl, pl, step);
    sweep_x_axis(dl, pl, d);
    capacity_line(dl, pl, cap, u);

    // Lines (clipped to the plot), then the current scenario.
    const int current_stage = app.scenario.parallel.zero_stage;
    const std::int64_t current_value = sweep_axis_value(app.scenario, d.axis);
    ImGui::PushClipRect(ImVec2(pl.pmin.x - 4, pl.pmin.y - 4), ImVec2(pl.pmax.x + 4, pl.pmax.y + 4), true);
    stage_lines(dl, pl, d, current_stage, u, drawn);
    float x = pl.x(fractional_index(d.values, current_value));
    dl->AddLine(ImVec2(x, pl.pmin.y), ImVec2(x, pl.pmax.y), with_alpha(palette().ink, 36), 1);
    dl->AddCircle(ImVec2(x, pl.y(bytes_in_unit(e.memory_per_gpu_bytes.total, u))), 6.5f, with_alpha(palette().ink, 235), 20,
                  2.0f);
    ImGui::PopClipRect();

    // Interaction.
    ImGui::SetCursorScreenPos(pl.pmin);
    ImGui::InvisibleButton("plot", ImVec2(std::max(pl.pw, 1.0f), std::max(pl.ph, 1.0f)));
    record_item(std::string("sweep:") + sweep_axis_id(d.axis));
    if (pl.n > 0) sweep_summary(d, current_stage, u);
    if (ImGui::IsItemHovered() && pl.n > 0) sweep_hover(app, dl, pl, d, current_stage);
    end_chart(pl, width, height);
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
        ImGui::GetWindowDrawList()->AddCircle(ImVec2(p.x + 6, p.y + fh * 0.55f), 5.0f, with_alpha(palette().ink, 235), 16, 1.8f);
        ImGui::SetCursorScreenPos(ImVec2(p.x + 16, p.y));
        text_dim("this scenario");
    }
    ImGui::PopFont();
}

}  // namespace

void draw_sweeps(App& app) {
    if (!app.evaluation.ok()) return;
    refresh_sweeps(app);
    begin_card("sweeps_card");
    section_title("Memory vs one setting", ImGui::GetContentRegionAvail().x > 480 ? "per GPU, one line per ZeRO stage" : nullptr,
                  "sweeps_title");
    stage_legend(app.scenario.parallel.zero_stage);
    ImGui::Dummy(ImVec2(0, 2));
    const float avail = ImGui::GetContentRegionAvail().x;
    const int columns = avail >= 760 ? 3 : (avail >= 520 ? 2 : 1);
    const float gap = 14;
    const float w = (avail - gap * (columns - 1)) / columns;
    const float h = columns == 1 ? 210.0f : 220.0f;
    st().drawn.resize(st().data.size());
    for (std::size_t i = 0; i < st().data.size(); ++i) {
        if (i % columns) ImGui::SameLine(0, gap);
        ImGui::BeginGroup();
        sweep_chart(app, st().data[i], w, h, st().drawn[i]);
        ImGui::EndGroup();
    }
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, palette().text_faint);
    ImGui::TextWrapped("%s Filled dots fit, hollow dots do not. Grad accumulation is held fixed, so the global batch "
                       "follows b and N.",
                       touch_targets() ? "Tap a point to use that value (and that ZeRO stage)."
                                       : "Hover a point for its values; click one to use that value (and that ZeRO stage).");
    ImGui::PopStyleColor();
    ImGui::PopFont();
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

SweepsView sweeps_view() { return {st().drawn, st().ms}; }

}  // namespace vramcalc::app
