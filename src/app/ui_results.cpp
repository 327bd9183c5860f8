// Results: the verdict with the stacked memory bar, headline tiles, detail tables, warnings.
// Every number comes from the Estimate (src/core); this file only formats and lays out.
#include <algorithm>
#include <cmath>
#include <string>

#include "app.hpp"
#include "imgui.h"
#include "ui_charts.hpp"
#include "ui_explain.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

struct Row {
    std::string label, value, note;
    const char* explain = nullptr;  // explain() term id: a click on the row opens it in the explain panel
};

void table_rows(const char* id, const std::vector<Row>& rows, int bold_last = 0) {
    const Palette& pal = palette();
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(6, 5));
    if (ImGui::BeginTable(id, 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_NoSavedSettings)) {
        ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthStretch, 1.3f);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            bool bold = bold_last && i + bold_last >= rows.size();
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (r.explain) {  // the whole row is a selectable that opens the explanation
                const ImVec2 pos = ImGui::GetCursorScreenPos();
                const float wrap_w = ImGui::GetContentRegionAvail().x;
                if (bold) ImGui::PushFont(fonts().bold);
                float h = ImGui::CalcTextSize(r.label.c_str(), nullptr, false, wrap_w).y;
                if (bold) ImGui::PopFont();
                if (!r.note.empty()) {
                    ImGui::PushFont(fonts().small);
                    h += ImGui::GetStyle().ItemSpacing.y + ImGui::CalcTextSize(r.note.c_str(), nullptr, false, wrap_w).y;
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
            if (!r.note.empty()) {
                ImGui::PushFont(fonts().small);
                ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
                ImGui::TextUnformatted(r.note.c_str());
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

std::vector<BarSegment> memory_segments(const Estimate& e, ByteUnits units) {
    const Palette& pal = palette();
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    std::vector<BarSegment> s = {
        {"Weights", m.weights - m.zero3_live_params, pal.terms[0], ""},
        {"ZeRO-3 live params", m.zero3_live_params, pal.terms[1], ""},
        {"Gradients", m.gradients, pal.terms[2], ""},
        {"Optimizer states", m.optimizer, pal.terms[3], ""},
        {"Activations", m.activations, pal.terms[4], ""},
        {"Reserved", m.overhead, pal.terms[5], ""},
    };
    for (auto& seg : s) seg.value_text = format_bytes(seg.value, units);
    return s;
}

}  // namespace

void draw_verdict(App& app) {
    const Palette& pal = palette();
    const Estimate& e = app.evaluation.estimate;
    const Scenario& sc = app.scenario;
    begin_card("verdict");
    const float avail = ImGui::GetContentRegionAvail().x;
    ImGui::PushFont(fonts().big);
    ImGui::PushStyleColor(ImGuiCol_Text, e.fits ? pal.good : pal.bad);
    ImGui::TextUnformatted(e.fits ? "\xE2\x9C\x93 Fits" : "\xE2\x9C\x95 Does not fit");
    ImGui::PopStyleColor();
    ImGui::PopFont();
    // Where: "per GPU · 8 × A100-80GB", right-aligned when there is room.
    std::string where = "per GPU  \xC2\xB7  " + std::to_string(sc.parallel.num_gpus) + " \xC3\x97 " + sc.hardware.gpu;
    ImGui::PushFont(fonts().small);
    float where_w = ImGui::CalcTextSize(where.c_str()).x;
    ImGui::PopFont();
    if (app.embed) where.clear();  // the embed header already says it
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
    // "71.3 GiB of 80 GiB per GPU · 8.7 GiB headroom (10.9 %)"
    std::string used = format_bytes(e.memory_per_gpu_bytes.total, app.units);
    std::string cap = format_bytes(e.capacity_bytes, app.units);
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted(used.c_str());
    ImGui::PopFont();
    ImGui::SameLine(0, 6);
    text_dim(("of " + cap + (avail > 420 ? " per GPU" : "")).c_str());
    std::string margin = e.fits ? format_bytes(e.headroom_bytes, app.units) + " headroom (" +
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
    draw_largest_fit(app);
    ImGui::Dummy(ImVec2(0, 2));
    // The bar: one GPU, or the whole cluster (every GPU's memory × N against N × capacity).
    static int bar_view = 0;
    {
        static const char* views[] = {"Per GPU", "Whole cluster"};
        const double n = double(sc.parallel.num_gpus);
        ImGui::PushFont(fonts().small);
        ImGui::AlignTextToFramePadding();
        std::string caption = bar_view == 0 ? "Memory of one GPU"
                                            : "All " + std::to_string(sc.parallel.num_gpus) + " GPUs: " +
                                                  format_bytes(e.memory_per_gpu_bytes.total * n, app.units) + " of " +
                                                  format_bytes(e.capacity_bytes * n, app.units);
        text_dim(caption.c_str());
        float seg_w = ImGui::CalcTextSize("Per GPU").x + ImGui::CalcTextSize("Whole cluster").x + 4 * 10 + 2;
        ImGui::SameLine();
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, ImGui::GetContentRegionAvail().x - seg_w));
        segmented("bar_view", views, 2, &bar_view);
        ImGui::PopFont();
    }
    auto segments = memory_segments(e, app.units);
    if (bar_view == 0) {
        stacked_bar("##memory_bar", segments, e.capacity_bytes, cap + " capacity", 30);
        legend(segments, e.memory_per_gpu_bytes.total);
    } else {
        const double n = double(sc.parallel.num_gpus);
        for (auto& seg : segments) {
            seg.value *= n;
            seg.value_text = format_bytes(seg.value, app.units);
        }
        stacked_bar("##cluster_bar", segments, e.capacity_bytes * n,
                    std::to_string(sc.parallel.num_gpus) + " \xC3\x97 " + cap + " = " +
                        format_bytes(e.capacity_bytes * n, app.units),
                    30);
        legend(segments, e.memory_per_gpu_bytes.total * n);
    }
    if (e.host_bytes_total > 0) {
        ImGui::Dummy(ImVec2(0, 2));
        ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
        ImGui::TextWrapped(bar_view == 0 ? "Host (CPU) memory for the offloaded optimizer: %s per GPU, %s in total."
                                         : "Plus host (CPU) memory for the offloaded optimizer: %s per GPU, %s in total.",
                           format_bytes(e.host_bytes_per_gpu, app.units).c_str(),
                           format_bytes(e.host_bytes_total, app.units).c_str());
        ImGui::PopStyleColor();
    }
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
    ImGui::TextUnformatted(app.units == ByteUnits::gib ? "Memory in GiB (2\xC2\xB3\xE2\x81\xB0 bytes, as nvidia-smi reports)"
                                                       : "Memory in GB (10\xE2\x81\xB9 bytes, as datasheets say)");
    ImGui::PopStyleColor();
    ImGui::PopFont();
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

void draw_tiles(App& app, int columns) {
    const Palette& pal = palette();
    const Estimate& e = app.evaluation.estimate;
    const Scenario& sc = app.scenario;
    const ComputeEstimate& c = e.compute;
    struct Tile {
        const char* title;
        std::string value, note, tip;
    };
    std::string params_note = e.parameters.active < e.parameters.total
                                  ? format_count(e.parameters.active) + " active per token"
                                  : format_count(e.parameters.per_layer) + " per layer";
    Tile tiles[4] = {
        {"Parameters", format_count(e.parameters.total), params_note,
         "Exact count from the architecture (embeddings, layers, final norm, LM head)."},
        {"Training time", format_duration(c.seconds),
         std::to_string(sc.parallel.num_gpus) + " GPUs \xC3\x97 " + format_sig(e.resolved.achieved_flops_per_gpu / 1e12, 3) +
             " TFLOP/s",
         "Total FLOPs / (GPUs \xC3\x97 achieved FLOP/s per GPU)."},
        {"Cost", format_money(c.cost),
         format_grouped(c.gpu_hours) + " GPU-h \xC3\x97 " + format_money(sc.hardware.price_per_gpu_hour),
         "GPU-hours \xC3\x97 price per GPU-hour."},
        {"Compute", format_sci(c.total_flops) + " FLOP", format_sig(c.pflop_days, 3) + " PetaFLOP-days",
         "6 \xC2\xB7 P \xC2\xB7 D (+ recomputation and attention FLOPs when enabled)."},
    };
    // Equal tile heights: every tile reserves the tallest note (wrapped at the tile's width).
    const float card_pad = 18;  // begin_card's cell padding
    const float col_w = (ImGui::GetContentRegionAvail().x - 10.0f * (columns - 1)) / columns;
    const float inner_w = std::max(20.0f, col_w - 2 * card_pad);
    ImGui::PushFont(fonts().small);
    float note_h = 0;
    for (const Tile& t : tiles) note_h = std::max(note_h, ImGui::CalcTextSize(t.note.c_str(), nullptr, false, inner_w).y);
    ImGui::PopFont();
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(0, 0));
    if (ImGui::BeginTable("tiles", columns, ImGuiTableFlags_NoSavedSettings | ImGuiTableFlags_SizingStretchSame)) {
        for (int i = 0; i < 4; ++i) {
            if (i % columns == 0) ImGui::TableNextRow();
            ImGui::TableNextColumn();
            float w = ImGui::GetContentRegionAvail().x - ((i % columns) != columns - 1 ? 10.0f : 0.0f);
            ImGui::PushID(i);
            begin_card("tile", w);
            ImGui::PushFont(fonts().small);
            ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
            ImGui::TextUnformatted(tiles[i].title);
            ImGui::PopStyleColor();
            ImGui::PopFont();
            // Headline value: title size unless it would not fit the tile (same line height either way).
            ImGui::PushFont(fonts().title);
            const float value_h = ImGui::GetTextLineHeight();
            bool fits_title = ImGui::CalcTextSize(tiles[i].value.c_str()).x <= ImGui::GetContentRegionAvail().x;
            ImGui::PopFont();
            const float value_y = ImGui::GetCursorPosY();
            ImGui::PushFont(fits_title ? fonts().title : fonts().bold);
            if (!fits_title) ImGui::SetCursorPosY(value_y + (value_h - ImGui::GetTextLineHeight()) * 0.5f);
            ImGui::TextUnformatted(tiles[i].value.c_str());
            ImGui::PopFont();
            ImGui::SetCursorPosY(value_y + value_h + ImGui::GetStyle().ItemSpacing.y);
            ImGui::PushFont(fonts().small);
            ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
            const float note_y = ImGui::GetCursorPosY();
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(tiles[i].note.c_str());
            ImGui::PopTextWrapPos();
            ImGui::SetCursorPosY(note_y);
            ImGui::Dummy(ImVec2(0, note_h));
            ImGui::PopStyleColor();
            ImGui::PopFont();
            end_card();
            help_tooltip(tiles[i].title, tiles[i].tip.c_str());
            if (i / columns < 3 / columns) ImGui::Dummy(ImVec2(0, 2));  // gap between rows of tiles
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    ImGui::PopStyleVar();
    ImGui::Dummy(ImVec2(0, 2));
}

void draw_details(App& app, bool side_by_side) {
    const Estimate& e = app.evaluation.estimate;
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    const ComputeEstimate& c = e.compute;
    const ResolvedScenario& r = e.resolved;
    const ByteUnits u = app.units;
    auto pct = [&](double v) { return m.total > 0 ? format_percent(v / m.total) : std::string("—"); };
    const BytesPerParameter& bpp = e.bytes_per_parameter;
    std::vector<Row> memory = {
        {"Weights", format_bytes(m.weights, u),
         format_sig(bpp.weights, 3) + " B/param \xC2\xB7 " + pct(m.weights) +
             (m.zero3_live_params > 0 ? " \xC2\xB7 incl. " + format_bytes(m.zero3_live_params, u) + " ZeRO-3 live" : "")},
        {"Gradients", format_bytes(m.gradients, u), format_sig(bpp.gradients, 3) + " B/param \xC2\xB7 " + pct(m.gradients)},
        {"Optimizer states", format_bytes(m.optimizer, u),
         (app.scenario.parallel.offload_optimizer ? std::string("offloaded to host \xC2\xB7 ")
                                                  : format_sig(bpp.optimizer, 3) + " B/param \xC2\xB7 ") +
             pct(m.optimizer)},
        {"Activations", format_bytes(m.activations, u),
         format_sig(e.activations.layers_on_gpu, 4) + " layers \xC3\x97 " + format_sig(e.activations.in_flight_microbatches, 3) +
             " in flight \xC2\xB7 " + pct(m.activations)},
        {"Reserved", format_bytes(m.overhead, u), "CUDA context, buffers \xC2\xB7 " + pct(m.overhead)},
        {"Total per GPU", format_bytes(m.total, u), "capacity " + format_bytes(e.capacity_bytes, u)},
    };
    if (e.host_bytes_total > 0) {
        memory.push_back({"Host memory per GPU", format_bytes(e.host_bytes_per_gpu, u), "offloaded optimizer states"});
        memory.push_back({"Host memory, all GPUs", format_bytes(e.host_bytes_total, u), ""});
    }
    std::vector<Row> compute = {
        {"Total FLOPs", format_sci(c.total_flops), c.recompute_flops > 0 ? "incl. " + format_sci(c.recompute_flops) + " recomputation" : "6 \xC2\xB7 P \xC2\xB7 D"},
        {"FLOPs per token", format_sci(c.flops_per_token), ""},
        {"Cluster throughput", format_sig(c.cluster_flops_per_second / 1e15, 3) + " PFLOP/s", ""},
        {"Time", format_duration(c.seconds), ""},
        {"GPU-hours", format_grouped(c.gpu_hours), ""},
        {"TFLOP-hours", format_grouped(c.tflop_hours), ""},
        {"PetaFLOP-days", format_sig(c.pflop_days, 4), ""},
        {"Cost", format_money(c.cost), ""},
        {"Chinchilla-optimal tokens", format_count(c.chinchilla_tokens), "20 tokens per parameter"},
    };
    std::vector<Row> layout = {
        {"Data parallel (DP)", format_grouped(double(r.data_parallel)), "GPUs / (tensor \xC3\x97 pipeline)"},
        {"Gradient accumulation", format_grouped(double(r.grad_accum_steps)), "micro-batches per step"},
        {"Global batch", format_grouped(double(r.global_batch_size)), "sequences per optimizer step"},
        {"Parameters per GPU", format_count(e.params_per_gpu), "before ZeRO sharding"},
    };
    // Rows that explain() covers open their explanation when clicked.
    static const char* memory_ids[] = {"memory_per_gpu_bytes.weights",    "memory_per_gpu_bytes.gradients",
                                       "memory_per_gpu_bytes.optimizer",  "memory_per_gpu_bytes.activations",
                                       "memory_per_gpu_bytes.overhead",   "memory_per_gpu_bytes.total",
                                       "memory_per_gpu_bytes.optimizer",  "memory_per_gpu_bytes.optimizer"};
    for (std::size_t i = 0; i < memory.size() && i < 8; ++i) memory[i].explain = memory_ids[i];
    static const char* compute_ids[] = {"compute.total_flops", "compute.model_flops", nullptr,
                                        "compute.seconds",     "compute.gpu_hours",   "compute.tflop_hours",
                                        "compute.pflop_days",  "compute.cost",        "compute.chinchilla_tokens"};
    for (std::size_t i = 0; i < compute.size() && i < 9; ++i) compute[i].explain = compute_ids[i];
    layout[0].explain = "layout.data_parallel";
    auto card = [&](const char* id, const char* title, const std::vector<Row>& rows, int bold_last, float w) {
        begin_card(id, w);
        section_title(title);
        table_rows(id, rows, bold_last);
        end_card();
    };
    if (side_by_side) {
        float avail = ImGui::GetContentRegionAvail().x, gap = 12;
        float w = (avail - gap) * 0.5f;
        ImGui::BeginGroup();
        card("memory_card", "Memory per GPU", memory, e.host_bytes_total > 0 ? 0 : 1, w);
        ImGui::Dummy(ImVec2(0, 2));
        card("layout_card", "Parallel layout", layout, 0, w);
        ImGui::EndGroup();
        ImGui::SameLine(0, gap);
        card("compute_card", "Compute, time and cost", compute, 0, w);
    } else {
        card("memory_card", "Memory per GPU", memory, e.host_bytes_total > 0 ? 0 : 1, 0);
        ImGui::Dummy(ImVec2(0, 2));
        card("compute_card", "Compute, time and cost", compute, 0, 0);
        ImGui::Dummy(ImVec2(0, 2));
        card("layout_card", "Parallel layout", layout, 0, 0);
    }
}

void draw_warnings(App& app) {
    const Estimate& e = app.evaluation.estimate;
    if (e.warnings.count == 0) return;
    const Palette& pal = palette();
    begin_card("warnings", 0, IM_COL32(0x2E, 0x27, 0x14, 235));
    ImGui::PushFont(fonts().bold);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.warn);
    ImGui::Text("\xE2\x9A\xA0  %d note%s on this setup", e.warnings.count, e.warnings.count == 1 ? "" : "s");
    ImGui::PopStyleColor();
    ImGui::PopFont();
    for (int i = 0; i < e.warnings.count; ++i) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted((std::string("\xE2\x80\xA2 ") + warning_message(e.warnings.items[i])).c_str());
        ImGui::PopTextWrapPos();
    }
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

void draw_errors(App& app) {
    const Palette& pal = palette();
    begin_card("errors", 0, IM_COL32(0x34, 0x16, 0x1B, 235));
    ImGui::PushFont(fonts().title);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.bad);
    ImGui::Text("%d input%s need%s attention", int(app.evaluation.errors.size()),
                app.evaluation.errors.size() == 1 ? "" : "s", app.evaluation.errors.size() == 1 ? "s" : "");
    ImGui::PopStyleColor();
    ImGui::PopFont();
    text_dim("Results appear as soon as every input is valid:");
    for (const auto& err : app.evaluation.errors) {
        const FieldSpec* f = find_field_by_path(err.field);
        std::string line = "\xE2\x80\xA2 " + (f ? std::string(f->label) : err.field) + " " + err.message;
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(line.c_str());
        ImGui::PopTextWrapPos();
    }
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

}  // namespace vramcalc::app
