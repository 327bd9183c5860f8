// The message cards: the estimate's warnings, "Also changed:" after a preset or a link, and the
// inputs that need attention.
#include <algorithm>
#include <string>
#include <vector>

#include "app.hpp"
#include "core/outputs.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "widgets.hpp"

namespace vramcalc::app {

void draw_warnings(App& app) {
    const Estimate& e = app.evaluation.estimate;
    if (e.warnings.count == 0) return;
    const Palette& pal = palette();
    begin_card("warnings", 0, pal.warn_card);
    ImGui::PushFont(fonts().bold);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.warn);
    std::string title = format_grouped(e.warnings.count) + " note" + (e.warnings.count == 1 ? "" : "s") + " on this setup";
    ImGui::TextUnformatted(("\xE2\x9A\xA0  " + title).c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    record_item("warnings");
    const ImVec2 start = ImGui::GetItemRectMin();
    dom::Control t{"warnings", dom::Role::table, title};
    for (int i = 0; i < e.warnings.count; ++i) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted((std::string("\xE2\x80\xA2 ") + warning_message(e.warnings.items[i])).c_str());
        ImGui::PopTextWrapPos();
        t.rows.push_back({format_grouped(i + 1), warning_message(e.warnings.items[i]), ""});
    }
    record_item("warnings_end");
    dom::add_at(std::move(t), start, ImGui::GetItemRectMax());
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

void draw_notes(App& app) {
    if (app.notes.empty()) return;
    const Palette& pal = palette();
    begin_card("notes", 0, pal.note_card);
    ImGui::PushFont(fonts().bold);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
    ImGui::TextUnformatted("Also changed:");
    ImGui::PopStyleColor();
    ImGui::PopFont();
    std::string text = "Also changed:";
    for (const auto& n : app.notes) {
        const FieldSpec* f = find_field_by_path(n.field);
        std::string line = (f ? std::string(f->label) : n.field) + " " + n.message;
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(("\xE2\x80\xA2 " + line).c_str());
        ImGui::PopTextWrapPos();
        text += " " + line + ".";
    }
    dom::add({"notes", dom::Role::text, text});
    if (pill_button("OK", false, "dismiss_notes", "Hides this note")) app.notes.clear();
    record_item("dismiss_notes");
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

void draw_errors(App& app) {
    const Palette& pal = palette();
    begin_card("errors", 0, pal.bad_card);
    const std::size_t n = app.evaluation.errors.size();
    std::string title = format_grouped(double(n)) + " input" + (n == 1 ? "" : "s") + " need" + (n == 1 ? "s" : "") + " attention";
    ImGui::PushFont(fonts().title);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.bad);
    ImGui::TextUnformatted(title.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    text_dim("The results update as soon as every input is valid:");
    std::string text;
    for (const auto& err : app.evaluation.errors) {
        const FieldSpec* f = find_field_by_path(err.field);
        std::string line = (f ? std::string(f->label) : err.field) + " " + err.message;
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(("\xE2\x80\xA2 " + line).c_str());
        ImGui::PopTextWrapPos();
        text += line + ". ";
    }
    dom::Control c{"errors", dom::Role::alert, title};
    c.description = text;
    dom::add(std::move(c));
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

}  // namespace vramcalc::app
