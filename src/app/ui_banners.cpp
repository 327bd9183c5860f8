// The page's banners and small cards: what was wrong with the link, the keyboard help, the
// "editing" hint, the last-valid-result notice, and the phone's sticky verdict.
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

// Keys of the fields themselves (documented with the shortcuts; handled by web/dom.js).
const char* const field_keys[][2] = {
    {"Tab, Shift+Tab", "Move through every control in reading order"},
    {"Enter, Space", "Press the focused button or toggle"},
    {"Enter", "Apply a typed value (a pause or leaving the field applies it too); pick the highlighted preset"},
    {"Escape", "Put back the value a field had before typing; close a picker"},
    {"\xE2\x86\x91, \xE2\x86\x93", "Step a number (Shift, Page Up, Page Down: ten steps); move in a picker's list"},
};

}  // namespace

void draw_link_banner(App& app) {
    if (!app.link_banner_open || app.link_issues.empty()) return;
    const Palette& pal = palette();
    begin_card("link_banner", 0, pal.warn_card);
    ImGui::PushFont(fonts().bold);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.warn);
    // As many problems as the JS API's list stands for (its last issue counts those not listed).
    // The DOM layer shows an alert as "label: description", so the label has no colon of its own.
    const std::size_t problems = app.link_problems;
    std::string summary = "This link had " + format_grouped(double(problems)) + " problem" +
                          (problems == 1 ? "" : "s") + ", so those values use the defaults";
    std::string title = "\xE2\x9A\xA0  " + summary + ":";
    ImGui::TextWrapped("%s", title.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    dom::Control alert{"link_banner", dom::Role::alert, summary};
    int shown = 0;
    for (const auto& issue : app.link_issues) {
        if (++shown > 8) {
            std::string more = "… and " + format_grouped(double(problems - 8)) + " more";
            text_dim(more.c_str());
            alert.description += more;
            break;
        }
        const FieldSpec* f = find_field_by_path(issue.field);
        std::string line = (f ? std::string(f->label) + " (" + issue.field + ")" : issue.field) + " " + issue.message;
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(("\xE2\x80\xA2 " + line).c_str());
        ImGui::PopTextWrapPos();
        alert.description += line + ". ";
    }
    dom::add_at(std::move(alert), ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    if (pill_button("Dismiss", false, "dismiss_banner", "Hides this message")) app.link_banner_open = false;
    record_item("dismiss_banner");
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

void draw_keyboard_help(App& app) {
    if (!app.keyboard_help_open) return;
    const Palette& pal = palette();
    begin_card("keyboard_help_card", 0, pal.note_card);
    section_title("Keyboard", nullptr, "keyboard_title");
    dom::Control table{"keyboard_table", dom::Role::table, "Keyboard shortcuts"};
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(6, 3));
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_NoSavedSettings)) {
        ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed, 110);
        ImGui::TableSetupColumn("does", ImGuiTableColumnFlags_WidthStretch);
        auto row = [&](const char* keys, const char* does) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushFont(fonts().bold);
            ImGui::TextUnformatted(keys);
            ImGui::PopFont();
            ImGui::TableNextColumn();
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(does);
            ImGui::PopTextWrapPos();
            table.rows.push_back({keys, does, ""});
        };
        for (const auto& s : shortcuts()) row(s.keys, s.does);
        for (const auto& k : field_keys) row(k[0], k[1]);
        ImGui::EndTable();
    }
    ImGui::PopStyleVar();
    dom::add(std::move(table));
    if (pill_button("Close", false, "close_keyboard_help", "Hides the keyboard help")) app.keyboard_help_open = false;
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

// The "editing" state: a typed value waits for Enter, a pause or leaving the field.
void draw_editing_hint(App& app) {
    if (!app.editing()) return;
    const Palette& pal = palette();
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
    ImGui::TextUnformatted("\xE2\x80\xA2 Editing: the results update when you press Enter or pause (Escape puts the value back)");
    record_item("editing_hint");
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

void draw_stale_banner(App& app) {
    if (app.evaluation.ok() || !app.has_valid) return;
    const Palette& pal = palette();
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.bad);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted("Showing the last valid result (dimmed) until the inputs marked in red are fixed.");
    record_item("stale_banner");
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

// Phones: once the verdict card has scrolled away, a bar pinned to the top keeps it in view
// (while a field far below is edited): "✓ Fits · 14.0 of 24.0 GiB · 9.9 GiB headroom". Takes no input.
void draw_sticky_verdict(App& app, float width) {
    const Palette& pal = palette();
    const bool ok = app.evaluation.ok();
    const Estimate& e = ok ? app.evaluation.estimate : app.valid_evaluation.estimate;
    std::string text, margin;
    if (!ok) {
        text = "\xE2\x9C\x95 Cannot estimate";
        margin = "fix the inputs marked in red";
    } else {
        text = std::string(e.fits ? "\xE2\x9C\x93 Fits" : "\xE2\x9C\x95 Does not fit");
        margin = format_bytes(e.memory_per_gpu_bytes.total, app.units) + " of " + format_bytes(e.capacity_bytes, app.units) +
                 "  \xC2\xB7  " + (e.fits ? format_bytes(e.headroom_bytes, app.units) + " headroom"
                                      : "short by " + format_bytes(-e.headroom_bytes, app.units));
    }
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(width, 0));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, with_alpha(pal.backdrop, 255));
    ImGui::PushStyleColor(ImGuiCol_Border, pal.card_border);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(12, 7));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 1.0f);
    ImGui::Begin("##sticky_verdict", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::PushFont(fonts().bold);
    ImGui::PushStyleColor(ImGuiCol_Text, ok && e.fits ? pal.good : pal.bad);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    ImGui::SameLine(0, 10);
    const bool one_line = ImGui::CalcTextSize(margin.c_str()).x <= ImGui::GetContentRegionAvail().x;
    if (!one_line) ImGui::NewLine();
    text_dim(margin.c_str());
    if (app.editing()) {
        ImGui::PushFont(fonts().small);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
        ImGui::TextUnformatted("Editing: Enter or a pause applies, Escape puts the value back");
        ImGui::PopStyleColor();
        ImGui::PopFont();
    }
    const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    record_rect("sticky_verdict", at, ImVec2(at.x + size.x, at.y + size.y));
    ImGui::End();
    ImGui::PopStyleVar(2);
    ImGui::PopStyleColor(2);
}

}  // namespace vramcalc::app
