#include "ui_explain.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "app.hpp"
#include "format/markdown.hpp"
#include "core/explain.hpp"
#include "imgui.h"
#include "dom.hpp"
#include "web.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

ExplainState& st() { return the_app().panels.explain; }

void refresh(const App& app) {
    if (st().terms_revision == app.revision) return;
    st().terms_revision = app.revision;
    st().terms = app.evaluation.ok() ? explain(app.scenario, app.evaluation.estimate) : std::vector<ExplainTerm>{};
}

}  // namespace

void explain_select(const char* id) {
    st().selected = id;
    st().scroll_pending = true;
}

bool explain_is_selected(const char* id) { return st().selected == id; }

std::string markdown_for(const App& app) {
    std::string link = web::page_url_with_hash(app.hash_for(codec::encode_link(app.scenario)), false);
    return estimate_to_markdown(app.scenario, app.evaluation.estimate, app.units, link);
}

namespace {

// The term picker and "Copy as Markdown"; returns the term chosen (or `term`).
const ExplainTerm* draw_picker_row(App& app, const ExplainTerm* term) {
    const char* copy_label = ImGui::GetTime() < st().copied_until ? "Copied \xE2\x9C\x93" : "Copy as Markdown";
    float copy_w = ImGui::CalcTextSize("Copy as Markdown").x + 24;
    float avail = ImGui::GetContentRegionAvail().x;
    float combo_w = std::min(320.0f, avail - copy_w - 10);
    if (combo_w < 160) combo_w = avail;  // narrow: stack
    std::vector<std::string> labels;
    int current = 0;
    for (std::size_t i = 0; i < st().terms.size(); ++i) {
        labels.push_back(st().terms[i].label);
        if (&st().terms[i] == term) current = int(i);
    }
    int chosen = select_box("explain_term", "Result to explain", labels, current, combo_w,
                            "Every result with its formula, this scenario's values and the source.");
    if (chosen >= 0) {
        st().selected = st().terms[chosen].id;
        term = &st().terms[chosen];
    }
    if (combo_w < avail) ImGui::SameLine(0, 10);
    if (combo_w < avail) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, ImGui::GetContentRegionAvail().x - copy_w));
    ImGui::PushStyleVar(ImGuiStyleVar_ButtonTextAlign, ImVec2(0.5f, 0.5f));
    bool pressed = ImGui::Button(copy_label, ImVec2(copy_w, 0));
    ImGui::PopStyleVar();
    record_item("copy_markdown");
    dom::Control b{"copy_markdown", dom::Role::button, copy_label,
                   "Copies the results as a Markdown table, with a link that opens this scenario."};
    b.shortcut = shortcut_for("copy_markdown");
    dom::add(std::move(b));
    if (pressed || dom::activated("copy_markdown")) {
        st().last_copied = markdown_for(app);
        web::copy_to_clipboard(st().last_copied);
        st().copied_until = ImGui::GetTime() + 1.6;
    }
    help_tooltip("Copy as Markdown",
                 "Copies the results as a Markdown table, with a link that opens this scenario, for issues and docs.");
    return term;
}

// The formula in a code-like box.
void draw_formula(const ExplainTerm& t) {
    const Palette& pal = palette();
    const ExplainTerm* term = &t;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float avail = ImGui::GetContentRegionAvail().x;
    ImVec2 p = ImGui::GetCursorScreenPos();
    ImVec2 size = ImGui::CalcTextSize(term->formula, nullptr, false, avail - 24);
    dl->AddRectFilled(p, ImVec2(p.x + avail, p.y + size.y + 16), pal.code_bg, 8);
    dl->AddRectFilled(p, ImVec2(p.x + 3, p.y + size.y + 16), pal.accent, 2);
    ImGui::SetCursorScreenPos(ImVec2(p.x + 12, p.y + 8));
    ImGui::PushTextWrapPos(p.x + avail - 12 - ImGui::GetWindowPos().x);
    ImGui::TextUnformatted(term->formula);
    ImGui::PopTextWrapPos();
    ImGui::SetCursorScreenPos(ImVec2(p.x, p.y + size.y + 16 + ImGui::GetStyle().ItemSpacing.y));
    ImGui::Dummy(ImVec2(avail, 0));
}

// The inputs with this scenario's values, as a table (also kept for the DOM table and test hooks).
void draw_inputs_table(const App& app, const ExplainTerm& t) {
    const ExplainTerm* term = &t;
    ImGui::PushFont(fonts().small);
    text_dim("With this scenario's values:");
    ImGui::PopFont();
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(8, 4));
    if (ImGui::BeginTable("explain_inputs", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_NoSavedSettings)) {
        ImGui::TableSetupColumn("symbol", ImGuiTableColumnFlags_WidthFixed,
                                std::max(90.0f, ImGui::GetContentRegionAvail().x * 0.32f));
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        for (const auto& in : term->inputs) {
            std::string v = format_explained(in.value, in.unit, app.units);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushFont(fonts().bold);
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(in.symbol);
            ImGui::PopTextWrapPos();
            ImGui::PopFont();
            ImGui::TableNextColumn();
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(v.c_str());
            ImGui::PopTextWrapPos();
            st().drawn.inputs.push_back({in.symbol, v, in.unit});
        }
        ImGui::EndTable();
    }
    ImGui::PopStyleVar();
}

}  // namespace

void draw_explain(App& app) {
    st().drawn.drawn = false;
    if (!app.evaluation.ok()) return;
    refresh(app);
    if (st().terms.empty()) return;
    const Palette& pal = palette();
    const ExplainTerm* term = &st().terms[0];
    for (const auto& t : st().terms)
        if (st().selected == t.id) term = &t;
    if (st().scroll_pending) {
        ImGui::SetScrollHereY(0.15f);
        st().scroll_pending = false;
    }
    begin_card("explain_card");
    // Header: title, term picker, Copy as Markdown.
    section_title("How it is computed", app.embed ? nullptr : touch_targets() ? "tap a result row to explain it"
                                                                               : "click a result row to explain it",
                  "explain_title");
    term = draw_picker_row(app, term);
    ImGui::Dummy(ImVec2(0, 2));
    // The term: value, formula, inputs, source.
    const std::string value = format_explained(term->value, term->unit, app.units);
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted(term->label);
    ImGui::PopFont();
    ImGui::SameLine(0, 8);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
    ImGui::TextUnformatted(("= " + value).c_str());
    ImGui::PopStyleColor();
    draw_formula(*term);
    st().drawn = {term->id, term->label, term->formula, term->source, value, {}, true};
    if (!term->inputs.empty()) draw_inputs_table(app, *term);
    // How far this figure was from measurement on held-out runs of its regime (docs/accuracy.md).
    const std::string band = format_error_band(output_error_band(term->id, app.evaluation.estimate), true);
    if (!band.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(band.c_str());
        ImGui::PopTextWrapPos();
    }
    {
        dom::Control t{"explain:term", dom::Role::table, std::string(term->label) + " = " + value};
        t.rows.push_back({"Formula", term->formula, ""});
        for (const auto& in : st().drawn.inputs) t.rows.push_back({in[0], in[1], ""});
        if (!band.empty()) t.rows.push_back({"Measured error", band, ""});
        t.rows.push_back({"Source", term->source, ""});
        dom::add_at(std::move(t), ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    }
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted((std::string("Source: ") + term->source).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::PopFont();
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

ExplainView explain_view() { return {st().selected, st().drawn.drawn, st().drawn.id, st().drawn.label, st().drawn.formula, st().drawn.source, st().drawn.value,
                                     st().drawn.inputs, st().last_copied}; }

}  // namespace vramcalc::app
