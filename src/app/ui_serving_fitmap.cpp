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
#include "imgui.h"
#include "plot.hpp"
#include "ui_charts.hpp"
#include "ui_serving.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

constexpr int context_cells = 48, concurrency_cells = 32;

struct ServingMap {
    std::vector<std::int64_t> contexts, concurrencies;
    std::vector<float> grid;
    unsigned revision = ~0u;
    double ms = 0;
    int fit = 0, valid = 0;
    float rect[4] = {0, 0, 0, 0};
    bool drawn = false;
    int hover_x = -1, hover_y = -1;
    unsigned hover_revision = ~0u;
    Estimate hover;
};
ServingMap smap;

void refresh(const App& app) {
    if (smap.revision == app.revision) return;
    smap.revision = app.revision;
    const double t0 = now_ms();
    smap.contexts = serving_context_axis(app.scenario, context_cells);
    smap.concurrencies =
        serving_concurrency_axis(app.scenario, app.evaluation.estimate.inference.max_concurrency, concurrency_cells);
    smap.grid.assign(smap.contexts.size() * smap.concurrencies.size(), serving_invalid_cell);
    serving_fit_grid_into(app.scenario, smap.contexts, smap.concurrencies, smap.grid);
    smap.ms = now_ms() - t0;
    smap.fit = smap.valid = 0;
    for (float r : smap.grid)
        if (r >= 0) ++smap.valid, smap.fit += r <= 1.0f ? 1 : 0;
    fitmap::upload(smap.grid.data(), int(smap.contexts.size()), int(smap.concurrencies.size()), fitmap::Kind::serving);
    smap.hover_x = smap.hover_y = -1;
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
    if (ix != smap.hover_x || iy != smap.hover_y || smap.hover_revision != app.revision) {
        smap.hover_x = ix;
        smap.hover_y = iy;
        smap.hover_revision = app.revision;
        Scenario s = app.scenario;
        s.inference.context_len = smap.contexts[ix];
        s.inference.concurrency = smap.concurrencies[iy];
        smap.hover = is_valid(s) ? estimate(s) : Estimate{};
    }
    const float r = smap.grid[std::size_t(iy) * smap.contexts.size() + ix];
    ImGui::BeginTooltip();
    ImGui::PushFont(fonts().bold);
    ImGui::Text("%s tokens  \xC2\xB7  %s at once", format_grouped(double(smap.contexts[ix])).c_str(),
                format_grouped(double(smap.concurrencies[iy])).c_str());
    ImGui::PopFont();
    if (r < 0) {
        ImGui::TextUnformatted("Not a valid setting for this model.");
    } else {
        const auto& i = smap.hover.inference;
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

}  // namespace

void draw_serving_fit_map(App& app) {
    if (!app.evaluation.ok()) return;
    const Palette& pal = palette();
    refresh(app);
    begin_card("serving_fitmap_card");
    section_title("Fit map", ImGui::GetContentRegionAvail().x > 420 ? "context length \xC3\x97 concurrency" : nullptr,
                  "serving_fitmap_title");
    const int nx = int(smap.contexts.size()), ny = int(smap.concurrencies.size());
    const float avail = ImGui::GetContentRegionAvail().x;
    ImGui::PushFont(fonts().small);
    const float fh = ImGui::GetFontSize();
    const float left = ImGui::CalcTextSize(format_tick(smap.concurrencies.empty() ? 1 : smap.concurrencies.back()).c_str()).x + 12;
    ImGui::PopFont();
    const float map_w = std::max(60.0f, avail - left - 6);
    const float map_h = std::clamp(map_w * 0.5f, 170.0f, 300.0f);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    {
        ImVec2 p = ImGui::GetCursorScreenPos();
        small_text(dl, p, pal.text_dim, "\xE2\x86\x91 Concurrency, sequences at once");
        ImGui::Dummy(ImVec2(0, fh + 2));
    }
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float ratio = std::max(1.0f, ImGui::GetIO().DisplayFramebufferScale.x);
    const ImVec2 mmin(std::round((origin.x + left) * ratio) / ratio, std::round(origin.y * ratio) / ratio);
    const ImVec2 mmax(mmin.x + std::round(map_w * ratio) / ratio, mmin.y + std::round(map_h * ratio) / ratio);
    const bool visible = ImGui::IsRectVisible(mmin, mmax);
    if (visible && nx > 0 && ny > 0) {
        unsigned tex = fitmap::texture(int(std::lround(map_w * ratio)), int(std::lround(map_h * ratio)), nx >= 16,
                                       ny >= 8, ratio, fitmap::Kind::serving);
        if (tex)
            dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(tex)), mmin, mmax, ImVec2(0, 1),
                         ImVec2(1, 0));
        else if (!fitmap::pending(fitmap::Kind::serving))
            small_text(dl, ImVec2(mmin.x + 12, mmin.y + 12), pal.bad, "The fit map's shader did not build in this browser.");
    }
    dl->AddRect(ImVec2(mmin.x - 1, mmin.y - 1), ImVec2(mmax.x + 1, mmax.y + 1), pal.card_border, 0, 0, 1.0f);
    auto cell_x = [&](float i) { return mmin.x + (i + 0.5f) / nx * map_w; };
    auto cell_y = [&](float j) { return mmax.y - (j + 0.5f) / ny * map_h; };
    ImGui::PushFont(fonts().small);
    float last = -1e9f;  // ticks closer than a label to the one before are left out
    for (std::int64_t v : power_ticks(smap.contexts, map_w, ImGui::CalcTextSize("128K").x)) {
        const float x = cell_x(fractional_index(smap.contexts, v));
        if (x - last < ImGui::CalcTextSize("128K").x + 8) continue;
        last = x;
        const std::string label = format_tick(v);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        dl->AddLine(ImVec2(x, mmax.y + 1), ImVec2(x, mmax.y + 4), with_alpha(pal.ink, 70), 1);
        dl->AddText(ImVec2(std::clamp(x - ts.x * 0.5f, mmin.x - 4, mmax.x - ts.x + 4), mmax.y + 5), pal.text_faint, label.c_str());
    }
    last = 1e9f;
    for (std::int64_t v : power_ticks(smap.concurrencies, map_h, fh * 1.2f)) {
        const float y = cell_y(fractional_index(smap.concurrencies, v));
        if (last - y < fh * 1.3f) continue;
        last = y;
        const std::string label = format_tick(v);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        dl->AddLine(ImVec2(mmin.x - 4, y), ImVec2(mmin.x - 1, y), with_alpha(pal.ink, 70), 1);
        dl->AddText(ImVec2(mmin.x - 6 - ts.x, std::clamp(y - ts.y * 0.5f, mmin.y - 2, mmax.y - ts.y + 2)), pal.text_faint,
                    label.c_str());
    }
    {
        const char* xl = "Context length, tokens per sequence \xE2\x86\x92";
        const ImVec2 ts = ImGui::CalcTextSize(xl);
        dl->AddText(ImVec2(mmin.x + (map_w - ts.x) * 0.5f, mmax.y + 5 + fh + 2), pal.text_dim, xl);
    }
    ImGui::PopFont();
    // The user's point.
    const auto& inf = app.scenario.inference;
    const ImVec2 point(cell_x(fractional_index(smap.contexts, inf.context_len)),
                       cell_y(fractional_index(smap.concurrencies, inf.concurrency)));
    dl->AddCircle(point, 7.0f, IM_COL32(10, 14, 24, 220), 20, 4.0f);
    dl->AddCircle(point, 7.0f, IM_COL32(255, 255, 255, 255), 20, 2.0f);
    ImGui::SetCursorScreenPos(mmin);
    ImGui::InvisibleButton("serving_fitmap", ImVec2(map_w, map_h));
    record_item("serving_fitmap");
    if (nx > 0 && ny > 0) {
        const std::string d = "Context length from " + format_grouped(double(smap.contexts.front())) + " to " +
                              format_grouped(double(smap.contexts.back())) + " tokens across, concurrency from " +
                              format_grouped(double(smap.concurrencies.front())) + " to " +
                              format_grouped(double(smap.concurrencies.back())) + " up: " + format_grouped(smap.fit) +
                              " of " + format_grouped(smap.valid) + " settings fit. This one (" +
                              format_grouped(double(inf.context_len)) + " tokens, " +
                              format_grouped(double(inf.concurrency)) + " at once) " +
                              (app.evaluation.estimate.fits ? "fits." : "does not fit.");
        dom::add({"serving_fitmap", dom::Role::image, "Serving fit map: where the KV cache runs out", d});
    }
    smap.drawn = visible;
    smap.rect[0] = mmin.x, smap.rect[1] = mmin.y, smap.rect[2] = map_w, smap.rect[3] = map_h;
    if (ImGui::IsItemHovered() && nx > 0 && ny > 0) {
        const ImVec2 mp = ImGui::GetIO().MousePos;
        const int ix = std::clamp(int((mp.x - mmin.x) / map_w * nx), 0, nx - 1);
        const int iy = std::clamp(int((mmax.y - mp.y) / map_h * ny), 0, ny - 1);
        const float x0 = mmin.x + float(ix) / nx * map_w, x1 = mmin.x + float(ix + 1) / nx * map_w;
        const float y1 = mmax.y - float(iy) / ny * map_h, y0 = mmax.y - float(iy + 1) / ny * map_h;
        dl->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), IM_COL32(255, 255, 255, 230), 0, 0, 1.5f);
        hover_tooltip(app, ix, iy);
        if (ImGui::IsItemClicked(ImGuiMouseButton_Left) && smap.grid[std::size_t(iy) * nx + ix] >= 0) {
            app.scenario.inference.context_len = smap.contexts[ix];
            app.scenario.inference.concurrency = smap.concurrencies[iy];
            app.touched();
        }
    }
    ImGui::SetCursorScreenPos(ImVec2(origin.x, mmax.y + 2 * fh + 14));
    ImGui::Dummy(ImVec2(avail, 0));
    legend_row(avail);
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
    char timing[220];
    std::snprintf(timing, sizeof timing, "%d \xC3\x97 %d serving estimates in %.1f ms. %s", nx, ny, smap.ms,
                  touch_targets() ? "Tap a cell to use its values." : "Hover a cell for its numbers; click to use it.");
    ImGui::TextWrapped("%s", timing);
    ImGui::PopStyleColor();
    ImGui::PopFont();
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

ServingFitMapView serving_fit_map_view() {
    return {smap.contexts, smap.concurrencies, smap.grid, {smap.rect[0], smap.rect[1], smap.rect[2], smap.rect[3]},
            smap.drawn, smap.ms, fitmap::draws(fitmap::Kind::serving)};
}

}  // namespace vramcalc::app
