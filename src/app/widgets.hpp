// Look and feel: theme colours, fonts, and the few composite widgets the page is built from
// (cards, section titles, segmented toggles, stat tiles, the stacked memory bar).
#pragma once

#include <string>
#include <vector>

#include "imgui.h"

namespace vramcalc::app {

struct Palette {
    ImU32 text, text_dim, text_faint, card, card_border, card_hover, accent, accent_soft, good, good_soft,
        bad, bad_soft, warn, warn_soft;
    ImU32 terms[8];  // the memory terms in output-table order: weights, gradients, optimizer, activations, overhead, …
};
const Palette& palette();

struct Fonts {
    ImFont* body = nullptr;   // 15 px regular
    ImFont* small = nullptr;  // 13 px regular
    ImFont* bold = nullptr;   // 15 px bold
    ImFont* title = nullptr;  // 18 px bold
    ImFont* big = nullptr;    // 26 px bold (the verdict)
};
Fonts& fonts();

void apply_theme();
// (Re)builds the font atlas for a device pixel ratio: glyphs rasterised at size × ratio, drawn at
// 1/ratio (crisp on HiDPI). Uses the fetched DejaVu subsets, or ImGui's built-in font if absent.
void build_fonts(float pixel_ratio);

// A rounded card with padding; content between begin_card/end_card. Width 0 = available width.
void begin_card(const char* id, float width = 0, ImU32 background = 0);
void end_card();

void section_title(const char* text, const char* hint = nullptr);
void help_tooltip(const char* title, const char* body);  // tooltip for the last item when hovered
bool segmented(const char* id, const char* const* labels, int count, int* selected);  // true on change
bool pill_button(const char* label, bool primary = false);
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
void clear_item_rects();
std::string item_rect_json(const std::string& name);  // {"x","y","w","h","visible"} or "null"

}  // namespace vramcalc::app
