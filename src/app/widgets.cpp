#include "widgets.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>

#include "format/format.hpp"
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

const Palette the_palette = {
    rgb(0xE7EAF2),       // text
    rgb(0x9BA5BA),       // text_dim
    rgb(0x6B7690),       // text_faint
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
};

Fonts the_fonts;
std::vector<unsigned char> font_regular, font_bold;
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

}  // namespace

const Palette& palette() { return the_palette; }
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
    ImVec4* c = s.Colors;
    c[ImGuiCol_Text] = vec(0xE7EAF2);
    c[ImGuiCol_TextDisabled] = vec(0x8690A5);
    c[ImGuiCol_WindowBg] = vec(0x000000, 0.0f);
    c[ImGuiCol_ChildBg] = vec(0x000000, 0.0f);
    c[ImGuiCol_PopupBg] = vec(0x1A2235, 1.0f);
    c[ImGuiCol_Border] = vec(0x2C3854);
    c[ImGuiCol_BorderShadow] = vec(0x000000, 0.0f);
    c[ImGuiCol_FrameBg] = vec(0x0E1422);
    c[ImGuiCol_FrameBgHovered] = vec(0x14203A);
    c[ImGuiCol_FrameBgActive] = vec(0x182846);
    c[ImGuiCol_TitleBg] = vec(0x111827);
    c[ImGuiCol_TitleBgActive] = vec(0x111827);
    c[ImGuiCol_TitleBgCollapsed] = vec(0x111827);
    c[ImGuiCol_MenuBarBg] = vec(0x111827);
    c[ImGuiCol_ScrollbarBg] = vec(0x000000, 0.0f);
    c[ImGuiCol_ScrollbarGrab] = vec(0x2C3854);
    c[ImGuiCol_ScrollbarGrabHovered] = vec(0x3A4868);
    c[ImGuiCol_ScrollbarGrabActive] = vec(0x4A5A80);
    c[ImGuiCol_CheckMark] = vec(0x6EA8FE);
    c[ImGuiCol_SliderGrab] = vec(0x6EA8FE);
    c[ImGuiCol_SliderGrabActive] = vec(0x8DBBFF);
    c[ImGuiCol_Button] = vec(0x243049);
    c[ImGuiCol_ButtonHovered] = vec(0x2E3C5C);
    c[ImGuiCol_ButtonActive] = vec(0x38496F);
    c[ImGuiCol_Header] = vec(0x223050);
    c[ImGuiCol_HeaderHovered] = vec(0x283859);
    c[ImGuiCol_HeaderActive] = vec(0x2F4166);
    c[ImGuiCol_Separator] = vec(0x26314B);
    c[ImGuiCol_SeparatorHovered] = vec(0x3A4868);
    c[ImGuiCol_SeparatorActive] = vec(0x6EA8FE);
    c[ImGuiCol_ResizeGrip] = vec(0x000000, 0.0f);
    c[ImGuiCol_ResizeGripHovered] = vec(0x000000, 0.0f);
    c[ImGuiCol_ResizeGripActive] = vec(0x000000, 0.0f);
    c[ImGuiCol_TableHeaderBg] = vec(0x1A2338);
    c[ImGuiCol_TableBorderStrong] = vec(0x26314B);
    c[ImGuiCol_TableBorderLight] = vec(0x212B42);
    c[ImGuiCol_TableRowBg] = vec(0x000000, 0.0f);
    c[ImGuiCol_TableRowBgAlt] = vec(0xFFFFFF, 0.025f);
    c[ImGuiCol_TextSelectedBg] = vec(0x6EA8FE, 0.35f);
    c[ImGuiCol_NavHighlight] = vec(0x8DBBFF);
    c[ImGuiCol_NavWindowingHighlight] = vec(0xFFFFFF, 0.7f);
    c[ImGuiCol_NavWindowingDimBg] = vec(0x000000, 0.4f);
    c[ImGuiCol_ModalWindowDimBg] = vec(0x000000, 0.45f);
}

void build_fonts(float ratio) {
    ImGuiIO& io = ImGui::GetIO();
    if (!font_bytes_loaded) {
        font_regular = web::font_bytes(0);
        font_bold = web::font_bytes(1);
        font_bytes_loaded = true;
    }
    io.Fonts->Clear();
    auto add = [&](std::vector<unsigned char>& bytes, float size, const ImWchar* ranges = glyph_ranges) -> ImFont* {
        if (bytes.empty()) {
            ImFontConfig cfg;
            cfg.SizePixels = 13.0f * ratio;
            return io.Fonts->AddFontDefault(&cfg);
        }
        ImFontConfig cfg;
        cfg.FontDataOwnedByAtlas = false;
        cfg.OversampleH = 1;  // glyphs land on whole pixels: crisp, and a smaller, faster atlas
        cfg.PixelSnapH = true;
        cfg.OversampleV = 1;
        return io.Fonts->AddFontFromMemoryTTF(bytes.data(), int(bytes.size()), std::round(size * ratio), &cfg,
                                              ranges);
    };
    the_fonts.body = add(font_regular, 15);
    the_fonts.small = add(font_regular, 13);
    the_fonts.bold = add(font_bold.empty() ? font_regular : font_bold, 15);
    the_fonts.title = add(font_bold.empty() ? font_regular : font_bold, 18, title_ranges);
    the_fonts.big = add(font_bold.empty() ? font_regular : font_bold, 26, big_ranges);
    io.FontDefault = the_fonts.body;
    io.FontGlobalScale = 1.0f / ratio;
    io.Fonts->Build();
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

void section_title(const char* text, const char* hint) {
    ImGui::PushFont(fonts().title);
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
    if (hint) {
        ImGui::SameLine();
        ImGui::PushFont(fonts().small);
        ImGui::SetCursorPosY(ImGui::GetCursorPosY() + 3);
        ImGui::PushStyleColor(ImGuiCol_Text, palette().text_faint);
        ImGui::TextUnformatted(hint);
        ImGui::PopStyleColor();
        ImGui::PopFont();
    }
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

bool segmented(const char* id, const char* const* labels, int count, int* selected) {
    bool changed = false;
    ImGui::PushID(id);
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(2, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(10, 5));
    for (int i = 0; i < count; ++i) {
        bool on = *selected == i;
        if (i) ImGui::SameLine();
        ImGui::PushStyleColor(ImGuiCol_Button, on ? palette().accent : ImGui::GetColorU32(ImGuiCol_FrameBg));
        ImGui::PushStyleColor(ImGuiCol_ButtonHovered, on ? palette().accent : ImGui::GetColorU32(ImGuiCol_FrameBgHovered));
        ImGui::PushStyleColor(ImGuiCol_Text, on ? IM_COL32(10, 16, 30, 255) : palette().text_dim);
        if (ImGui::Button(labels[i]) && !on) {
            *selected = i;
            changed = true;
        }
        record_item(std::string(id) + ":" + labels[i]);
        ImGui::PopStyleColor(3);
    }
    ImGui::PopStyleVar(2);
    ImGui::PopID();
    return changed;
}

bool pill_button(const char* label, bool primary) {
    if (primary) {
        ImGui::PushStyleColor(ImGuiCol_Button, palette().accent);
        ImGui::PushStyleColor(ImGuiCol_ButtonHovered, IM_COL32(0x8D, 0xBB, 0xFF, 255));
        ImGui::PushStyleColor(ImGuiCol_ButtonActive, IM_COL32(0x5A, 0x94, 0xEE, 255));
        ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(10, 16, 30, 255));
    }
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(12, 6));
    bool pressed = ImGui::Button(label);
    ImGui::PopStyleVar();
    if (primary) ImGui::PopStyleColor(4);
    return pressed;
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
    dl->AddRectFilled(track_min, track_max, IM_COL32(255, 255, 255, 14), rounding);
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
        if (i != first) dl->AddLine(ImVec2(x, track_min.y), ImVec2(x, track_max.y), IM_COL32(10, 14, 24, 200), 1.5f);
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
