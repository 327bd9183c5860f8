// "Largest micro-batch / longest sequence that fits": one line of the verdict card, from a
// binary search over the core's estimate (largest_fitting), recomputed when the scenario changes.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "app.hpp"
#include "dom.hpp"
#include "core/analysis.hpp"
#include "imgui.h"
#include "plot.hpp"
#include "ui_charts.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

Analysis& st() { return the_app().panels.analysis; }

}  // namespace

const Analysis& analysis(const App& app) {
    if (st().revision == app.revision) return st();
    st().revision = app.revision;
    st().largest_b = st().largest_s = 0;
    if (!app.evaluation.ok()) return st();
    double t0 = now_ms();
    st().b_upper = 1 << 16;
    st().s_upper = app.scenario.model.position_embedding == PositionEmbedding::learned
                               ? app.scenario.model.max_position_embeddings
                               : std::int64_t(1) << 22;
    st().largest_b = largest_fitting(app.scenario, SweepAxis::micro_batch_size, st().b_upper);
    st().largest_s = largest_fitting(app.scenario, SweepAxis::seq_len, st().s_upper);
    st().largest_ms = now_ms() - t0;
    return st();
}

void draw_largest_fit(App& app) {
    if (!app.evaluation.ok()) return;
    const Analysis& an = analysis(app);
    const Palette& pal = palette();
    auto value = [](std::int64_t v, std::int64_t upper) {
        if (v == 0) return std::string("none (even 1 is over)");
        return (v >= upper ? "\xE2\x89\xA5 " : "") + format_grouped(double(v));
    };
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
    std::string b = "Largest micro-batch that fits: ";
    std::string bv = value(an.largest_b, an.b_upper);
    std::string s = "Longest sequence that fits: ";
    const bool learned = app.scenario.model.position_embedding == PositionEmbedding::learned;
    std::string sv = an.largest_s > 0 && an.largest_s >= an.s_upper && learned
                         ? format_grouped(double(an.largest_s)) + " tokens (model max.)"
                         : value(an.largest_s, an.s_upper) + (an.largest_s > 0 ? " tokens" : "");
    // One figure: its value (red when even 1 is over), a test-hook name and a tooltip.
    auto figure = [&](const std::string& text, bool fits, const char* item, const char* title, const char* tip) {
        ImGui::PushStyleColor(ImGuiCol_Text, fits ? pal.text : pal.bad);
        ImGui::TextUnformatted(text.c_str());
        ImGui::PopStyleColor();
        record_item(item);
        help_tooltip(title, tip);
    };
    ImGui::TextUnformatted(b.c_str());
    ImGui::SameLine(0, 0);
    figure(bv, an.largest_b > 0, "largest_b", "Largest micro-batch that fits",
           "The largest micro-batch size b whose per-GPU memory stays within the GPU's capacity, everything else as "
           "set (binary search over the core's estimate).");
    float need = ImGui::CalcTextSize((s + sv).c_str()).x + 24;
    ImGui::SameLine(0, 0);
    if (ImGui::GetContentRegionAvail().x >= need) {
        ImGui::TextUnformatted("   \xC2\xB7   ");
        ImGui::SameLine(0, 0);
    } else {
        ImGui::NewLine();
    }
    ImGui::TextUnformatted(s.c_str());
    ImGui::SameLine(0, 0);
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(sv.c_str()).x) ImGui::NewLine();
    figure(sv, an.largest_s > 0, "largest_s", "Longest sequence that fits",
           "The longest sequence length s (at the current micro-batch) whose per-GPU memory stays within capacity. "
           "Models with learned positions stop at their maximum position count.");
    dom::add({"largest_fit", dom::Role::text, b + bv + ". " + s + sv + "."});
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

}  // namespace vramcalc::app
