// Results: the verdict with the stacked memory bar, headline tiles, detail tables, warnings.
// Every number comes from the Estimate (src/core); this file only formats and lays out.
#include <algorithm>
#include <cmath>
#include <string>

#include "app.hpp"
#include "core/outputs.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "ui_charts.hpp"
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

}  // namespace

void draw_verdict(App& app) {
    const Palette& pal = palette();
    const Estimate& e = app.evaluation.estimate;
    const Scenario& sc = app.scenario;
    const MemoryBreakdown& m = e.memory_per_gpu_bytes;
    begin_card("verdict");
    const float avail = ImGui::GetContentRegionAvail().x;
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
    std::string used = format_bytes(m.total, app.units);
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
    draw_fixes(app);
    // When and how: the peak phase, what PyTorch's allocator reports, what lives outside it.
    const std::string phase = step_phase_label(m.peak_phase);
    std::string lower = phase;
    for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
    const std::string peak_line = "Peak in the " + lower + (m.peak_phase == StepPhase::optimizer_step ? "" : " pass") +
                                  "  \xC2\xB7  allocated " + format_bytes(m.peak_allocated, app.units) +
                                  "  \xC2\xB7  reserved " + format_bytes(m.peak_reserved, app.units) +
                                  "  \xC2\xB7  + CUDA context and reserve " +
                                  format_bytes(m.total - m.peak_reserved, app.units);
    {
        // Its parts flow onto new lines whole: a number never breaks from its unit.
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
    {
        std::string text = std::string(e.fits ? "Fits" : "Does not fit") + ": " + used + " of " + cap + " per GPU, " +
                           margin + ". " + peak_line + ".";
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
    // The bar: one GPU, or the whole cluster (every GPU's memory × N against N × capacity).
    static int bar_view = 0;
    {
        static const char* views[] = {"Per GPU", "Whole cluster"};
        const double n = double(sc.parallel.num_gpus);
        ImGui::PushFont(fonts().small);
        ImGui::AlignTextToFramePadding();
        std::string caption = bar_view == 0 ? "At the peak (" + lower + "), one GPU"
                                            : "All " + format_grouped(n) + " GPUs: " +
                                                  format_bytes(m.total * n, app.units) + " of " +
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

void draw_tiles(App& app, int columns) {
    const Palette& pal = palette();
    const Estimate& e = app.evaluation.estimate;
    struct Tile {
        const char* title;
        std::string value, note;
        std::string tip;
        const char* path;
    };
    std::vector<Tile> tiles;  // the headline outputs; a predicted one shows its measured error band
    for (const auto& o : outputs())
        if ((o.show & show_tile) && output_applies(o, e.workload)) {
            const ErrorBand band = output_error_band(o.path, e);
            std::string note = output_note(o, e, app.units), range = format_error_band(band);
            if (band.cases > 0) note = range + (note.empty() ? "" : " \xC2\xB7 " + note);
            std::string tip = band.applies ? std::string(o.help) + "\n\n" + format_error_band(band, true) : o.help;
            tiles.push_back({o.label, format_output(o, e, app.units), note, tip, o.path});
        }
    // The time is for the tokens set under Training (a fine-tune's few, a pre-training's many): say how many.
    for (Tile& t : tiles)
        if (std::string_view(t.path) == "compute.seconds")
            t.note = "for " + format_count(app.scenario.training.tokens) + " tokens, " + t.note;
    const int count = int(tiles.size());
    dom::Control table{"tiles", dom::Role::table, "Headline results"};
    // Equal tile heights: every tile reserves the tallest note (wrapped at the tile's width).
    const float card_pad = 18;  // begin_card's cell padding
    const float col_w = (ImGui::GetContentRegionAvail().x - 10.0f * (columns - 1)) / columns;
    const float inner_w = std::max(20.0f, col_w - 2 * card_pad);
    ImGui::PushFont(fonts().small);
    float note_h = 0;
    for (Tile& t : tiles) {
        t.note = wrap_at_spaces(t.note, inner_w);
        note_h = std::max(note_h, ImGui::CalcTextSize(t.note.c_str()).y);
    }
    ImGui::PopFont();
    const ImVec2 start = ImGui::GetCursorScreenPos();
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(0, 0));
    if (ImGui::BeginTable("tiles", columns, ImGuiTableFlags_NoSavedSettings | ImGuiTableFlags_SizingStretchSame)) {
        for (int i = 0; i < count; ++i) {
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
            record_item(std::string("tile:") + tiles[i].path);
            ImGui::SetCursorPosY(value_y + value_h + ImGui::GetStyle().ItemSpacing.y);
            ImGui::PushFont(fonts().small);
            ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
            const float note_y = ImGui::GetCursorPosY();
            ImGui::TextUnformatted(tiles[i].note.c_str());
            ImGui::SetCursorPosY(note_y);
            ImGui::Dummy(ImVec2(0, note_h));
            ImGui::PopStyleColor();
            ImGui::PopFont();
            end_card();
            help_tooltip(tiles[i].title, tiles[i].tip.c_str());
            std::string note = tiles[i].note;
            std::replace(note.begin(), note.end(), '\n', ' ');
            table.rows.push_back({tiles[i].title, tiles[i].value, note});
            if (i / columns < (count - 1) / columns) ImGui::Dummy(ImVec2(0, 2));  // gap between rows of tiles
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    ImGui::PopStyleVar();
    dom::add_at(std::move(table), start, ImVec2(start.x + ImGui::GetContentRegionAvail().x, ImGui::GetCursorScreenPos().y));
    ImGui::Dummy(ImVec2(0, 2));
}

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
