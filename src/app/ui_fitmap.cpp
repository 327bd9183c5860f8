// The fit map card: per-GPU memory / capacity over two axes (fit_grid_into), drawn by
// shaders/fitmap.frag through fitmap.cpp, with its legend, axis pickers, hover and click.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "app.hpp"
#include "dom.hpp"
#include "fitmap.hpp"
#include "map_frame.hpp"
#include "imgui_internal.h"
#include "core/analysis.hpp"
#include "imgui.h"
#include "plot.hpp"
#include "ui_charts.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

FitMapState& st() { return the_app().panels.fit_map; }

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

void refresh_map(const App& app) {
    if (st().revision == app.revision) return;
    st().revision = app.revision;
    const Analysis& an = analysis(app);
    double t0 = now_ms();
    st().xs = map_axis_values(app.scenario, st().x_axis, an);
    st().ys = map_axis_values(app.scenario, st().y_axis, an);
    st().grid.assign(st().xs.size() * st().ys.size(), invalid_cell);
    fit_grid_into(app.scenario, st().x_axis, st().xs, st().y_axis, st().ys, st().grid);
    st().grid_ms = now_ms() - t0;
    st().smooth_x = !axis_discrete(st().x_axis) && st().xs.size() >= 24;
    st().smooth_y = !axis_discrete(st().y_axis) && st().ys.size() >= 24;
    fitmap::upload(st().grid.data(), int(st().xs.size()), int(st().ys.size()));
    st().hover_x = st().hover_y = -1;
}

ImU32 rgb(fitmap::Colour c) { return IM_COL32(int(255 * c.r), int(255 * c.g), int(255 * c.b), 255); }

// The fit ramp as the shader draws it (fitmap.hpp holds the stops), for the legend.
ImU32 ramp(float r) { return rgb(fitmap::ramp_colour(r)); }

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
    swatch(rgb(fitmap::over_near), "does not fit");
    swatch(rgb(fitmap::invalid_light), "invalid layout", IM_COL32(0x55, 0x5B, 0x68, 255));
    {
        if (x + 24 + ImGui::CalcTextSize("capacity boundary").x > p.x + width) {
            x = p.x;
            p.y += bar_h + fh + 8;
        }
        dl->AddLine(ImVec2(x, p.y + 5), ImVec2(x + 14, p.y + 5), pal.ink, 2.0f);
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

// The axis pickers: native selects of the DOM layer (dom.hpp) over the drawn boxes.
bool axis_select(const char* id, const char* name, SweepAxis* axis, SweepAxis other, float width) {
    std::vector<std::string> labels;
    std::vector<SweepAxis> axes;
    int current = 0;
    for (const auto& o : axis_options) {
        if (o.axis == other) continue;
        if (o.axis == *axis) current = int(axes.size());
        labels.push_back(o.label);
        axes.push_back(o.axis);
    }
    int chosen = select_box(id, name, labels, current, width);
    if (chosen < 0) return false;
    *axis = axes[chosen];
    return true;
}

// Ticks: (fractional index, value). Dense axes get round values (powers of two for s),
// discrete ones every k-th cell.
std::vector<std::pair<float, std::int64_t>> map_ticks(const std::vector<std::int64_t>& values, SweepAxis axis, bool dense,
                                                      float length, float label_w) {
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
}

std::string tick_label(SweepAxis axis, std::int64_t v) {
    return axis == SweepAxis::zero_stage ? "ZeRO-" + std::to_string(v) : format_tick(v);
}

// The widest tick label of an axis (small font pushed).
float widest_label(const std::vector<std::int64_t>& values, SweepAxis axis) {
    if (axis == SweepAxis::zero_stage) return ImGui::CalcTextSize("ZeRO-3").x;
    float w = 0;
    for (auto v : values) w = std::max(w, ImGui::CalcTextSize(format_tick(v).c_str()).x);
    return w;
}

std::string axis_title(SweepAxis axis) {
    return std::string(sweep_axis_label(axis)) + (axis == SweepAxis::seq_len ? ", tokens" : "");
}

void draw_axes(const FitMapState& m, const MapFrame& f) {
    ImGui::PushFont(fonts().small);
    const float fh = ImGui::GetFontSize();
    for (auto [fi, v] : map_ticks(m.xs, m.x_axis, m.smooth_x, f.w, widest_label(m.xs, m.x_axis)))
        draw_map_x_tick(f, f.cell_x(fi), tick_label(m.x_axis, v));
    for (auto [fj, v] : map_ticks(m.ys, m.y_axis, m.smooth_y, f.h, fh * 1.6f))
        draw_map_y_tick(f, f.cell_y(fj), tick_label(m.y_axis, v));
    draw_map_x_title(f, axis_title(m.x_axis) + " \xE2\x86\x92");
    ImGui::PopFont();
}

// Axis pickers: across and up (never the same axis).
void axis_pickers(const App& app, FitMapState& m) {
    ImGui::PushFont(fonts().small);
    const float avail = ImGui::GetContentRegionAvail().x;
    const float combo_w = std::min(190.0f, (avail - 90) * 0.5f);
    ImGui::AlignTextToFramePadding();
    text_dim("Across");
    ImGui::SameLine();
    SweepAxis x = m.x_axis, y = m.y_axis;
    bool changed = axis_select("fitmap_x", "Fit map across", &x, y, combo_w);
    ImGui::SameLine();
    text_dim("up");
    ImGui::SameLine();
    changed |= axis_select("fitmap_y", "Fit map up", &y, x, combo_w);
    ImGui::PopFont();
    if (changed) {
        m.x_axis = x;
        m.y_axis = y;
        m.revision = ~0u;
        refresh_map(app);
    }
}

// The hovered cell's estimate, computed once per cell, and its tooltip.
void hover_tooltip(const App& app, FitMapState& m, int ix, int iy) {
    const Palette& pal = palette();
    const ByteUnits u = app.units;
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
}

// The map for screen readers: its axes and how many valid layouts fit.
void describe_map(const FitMapState& m) {
    int fit = 0, valid = 0;
    for (float r : m.grid)
        if (r >= 0 && r != invalid_cell) ++valid, fit += r <= 1.0f ? 1 : 0;
    std::string d = std::string(sweep_axis_label(m.x_axis)) + " from " + axis_value_text(m.x_axis, m.xs.front()) +
                    " to " + axis_value_text(m.x_axis, m.xs.back()) + " across, " + sweep_axis_label(m.y_axis) +
                    " from " + axis_value_text(m.y_axis, m.ys.front()) + " to " + axis_value_text(m.y_axis, m.ys.back()) +
                    " up: " + format_grouped(fit) + " of " + format_grouped(valid) + " valid layouts fit.";
    dom::add({"fitmap", dom::Role::image, "Fit map: where this GPU runs out of memory", d});
}

}  // namespace

void draw_fit_map(App& app) {
    if (!app.evaluation.ok()) return;
    refresh_map(app);
    FitMapState& m = st();
    begin_card("fitmap_card");
    section_title("Fit map", ImGui::GetContentRegionAvail().x > 420 ? "where this GPU runs out of memory" : nullptr,
                  "fitmap_title");
    axis_pickers(app, m);
    const int nx = int(m.xs.size()), ny = int(m.ys.size());
    const float avail = ImGui::GetContentRegionAvail().x;
    ImGui::PushFont(fonts().small);
    const float left = widest_label(m.ys, m.y_axis) + 12;
    ImGui::PopFont();
    const float map_w = std::max(60.0f, avail - left - 6);
    const float map_h = std::clamp(map_w * 0.55f, 180.0f, 340.0f);
    draw_map_y_title(std::string("\xE2\x86\x91 ") + axis_title(m.y_axis));
    const MapFrame f = draw_map_image(left, map_w, map_h, nx, ny, m.smooth_x, m.smooth_y, fitmap::Kind::training);
    draw_axes(m, f);
    draw_map_point(ImVec2(f.cell_x(fractional_index(m.xs, sweep_axis_value(app.scenario, m.x_axis))),
                          f.cell_y(fractional_index(m.ys, sweep_axis_value(app.scenario, m.y_axis)))));
    // Hover + click.
    ImGui::SetCursorScreenPos(f.min);
    ImGui::InvisibleButton("fitmap", ImVec2(map_w, map_h));
    record_item("fitmap");
    if (nx > 0 && ny > 0) describe_map(m);
    m.drawn = f.visible;
    m.rect[0] = f.min.x;
    m.rect[1] = f.min.y;
    m.rect[2] = map_w;
    m.rect[3] = map_h;
    if (ImGui::IsItemHovered() && nx > 0 && ny > 0) {
        int ix, iy;
        hovered_cell(f, 6, ix, iy);
        hover_tooltip(app, m, ix, iy);
        if (ImGui::IsItemClicked(ImGuiMouseButton_Left) && m.hover_valid)
            adopt(app, m.x_axis, m.xs[ix], -1, m.y_axis, m.ys[iy]);
    }
    char timing[200];
    std::snprintf(timing, sizeof timing, "%d \xC3\x97 %d estimates in %.1f ms (computed when the scenario changes). %s",
                  nx, ny, m.grid_ms,
                  touch_targets() ? "Tap a cell to use its values." : "Hover a cell for its numbers; click to use it.");
    draw_map_footer(f, avail, map_legend, timing);
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

FitMapView fit_map_view() {
    const FitMapState& m = st();
    return {m.x_axis, m.y_axis, m.xs, m.ys, m.grid, {st().rect[0], st().rect[1], st().rect[2], st().rect[3]},
            st().drawn, m.hover_x, m.hover_y, st().grid_ms};
}

bool set_fit_map_axes(SweepAxis x, SweepAxis y) {
    if (x == y) return false;
    st().x_axis = x;
    st().y_axis = y;
    st().revision = ~0u;
    return true;
}

}  // namespace vramcalc::app
