// The panel table: every panel of the page in reading order, with the layouts and the workload
// that show it (panels.hpp). App::draw's wide, narrow and embed layouts all draw from it.
#include "panels.hpp"

#include <iterator>

#include "app.hpp"
#include "imgui.h"

namespace vramcalc::app {
namespace {

// Four tiles a row from this width of the region up (two below); the layouts' own thresholds.
int tile_columns(const PanelContext& c) {
    const float avail = ImGui::GetContentRegionAvail().x;
    const float four_from = c.layout == layout_wide ? 640.0f : c.layout == layout_narrow ? 720.0f : 560.0f;
    return avail >= four_from ? 4 : 2;
}

void verdict_row(App& a, const PanelContext&) {
    draw_verdict(a);
    a.panels.verdict_bottom = ImGui::GetCursorScreenPos().y;
}

void serving_verdict_row(App& a, const PanelContext&) {
    draw_serving_verdict(a);
    a.panels.verdict_bottom = ImGui::GetCursorScreenPos().y;
}

void sticky_verdict_row(App& a, const PanelContext& c) {
    if (a.has_valid && a.panels.verdict_bottom < 40) draw_sticky_verdict(a, c.width);
}

using C = const PanelContext&;
constexpr unsigned both = both_workloads, train = training_workload, serve = inference_workload;

const Panel table[] = {
    // id, title, draw, layouts, workloads, region, needs a result
    {"embed_title", "Embed title", [](App& a, C c) { draw_embed_title(a, c.content_w); }, layout_embed, both, Region::top, false},
    {"header", "Header", [](App& a, C c) { draw_header(a, c.content_w); }, page_layouts, both, Region::top, false},
    {"link_banner", "Link problems", [](App& a, C) { draw_link_banner(a); }, all_layouts, both, Region::top, false},
    {"keyboard_help", "Keyboard help", [](App& a, C) { draw_keyboard_help(a); }, page_layouts, both, Region::top, false},
    {"notes", "Also changed", [](App& a, C) { draw_notes(a); }, page_layouts, both, Region::top, false},
    {"workload_switch", "Train | Serve", [](App& a, C) { draw_workload_switch(a); }, page_layouts, both, Region::top, false},
    {"editing_hint", "Editing hint", [](App& a, C) { draw_editing_hint(a); }, page_layouts, both, Region::head, false},
    {"errors", "Inputs that need attention",
     [](App& a, C) {
         if (!a.evaluation.ok()) draw_errors(a);
     },
     all_layouts, both, Region::head, false},
    {"stale_banner", "Last valid result", [](App& a, C) { draw_stale_banner(a); }, page_layouts, both, Region::head, false},
    {"verdict", "Verdict", verdict_row, all_layouts, train, Region::head, true},
    {"serving_verdict", "Serving verdict", serving_verdict_row, all_layouts, serve, Region::head, true},
    {"tiles", "Headline tiles", [](App& a, C c) { draw_tiles(a, tile_columns(c)); }, all_layouts, both, Region::head, true},
    {"presets", "Presets", [](App& a, C c) { draw_presets(a, c.layout == layout_narrow && c.content_w < 560); },
     page_layouts, both, Region::inputs, false},
    {"inputs", "Inputs", [](App& a, C) { draw_inputs(a); }, page_layouts, both, Region::inputs, false},
    {"warnings", "Warnings", [](App& a, C) { draw_warnings(a); }, all_layouts, both, Region::results, true},
    {"fit_map", "Fit map", [](App& a, C) { draw_fit_map(a); }, page_layouts, train, Region::results, true},
    {"sweeps", "Sweeps", [](App& a, C) { draw_sweeps(a); }, page_layouts, train, Region::results, true},
    {"plan", "Plan", [](App& a, C) { draw_plan(a); }, page_layouts, train, Region::results, true},
    {"serving_fit_map", "Serving fit map", [](App& a, C) { draw_serving_fit_map(a); }, page_layouts, serve, Region::results, true},
    {"serving_plan", "Serving plan", [](App& a, C) { draw_serving_plan(a); }, page_layouts, serve, Region::results, true},
    {"details", "Detail tables",
     [](App& a, C c) { draw_details(a, c.layout == layout_wide && ImGui::GetContentRegionAvail().x >= 720); },
     page_layouts, both, Region::results, true},
    {"explain", "Explain", [](App& a, C) { draw_explain(a); }, page_layouts, both, Region::results, true},
    {"sticky_verdict", "Sticky verdict", sticky_verdict_row, layout_narrow, both, Region::overlay, false},
    {"import_report", "Import report", [](App& a, C c) { draw_import_report(a, c.width, c.height); }, page_layouts, both,
     Region::overlay, false},
};

bool shows(const Panel& p, const App& app, const PanelContext& c, Region region) {
    const unsigned workload = app.scenario.workload == Workload::inference ? serve : train;
    return p.region == region && (p.layouts & c.layout) && (p.workloads & workload);
}

}  // namespace

std::span<const Panel> panel_table() { return table; }

void draw_region(App& app, const PanelContext& c, Region region) {
    for (const Panel& p : table) {
        if (!p.needs_result) {
            if (shows(p, app, c, region)) p.draw(app, c);
            continue;
        }
        if (c.layout == layout_embed) {  // embeds show a valid result or the errors, never a stale one
            if (shows(p, app, c, region) && app.evaluation.ok()) p.draw(app, c);
            continue;
        }
        LastValidResults last_valid(app);  // the workload of the result shown decides
        if (shows(p, app, c, region) && app.evaluation.ok()) p.draw(app, c);
    }
}

}  // namespace vramcalc::app
