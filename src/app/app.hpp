// The page's state and layout. State is the Scenario (the single source of truth) plus view
// settings; the Evaluation is recomputed from the Scenario whenever it changes (cheap), never
// edited directly. The URL fragment and the DOM summary follow the Scenario after each change.
#pragma once

#include <string>
#include <vector>

#include "codec/link.hpp"
#include "core/estimate.hpp"
#include "core/fields.hpp"
#include "format/format.hpp"

namespace vramcalc::app {

struct App {
    Scenario scenario;
    Evaluation evaluation;
    ByteUnits units = ByteUnits::gib;
    bool embed = false;
    std::vector<ValidationIssue> link_issues;  // problems of the link the page was opened with
    bool link_banner_open = false;
    std::vector<Note> notes;   // what the last preset choice or link changed besides itself (seq_len lowered…)
    std::string link;          // encode_link(scenario)
    std::string written_hash;  // the fragment last written to the address bar
    std::string summary;       // last text written to the DOM summary
    double copied_until = -1;  // ImGui time until which "Copied" shows
    bool pending_sync = false;  // scenario or units changed: URL + DOM to update after the frame
    unsigned revision = 0;      // bumped by every scenario change (charts recompute only then)
    char model_filter[64] = {};
    char gpu_filter[64] = {};

    void init();
    void load_fragment(const std::string& fragment);  // decode_link leniently; issues → banner
    void on_hash_changed();                            // the user edited the address bar
    void set_scenario(const Scenario& next);           // replace + recompute + schedule sync
    void touched();                                    // scenario edited in place: recompute + sync
    const char* field_error(const char* path) const;   // validation message for a field, or null
    void draw(float width, float height);              // the whole page, one ImGui frame
    void after_frame();                                // URL + DOM sync (only when something changed)
    bool animating() const;                            // needs more frames without input
    std::string hash_for(const std::string& fragment) const;  // adds embed=1 when in #embed mode
    std::string summary_text() const;
};

App& the_app();

// Panels (ui_inputs.cpp, ui_results.cpp).
void draw_presets(App& app, bool stacked);
void draw_inputs(App& app);
void draw_verdict(App& app);
void draw_tiles(App& app, int columns);
void draw_details(App& app, bool side_by_side);
void draw_warnings(App& app);
void draw_errors(App& app);
void draw_notes(App& app);

}  // namespace vramcalc::app
