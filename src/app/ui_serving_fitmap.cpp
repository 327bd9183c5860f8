// The serving fit map card: context length across, concurrency up, each cell the KV cache the
// sequences need over the engine's KV pool (the core's serving_fit_grid_into), drawn by
// shaders/serving_fitmap.frag through fitmap.cpp (Kind::serving), with the user's point, ticks,
// legend, hover and click (a click adopts that context and concurrency).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "app.hpp"
#include "core/serving/serving.hpp"
#include "core/serving/serving_map.hpp"
#include "dom.hpp"
#include "fitmap.hpp"
#include "map_frame.hpp"
#include "imgui.h"
#include "plot.hpp"
#include "ui_charts.hpp"
#include "ui_serving.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

constexpr int context_cells = 48, concurrency_cells = 32;

ServingMapState& st() { return the_app().panels.serving_map; }

void refresh(const App& app) {
    if (st().revision == app.revision) return;
    st().revision = app.revision;
    const double t0 = now_ms();
    st().contexts = serving_context_axis(app.scenario, context_cells);
    st().concurrencies =
        serving_concurrency_axis(app.scenario, app.evaluation.estimate.inference.max_concurrency, concurrency_cells);
    st().grid.assign(st().contexts.size() * st().concurrencies.size(), serving_invalid_cell);
    serving_fit_grid_into(app.scenario, st().contexts, st().concurrencies, st().grid);
    st().ms = now_ms() - t0;
    st().fit = st().valid = 0;
    for (float r : st().grid)
        if (r >= 0) ++st().valid, st().fit += r <= 1.0f ? 1 : 0;
    fitmap::upload(st().grid.data(), int(st().contexts.size()), int(st().concurrencies.size()), fitmap::Kind::serving);
    st().hover_x = st().hover_y = -1;
}

ImU32 rgb(fitmap::Colour c) { return IM_COL32(int(255 * c.r), int(255 * c.g), int(255 * c.b), 255); }

// Ticks at powers of two (context: 1K, 2K, …; concurrency: 1, 2, 4, …) that have room.
std::vector<std::int64_t> power_ticks(const std::vector<std::int64_t>& values, float length, float label_w) {
    std::vector<std::int64_t> all;
    if (values.empty()) return all;
    for (std::int64_t v = 1; v <= values.back(); v *= 2)
        if (v >= values.front()) all.push_back(v);
    const int room = std::max(2, int(length / std::max(label_w + 14, 30.0f)));
    const int every = std::max(1, int(std::ceil(double(all.size()) / room)));
    std::vector<std::int64_t> out;
    for (std::size_t k = 0; k < all.size(); k += every) out.push_back(all[k]);
    return out;
}

void legend_row(float width) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGui::PushFont(fonts().small);
    ImVec2 p = ImGui::GetCursorScreenPos();
    float x = p.x;
    auto swatch = [&](ImU32 a, ImU32 b, const char* label, bool line = false) {
        const float w = 17 + ImGui::CalcTextSize(label).x + 16;
        if (x + w > p.x + width && x > p.x) {
            x = p.x;
            p.y += ImGui::GetFontSize() + 6;
        }
        if (line) dl->AddLine(ImVec2(x, p.y + 6), ImVec2(x + 12, p.y + 6), pal.ink, 2.0f);
        else dl->AddRectFilledMultiColor(ImVec2(x, p.y), ImVec2(x + 12, p.y + 12), a, b, b, a);
        dl->AddText(ImVec2(x + 17, p.y - 1), pal.text_dim, label);
        x += w;
    };
    swatch(rgb(fitmap::ramp_colour(0, fitmap::Kind::serving)), rgb(fitmap::ramp_colour(1, fitmap::Kind::serving)),
           "fits (darker: more room)");
    swatch(rgb(fitmap::over_near), rgb(fitmap::over_far), "KV cache does not fit");
    swatch(0, 0, "boundary", true);
    swatch(rgb(fitmap::invalid_light), rgb(fitmap::invalid_dark), "not a valid setting");
    ImGui::PopFont();
    ImGui::SetCursorScreenPos(ImVec2(ImGui::GetCursorScreenPos().x, p.y + ImGui::GetFontSize() + 8));
    ImGui::Dummy(ImVec2(width, 0));
}

void hover_tooltip(App& app, int ix, int iy) {
    const Palette& pal = palette();
    if (ix != st().hover_x || iy != st().hover_y || st().hover_revision != app.revision) {
        st().hover_x = ix;
        st().hover_y = iy;
        st().hover_revision = app.revision;
        Scenario s = app.scenario;
        s.inference.context_len = st().contexts[ix];
        s.inference.concurrency = st().concurrencies[iy];
        st().hover = is_valid(s) ? estimate(s) : Estimate{};
    }
    const float r = st().grid[std::size_t(iy) * st().contexts.size() + ix];
    ImGui::BeginTooltip();
    ImGui::PushFont(fonts().bold);
    ImGui::Text("%s tokens  \xC2\xB7  %s at once", format_grouped(double(st().contexts[ix])).c_str(),
                format_grouped(double(st().concurrencies[iy])).c_str());
    ImGui::PopFont();
    if (r < 0) {
        ImGui::TextUnformatted("Not a valid setting for this model.");
    } else {
        const auto& i = st().hover.inference;
        ImGui::Text("KV cache %s of a %s pool", format_bytes(i.memory.kv_cache, app.units).c_str(),
                    format_bytes(std::max(0.0, i.kv_pool_bytes), app.units).c_str());
        ImGui::PushStyleColor(ImGuiCol_Text, i.fits ? pal.good : pal.bad);
        ImGui::TextUnformatted(i.fits ? "\xE2\x9C\x93 fits" : "\xE2\x9C\x95 does not fit");
        ImGui::PopStyleColor();
        ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
        ImGui::TextUnformatted(touch_targets() ? "Tap to use these values" : "Click to use these values");
        ImGui::PopStyleColor();
    }
    ImGui::EndTooltip();
}

// Ticks at powers of two on both axes, each far enough from the one before for its label.
void draw_axes(const ServingMapState& m, const MapFrame& f) {
    ImGui::PushFont(fonts().small);
    const float fh = ImGui::GetFontSize();
    const float label_w = ImGui::CalcTextSize("128K").x;
    float last = -1e9f;  // ticks closer than a label to the one before are left out
    for (std::int64_t v : power_ticks(m.contexts, f.w, label_w)) {
        const float x = f.cell_x(fractional_index(m.contexts, v));
        if (x - last < label_w + 8) continue;
        last = x;
        draw_map_x_tick(f, x, format_tick(v));
    }
    last = 1e9f;
    for (std::int64_t v : power_ticks(m.concurrencies, f.h, fh * 1.2f)) {
        const float y = f.cell_y(fractional_index(m.concurrencies, v));
        if (last - y < fh * 1.3f) continue;
        last = y;
        draw_map_y_tick(f, y, format_tick(v));
    }
    draw_map_x_title(f, "Context length, tokens per sequence \xE2\x86\x92");
    ImGui::PopFont();
}

// The map for screen readers: its axes, how many settings fit and whether this one does.
void describe_map(const App& app, const ServingMapState& m) {
    const auto& inf = app.scenario.inference;
    const std::string d = "Context length from " + format_grouped(double(m.contexts.front())) + " to " +
                          format_grouped(double(m.contexts.back())) + " tokens across, concurrency from " +
                          format_grouped(double(m.concurrencies.front())) + " to " +
                          format_grouped(double(m.concurrencies.back())) + " up: " + format_grouped(m.fit) + " of " +
                          format_grouped(m.valid) + " settings fit. This one (" + format_grouped(double(inf.context_len)) +
                          " tokens, " + format_grouped(double(inf.concurrency)) + " at once) " +
                          (app.evaluation.estimate.fits ? "fits." : "does not fit.");
    dom::add({"serving_fitmap", dom::Role::image, "Serving fit map: where the KV cache runs out", d});
}

}  // namespace

void draw_serving_fit_map(App& app) {
    if (!app.evaluation.ok()) return;
    refresh(app);
    ServingMapState& m = st();
    begin_card("serving_fitmap_card");
    section_title("Fit map", ImGui::GetContentRegionAvail().x > 420 ? "context length \xC3\x97 concurrency" : nullptr,
                  "serving_fitmap_title");
    const int nx = int(m.contexts.size()), ny = int(m.concurrencies.size());
    const float avail = ImGui::GetContentRegionAvail().x;
    ImGui::PushFont(fonts().small);
    const float left = ImGui::CalcTextSize(format_tick(m.concurrencies.empty() ? 1 : m.concurrencies.back()).c_str()).x + 12;
    ImGui::PopFont();
    const float map_w = std::max(60.0f, avail - left - 6);
    const float map_h = std::clamp(map_w * 0.5f, 170.0f, 300.0f);
    draw_map_y_title("\xE2\x86\x91 Concurrency, sequences at once");
    const MapFrame f = draw_map_image(left, map_w, map_h, nx, ny, nx >= 16, ny >= 8, fitmap::Kind::serving);
    draw_axes(m, f);
    const auto& inf = app.scenario.inference;
    draw_map_point(ImVec2(f.cell_x(fractional_index(m.contexts, inf.context_len)),
                          f.cell_y(fractional_index(m.concurrencies, inf.concurrency))));
    ImGui::SetCursorScreenPos(f.min);
    ImGui::InvisibleButton("serving_fitmap", ImVec2(map_w, map_h));
    record_item("serving_fitmap");
    if (nx > 0 && ny > 0) describe_map(app, m);
    m.drawn = f.visible;
    m.rect[0] = f.min.x, m.rect[1] = f.min.y, m.rect[2] = map_w, m.rect[3] = map_h;
    if (ImGui::IsItemHovered() && nx > 0 && ny > 0) {
        int ix, iy;
        hovered_cell(f, 0, ix, iy);
        hover_tooltip(app, ix, iy);
        if (ImGui::IsItemClicked(ImGuiMouseButton_Left) && m.grid[std::size_t(iy) * nx + ix] >= 0) {
            app.scenario.inference.context_len = m.contexts[ix];
            app.scenario.inference.concurrency = m.concurrencies[iy];
            app.touched();
        }
    }
    char timing[220];
    std::snprintf(timing, sizeof timing, "%d \xC3\x97 %d serving estimates in %.1f ms. %s", nx, ny, m.ms,
                  touch_targets() ? "Tap a cell to use its values." : "Hover a cell for its numbers; click to use it.");
    draw_map_footer(f, avail, legend_row, timing);
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

ServingFitMapView serving_fit_map_view() {
    return {st().contexts, st().concurrencies, st().grid, {st().rect[0], st().rect[1], st().rect[2], st().rect[3]},
            st().drawn, st().ms, fitmap::draws(fitmap::Kind::serving)};
}

}  // namespace vramcalc::app
