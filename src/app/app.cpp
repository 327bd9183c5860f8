#include "app.hpp"

#include <algorithm>
#include <cmath>

#include "core/finetune.hpp"
#include "core/outputs.hpp"
#include "core/presets.hpp"
#include "core/text.hpp"
#include "imgui.h"
#include "ui_charts.hpp"
#include "ui_explain.hpp"
#include "ui_plan.hpp"
#include "web.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

bool hash_has_embed_flag(const std::string& h) {
    return h == "embed=1" || h.rfind("embed=1&", 0) == 0 || h.find("&embed=1") != std::string::npos;
}

void draw_logo(ImVec2 p, float size) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    dl->AddRectFilled(p, ImVec2(p.x + size, p.y + size), IM_COL32(0x22, 0x2E, 0x4A, 255), size * 0.28f);
    // Three stacked bars: the logo is the product's own chart.
    float pad = size * 0.2f, bh = (size - 2 * pad) / 3.4f;
    float widths[3] = {0.55f, 0.85f, 0.7f};
    ImU32 cols[3] = {pal.terms[0], pal.terms[2], pal.terms[3]};
    for (int i = 0; i < 3; ++i) {
        float y = p.y + pad + i * bh * 1.2f;
        dl->AddRectFilled(ImVec2(p.x + pad, y), ImVec2(p.x + pad + (size - 2 * pad) * widths[i], y + bh), cols[i],
                          bh * 0.4f);
    }
}

void draw_header(App& app, float width) {
    const Palette& pal = palette();
    const bool narrow = width < 640;
    ImVec2 start = ImGui::GetCursorScreenPos();
    const float logo = 30;
    draw_logo(start, logo);
    ImGui::SetCursorScreenPos(ImVec2(start.x + logo + 12, start.y + 2));
    ImGui::BeginGroup();
    ImGui::PushFont(fonts().title);
    ImGui::TextUnformatted("vramcalc");
    ImGui::PopFont();
    if (!narrow) {
        ImGui::SameLine(0, 12);
        ImGui::SetCursorPosY(ImGui::GetCursorPosY() + 2);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
        ImGui::TextUnformatted("GPU memory and compute for training transformers");
        ImGui::PopStyleColor();
    }
    ImGui::EndGroup();

    // Right side: units toggle and Copy link.
    static const char* unit_labels[] = {"GiB", "GB"};
    const char* copy_label = ImGui::GetTime() < app.copied_until ? "Copied \xE2\x9C\x93" : "Copy link";
    ImGuiStyle& style = ImGui::GetStyle();
    float seg_w = ImGui::CalcTextSize("GiB").x + ImGui::CalcTextSize("GB").x + 4 * 10 + 2;
    float copy_w = ImGui::CalcTextSize("Copied \xE2\x9C\x93").x + 24;
    float units_label_w = narrow ? 0 : ImGui::CalcTextSize("Units").x + style.ItemSpacing.x;
    float right = start.x + width;
    float x = right - copy_w - 12 - seg_w - units_label_w;
    ImGui::SetCursorScreenPos(ImVec2(x, start.y + 1));
    if (!narrow) {
        ImGui::AlignTextToFramePadding();
        text_dim("Units");
        ImGui::SameLine();
    }
    int unit = app.units == ByteUnits::gib ? 0 : 1;
    if (segmented("units", unit_labels, 2, &unit)) {
        app.units = unit == 0 ? ByteUnits::gib : ByteUnits::gb;
        app.pending_sync = true;
    }
    help_tooltip("Memory units", "GiB = 2\xC2\xB3\xE2\x81\xB0 bytes (what nvidia-smi and PyTorch report). GB = 10\xE2\x81\xB9 bytes (datasheets).");
    ImGui::SameLine(0, 12);
    ImGui::SetCursorScreenPos(ImVec2(right - copy_w, ImGui::GetCursorScreenPos().y));
    ImGui::PushStyleVar(ImGuiStyleVar_ButtonTextAlign, ImVec2(0.5f, 0.5f));
    ImGui::PushStyleColor(ImGuiCol_Button, pal.accent);
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, IM_COL32(0x8D, 0xBB, 0xFF, 255));
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, IM_COL32(0x5A, 0x94, 0xEE, 255));
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(10, 16, 30, 255));
    if (ImGui::Button(copy_label, ImVec2(copy_w, 0))) {
        web::copy_to_clipboard(web::page_url_with_hash(app.hash_for(app.link), false));
        app.copied_until = ImGui::GetTime() + 1.6;
    }
    record_item("copy_link");
    ImGui::PopStyleColor(4);
    ImGui::PopStyleVar();
    help_tooltip("Copy link", "Copies a link that opens this exact scenario (it lives in the part of the URL after #).");
    ImGui::SetCursorScreenPos(ImVec2(start.x, start.y + logo + 14));
}

void draw_link_banner(App& app) {
    if (!app.link_banner_open || app.link_issues.empty()) return;
    const Palette& pal = palette();
    begin_card("link_banner", 0, IM_COL32(0x3A, 0x2E, 0x12, 235));
    ImGui::PushFont(fonts().bold);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.warn);
    ImGui::TextWrapped("\xE2\x9A\xA0  This link had %d problem%s, so those values use the defaults:",
                       int(app.link_issues.size()), app.link_issues.size() == 1 ? "" : "s");
    ImGui::PopStyleColor();
    ImGui::PopFont();
    int shown = 0;
    for (const auto& issue : app.link_issues) {
        if (++shown > 8) {
            text_dim(("… and " + std::to_string(app.link_issues.size() - 8) + " more").c_str());
            break;
        }
        const FieldSpec* f = find_field_by_path(issue.field);
        std::string line = "\xE2\x80\xA2 " + (f ? std::string(f->label) + " (" + issue.field + ")" : issue.field) + " " +
                           issue.message;
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(line.c_str());
        ImGui::PopTextWrapPos();
    }
    if (pill_button("Dismiss")) app.link_banner_open = false;
    record_item("dismiss_banner");
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

App g_app;

}  // namespace

App& the_app() { return g_app; }

void App::init() {
    std::string h = web::location_hash();
    embed = web::is_embed_mode();
    load_fragment(h);
}

void App::load_fragment(const std::string& fragment) {
    codec::DecodeResult r = codec::decode_link(fragment);
    link_issues = r.issues;
    link_banner_open = !link_issues.empty();
    notes = r.notes;
    set_scenario(r.scenario);
    written_hash = fragment;  // after_frame rewrites it in canonical form (a repaired link included)
}

void App::on_hash_changed() {
    std::string h = web::location_hash();
    if (h == written_hash) return;
    load_fragment(h);
}

void App::set_scenario(const Scenario& next) {
    scenario = next;
    touched();
}

void App::touched() {
    evaluation = evaluate(scenario);
    ++revision;
    pending_sync = true;
}

const char* App::field_error(const char* path) const {
    for (const auto& e : evaluation.errors)
        if (e.field == path) return e.message.c_str();
    return nullptr;
}

std::string App::hash_for(const std::string& fragment) const {
    std::string current = web::location_hash();
    bool flag = hash_has_embed_flag(current) || (embed && hash_has_embed_flag(written_hash));
    return flag ? "embed=1&" + fragment : fragment;
}

bool App::animating() const { return ImGui::GetTime() < copied_until + 0.1; }

std::string App::summary_text() const {
    const Scenario& s = scenario;
    auto n = [](std::int64_t v) { return format_grouped(double(v)); };
    // The labels as typed may still break the text rule (the error names the field): shown inert.
    std::string setup = visible_text(s.model.name) + " on " + n(s.parallel.num_gpus) + " \xC3\x97 " +
                        visible_text(s.hardware.gpu) + " (ZeRO-" +
                        n(s.parallel.zero_stage) + ", tensor " + n(s.parallel.tensor) + ", pipeline " +
                        n(s.parallel.pipeline) + ", micro-batch " + n(s.training.micro_batch_size) + ", sequence " +
                        n(s.training.seq_len) + ")" +
                        (s.training.method != TrainingMethod::full ? ", " + describe_method(s.training) : "");
    if (!evaluation.ok()) {
        std::string out = setup + ": cannot estimate — ";
        for (std::size_t i = 0; i < evaluation.errors.size(); ++i)
            out += (i ? "; " : "") + evaluation.errors[i].field + " " + evaluation.errors[i].message;
        return out + ".";
    }
    const Estimate& e = evaluation.estimate;
    std::string out = setup + ": " + format_bytes(e.memory_per_gpu_bytes.total, units) + " of " +
                      format_bytes(e.capacity_bytes, units) + " per GPU — ";
    out += e.fits ? "fits, " + format_bytes(e.headroom_bytes, units) + " headroom."
                  : "does not fit, short by " + format_bytes(-e.headroom_bytes, units) + ".";
    // The headline outputs: "Parameters 6.66 B, Total FLOPs 1.20 × 10²², …" (memory extras last:
    // the sentence before already says the memory).
    const char* separator = " ";
    for (OutputSection section : {OutputSection::parameters, OutputSection::compute, OutputSection::layout,
                                  OutputSection::memory, OutputSection::detail})
        for (const auto& o : outputs()) {
            if (o.section != section || !(o.show & show_summary)) continue;
            if ((o.show & hide_when_zero) && o.value(e) == 0) continue;
            out += separator + std::string(o.label) + " " + format_output(o, e, units);
            separator = ", ";
        }
    return out + ".";
}

void App::after_frame() {
    if (!pending_sync) return;
    pending_sync = false;
    link = codec::encode_link(scenario);
    std::string hash = hash_for(link);
    if (hash != written_hash) {  // canonical form; a repaired hostile link is rewritten too
        web::replace_hash(hash);
        written_hash = hash;
    }
    std::string text = summary_text();
    if (text != summary) {
        web::set_summary(text);
        summary = text;
    }
}

void App::draw(float width, float height) {
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(width, height));
    const bool wide = !embed && width >= 920;
    const float pad = width < 520 ? 12.0f : 24.0f;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, pad * 0.75f));
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                             ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (wide) flags |= ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
    ImGui::Begin("vramcalc", nullptr, flags);
    ImGui::PopStyleVar();
    const float content_w = ImGui::GetContentRegionAvail().x;

    if (embed) {
        {
            ImGui::AlignTextToFramePadding();
            ImGui::PushFont(fonts().bold);
            std::string title = scenario.model.name + "  \xC2\xB7  " + std::to_string(scenario.parallel.num_gpus) +
                                " \xC3\x97 " + scenario.hardware.gpu;
            ImGui::TextUnformatted(title.c_str());
            ImGui::PopFont();
            const char* open_label = "Open in vramcalc \xE2\x86\x97";
            float bw = ImGui::CalcTextSize(open_label).x + 24;
            static const char* unit_labels[] = {"GiB", "GB"};
            float seg_w = ImGui::CalcTextSize("GiB").x + ImGui::CalcTextSize("GB").x + 4 * 10 + 2;
            if (content_w > 420) ImGui::SameLine(content_w - bw - seg_w - 8 + ImGui::GetStyle().WindowPadding.x);
            int unit = units == ByteUnits::gib ? 0 : 1;
            if (segmented("units", unit_labels, 2, &unit)) {
                units = unit == 0 ? ByteUnits::gib : ByteUnits::gb;
                pending_sync = true;
            }
            ImGui::SameLine(0, 8);
            if (pill_button(open_label, true))
                web::open_in_new_tab(web::page_url_with_hash(codec::encode_link(scenario), true));
            record_item("open_full");
            help_tooltip("Open the full calculator", "Opens this scenario in the full calculator in a new tab, where every input can be changed.");
        }
        ImGui::Dummy(ImVec2(0, 2));
        draw_link_banner(*this);
        if (evaluation.ok()) {
            draw_verdict(*this);
            draw_tiles(*this, content_w >= 600 ? 4 : 2);
            draw_warnings(*this);
        } else {
            draw_errors(*this);
        }
        ImGui::End();
        return;
    }

    draw_header(*this, content_w);
    draw_link_banner(*this);
    draw_notes(*this);

    if (wide) {
        const float gap = 20;
        float left_w = std::clamp(content_w * 0.36f, 380.0f, 520.0f);
        float avail_h = ImGui::GetContentRegionAvail().y;
        ImGui::BeginChild("inputs_column", ImVec2(left_w, avail_h), false);
        draw_presets(*this, false);
        draw_inputs(*this);
        ImGui::Dummy(ImVec2(0, 8));
        ImGui::EndChild();
        ImGui::SameLine(0, gap);
        ImGui::BeginChild("results_column", ImVec2(0, avail_h), false);
        if (evaluation.ok()) {
            draw_verdict(*this);
            draw_tiles(*this, ImGui::GetContentRegionAvail().x >= 640 ? 4 : 2);
            draw_warnings(*this);
            draw_fit_map(*this);
            draw_sweeps(*this);
            draw_plan(*this);
            draw_details(*this, ImGui::GetContentRegionAvail().x >= 720);
            draw_explain(*this);
        } else {
            draw_errors(*this);
        }
        ImGui::Dummy(ImVec2(0, 8));
        ImGui::EndChild();
    } else {
        if (evaluation.ok()) {
            draw_verdict(*this);
            draw_tiles(*this, content_w >= 720 ? 4 : 2);
        } else {
            draw_errors(*this);
        }
        draw_presets(*this, content_w < 560);
        draw_inputs(*this);
        if (evaluation.ok()) {
            draw_warnings(*this);
            draw_fit_map(*this);
            draw_sweeps(*this);
            draw_plan(*this);
            draw_details(*this, false);
            draw_explain(*this);
        }
        ImGui::Dummy(ImVec2(0, 8));
    }
    ImGui::End();
}

}  // namespace vramcalc::app
