// Every panel of the page, declared once, and the panel table that the three layouts of
// App::draw (wide, narrow, embed) read: which panels each layout shows, in which region, for which
// workload. A new panel: its file (ui_<panel>.cpp, with draw_<panel>), its declaration here, its row
// in panels.cpp's table, its source in CMakeLists.txt (docs/architecture.md, "A panel").
// What a panel keeps between frames is a struct in panel_state.hpp that App owns.
#pragma once

#include <span>

namespace vramcalc::app {

struct App;

// ── The panels (each in its own file; ui_<name>.cpp unless said) ──
void draw_header(App& app, float width);                  // logo, name, units, theme, help, Copy link (ui_header.cpp)
void draw_embed_title(App& app, float width);             // the embed's title, units and "Open in vramcalc" (ui_header.cpp)
void draw_link_banner(App& app);                          // what was wrong with the link the page opened (ui_banners.cpp)
void draw_keyboard_help(App& app);                        // the keyboard help card (ui_banners.cpp)
void draw_notes(App& app);                                // "Also changed:" after a preset or link (ui_messages.cpp)
void draw_workload_switch(App& app);                      // Train | Serve (ui_serving.cpp)
void draw_editing_hint(App& app);                         // a typed value waits for Enter or a pause (ui_banners.cpp)
void draw_errors(App& app);                               // the inputs that need attention (ui_messages.cpp)
void draw_stale_banner(App& app);                         // the last valid result is shown dimmed (ui_banners.cpp)
void draw_verdict(App& app);                              // fits or not, the memory bar, the timeline (ui_verdict.cpp)
void draw_serving_verdict(App& app);                      // serving: verdict, breakdown, KV pool (ui_serving.cpp)
void draw_tiles(App& app, int columns);                   // the headline outputs (ui_tiles.cpp)
void draw_warnings(App& app);                             // the estimate's warnings (ui_messages.cpp)
void draw_fit_map(App& app);                              // the training fit map (ui_fitmap.cpp)
void draw_sweeps(App& app);                               // memory against b, s and N (ui_sweeps.cpp)
void draw_plan(App& app);                                 // the fastest layouts (ui_plan.cpp)
void draw_serving_fit_map(App& app);                      // context × concurrency (ui_serving_fitmap.cpp)
void draw_serving_plan(App& app);                         // the cheapest ways to serve (ui_serving_plan.cpp)
void draw_details(App& app, bool side_by_side);           // memory, compute and layout tables (ui_details.cpp)
void draw_explain(App& app);                              // the formula behind a result (ui_explain.cpp)
void draw_presets(App& app, bool stacked);                // model, GPU and framework pickers (ui_inputs.cpp)
void draw_inputs(App& app);                               // every field of the scenario (ui_inputs.cpp)
void draw_sticky_verdict(App& app, float width);          // phones: the verdict pinned to the top (ui_banners.cpp)
void draw_import_report(App& app, float width, float height);  // a card over the bottom right (ui_import_report.cpp)
// Parts of the verdict card.
void draw_fixes(App& app);                                // "does not fit": changes that fit (ui_fixes.cpp)
void draw_largest_fit(App& app);                          // largest b and s that fit (ui_largest_fit.cpp)
void draw_timeline(App& app, float width);                // memory by phase of the step (ui_timeline.cpp)

// ── The panel table ──
enum Layout : unsigned { layout_wide = 1, layout_narrow = 2, layout_embed = 4 };
inline constexpr unsigned page_layouts = layout_wide | layout_narrow, all_layouts = page_layouts | layout_embed;
enum WorkloadMask : unsigned { training_workload = 1, inference_workload = 2, both_workloads = 3 };

// Where a panel goes. Wide: top, then two columns (inputs | head and results). Narrow: one column,
// top, head, inputs, results. Embed: top, head, results. Overlay: windows over the page, after it.
enum class Region { top, head, inputs, results, overlay };

struct PanelContext {
    Layout layout;
    float width, height;  // the page (CSS px)
    float content_w;      // the page's content width (inside its padding)
};

struct Panel {
    const char* id;     // "verdict"
    const char* title;  // "Verdict" (what the panel is called in docs)
    void (*draw)(App& app, const PanelContext& context);
    unsigned layouts;    // Layout bits
    unsigned workloads;  // WorkloadMask bits
    Region region;
    bool needs_result;  // drawn only with a result: the last valid one (dimmed) while inputs are invalid; embeds: only a valid one
};

std::span<const Panel> panel_table();
// Draws the region's rows of the table that the layout and the scenario's workload show, in order.
void draw_region(App& app, const PanelContext& context, Region region);

}  // namespace vramcalc::app
