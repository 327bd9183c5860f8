// The step's memory as a timeline: one stacked bar per phase of a training step (end of forward,
// loss, backward, optimizer step) by component, from the estimate's memory_timeline, with the
// peak phase marked and the GPU's capacity as a line, next to the peak's breakdown. The peak bar
// also carries what lives outside PyTorch's tensors (allocator reserve, CUDA context, NCCL), so
// its top is the device total the verdict compares with capacity.
#include <algorithm>
#include <cmath>
#include <string>

#include "app.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "plot.hpp"
#include "ui_charts.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

TimelineDrawn& drawn() { return the_app().panels.timeline; }

// The palette has a colour for every memory component (core/results.hpp memory_components).
static_assert(memory_colour_slots() <= int(sizeof(Palette::terms) / sizeof(Palette::terms[0])),
              "Palette::terms needs a colour for every memory component's colour_slot");

const char* short_phase(StepPhase p) {
    switch (p) {
        case StepPhase::forward: return "Forward";
        case StepPhase::loss: return "Loss";
        case StepPhase::backward: return "Backward";
        case StepPhase::optimizer_step: return "Optimizer";
    }
    return "";
}

// The plot area and its vertical scale (bytes to screen y).
struct TimelinePlot {
    ImVec2 pmin, pmax;
    double scale;
    float y_of(double bytes) const { return pmax.y - float(bytes / scale) * (pmax.y - pmin.y); }
};

// One phase's stacked bar (the peak's with what lives outside the tensors, outlined and marked);
// returns its top in bytes.
double draw_phase_bar(const App& app, const TimelinePlot& plot, StepPhase ph, float cx, float bar_w) {
    const Palette& pal = palette();
    const Estimate& e = app.evaluation.estimate;
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    const PhaseMemory& pm = e.memory_timeline.at(ph);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float x0 = cx - bar_w * 0.5f, x1 = cx + bar_w * 0.5f;
    double acc = 0;
    for (const MemoryComponent& c : memory_components) {
        double v = pm.*c.bytes;
        if (!(v > 0)) continue;
        dl->AddRectFilled(ImVec2(x0, plot.y_of(acc + v)), ImVec2(x1, plot.y_of(acc)), pal.terms[c.colour_slot]);
        acc += v;
    }
    double top = acc;
    if (ph != m.peak_phase) return top;
    if (m.total > acc) {  // what lives outside the tensors, at the peak
        dl->AddRectFilled(ImVec2(x0, plot.y_of(m.total)), ImVec2(x1, plot.y_of(acc)), with_alpha(pal.terms[overhead_colour_slot], 200));
        top = m.total;
    }
    dl->AddRect(ImVec2(x0 - 2, plot.y_of(top) - 2), ImVec2(x1 + 2, plot.pmax.y), pal.ink, 3, 0, 1.5f);
    const char* mark = "\xE2\x96\xBC peak";
    ImVec2 ts = small_size(mark);
    small_text(dl, ImVec2(std::clamp(cx - ts.x * 0.5f, plot.pmin.x, plot.pmax.x - ts.x), plot.y_of(top) - ImGui::GetFontSize() - 4),
               m.total > e.capacity_bytes ? pal.bad : pal.accent, mark);
    return top;
}

// The hovered phase's components.
void phase_tooltip(const App& app, StepPhase ph) {
    const Palette& pal = palette();
    const Estimate& e = app.evaluation.estimate;
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    const PhaseMemory& pm = e.memory_timeline.at(ph);
    const ByteUnits u = app.units;
    ImGui::BeginTooltip();
    ImGui::PushFont(fonts().bold);
    ImGui::Text("%s%s: %s", step_phase_label(ph), ph == m.peak_phase ? " (peak)" : "", format_bytes(pm.total(), u).c_str());
    ImGui::PopFont();
    for (const MemoryComponent& c : memory_components) {
        double v = pm.*c.bytes;
        if (!(v > 0)) continue;
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.terms[c.colour_slot]), "\xE2\x80\xA2");
        ImGui::SameLine(0, 6);
        ImGui::Text("%s  %s", c.label, format_bytes(v, u).c_str());
    }
    if (ph == m.peak_phase)
        ImGui::TextUnformatted(("+ allocator, CUDA context, NCCL: " + format_bytes(m.total - pm.total(), u)).c_str());
    ImGui::EndTooltip();
}

}  // namespace

const TimelineDrawn& timeline_drawn() { return drawn(); }

void draw_timeline(App& app, float width) {
    const Palette& pal = palette();
    const Estimate& e = app.evaluation.estimate;
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    const ByteUnits u = app.units;
    drawn() = {};
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
    ImGui::TextUnformatted("Memory over one step");
    ImGui::PopStyleColor();
    const float fh = ImGui::GetFontSize();
    ImVec2 p = ImGui::GetCursorScreenPos();
    const std::string cap_text = format_bytes(e.capacity_bytes, u);
    const float label_w = std::max(28.0f, small_size(cap_text).x + 10);  // y-axis labels
    const float plot_h = 118, top_pad = fh + 6, bottom_pad = fh + 8;
    const float plot_w = std::max(80.0f, width - label_w);
    double scale = e.capacity_bytes;
    for (StepPhase ph : all_step_phases) scale = std::max(scale, e.memory_timeline.at(ph).total());
    const ImVec2 pmin(p.x + label_w, p.y + top_pad);
    const TimelinePlot plot{pmin, ImVec2(pmin.x + plot_w, pmin.y + plot_h), std::max(scale, m.total) * 1.06};
    const ImVec2 pmax = plot.pmax;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(pmin, pmax, with_alpha(pal.ink, 6), 4);
    // Axis: 0 and the capacity.
    if (plot.y_of(e.capacity_bytes) < pmax.y - fh) small_text(dl, ImVec2(p.x, pmax.y - fh * 0.5f), pal.text_faint, "0");  // not under the capacity label
    const float slot = plot_w / float(step_phase_count), bar_w = std::min(46.0f, slot * 0.6f);
    const StepPhase peak = m.peak_phase;
    std::string description;
    dom::Control table{"timeline:table", dom::Role::table, "Memory by phase of the step (allocated; the peak with its overhead)"};
    int hovered = -1;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    for (int i = 0; i < step_phase_count; ++i) {
        const StepPhase ph = all_step_phases[i];
        const PhaseMemory& pm = e.memory_timeline.at(ph);
        const float cx = pmin.x + slot * (float(i) + 0.5f);
        const double top = draw_phase_bar(app, plot, ph, cx, bar_w);
        const char* label = short_phase(ph);
        ImVec2 ls = small_size(label);
        small_text(dl, ImVec2(cx - ls.x * 0.5f, pmax.y + 4), ph == peak ? pal.text : pal.text_dim, label);
        if (std::abs(mouse.x - cx) <= bar_w * 0.5f + slot * 0.2f && mouse.y >= pmin.y && mouse.y <= pmax.y) hovered = i;
        drawn().bars.push_back({step_phase_id(ph), pm.total(), top, cx, plot.y_of(top)});
        std::string value = format_bytes(pm.total(), u);
        std::string note = ph == peak ? "peak; " + format_bytes(m.total, u) + " with the overhead" : "";
        table.rows.push_back({step_phase_label(ph), value, note});
        description += std::string(i ? "; " : "") + step_phase_label(ph) + " " + value + (ph == peak ? " (peak)" : "");
    }
    // Capacity line, on top of the bars.
    if (e.capacity_bytes > 0) {
        float y = plot.y_of(e.capacity_bytes);
        for (float x = pmin.x; x < pmax.x; x += 8)
            dl->AddLine(ImVec2(x, y), ImVec2(std::min(x + 4, pmax.x), y), e.fits ? pal.ink : pal.bad, 1.5f);
        ImVec2 cs = small_size(cap_text);
        small_text(dl, ImVec2(p.x + label_w - cs.x - 6, y - fh * 0.5f), pal.text_dim, cap_text);
        drawn().capacity_y = y;
    }
    ImGui::InvisibleButton("##timeline", ImVec2(width, top_pad + plot_h + bottom_pad));
    record_item("timeline");
    drawn().rect = {pmin.x, pmin.y, plot_w, plot_h};
    drawn().peak = step_phase_id(peak);
    drawn().drawn = true;
    description += "; capacity " + format_bytes(e.capacity_bytes, u) + ".";
    dom::Control img{"timeline", dom::Role::image,
                     "Memory over one training step, peak in the " + std::string(step_phase_label(peak)) + " phase",
                     description};
    dom::add(std::move(img));
    dom::add(std::move(table));
    if (hovered >= 0 && ImGui::IsItemHovered()) phase_tooltip(app, all_step_phases[hovered]);
    ImGui::PopFont();
}

}  // namespace vramcalc::app
