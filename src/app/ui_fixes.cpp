// "Does not fit": the smallest single changes that make it fit (core/fixes.hpp), under the
// verdict, each with the memory it gives and one click to apply it, and a pointer to the Plan
// panel. Recomputed when the scenario changes (a few dozen estimates at most), not every frame.
#include <string>
#include <vector>

#include "app.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "ui_charts.hpp"
#include "ui_plan.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

FixesState& st() { return the_app().panels.fixes; }

}  // namespace

const std::vector<Fix>& fixes_for(const App& app) {
    if (st().revision != app.revision) {
        st().revision = app.revision;
        st().fixes.clear();
        if (app.evaluation.ok() && !app.evaluation.estimate.fits) st().fixes = fixes_that_fit(app.scenario);
    }
    return st().fixes;
}

void draw_fixes(App& app) {
    // Drawn for the current scenario only: while the inputs are invalid the verdict shown is the
    // last valid one (dimmed), and its fixes would apply to a scenario no longer on screen.
    if (app.embed || !app.evaluation.ok() || app.evaluation.estimate.fits ||
        (GImGui->CurrentItemFlags & ImGuiItemFlags_Disabled))
        return;
    const std::vector<Fix>& list = fixes_for(app);
    const Palette& pal = palette();
    ImGui::Dummy(ImVec2(0, 2));
    ImGui::PushFont(fonts().bold);
    const char* title = list.empty() ? "No single change makes it fit." : "Fits with one change:";
    ImGui::TextUnformatted(title);
    ImGui::PopFont();
    dom::add({"fixes_title", dom::Role::heading, title}).level = 3;
    const Scenario from = app.scenario;
    const Fix* chosen = nullptr;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Fix& f = list[i];
        const std::string what = describe_fix(f, from);
        const std::string gives = format_bytes(f.total_bytes, app.units) + " per GPU, " +
                                  format_bytes(f.headroom_bytes, app.units) + " headroom";
        const std::string id = std::string("fix:") + fix_id(f.kind);
        ImGui::PushID(int(i));
        if (pill_button("Apply", false, id.c_str(), ("Changes the scenario: " + what + ". Gives " + gives + ".").c_str(),
                        ("Apply " + what).c_str()))
            chosen = &f;
        record_item(id);
        ImGui::PopID();
        ImGui::SameLine(0, 10);
        ImGui::AlignTextToFramePadding();
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(what.c_str());
        ImGui::PopTextWrapPos();
        ImGui::SameLine(0, 0);
        const std::string tail = "  \xE2\x86\x92  " + gives;
        if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(tail.c_str()).x) ImGui::NewLine();
        ImGui::PushStyleColor(ImGuiCol_Text, pal.good);
        ImGui::TextUnformatted(tail.c_str());
        ImGui::PopStyleColor();
    }
    // The planner searches whole layouts (t, p, ZeRO, micro-batch, recomputation, offload) at once.
    const bool to_plan = pill_button("Fastest layouts that fit: Plan \xE2\x86\x93", false, "fixes:plan",
                                     "Scrolls to the Plan panel, which ranks every layout that fits by predicted step time.");
    record_item("fixes:plan");
    if (to_plan) scroll_to_plan();
    if (chosen) {
        Scenario next = chosen->scenario;
        app.notes.clear();
        app.set_scenario(next);
    }
}

}  // namespace vramcalc::app
