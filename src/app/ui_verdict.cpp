// The verdict card: fits or not, the device total against the GPU's memory, the ways to fit, the
// peak's phase, the stacked memory bar (one GPU or the whole cluster) and the step's timeline.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app.hpp"
#include "core/outputs.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

// The stacked bar: the memory terms (outputs marked show_share), one colour each.
std::vector<BarSegment> memory_segments(const Estimate& e, ByteUnits units) {
    const Palette& pal = palette();
    std::vector<BarSegment> segments;
    for (const auto& o : outputs()) {
        if (!(o.show & show_share) || !output_applies(o, e.workload)) continue;
        ImU32 colour = pal.terms[segments.size() % std::size(pal.terms)];
        segments.push_back({o.short_label, o.value(e), colour, format_bytes(o.value(e), units)});
    }
    return segments;
}

// What the headline says: the device total, the capacity and the margin to it.
struct Headline {
    std::string used, cap, margin;
};

// "✓ Fits  per GPU · 8 × A100-80GB", then "71.3 GiB of 80 GiB per GPU · 8.7 GiB headroom (10.9 %)".
Headline draw_headline(App& app, float avail) {
    const Palette& pal = palette();
    const Estimate& e = app.evaluation.estimate;
    const Scenario& sc = app.scenario;
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    const char* verdict = e.fits ? "\xE2\x9C\x93 Fits" : "\xE2\x9C\x95 Does not fit";
    ImGui::PushFont(fonts().big);
    ImGui::PushStyleColor(ImGuiCol_Text, e.fits ? pal.good : pal.bad);
    ImGui::TextUnformatted(verdict);
    ImGui::PopStyleColor();
    ImGui::PopFont();
    record_item("verdict");
    // Where: "per GPU · 8 × A100-80GB", right-aligned when there is room.
    std::string where = "per GPU  \xC2\xB7  " + format_grouped(double(sc.parallel.num_gpus)) + " \xC3\x97 " + sc.hardware.gpu;
    if (app.embed) where = app.embed_setup_in_verdict ? setup_short(sc) : "";  // the embed header says the rest
    ImGui::PushFont(fonts().small);
    float where_w = ImGui::CalcTextSize(where.c_str()).x;
    ImGui::PopFont();
    if (avail > 420 && !where.empty()) {
        ImGui::SameLine();
        ImGui::PushFont(fonts().small);
        ImGui::SetCursorPosY(ImGui::GetCursorPosY() + 9);
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, ImGui::GetContentRegionAvail().x - where_w));
        ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
        ImGui::TextUnformatted(where.c_str());
        ImGui::PopStyleColor();
        ImGui::PopFont();
    }
    // "71.3 GiB of 80 GiB per GPU · 8.7 GiB headroom (10.9 %)": the device total (nvidia-smi's view)
    // against the GPU's memory.
    Headline h;
    std::string& used = h.used;
    std::string& cap = h.cap;
    std::string& margin = h.margin;
    used = format_bytes(m.total, app.units);
    cap = format_bytes(e.capacity_bytes, app.units);
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted(used.c_str());
    ImGui::PopFont();
    ImGui::SameLine(0, 6);
    text_dim(("of " + cap + (avail > 420 ? " per GPU" : "")).c_str());
    margin = e.fits ? format_bytes(e.headroom_bytes, app.units) + " headroom (" +
                                      format_percent(e.headroom_bytes / e.capacity_bytes) + ")"
                                : "short by " + format_bytes(-e.headroom_bytes, app.units) + " (" +
                                      format_percent(-e.headroom_bytes / e.capacity_bytes) + " over)";
    ImGui::SameLine(0, 6);
    if (ImGui::GetContentRegionAvail().x >= ImGui::CalcTextSize(margin.c_str()).x + 24) {
        text_dim("\xC2\xB7");
        ImGui::SameLine(0, 6);
    } else {
        ImGui::NewLine();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, e.fits ? pal.good : pal.bad);
    ImGui::TextUnformatted(margin.c_str());
    ImGui::PopStyleColor();
    if (avail <= 420 && !where.empty()) {
        ImGui::PushFont(fonts().small);
        text_dim(where.c_str());
        ImGui::PopFont();
    }
    return h;
}

// The peak's phase, allocated and reserved memory and what lives outside the allocator; its parts
// flow onto new lines whole (a number never breaks from its unit). Returns the line as one text.
std::string draw_peak_line(App& app, const std::string& lower) {
    const Palette& pal = palette();
    const MemoryBreakdown& m = app.evaluation.estimate.memory_per_gpu_bytes;
    const std::string peak_line = "Peak in the " + lower + (m.peak_phase == StepPhase::optimizer_step ? "" : " pass") +
                                  "  \xC2\xB7  allocated " + format_bytes(m.peak_allocated, app.units) +
                                  "  \xC2\xB7  reserved " + format_bytes(m.peak_reserved, app.units) +
                                  "  \xC2\xB7  + CUDA context and reserve " +
                                  format_bytes(m.total - m.peak_reserved, app.units);
    {
        const std::string parts[] = {
            "Peak in the " + lower + (m.peak_phase == StepPhase::optimizer_step ? "" : " pass"),
            "allocated " + format_bytes(m.peak_allocated, app.units), "reserved " + format_bytes(m.peak_reserved, app.units),
            "+ CUDA context and reserve " + format_bytes(m.total - m.peak_reserved, app.units)};
        ImGui::PushFont(fonts().small);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
        const char* dot = "  \xC2\xB7  ";
        const float dot_w = ImGui::CalcTextSize(dot).x;
        bool first = true;
        for (const std::string& part : parts) {
            if (!first) {
                ImGui::SameLine(0, 0);
                if (ImGui::GetContentRegionAvail().x >= dot_w + ImGui::CalcTextSize(part.c_str()).x) {
                    ImGui::TextUnformatted(dot);
                    ImGui::SameLine(0, 0);
                } else {
                    ImGui::NewLine();
                }
            }
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(part.c_str());
            ImGui::PopTextWrapPos();
            first = false;
        }
        ImGui::PopStyleColor();
        ImGui::PopFont();
    }
    record_item("peak_line");
    help_tooltip("Peak, allocated and reserved",
                 "Allocated: the largest phase of the step, as torch.cuda.max_memory_allocated reports it. Reserved: "
                 "what PyTorch's caching allocator holds (max_memory_reserved). The verdict compares the device total "
                 "(what nvidia-smi shows: reserved + CUDA context + NCCL + any fixed reserve) with the GPU's memory.");
    record_item("peak_line");
    help_tooltip("Peak, allocated and reserved",
                 "Allocated: the largest phase of the step, as torch.cuda.max_memory_allocated reports it. Reserved: "
                 "what PyTorch's caching allocator holds (max_memory_reserved). The verdict compares the device total "
                 "(what nvidia-smi shows: reserved + CUDA context + NCCL + any fixed reserve) with the GPU's memory.");
    return peak_line;
}

// The per GPU | whole cluster switch above the bar, with its caption.
void draw_bar_switch(App& app, int& bar_view, const std::string& lower) {
    static const char* views[] = {"Per GPU", "Whole cluster"};
    const Estimate& e = app.evaluation.estimate;
    const double n = double(app.scenario.parallel.num_gpus);
    ImGui::PushFont(fonts().small);
    ImGui::AlignTextToFramePadding();
    std::string caption = bar_view == 0 ? "At the peak (" + lower + "), one GPU"
                                        : "All " + format_grouped(n) + " GPUs: " +
                                              format_bytes(e.memory_per_gpu_bytes.total * n, app.units) + " of " +
                                              format_bytes(e.capacity_bytes * n, app.units);
    float seg_w = ImGui::CalcTextSize("Per GPU").x + ImGui::CalcTextSize("Whole cluster").x + 4 * 10 + 2;
    if (ImGui::CalcTextSize(caption.c_str()).x + seg_w + 12 > ImGui::GetContentRegionAvail().x && bar_view == 0)
        caption = "At the peak, one GPU";
    const bool one_line = ImGui::CalcTextSize(caption.c_str()).x + seg_w + 12 <= ImGui::GetContentRegionAvail().x;
    text_dim(caption.c_str());
    if (one_line) {  // else the switch goes on its own line (phones)
        ImGui::SameLine();
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, ImGui::GetContentRegionAvail().x - seg_w));
    }
    segmented("bar_view", views, 2, &bar_view, "Memory bar shows");
    ImGui::PopFont();
}

// The stacked bar (one GPU, or every GPU's memory × N against N × capacity), its legend, the host
// memory of what is offloaded and the units note.
void draw_memory_bar(App& app, const std::string& lower, const Headline& h) {
    const Palette& pal = palette();
    const Estimate& e = app.evaluation.estimate;
    const Scenario& sc = app.scenario;
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    const std::string &used = h.used, &cap = h.cap;
    int& bar_view = app.panels.verdict.bar_view;
    draw_bar_switch(app, bar_view, lower);
    auto segments = memory_segments(e, app.units);
    dom::Control breakdown{"breakdown", dom::Role::table,
                           "Memory per GPU at the peak (" + lower + "), total " + used + " of " + cap};
    for (const auto& seg : segments)
        if (seg.value > 0)
            breakdown.rows.push_back({seg.label, seg.value_text, m.total > 0 ? format_percent(seg.value / m.total) : ""});
    if (bar_view == 0) {
        stacked_bar("##memory_bar", segments, e.capacity_bytes, cap + " capacity", 30);
        record_item("memory_bar");
        legend(segments, m.total);
        record_item("legend");
    } else {
        const double n = double(sc.parallel.num_gpus);
        for (auto& seg : segments) {
            seg.value *= n;
            seg.value_text = format_bytes(seg.value, app.units);
        }
        stacked_bar("##cluster_bar", segments, e.capacity_bytes * n,
                    format_grouped(n) + " \xC3\x97 " + cap + " = " + format_bytes(e.capacity_bytes * n, app.units), 30);
        record_item("memory_bar");
        legend(segments, m.total * n);
        record_item("legend");
    }
    dom::add(std::move(breakdown));
    if (e.host_memory_bytes.total > 0) {
        ImGui::Dummy(ImVec2(0, 2));
        std::string host = std::string(bar_view == 0 ? "" : "Plus ") + "Host (CPU) memory for what is offloaded: " +
                           format_bytes(e.host_memory_bytes.per_gpu, app.units) + " per GPU, " +
                           format_bytes(e.host_memory_bytes.total, app.units) + " in total.";
        ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(host.c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
        dom::add({"host_memory", dom::Role::text, host});
    }
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
    ImGui::TextUnformatted(app.units == ByteUnits::gib ? "Memory in GiB (2\xC2\xB3\xE2\x81\xB0 bytes, as nvidia-smi reports)"
                                                       : "Memory in GB (10\xE2\x81\xB9 bytes, as datasheets say)");
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

}  // namespace

void draw_verdict(App& app) {
    const Estimate& e = app.evaluation.estimate;
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    begin_card("verdict");
    const float avail = ImGui::GetContentRegionAvail().x;
    const Headline h = draw_headline(app, avail);
    draw_fixes(app);
    // When and how: the peak phase, what PyTorch's allocator reports, what lives outside it.
    std::string lower = step_phase_label(m.peak_phase);
    for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
    const std::string peak_line = draw_peak_line(app, lower);
    {
        std::string text = std::string(e.fits ? "Fits" : "Does not fit") + ": " + h.used + " of " + h.cap + " per GPU, " +
                           h.margin + ". " + peak_line + ".";
        for (std::size_t i; (i = text.find("  \xC2\xB7  ")) != std::string::npos;) text.replace(i, 6, "; ");
        dom::add({"verdict", dom::Role::text, text});
    }
    draw_largest_fit(app);
    ImGui::Dummy(ImVec2(0, 2));
    // The breakdown at the peak (left) and the step's timeline (right, or below when narrow).
    const bool side = avail >= 640 && !app.embed;
    const float timeline_w = side ? std::clamp(avail * 0.36f, 240.0f, 320.0f) : avail;
    if (side) {
        ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(0, 0));
        ImGui::BeginTable("verdict_columns", 2, ImGuiTableFlags_NoSavedSettings);
        ImGui::TableSetupColumn("breakdown", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("timeline", ImGuiTableColumnFlags_WidthFixed, timeline_w + 20);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PopStyleVar();
    }
    draw_memory_bar(app, lower, h);
    if (side) {
        ImGui::TableNextColumn();
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + 20);
        draw_timeline(app, timeline_w);
        ImGui::EndTable();
    } else if (!app.embed) {
        ImGui::Dummy(ImVec2(0, 4));
        draw_timeline(app, timeline_w);
    }
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

}  // namespace vramcalc::app
