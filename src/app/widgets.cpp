#include "widgets.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>

#include "format/format.hpp"
#include "dom.hpp"
#include "gfx.hpp"
#include "imgui_internal.h"
#include "web.hpp"

namespace vramcalc::app {
namespace {

constexpr ImU32 rgb(unsigned hex, unsigned alpha = 255) {
    return IM_COL32((hex >> 16) & 255, (hex >> 8) & 255, hex & 255, alpha);
}

ImVec4 vec(unsigned hex, float alpha = 1.0f) {
    return ImVec4(((hex >> 16) & 255) / 255.0f, ((hex >> 8) & 255) / 255.0f, (hex & 255) / 255.0f, alpha);
}

const Palette dark_palette = {
    rgb(0xE7EAF2),       // text
    rgb(0x9BA5BA),       // text_dim
    rgb(0x7D88A2),       // text_faint (4.5:1 on the cards)
    rgb(0x161E30, 235),  // card
    rgb(0x26314B),       // card_border
    rgb(0x1B2539),       // card_hover
    rgb(0x6EA8FE),       // accent
    rgb(0x6EA8FE, 40),   // accent_soft
    rgb(0x3DD68C),       // good
    rgb(0x3DD68C, 34),   // good_soft
    rgb(0xFF6B6B),       // bad
    rgb(0xFF6B6B, 36),   // bad_soft
    rgb(0xF5B942),       // warn
    rgb(0xF5B942, 30),   // warn_soft
    {rgb(0x6EA8FE), rgb(0xB28DF5), rgb(0xF5A65B), rgb(0x3ECFB2), rgb(0x7D879C), rgb(0xA9C9FF), rgb(0xE57AA8),
     rgb(0xD4C86A)},
    rgb(0x8DBBFF),       // accent_hover
    rgb(0x5A94EE),       // accent_active
    rgb(0x0A101E),       // on_accent
    rgb(0x222E4A),       // logo
    rgb(0x0B101C),       // code_bg
    rgb(0x3A2E12, 235),  // warn_card
    rgb(0x14243A, 235),  // note_card
    rgb(0x34161B, 235),  // bad_card
    rgb(0x3A161C),       // bad_field
    rgb(0x14203A),       // field_editing
    rgb(0xFFFFFF),       // ink
    rgb(0xFFFFFF, 40),   // ink_soft
    rgb(0x0D1220),       // backdrop
    {{0.075f, 0.098f, 0.155f}, {0.043f, 0.055f, 0.086f}, {0.05f, 0.075f, 0.16f}},
    false,
};

const Palette light_palette = {
    rgb(0x172033),       // text
    rgb(0x48536A),       // text_dim
    rgb(0x5E6980),       // text_faint (5:1 on white)
    rgb(0xFFFFFF, 245),  // card
    rgb(0xD3DAE6),       // card_border
    rgb(0xF2F5FA),       // card_hover
    rgb(0x1F62D0),       // accent
    rgb(0x1F62D0, 30),   // accent_soft
    rgb(0x12804F),       // good
    rgb(0x12804F, 28),   // good_soft
    rgb(0xC92F2F),       // bad
    rgb(0xC92F2F, 26),   // bad_soft
    rgb(0x9A6210),       // warn
    rgb(0x9A6210, 26),   // warn_soft
    {rgb(0x3B78F0), rgb(0x8B5CE0), rgb(0xE0842A), rgb(0x17A385), rgb(0x7D879C), rgb(0x8FB0F0), rgb(0xD5508C),
     rgb(0xB9A52C)},
    rgb(0x3A7AE6),       // accent_hover
    rgb(0x174FAD),       // accent_active
    rgb(0xFFFFFF),       // on_accent
    rgb(0xE3EAF7),       // logo
    rgb(0xF1F4F9),       // code_bg
    rgb(0xFFF4DC, 245),  // warn_card
    rgb(0xE8F0FD, 245),  // note_card
    rgb(0xFDE8E8, 245),  // bad_card
    rgb(0xFCE4E4),       // bad_field
    rgb(0xE6EEFC),       // field_editing
    rgb(0x172033),       // ink
    rgb(0x172033, 40),   // ink_soft
    rgb(0xF4F6FA),       // backdrop
    {{0.965f, 0.972f, 0.988f}, {0.905f, 0.925f, 0.960f}, {0.0f, 0.012f, 0.035f}},
    true,
};

const Palette* current_palette = &dark_palette;

Fonts the_fonts;
std::vector<unsigned char> font_regular;
bool font_bytes_loaded = false;

const ImWchar glyph_ranges[] = {
    0x0020, 0x00FF, 0x2013, 0x2014, 0x2018, 0x201D, 0x2022, 0x2022, 0x2026, 0x2026, 0x2070, 0x2079,
    0x2080, 0x2089, 0x2190, 0x2193, 0x2197, 0x2197, 0x2212, 0x2212, 0x2248, 0x2248, 0x2264, 0x2265,
    0x25B2, 0x25B2, 0x25B6, 0x25B6, 0x25BC, 0x25BC, 0x25BE, 0x25BE, 0x26A0, 0x26A0, 0x2713, 0x2713,
    0x2715, 0x2715, 0,
};

// The large fonts only ever show digits, ASCII and a few signs: rasterising fewer glyphs keeps
// the atlas small and the start-up fast.
const ImWchar title_ranges[] = {0x0020, 0x007E, 0x00B2, 0x00B3, 0x00B7, 0x00B7, 0x00B9, 0x00B9, 0x00D7, 0x00D7,
                                0x2070, 0x2079, 0x2212, 0x2212, 0x2713, 0x2713, 0x2715, 0x2715, 0};
const ImWchar big_ranges[] = {0x0020, 0x007E, 0x2713, 0x2713, 0x2715, 0x2715, 0};

struct CardState {
    ImDrawListSplitter splitter;
    ImVec2 start;
    float width = 0;
    ImU32 background = 0;
};
std::deque<CardState> card_stack;

struct ItemRect {
    ImVec2 min, max;
    bool visible;
};
std::map<std::string, ItemRect> item_rects;

// ImGui's style colours: slot, then 0xRRGGBB and alpha in the dark and in the light theme.
struct StyleColour {
    ImGuiCol_ slot;
    unsigned dark;
    float dark_alpha;
    unsigned light;
    float light_alpha;
};
constexpr StyleColour style_colours[] = {
    {ImGuiCol_Text,                  0xE7EAF2, 1.0f,   0x172033, 1.0f},
    {ImGuiCol_TextDisabled,          0x8690A5, 1.0f,   0x6A7488, 1.0f},
    {ImGuiCol_WindowBg,              0x000000, 0.0f,   0x000000, 0.0f},
    {ImGuiCol_ChildBg,               0x000000, 0.0f,   0x000000, 0.0f},
    {ImGuiCol_PopupBg,               0x1A2235, 1.0f,   0xFFFFFF, 1.0f},
    {ImGuiCol_Border,                0x2C3854, 1.0f,   0xC9D1DF, 1.0f},
    {ImGuiCol_BorderShadow,          0x000000, 0.0f,   0x000000, 0.0f},
    {ImGuiCol_FrameBg,               0x0E1422, 1.0f,   0xEEF1F7, 1.0f},
    {ImGuiCol_FrameBgHovered,        0x14203A, 1.0f,   0xE3E9F4, 1.0f},
    {ImGuiCol_FrameBgActive,         0x182846, 1.0f,   0xD9E2F2, 1.0f},
    {ImGuiCol_TitleBg,               0x111827, 1.0f,   0xEEF1F7, 1.0f},
    {ImGuiCol_TitleBgActive,         0x111827, 1.0f,   0xEEF1F7, 1.0f},
    {ImGuiCol_TitleBgCollapsed,      0x111827, 1.0f,   0xEEF1F7, 1.0f},
    {ImGuiCol_MenuBarBg,             0x111827, 1.0f,   0xEEF1F7, 1.0f},
    {ImGuiCol_ScrollbarBg,           0x000000, 0.0f,   0x000000, 0.0f},
    {ImGuiCol_ScrollbarGrab,         0x2C3854, 1.0f,   0xC3CCDC, 1.0f},
    {ImGuiCol_ScrollbarGrabHovered,  0x3A4868, 1.0f,   0xA9B5CA, 1.0f},
    {ImGuiCol_ScrollbarGrabActive,   0x4A5A80, 1.0f,   0x8E9CB6, 1.0f},
    {ImGuiCol_CheckMark,             0x6EA8FE, 1.0f,   0x1F62D0, 1.0f},
    {ImGuiCol_SliderGrab,            0x6EA8FE, 1.0f,   0x1F62D0, 1.0f},
    {ImGuiCol_SliderGrabActive,      0x8DBBFF, 1.0f,   0x3A7AE6, 1.0f},
    {ImGuiCol_Button,                0x243049, 1.0f,   0xE3E9F4, 1.0f},
    {ImGuiCol_ButtonHovered,         0x2E3C5C, 1.0f,   0xD6DFEE, 1.0f},
    {ImGuiCol_ButtonActive,          0x38496F, 1.0f,   0xC8D4E9, 1.0f},
    {ImGuiCol_Header,                0x223050, 1.0f,   0xDCE6F7, 1.0f},
    {ImGuiCol_HeaderHovered,         0x283859, 1.0f,   0xE6EDF9, 1.0f},
    {ImGuiCol_HeaderActive,          0x2F4166, 1.0f,   0xD2DEF5, 1.0f},
    {ImGuiCol_Separator,             0x26314B, 1.0f,   0xD3DAE6, 1.0f},
    {ImGuiCol_SeparatorHovered,      0x3A4868, 1.0f,   0xB9C4D6, 1.0f},
    {ImGuiCol_SeparatorActive,       0x6EA8FE, 1.0f,   0x1F62D0, 1.0f},
    {ImGuiCol_ResizeGrip,            0x000000, 0.0f,   0x000000, 0.0f},
    {ImGuiCol_ResizeGripHovered,     0x000000, 0.0f,   0x000000, 0.0f},
    {ImGuiCol_ResizeGripActive,      0x000000, 0.0f,   0x000000, 0.0f},
    {ImGuiCol_TableHeaderBg,         0x1A2338, 1.0f,   0xEEF1F7, 1.0f},
    {ImGuiCol_TableBorderStrong,     0x26314B, 1.0f,   0xD3DAE6, 1.0f},
    {ImGuiCol_TableBorderLight,      0x212B42, 1.0f,   0xE2E7F0, 1.0f},
    {ImGuiCol_TableRowBg,            0x000000, 0.0f,   0x000000, 0.0f},
    {ImGuiCol_TableRowBgAlt,         0xFFFFFF, 0.025f, 0x172033, 0.03f},
    {ImGuiCol_TextSelectedBg,        0x6EA8FE, 0.35f,  0x1F62D0, 0.25f},
    {ImGuiCol_NavHighlight,          0x8DBBFF, 1.0f,   0x1F62D0, 1.0f},
    {ImGuiCol_NavWindowingHighlight, 0xFFFFFF, 0.7f,   0x000000, 0.7f},
    {ImGuiCol_NavWindowingDimBg,     0x000000, 0.4f,   0x000000, 0.2f},
    {ImGuiCol_ModalWindowDimBg,      0x000000, 0.45f,  0x000000, 0.25f},
};

}  // namespace

const Palette& palette() { return *current_palette; }

ImU32 with_alpha(ImU32 colour, int alpha) {
    return (colour & ~IM_COL32_A_MASK) | (ImU32(std::clamp(alpha, 0, 255)) << IM_COL32_A_SHIFT);
}
Fonts& fonts() { return the_fonts; }

void apply_theme() {
    ImGuiStyle& s = ImGui::GetStyle();
    s.WindowPadding = ImVec2(20, 16);
    s.FramePadding = ImVec2(9, 6);
    s.CellPadding = ImVec2(8, 5);
    s.ItemSpacing = ImVec2(10, 8);
    s.ItemInnerSpacing = ImVec2(8, 6);
    s.IndentSpacing = 16;
    s.ScrollbarSize = 11;
    s.GrabMinSize = 12;
    s.WindowBorderSize = 0;
    s.ChildBorderSize = 0;
    s.PopupBorderSize = 1;
    s.FrameBorderSize = 0;
    s.WindowRounding = 10;
    s.ChildRounding = 10;
    s.FrameRounding = 6;
    s.PopupRounding = 8;
    s.ScrollbarRounding = 6;
    s.GrabRounding = 6;
    s.TabRounding = 6;
    s.SelectableTextAlign = ImVec2(0, 0.5f);
    set_light_theme(false);
}

bool coarse_pointer = false;

void set_touch_targets(bool coarse) {
    coarse_pointer = coarse;
    ImGuiStyle& s = ImGui::GetStyle();
    // Frames are the font size (15 px) plus twice the padding: 2 × 14.5 px makes 44 px (buttons, fields, checkboxes).
    s.FramePadding = ImVec2(coarse ? 12.0f : 9.0f, coarse ? 14.5f : 6.0f);
    s.ItemSpacing = ImVec2(10, coarse ? 10.0f : 8.0f);
}

bool touch_targets() { return coarse_pointer; }

void set_light_theme(bool light) {
    current_palette = light ? &light_palette : &dark_palette;
    ImVec4* c = ImGui::GetStyle().Colors;
    for (const StyleColour& e : style_colours)
        c[e.slot] = light ? vec(e.light, e.light_alpha) : vec(e.dark, e.dark_alpha);
}

bool fonts_available() {
    if (!font_bytes_loaded) {
        font_regular = web::font_bytes();
        font_bytes_loaded = true;
    }
    return !font_regular.empty();
}

namespace {

// Bold is the regular face widened, so the page ships one font file: DejaVu Sans Bold's stems are
// 174 font units wider than the regular face's ('l': 358 vs 184) and its advances 128 wider (mean
// over printable ASCII). ImGui sizes a font by ascent − descent, 1901 + 483 = 2384 units in both
// faces: these are fractions of the pixel size.
constexpr float bold_stem_gain = 174.0f / 2384.0f;
constexpr float bold_advance_gain = 128.0f / 2384.0f;

// Widens every glyph of `font` by `px` pixels to the right in the atlas (each texel: the maximum
// of the px texels to its left, the last one weighted by the fraction), as simulated bold does.
// The atlas leaves TexGlyphPadding free texels right of each glyph: at least ceil(px).
void embolden(ImFontAtlas& atlas, ImFont& font, float px) {
    const int whole = int(px), grow = int(std::ceil(px));
    const float fraction = px - float(whole);
    const int width = atlas.TexWidth, height = atlas.TexHeight;
    std::vector<unsigned char> row;
    for (ImFontGlyph& g : font.Glyphs) {
        if (!g.Visible) continue;
        const int x0 = int(std::lround(g.U0 * width)), x1 = int(std::lround(g.U1 * width));
        const int y0 = int(std::lround(g.V0 * height)), y1 = int(std::lround(g.V1 * height));
        for (int y = y0; y < y1; ++y) {
            unsigned char* texels = atlas.TexPixelsAlpha8 + std::size_t(y) * std::size_t(width);
            row.assign(texels + x0, texels + x1);
            for (int x = 0; x < x1 - x0 + grow; ++x) {
                float v = 0;
                for (int j = 0; j <= whole; ++j)
                    if (x - j >= 0 && x - j < x1 - x0) v = std::max(v, float(row[std::size_t(x - j)]));
                const int last = x - whole - 1;
                if (fraction > 0 && last >= 0 && last < x1 - x0) v = std::max(v, fraction * float(row[std::size_t(last)]));
                texels[x0 + x] = static_cast<unsigned char>(std::min(255.0f, v + 0.5f));
            }
        }
        g.X1 += float(grow);
        g.U1 += float(grow) / float(width);
    }
}

}  // namespace

void build_fonts(float ratio) {
    ImGuiIO& io = ImGui::GetIO();
    if (!fonts_available()) return;
    io.Fonts->Clear();
    const float largest_bold_px = std::round(26 * ratio);
    io.Fonts->TexGlyphPadding = 1 + int(std::ceil(bold_stem_gain * largest_bold_px));
    std::vector<std::pair<ImFont*, float>> bold_fonts;
    auto add = [&](float size, bool bold, const ImWchar* ranges = glyph_ranges) -> ImFont* {
        const float px = std::round(size * ratio);
        ImFontConfig cfg;
        cfg.FontDataOwnedByAtlas = false;
        cfg.OversampleH = 1;  // glyphs land on whole pixels: crisp, and a smaller, faster atlas
        cfg.PixelSnapH = true;
        cfg.OversampleV = 1;
        if (bold) cfg.GlyphExtraSpacing.x = std::round(bold_advance_gain * px);
        ImFont* font = io.Fonts->AddFontFromMemoryTTF(font_regular.data(), int(font_regular.size()), px, &cfg, ranges);
        if (bold) bold_fonts.emplace_back(font, bold_stem_gain * px);
        return font;
    };
    the_fonts.body = add(15, false);
    the_fonts.small = add(13, false);
    the_fonts.bold = add(15, true);
    the_fonts.title = add(18, true, title_ranges);
    the_fonts.big = add(26, true, big_ranges);
    io.FontDefault = the_fonts.body;
    io.FontGlobalScale = 1.0f / ratio;
    io.Fonts->Build();
    for (auto& [font, px] : bold_fonts) embolden(*io.Fonts, *font, px);
}

void begin_card(const char* id, float width, ImU32 background) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    CardState& st = card_stack.emplace_back();
    st.splitter.Split(dl, 2);
    st.splitter.SetCurrentChannel(dl, 1);
    st.start = ImGui::GetCursorScreenPos();
    st.width = width > 0 ? width : ImGui::GetContentRegionAvail().x;
    st.background = background ? background : palette().card;
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(18, 16));
    ImGui::BeginTable(id, 1, ImGuiTableFlags_PadOuterX | ImGuiTableFlags_NoSavedSettings, ImVec2(st.width, 0));
    ImGui::PopStyleVar();
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
}

void end_card() {
    ImGui::EndTable();
    CardState& st = card_stack.back();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 end(st.start.x + st.width, ImGui::GetItemRectMax().y);
    st.splitter.SetCurrentChannel(dl, 0);
    dl->AddRectFilled(st.start, end, st.background, 12.0f);
    dl->AddRect(st.start, end, palette().card_border, 12.0f, 0, 1.0f);
    st.splitter.Merge(dl);
    card_stack.pop_back();
}

void section_title(const char* text, const char* hint, const char* dom_id) {
    ImGui::PushFont(fonts().title);
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
    dom::Control h{dom_id ? dom_id : std::string("title:") + text, dom::Role::heading, text};
    if (hint) h.description = hint;
    dom::add(std::move(h));
    if (hint) title_hint(hint, -1, 3);
}

void title_hint(const char* hint, float spacing, float drop) {
    ImGui::SameLine(0, spacing);
    ImGui::PushFont(fonts().small);
    ImGui::SetCursorPosY(ImGui::GetCursorPosY() + drop);
    ImGui::PushStyleColor(ImGuiCol_Text, palette().text_faint);
    ImGui::TextUnformatted(hint);
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

void help_tooltip(const char* title, const char* body) {
    if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26);
    if (title && *title) {
        ImGui::PushFont(fonts().bold);
        ImGui::TextUnformatted(title);
        ImGui::PopFont();
    }
    if (body && *body) {
        ImGui::PushStyleColor(ImGuiCol_Text, palette().text_dim);
        ImGui::TextUnformatted(body);
        ImGui::PopStyleColor();
    }
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

bool dom_button(bool pressed, const std::string& id, const std::string& name, const std::string& description,
                bool focusable) {
    dom::Control c{id, dom::Role::button, name, description};
    c.focusable = focusable;
    dom::add(std::move(c));
    return dom::activated(id) || pressed;
}

bool segmented(const char* id, const char* const* labels, int count, int* selected, const char* group,
               const char* shortcut) {
    bool changed = false;
    const Palette& pal = palette();
    ImGui::PushID(id);
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(2, 0));
    // On touch screens 44 px tall whatever the font (the memory bar's view is in the small font).
    const float pad_y = coarse_pointer ? std::max(ImGui::GetStyle().FramePadding.y, (44.0f - ImGui::GetFontSize()) * 0.5f)
                                       : ImGui::GetStyle().FramePadding.y - 1.0f;
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(10, pad_y));
    for (int i = 0; i < count; ++i) {
        bool on = *selected == i;
        if (i) ImGui::SameLine();
        ImGui::PushStyleColor(ImGuiCol_Button, on ? pal.accent : ImGui::GetColorU32(ImGuiCol_FrameBg));
        ImGui::PushStyleColor(ImGuiCol_ButtonHovered, on ? pal.accent : ImGui::GetColorU32(ImGuiCol_FrameBgHovered));
        ImGui::PushStyleColor(ImGuiCol_Text, on ? pal.on_accent : pal.text_dim);
        std::string dom_id = std::string(id) + ":" + labels[i];
        bool pressed = ImGui::Button(labels[i]);
        dom::Control c{dom_id, dom::Role::button, labels[i], group ? group : ""};
        c.pressed = on;
        if (shortcut && !on && count == 2) c.shortcut = shortcut;
        dom::add(std::move(c));
        if ((pressed || dom::activated(dom_id)) && !on) {
            *selected = i;
            changed = true;
        }
        record_item(dom_id);
        ImGui::PopStyleColor(3);
    }
    ImGui::PopStyleVar(2);
    ImGui::PopID();
    return changed;
}

bool pill_button(const char* label, bool primary, const char* dom_id, const char* description, const char* name) {
    const Palette& pal = palette();
    if (primary) {
        ImGui::PushStyleColor(ImGuiCol_Button, pal.accent);
        ImGui::PushStyleColor(ImGuiCol_ButtonHovered, pal.accent_hover);
        ImGui::PushStyleColor(ImGuiCol_ButtonActive, pal.accent_active);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.on_accent);
    }
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(12, ImGui::GetStyle().FramePadding.y));
    bool pressed = ImGui::Button(label);
    ImGui::PopStyleVar();
    if (primary) ImGui::PopStyleColor(4);
    return dom_button(pressed, dom_id ? dom_id : label, name ? name : label, description ? description : "");
}

int select_box(const char* id, const char* name, const std::vector<std::string>& options, int current, float width,
               const char* description) {
    const Palette& pal = palette();
    int chosen = -1;
    if (auto v = dom::committed(id)) {
        int i = std::atoi(v->c_str());
        if (i >= 0 && i < int(options.size()) && i != current) chosen = i;
    }
    ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetFrameHeight();
    ImGui::PushID(id);
    if (ImGui::InvisibleButton("##select", ImVec2(width, h))) dom::request_focus(id);
    ImGui::PopID();
    bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + width, p.y + h), ImGui::GetColorU32(hovered ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg),
                      ImGui::GetStyle().FrameRounding);
    const char* text = current >= 0 && current < int(options.size()) ? options[current].c_str() : "";
    dl->PushClipRect(p, ImVec2(p.x + width - 24, p.y + h), true);
    dl->AddText(ImVec2(p.x + ImGui::GetStyle().FramePadding.x, p.y + (h - ImGui::GetFontSize()) * 0.5f), pal.text, text);
    dl->PopClipRect();
    dl->AddText(ImVec2(p.x + width - 20, p.y + (h - ImGui::GetFontSize()) * 0.5f), pal.text_dim, "\xE2\x96\xBE");
    record_item(id);
    dom::Control c{id, dom::Role::select, name, description ? description : ""};
    c.options = options;
    c.selected = current;
    dom::add(std::move(c));
    return chosen;
}

std::string wrap_at_spaces(std::string_view text, float width) {
    std::string out, line;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find_first_of(" \n", start);
        if (end == std::string_view::npos) end = text.size();
        const std::string word(text.substr(start, end - start));
        const std::string wider = line.empty() ? word : line + " " + word;
        if (!line.empty() && ImGui::CalcTextSize(wider.c_str()).x > width) {
            out += line + "\n";
            line = word;
        } else {
            line = wider;
        }
        if (end < text.size() && text[end] == '\n') {
            out += line + "\n";
            line.clear();
        }
        start = end + 1;
    }
    return out + line;
}

void text_dim(const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().text_dim);
    ImGui::TextUnformatted(text);
    ImGui::PopStyleColor();
}

void text_right(const char* text, float column_right) {
    float w = ImGui::CalcTextSize(text).x;
    float x = column_right - w;
    if (x > ImGui::GetCursorScreenPos().x) ImGui::SetCursorScreenPos(ImVec2(x, ImGui::GetCursorScreenPos().y));
    ImGui::TextUnformatted(text);
}

void wrapped_coloured(ImU32 colour, const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextWrapped("%s", text);
    ImGui::PopStyleColor();
}

void stacked_bar(const char* id, const std::vector<BarSegment>& segments, double capacity,
                 const std::string& capacity_text, float height) {
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGui::PushFont(fonts().small);
    const float label_h = ImGui::GetFontSize() + 6;
    ImGui::PopFont();
    ImVec2 p = ImGui::GetCursorScreenPos();
    float w = std::max(ImGui::GetContentRegionAvail().x, 40.0f);
    double total = 0;
    for (const auto& s : segments) total += std::max(0.0, s.value);
    double scale = std::max(total, capacity);
    if (!(scale > 0)) scale = 1;
    // Leave room on the right for the overflow to read as "past the line".
    if (total > capacity) scale *= 1.0;
    ImVec2 track_min(p.x, p.y + label_h), track_max(p.x + w, p.y + label_h + height);
    const float rounding = std::min(8.0f, height * 0.5f);
    dl->AddRectFilled(track_min, track_max, with_alpha(pal.ink, 14), rounding);
    // Segments.
    int last = -1, first = -1;
    for (int i = 0; i < int(segments.size()); ++i)
        if (segments[i].value > 0) {
            if (first < 0) first = i;
            last = i;
        }
    float x = track_min.x;
    std::vector<std::pair<float, float>> spans(segments.size(), {0.f, 0.f});
    for (int i = 0; i < int(segments.size()); ++i) {
        const auto& s = segments[i];
        if (!(s.value > 0)) continue;
        float sw = float(s.value / scale * w);
        float x1 = (i == last) ? track_min.x + float(total / scale * w) : x + sw;
        ImDrawFlags flags = ImDrawFlags_RoundCornersNone;
        if (i == first && i == last) flags = ImDrawFlags_RoundCornersAll;
        else if (i == first) flags = ImDrawFlags_RoundCornersLeft;
        else if (i == last) flags = ImDrawFlags_RoundCornersRight;
        dl->AddRectFilled(ImVec2(x, track_min.y), ImVec2(x1, track_max.y), s.colour, rounding, flags);
        if (i != first) dl->AddLine(ImVec2(x, track_min.y), ImVec2(x, track_max.y), with_alpha(pal.backdrop, 200), 1.5f);
        spans[i] = {x, x1};
        x = x1;
    }
    // Beyond capacity: hatched in red, drawn by our own shader inside the ImGui frame.
    float cap_x = track_min.x + float(capacity / scale * w);
    if (total > capacity && capacity > 0) {
        gfx::HatchStyle hatch{{1.0f, 0.42f, 0.42f, 0.85f}, {0.35f, 0.06f, 0.08f, 0.55f}, 9.0f, rounding};
        gfx::add_hatch_rect(dl, ImVec2(cap_x, track_min.y), ImVec2(x, track_max.y), hatch);
    }
    // Capacity line and label.
    if (capacity > 0) {
        ImU32 line = total > capacity ? pal.bad : pal.text;
        dl->AddLine(ImVec2(cap_x, track_min.y - 4), ImVec2(cap_x, track_max.y + 4), line, 2.0f);
        ImGui::PushFont(fonts().small);
        ImVec2 ts = ImGui::CalcTextSize(capacity_text.c_str());
        float lx = std::clamp(cap_x - ts.x * 0.5f, p.x, p.x + w - ts.x);
        dl->AddText(ImVec2(lx, p.y), pal.text_dim, capacity_text.c_str());
        ImGui::PopFont();
    }
    ImGui::SetCursorScreenPos(track_min);
    ImGui::InvisibleButton(id, ImVec2(w, height));
    if (ImGui::IsItemHovered()) {
        float mx = ImGui::GetIO().MousePos.x;
        for (int i = 0; i < int(segments.size()); ++i) {
            if (segments[i].value > 0 && mx >= spans[i].first && mx < spans[i].second) {
                ImGui::BeginTooltip();
                ImGui::PushFont(fonts().bold);
                ImGui::TextUnformatted(segments[i].label);
                ImGui::PopFont();
                ImGui::Text("%s  ·  %.1f %% of the total", segments[i].value_text.c_str(),
                            total > 0 ? segments[i].value / total * 100 : 0.0);
                ImGui::EndTooltip();
            }
        }
    }
    ImGui::SetCursorScreenPos(ImVec2(p.x, track_max.y + 10));
    ImGui::Dummy(ImVec2(w, 0));
}

void legend(const std::vector<BarSegment>& segments, double total) {
    const Palette& pal = palette();
    ImGui::PushFont(fonts().small);
    float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    bool first = true;
    for (const auto& s : segments) {
        if (!(s.value > 0)) continue;
        std::string share = total > 0 ? format_percent(s.value / total) : "";
        const char* pct = share.c_str();
        std::string text = std::string(s.label) + "  " + s.value_text;
        float item_w = 14 + ImGui::CalcTextSize(text.c_str()).x + 8 + ImGui::CalcTextSize(pct).x;
        if (!first) {
            ImGui::SameLine(0, 18);
            if (ImGui::GetCursorScreenPos().x + item_w > right) ImGui::NewLine();
        }
        first = false;
        ImVec2 p = ImGui::GetCursorScreenPos();
        float fh = ImGui::GetFontSize();
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + fh * 0.2f), ImVec2(p.x + 10, p.y + fh * 0.2f + 10),
                                                  s.colour, 3);
        ImGui::SetCursorScreenPos(ImVec2(p.x + 14, p.y));
        ImGui::TextUnformatted(text.c_str());
        ImGui::SameLine(0, 8);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
        ImGui::TextUnformatted(pct);
        ImGui::PopStyleColor();
    }
    ImGui::PopFont();
}

}  // namespace vramcalc::app

namespace vramcalc::app {

void record_item(const std::string& name) {
    ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    // Visible = fully inside the window's clip rectangle (so a click lands on it).
    ImRect clip = ImGui::GetCurrentWindow()->ClipRect;
    bool visible = ImGui::IsItemVisible() && a.y >= clip.Min.y && b.y <= clip.Max.y;
    item_rects[name] = {a, b, visible};
}

void record_rect(const std::string& name, ImVec2 min, ImVec2 max) { item_rects[name] = {min, max, true}; }

void clear_item_rects() { item_rects.clear(); }

std::string item_rect_json(const std::string& name) {
    auto it = item_rects.find(name);
    if (it == item_rects.end()) return "null";
    char buf[160];
    const ItemRect& r = it->second;
    std::snprintf(buf, sizeof buf, "{\"x\":%.1f,\"y\":%.1f,\"w\":%.1f,\"h\":%.1f,\"visible\":%s}", r.min.x, r.min.y,
                  r.max.x - r.min.x, r.max.y - r.min.y, r.visible ? "true" : "false");
    return buf;
}

}  // namespace vramcalc::app
