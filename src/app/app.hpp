// The page's state and layout. State is the Scenario (the single source of truth) plus view
// settings; the Evaluation is recomputed from the Scenario whenever it changes (cheap), never
// edited directly. The URL fragment and the DOM summary follow the Scenario after each change.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "codec/link.hpp"
#include "codec/view.hpp"
#include "core/estimate.hpp"
#include "core/fields.hpp"
#include "format/format.hpp"
#include "panel_state.hpp"
#include "panels.hpp"

namespace vramcalc::app {

// What the last import (paste, drop, file picker, Hugging Face fetch) did, for its card.
struct ImportReport {
    bool open = false;
    std::string source;                   // "config.json (dropped)", "meta-llama/Llama-3.1-8B"
    std::string kind;                     // "Hugging Face config" / "DeepSpeed config" / ""
    std::vector<std::string> lines;       // what was set, defaults assumed, keys not used
    std::vector<ValidationIssue> issues;  // why nothing was imported (the file's own keys)
    bool busy = false;                    // a fetch is on its way
};

struct App {
    Scenario scenario;
    Evaluation evaluation;
    // The last scenario that was valid and its evaluation: the results stay on screen (dimmed)
    // while an input is invalid, instead of the whole column disappearing.
    Scenario valid_scenario;
    Evaluation valid_evaluation;
    bool has_valid = false;
    codec::ViewSettings view;       // units, theme, embed: in the link, never part of the scenario
    ByteUnits units = ByteUnits::gib;  // view.units as the formatting module names it
    bool embed = false;
    bool light = false;             // the theme in effect (view.theme, or the system's preference)
    bool prefers_light = false;     // prefers-color-scheme: light
    std::vector<ValidationIssue> link_issues;  // problems of the link the page was opened with
    std::size_t link_problems = 0;             // how many: those listed, and those the list counts
    bool link_banner_open = false;
    std::vector<Note> notes;   // what the last preset choice or link changed besides itself (seq_len lowered…)
    std::map<std::string, std::string, std::less<>> input_errors;  // typed text that is no value: path → why
    ImportReport import_report;
    bool keyboard_help_open = false;
    std::string link;          // encode_link(scenario)
    std::string written_hash;  // the fragment last written to the address bar
    std::string summary;       // last text written to the DOM summary
    double copied_until = -1;  // ImGui time until which "Copied" shows
    bool pending_sync = false;  // scenario or view changed: URL + DOM to update after the frame
    unsigned revision = 0;      // bumped by every scenario change (charts recompute only then)
    float content_height = 0;   // height the page's content needs (embed: the iframe's height)
    bool embed_setup_in_verdict = false;  // embed narrower than its whole title: method, s and recompute beside the verdict
    bool embed_more_below = false;  // embed shorter than its content, not scrolled to the end: "more below" shows
    mutable PanelStates panels;     // what each panel keeps between frames (panel_state.hpp); caches fill on const reads

    void init();
    void load_fragment(const std::string& fragment);  // decode_link leniently; issues → banner
    void on_hash_changed();                            // the user edited the address bar
    void set_scenario(const Scenario& next);           // replace + recompute + schedule sync
    void touched();                                    // scenario edited in place: recompute + sync
    void view_changed();                               // units/theme changed: relink + restyle
    void apply_theme();                                // palette and CSS follow view.theme / the system
    const char* field_error(const char* path) const;   // validation or typing message for a field, or null
    void clear_input_errors();                         // a new scenario replaces refused typed text
    bool editing() const;  // a field holds typed text not applied yet (not a refused one, not a search)
    // Applies what an import set ("path<TAB>value" lines) and shows `report` about it.
    void import_fields(const std::string& fields, const ImportReport& report);
    void draw(float width, float height);              // the whole page, one ImGui frame
    void after_frame();                                // URL + DOM sync (only when something changed)
    bool animating() const;                            // needs more frames without input
    std::string hash_for(const std::string& fragment) const;  // embed flag + scenario + view keys
    std::string summary_text() const;
};

App& the_app();

// "QLoRA r16 · s 2,048 · full recompute": what trains, the sequence and the recomputation.
std::string setup_short(const Scenario& scenario);
// "Llama-3.1-8B · QLoRA r16 · s 2,048 · full recompute · 1 × RTX-4090": what the embed computes.
std::string embed_title(const Scenario& scenario, bool with_setup);

// While the scenario is invalid, results panels draw the last valid one (dimmed, not clickable):
// construct around them. Does nothing when the scenario is valid or none ever was.
struct LastValidResults {
    App& app;
    bool active;
    explicit LastValidResults(App& a);
    ~LastValidResults();
};

// Keyboard shortcuts: one table drives the page's handling (aria-keyshortcuts on the controls
// they reach), the keyboard help card and docs/keyboard.md (checked by a browser test).
struct Shortcut {
    const char* keys;       // as aria-keyshortcuts spells them: "/", "G", "Shift+?"
    const char* control;    // DOM control id it activates or focuses ("" = handled by the page)
    const char* does;       // "Search model presets"
};
const std::vector<Shortcut>& shortcuts();
const char* shortcut_for(const char* control_id);  // "" when none

}  // namespace vramcalc::app
