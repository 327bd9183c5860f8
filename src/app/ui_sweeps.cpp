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
    for (auto v : d.values) max_label = std::max(max_label, small_size(format_tick(v)).x);
    int every = 1;
    while (every < n && (pw / n) * every < max_label + 6) ++every;
    for (int i = 0; i < n; ++i) {
        float x = xpos(float(i));
        dl->AddLine(ImVec2(x, pmax.y), ImVec2(x, pmax.y + 3), IM_COL32(255, 255, 255, 50), 1);
        if (i % every) continue;
        std::string label = format_tick(d.values[i]);
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
                dl->AddCircleFilled(c, 3.0f, palette().backdrop, 12);
                dl->AddCircle(c, 3.0f, stage_colours[z], 12, 1.4f);
            }
        }
    }
    // The current scenario.
    {
        float ci = fractional_index(d.values, current_value);
        float x = xpos(ci);
        dl->AddLine(ImVec2(x, pmin.y), ImVec2(x, pmax.y), with_alpha(palette().ink, 36), 1);
        ImVec2 c(x, ypos(e.memory_per_gpu_bytes.total));
        dl->AddCircle(c, 6.5f, with_alpha(palette().ink, 235), 20, 2.0f);
    }
    ImGui::PopClipRect();

    // Interaction.
    ImGui::SetCursorScreenPos(pmin);
    ImGui::InvisibleButton("plot", ImVec2(std::max(pw, 1.0f), std::max(ph, 1.0f)));
    record_item(std::string("sweep:") + sweep_axis_id(d.axis));
    if (n > 0) {
        // For screen readers: the current stage's line in words.
        const int z = std::clamp(current_stage, 0, stages - 1);
        std::string text;
        int fit = 0;
        for (int i = 0; i < n; ++i)
            if (d.lines[z][i].valid && d.lines[z][i].fits) ++fit;
        text = format_grouped(fit) + " of " + format_grouped(n) + " values fit with ZeRO-" + std::to_string(z) + ": ";
        for (int i = 0; i < n; ++i) {
            const SweepPoint& p = d.lines[z][i];
            text += (i ? "; " : "") + axis_value_text(d.axis, d.values[i]) + " " +
                    (p.valid ? format_bytes(p.memory.total, app.units) : std::string("invalid"));
        }
        dom::add({std::string("sweep:") + sweep_axis_id(d.axis), dom::Role::image,
                  std::string("Memory per GPU against ") + sweep_axis_label(d.axis), text + "."});
    }
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
        dl->AddLine(ImVec2(x, pmin.y), ImVec2(x, pmax.y), with_alpha(palette().ink, 60), 1);
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
