// The page's title bars: the header (logo, name, tagline, units, theme, keyboard help, Copy link)
// and the embed's title (what it computes, units, "Open in vramcalc").
#include <algorithm>
#include <cmath>
#include <string>

#include "app.hpp"
#include "core/fields.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "web.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

void draw_logo(ImVec2 p, float size) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    dl->AddRectFilled(p, ImVec2(p.x + size, p.y + size), pal.logo, size * 0.28f);
    // Three stacked bars: the logo is the product's own chart.
    float pad = size * 0.2f, bh = (size - 2 * pad) / 3.4f;
    float widths[3] = {0.55f, 0.85f, 0.7f};
    ImU32 cols[3] = {pal.terms[0], pal.terms[2], pal.terms[3]};
    for (int i = 0; i < 3; ++i) {
        float y = p.y + pad + i * bh * 1.2f;
        dl->AddRectFilled(ImVec2(p.x + pad, y), ImVec2(p.x + pad + (size - 2 * pad) * widths[i], y + bh), cols[i],
                          bh * 0.4f);
    }
}

// The units toggle (GiB | GB) of the header and the embed.
void units_toggle(App& app, bool with_caption) {
    static const char* unit_labels[] = {"GiB", "GB"};
    if (with_caption) {
        ImGui::AlignTextToFramePadding();
        text_dim("Units");
        ImGui::SameLine();
    }
    int unit = app.units == ByteUnits::gib ? 0 : 1;
    if (segmented("units", unit_labels, 2, &unit,
                  "Memory units: GiB = 2^30 bytes (as nvidia-smi and PyTorch report), GB = 10^9 bytes (datasheets)",
                  shortcut_for("units"))) {
        app.view.units = unit == 0 ? codec::ViewUnits::gib : codec::ViewUnits::gb;
        app.view_changed();
    }
    help_tooltip("Memory units", "GiB = 2\xC2\xB3\xE2\x81\xB0 bytes (what nvidia-smi and PyTorch report). GB = 10\xE2\x81\xB9 bytes (datasheets).");
}

float units_toggle_width(bool with_caption) {
    const float pad = ImGui::GetStyle().FramePadding.x;
    return ImGui::CalcTextSize("GiB").x + ImGui::CalcTextSize("GB").x + 4 * 10 + 2 +
           (with_caption ? ImGui::CalcTextSize("Units").x + ImGui::GetStyle().ItemSpacing.x : 0) + (pad - 9) * 2;
}

// Sun / moon: switches to the other theme (kept in the link as theme=light|dark).
bool theme_button(App& app, float size) {
    const Palette& pal = palette();
    ImVec2 p = ImGui::GetCursorScreenPos();
    bool pressed = ImGui::InvisibleButton("##theme", ImVec2(size, size));
    bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + size, p.y + size),
                      ImGui::GetColorU32(hovered ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg), 6);
    ImVec2 c(p.x + size * 0.5f, p.y + size * 0.5f);
    if (app.light) {  // a moon: what pressing gives
        dl->AddCircleFilled(c, size * 0.24f, pal.text_dim, 24);
        dl->AddCircleFilled(ImVec2(c.x + size * 0.11f, c.y - size * 0.08f), size * 0.2f,
                            ImGui::GetColorU32(hovered ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg), 24);
    } else {  // a sun
        dl->AddCircleFilled(c, size * 0.15f, pal.text_dim, 20);
        for (int i = 0; i < 8; ++i) {
            float a = float(i) * 3.14159265f / 4;
            ImVec2 d(std::cos(a), std::sin(a));
            dl->AddLine(ImVec2(c.x + d.x * size * 0.23f, c.y + d.y * size * 0.23f),
                        ImVec2(c.x + d.x * size * 0.32f, c.y + d.y * size * 0.32f), pal.text_dim, 1.6f);
        }
    }
    record_item("theme");
    dom::Control b{"theme", dom::Role::button, app.light ? "Dark theme" : "Light theme",
                   "Switches the colour theme; the choice is kept in the link (theme=light or dark)."};
    b.shortcut = shortcut_for("theme");
    dom::add(std::move(b));
    help_tooltip(app.light ? "Dark theme" : "Light theme", "The choice is kept in the link.");
    if (pressed || dom::activated("theme")) {
        app.view.theme = app.light ? codec::ViewTheme::dark : codec::ViewTheme::light;
        app.view_changed();
        return true;
    }
    return false;
}

void copy_link_button(App& app, float width) {
    const Palette& pal = palette();
    const char* copy_label = ImGui::GetTime() < app.copied_until ? "Copied \xE2\x9C\x93" : "Copy link";
    ImGui::PushStyleVar(ImGuiStyleVar_ButtonTextAlign, ImVec2(0.5f, 0.5f));
    ImGui::PushStyleColor(ImGuiCol_Button, pal.accent);
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, pal.accent_hover);
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, pal.accent_active);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.on_accent);
    bool pressed = ImGui::Button(copy_label, ImVec2(width, 0));
    ImGui::PopStyleColor(4);
    ImGui::PopStyleVar();
    record_item("copy_link");
    dom::Control b{"copy_link", dom::Role::button, copy_label,
                   "Copies a link that opens this exact scenario (it lives in the part of the URL after #)."};
    b.shortcut = shortcut_for("copy_link");
    dom::add(std::move(b));
    if (pressed || dom::activated("copy_link")) {
        web::copy_to_clipboard(web::page_url_with_hash(app.hash_for(app.link), false));
        app.copied_until = ImGui::GetTime() + 1.6;
    }
    help_tooltip("Copy link", "Copies a link that opens this exact scenario (it lives in the part of the URL after #).");
}

}  // namespace

// Header: logo, name, tagline (when it fits), then right-aligned: units, theme, keyboard help,
// Copy link. Every width from 320 px up lays out without overlap: what does not fit is dropped in
// this order (tagline, "Units" caption, help button, the name beside the logo) before anything could touch.
void draw_header(App& app, float width) {
    const Palette& pal = palette();
    ImVec2 start = ImGui::GetCursorScreenPos();
    const float logo = 30;
    const float h = ImGui::GetFrameHeight();
    const float gap = 8;
    const float copy_w = ImGui::CalcTextSize("Copied \xE2\x9C\x93").x + 24;
    const float theme_w = h, help_w = h;
    ImGui::PushFont(fonts().title);
    const float name_w = ImGui::CalcTextSize("vramcalc").x;
    ImGui::PopFont();
    const char* tagline = "GPU memory and compute for training transformers";
    const float tagline_w = ImGui::CalcTextSize(tagline).x;
    const float left_w = logo + 12 + name_w;
    auto right_w = [&](bool caption, bool help) {
        return units_toggle_width(caption) + gap + theme_w + (help ? gap + help_w : 0) + gap + copy_w;
    };
    const bool show_help = left_w + 16 + right_w(false, true) <= width;
    const bool show_caption = left_w + 16 + right_w(true, show_help) <= width;
    const bool show_tagline = left_w + 12 + tagline_w + 24 + right_w(show_caption, show_help) <= width;
    const bool show_name = left_w + 16 + right_w(false, show_help) <= width;  // else the logo alone (phones)

    draw_logo(ImVec2(start.x, start.y + (h - logo) * 0.5f), logo);
    ImGui::SetCursorScreenPos(ImVec2(start.x + logo + 12, start.y + (h - ImGui::GetFontSize() * 1.2f) * 0.5f));
    ImGui::PushFont(fonts().title);
    ImGui::TextUnformatted(show_name ? "vramcalc" : "");
    ImGui::PopFont();
    record_item("header_name");
    dom::add({"header_name", dom::Role::heading, "vramcalc: " + std::string(tagline)}).level = 2;
    if (show_tagline) {
        ImGui::SameLine(0, 12);
        ImGui::SetCursorPosY(ImGui::GetCursorPosY() + 2);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
        ImGui::TextUnformatted(tagline);
        ImGui::PopStyleColor();
        record_item("header_tagline");
    }

    float x = start.x + width - right_w(show_caption, show_help);
    ImGui::SetCursorScreenPos(ImVec2(x, start.y));
    units_toggle(app, show_caption);
    ImGui::SameLine(0, gap);
    theme_button(app, theme_w);
    if (show_help) {
        ImGui::SameLine(0, gap);
        bool pressed = ImGui::Button("?", ImVec2(help_w, h));
        record_item("keyboard_help");
        dom::Control b{"keyboard_help", dom::Role::button, "Keyboard shortcuts", "Shows or hides the list of keys."};
        b.expanded = app.keyboard_help_open;
        b.shortcut = shortcut_for("keyboard_help");
        dom::add(std::move(b));
        if (pressed || dom::activated("keyboard_help")) app.keyboard_help_open = !app.keyboard_help_open;
        help_tooltip("Keyboard shortcuts", "Tab moves through every control; press ? for the list.");
    } else if (dom::activated("keyboard_help")) {
        app.keyboard_help_open = !app.keyboard_help_open;
    }
    ImGui::SameLine(0, gap);
    ImGui::SetCursorScreenPos(ImVec2(start.x + width - copy_w, start.y));
    copy_link_button(app, copy_w);
    ImGui::SetCursorScreenPos(ImVec2(start.x, start.y + std::max(logo, h) + 14));
}

void draw_embed_title(App& app, float content_w) {
    ImGui::AlignTextToFramePadding();
    ImGui::PushFont(fonts().bold);
    const std::string title = embed_title(app.scenario, true);
    const char* open_label = "Open in vramcalc \xE2\x86\x97";
    float bw = ImGui::CalcTextSize(open_label).x + 24;
    float seg_w = units_toggle_width(false);
    // Where the whole title does not fit beside the buttons, the setup goes to the verdict's line.
    app.embed_setup_in_verdict = content_w <= bw + seg_w + 8 + ImGui::CalcTextSize(title.c_str()).x + 16;
    const std::string shown = app.embed_setup_in_verdict ? embed_title(app.scenario, false) : title;
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(shown.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    dom::add({"embed_title", dom::Role::heading, title}).level = 2;
    if (content_w > bw + seg_w + 8 + ImGui::CalcTextSize(shown.c_str()).x + 16)
        ImGui::SameLine(content_w - bw - seg_w - 8 + ImGui::GetStyle().WindowPadding.x);
    units_toggle(app, false);
    ImGui::SameLine(0, 8);
    if (pill_button(open_label, true, "open_full",
                    "Opens this scenario in the full calculator in a new tab, where every input can be changed."))
        web::open_in_new_tab(web::page_url_with_hash(app.hash_for(codec::encode_link(app.scenario)), true));
    record_item("open_full");
    help_tooltip("Open the full calculator", "Opens this scenario in the full calculator in a new tab, where every input can be changed.");
    ImGui::Dummy(ImVec2(0, 2));
}

}  // namespace vramcalc::app
