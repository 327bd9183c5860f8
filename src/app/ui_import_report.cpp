// The import report: what the last import (paste, drop, file picker, Hugging Face fetch) set, or
// why it imported nothing; a card over the page's bottom right that pushes nothing down.
#include <algorithm>
#include <string>
#include <vector>

#include "app.hpp"
#include "core/outputs.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "widgets.hpp"

namespace vramcalc::app {

void draw_import_report(App& app, float width, float height) {
    ImportReport& r = app.import_report;
    if (!r.open) return;
    const Palette& pal = palette();
    const bool failed = !r.issues.empty();
    const float w = std::min(460.0f, width - 24);
    ImGui::SetNextWindowPos(ImVec2(width - 12, height - 12), ImGuiCond_Always, ImVec2(1, 1));
    ImGui::SetNextWindowSize(ImVec2(w, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
    ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(0, 0, 0, 0));
    ImGui::Begin("##import_toast", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                     ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove);
    begin_card("import_report", w, failed ? pal.bad_card : pal.note_card);
    std::string title = r.busy ? "Fetching " + r.source + " from Hugging Face\xE2\x80\xA6"
                        : failed ? "Could not import " + r.source
                                 : "Imported " + (r.kind.empty() ? std::string("a config") : "a " + r.kind) +
                                       (r.source.empty() ? "" : " from " + r.source);
    ImGui::PushFont(fonts().bold);
    ImGui::PushStyleColor(ImGuiCol_Text, failed ? pal.bad : pal.accent);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(title.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::PopFont();
    record_item("import_report");
    std::string text;
    auto line = [&](const std::string& l) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(("\xE2\x80\xA2 " + l).c_str());
        ImGui::PopTextWrapPos();
        text += l + " ";
    };
    int shown = 0;
    for (const auto& i : r.issues)
        if (++shown <= 8) line(i.field == "import" ? i.message : i.field + ": " + i.message);
    for (const auto& l : r.lines)
        if (++shown <= 10) line(l);
    dom::Control c{"import_report", failed ? dom::Role::alert : dom::Role::text, title};
    c.description = text;
    if (!failed) c.label = title + ". " + text;
    dom::add(std::move(c));
    if (!r.busy && pill_button("OK", false, "dismiss_import", "Hides this report")) r.open = false;
    end_card();
    ImGui::End();
    ImGui::PopStyleColor();
    ImGui::PopStyleVar(2);
}

}  // namespace vramcalc::app
