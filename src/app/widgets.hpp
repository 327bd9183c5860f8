// Look and feel: theme colours, fonts, and the few composite widgets the page is built from
// (cards, section titles, segmented toggles, stat tiles, the stacked memory bar).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "imgui.h"

namespace vramcalc::app {

struct Palette {
    ImU32 text, text_dim, text_faint, card, card_border, card_hover, accent, accent_soft, good, good_soft,
        bad, bad_soft, warn, warn_soft;
    ImU32 terms[8];  // the memory terms in output-table order: weights, gradients, optimizer, activations, overhead, …
    ImU32 accent_hover, accent_active, on_accent;   // primary buttons and the text on them
    ImU32 logo, code_bg, warn_card, note_card, bad_card, bad_field, field_editing;
    ImU32 ink;       // lines and marks over plots: white in the dark theme, near-black in the light one
    ImU32 ink_soft;  // ink at low alpha: grids, ticks
    ImU32 backdrop;  // the page colour (dot centres, separators between bar segments)
    float background[3][3];  // page gradient: top, bottom, glow (linear 0..1)
    bool light;
};
const Palette& palette();
ImU32 with_alpha(ImU32 colour, int alpha);

// Light or dark: the palette, ImGui's style colours and the page's CSS theme follow.
void set_light_theme(bool light);

struct Fonts {
    ImFont* body = nullptr;   // 15 px regular
    ImFont* small = nullptr;  // 13 px regular
    ImFont* bold = nullptr;   // 15 px bold
    ImFont* title = nullptr;  // 18 px bold
    ImFont* big = nullptr;    // 26 px bold (the verdict)
};
Fonts& fonts();

void apply_theme();
// Coarse pointers (touch screens): every control at least 44 CSS px tall (WCAG 2.5.5); fine: compact.
void set_touch_targets(bool coarse);
bool touch_targets();
// Whether web/main.js fetched the font to draw with (the page links no built-in font: ImGui's
// ProggyClean would add 9.5 KB gzip for a failed fetch).
bool fonts_available();
// (Re)builds the font atlas for a device pixel ratio: glyphs rasterised at size × ratio, drawn at
// 1/ratio (crisp on HiDPI), from the fetched DejaVu Sans subset; the bold sizes are that face
// widened in the atlas (no second font file). Needs fonts_available().
void build_fonts(float pixel_ratio);

// A rounded card with padding; content between begin_card/end_card. Width 0 = available width.
void begin_card(const char* id, float width = 0, ImU32 background = 0);
void end_card();

// A card title; also a heading of the DOM layer (dom_id: its id there, defaults to the text).
void section_title(const char* text, const char* hint = nullptr, const char* dom_id = nullptr);
// A title's hint: faint small text on the same line, `spacing` after it (ImGui's default for
// -1), lowered by `drop` pixels to sit on the title's baseline.
void title_hint(const char* hint, float spacing, float drop);
void help_tooltip(const char* title, const char* body);  // tooltip for the last item when hovered
// Registers the last ImGui item as a button of the DOM layer; true when the mouse pressed it
// (`pressed`) or the DOM activated it (keyboard, screen reader).
bool dom_button(bool pressed, const std::string& id, const std::string& name, const std::string& description = {},
                bool focusable = true);
// Toggle buttons of which one is on; each is a pressed/unpressed DOM button named "<label>"
// and described by `group` ("Memory units"). True on change.
// `shortcut` goes to the button that is off (with two, the key switches).
bool segmented(const char* id, const char* const* labels, int count, int* selected, const char* group = nullptr,
               const char* shortcut = nullptr);
bool pill_button(const char* label, bool primary = false, const char* dom_id = nullptr, const char* description = nullptr,
                 const char* name = nullptr);  // name: the accessible name when the label alone is ambiguous
// A drop-down: the canvas draws the chosen option, a native <select> over it opens the list (the
// system's picker on phones) and takes arrow keys. Returns the newly chosen index, or -1.
int select_box(const char* id, const char* name, const std::vector<std::string>& options, int current, float width,
               const char* description = nullptr);
// `text` with line breaks at spaces only, each line at most `width` wide in the current font
// (ImGui's own wrapping also breaks after '.' and ',', splitting "138.7" or "50,257").
std::string wrap_at_spaces(std::string_view text, float width);
void text_dim(const char* text);
void text_right(const char* text, float column_right);  // right-aligns text so it ends at column_right (screen x)
void wrapped_coloured(ImU32 colour, const char* text);

struct BarSegment {
    const char* label;
    double value;       // bytes
    ImU32 colour;
    std::string value_text;
};
// The stacked per-GPU memory bar against a capacity line; hover shows a segment's value.
void stacked_bar(const char* id, const std::vector<BarSegment>& segments, double capacity, const std::string& capacity_text,
                 float height);
void legend(const std::vector<BarSegment>& segments, double total);

// Test hook: where named widgets were drawn in the last frame (CSS pixels), so browser tests
// can click and type like a person without reading pixels.
void record_item(const std::string& name);  // the last item
void record_rect(const std::string& name, ImVec2 min, ImVec2 max);  // a drawn area that is no item (shown whole)
void clear_item_rects();
std::string item_rect_json(const std::string& name);  // {"x","y","w","h","visible"} or "null"

}  // namespace vramcalc::app
