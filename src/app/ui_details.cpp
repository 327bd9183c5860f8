// The detail tables: memory per GPU, compute, time and cost, parameters and layout, each a card of
// rows from the output table (outputs marked show_report); a click on a row opens its explanation.
#include <algorithm>
#include <string>
#include <vector>

#include "app.hpp"
#include "core/outputs.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "ui_explain.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

struct Row {
    std::string label, value, note;
    const char* explain = nullptr;  // explain() term id: a click on the row opens it in the explain panel
    bool bold = false;
};

// The rows of one card: the outputs of `sections` marked show_report, in table order.
std::vector<Row> output_rows(const Estimate& e, ByteUnits units, std::initializer_list<OutputSection> sections) {
    std::vector<Row> rows;
    const double total = e.memory_per_gpu_bytes.total;
    for (OutputSection section : sections)
        for (const auto& o : outputs()) {
            if (o.section != section || !(o.show & show_report) || !output_applies(o, e.workload)) continue;
            double v = o.value(e);
            if ((o.show & hide_when_zero) && v == 0) continue;
            std::string note = output_note(o, e, units);
            if ((o.show & show_share) && total > 0) note += (note.empty() ? "" : " \xC2\xB7 ") + format_percent(v / total);
            rows.push_back({o.short_label, format_output(o, e, units), note, o.explain, (o.show & emphasise) != 0});
        }
    return rows;
}

void table_rows(const char* id, const std::vector<Row>& rows) {
    const Palette& pal = palette();
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(6, 5));
    if (ImGui::BeginTable(id, 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_NoSavedSettings)) {
        ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthStretch, 1.3f);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            const bool bold = r.bold;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushFont(fonts().small);
            const std::string note = wrap_at_spaces(r.note, ImGui::GetContentRegionAvail().x);  // "138.7" stays whole
            ImGui::PopFont();
            if (r.explain) {  // the whole row is a selectable that opens the explanation
                const ImVec2 pos = ImGui::GetCursorScreenPos();
                const float wrap_w = ImGui::GetContentRegionAvail().x;
                if (bold) ImGui::PushFont(fonts().bold);
                float h = ImGui::CalcTextSize(r.label.c_str(), nullptr, false, wrap_w).y;
                if (bold) ImGui::PopFont();
                if (!note.empty()) {
                    ImGui::PushFont(fonts().small);
                    h += ImGui::GetStyle().ItemSpacing.y + ImGui::CalcTextSize(note.c_str()).y;
                    ImGui::PopFont();
                }
                ImGui::PushID(int(i));
                if (ImGui::Selectable("##explain", explain_is_selected(r.explain),
                                      ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap,
                                      ImVec2(0, h)))
                    explain_select(r.explain);
                record_item(std::string("row:") + r.explain);
                ImGui::PopID();
                ImGui::SetCursorScreenPos(pos);
            }
            ImGui::PushTextWrapPos(0);
            if (bold) ImGui::PushFont(fonts().bold);
            ImGui::TextUnformatted(r.label.c_str());
            if (bold) ImGui::PopFont();
            if (!note.empty()) {
                ImGui::PushFont(fonts().small);
                ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
                ImGui::TextUnformatted(note.c_str());
                ImGui::PopStyleColor();
                ImGui::PopFont();
            }
            ImGui::PopTextWrapPos();
            ImGui::TableNextColumn();
            float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
            if (bold) ImGui::PushFont(fonts().bold);
            text_right(r.value.c_str(), right);
            if (bold) ImGui::PopFont();
        }
        ImGui::EndTable();
    }
    ImGui::PopStyleVar();
}

}  // namespace

void draw_details(App& app, bool side_by_side) {
    const Estimate& e = app.evaluation.estimate;
    const auto memory = output_rows(e, app.units, {OutputSection::memory});
    const auto compute = output_rows(e, app.units, {OutputSection::compute});
    const auto layout = output_rows(e, app.units, {OutputSection::parameters, OutputSection::layout});
    auto card = [&](const char* id, const char* title, const std::vector<Row>& rows, float w) {
        begin_card(id, w);
        section_title(title, nullptr, (std::string(id) + ":title").c_str());
        const ImVec2 start = ImGui::GetCursorScreenPos();
        table_rows(id, rows);
        dom::Control t{std::string(id) + ":table", dom::Role::table, title};
        for (const Row& r : rows) t.rows.push_back({r.label, r.value, r.note});
        dom::add_at(std::move(t), start, ImVec2(start.x + ImGui::GetContentRegionAvail().x, ImGui::GetCursorScreenPos().y));
        end_card();
    };
    if (side_by_side) {
        float avail = ImGui::GetContentRegionAvail().x, gap = 12;
        float w = (avail - gap) * 0.5f;
        ImGui::BeginGroup();
        card("memory_card", "Memory per GPU", memory, w);
        ImGui::Dummy(ImVec2(0, 2));
        card("layout_card", "Parameters and layout", layout, w);
        ImGui::EndGroup();
        ImGui::SameLine(0, gap);
        card("compute_card", "Compute, time and cost", compute, w);
    } else {
        card("memory_card", "Memory per GPU", memory, 0);
        ImGui::Dummy(ImVec2(0, 2));
        card("compute_card", "Compute, time and cost", compute, 0);
        ImGui::Dummy(ImVec2(0, 2));
        card("layout_card", "Parameters and layout", layout, 0);
    }
}

}  // namespace vramcalc::app
