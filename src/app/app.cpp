#include "app.hpp"

#include <algorithm>
#include <cmath>

#include "codec/field_text.hpp"
#include "core/finetune.hpp"
#include "core/outputs.hpp"
#include "core/presets.hpp"
#include "core/text.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "ui_charts.hpp"
#include "ui_explain.hpp"
#include "ui_plan.hpp"
#include "ui_serving.hpp"
#include "web.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

const std::vector<Shortcut> shortcut_table = {
    {"/", "model_picker", "Search the model presets (or type a Hugging Face model id to fetch its config.json)"},
    {"G", "gpu_picker", "Choose a GPU preset"},
    {"F", "framework_picker", "Choose a training framework profile"},
    {"I", "import", "Import a config.json, a .gguf file (its header) or a DeepSpeed JSON file (pasting or dropping one anywhere works too)"},
    {"U", "units", "Switch memory units between GiB and GB"},
    {"T", "theme", "Switch between the light and the dark theme"},
    {"C", "copy_link", "Copy the link to this scenario"},
    {"M", "copy_markdown", "Copy the results as Markdown"},
    {"?", "keyboard_help", "Show or hide the keyboard help"},
};

// Keys of the fields themselves (documented with the shortcuts; handled by web/dom.js).
const char* const field_keys[][2] = {
    {"Tab, Shift+Tab", "Move through every control in reading order"},
    {"Enter, Space", "Press the focused button or toggle"},
    {"Enter", "Apply a typed value (a pause or leaving the field applies it too); pick the highlighted preset"},
    {"Escape", "Put back the value a field had before typing; close a picker"},
    {"\xE2\x86\x91, \xE2\x86\x93", "Step a number (Shift, Page Up, Page Down: ten steps); move in a picker's list"},
};

void draw_logo(ImVec2 p, float size) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    dl->AddRectFilled(p, ImVec2(p.x + size, p.y + size), pal.logo, size * 0.28f);
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

// The units toggle (GiB | GB) of the header and the embed.
void units_toggle(App& app, bool with_caption) {
    static const char* unit_labels[] = {"GiB", "GB"};
    if (with_caption) {
        ImGui::AlignTextToFramePadding();
        text_dim("Units");
        ImGui::SameLine();
    }
    int unit = app.units == ByteUnits::gib ? 0 : 1;
    if (segmented("units", unit_labels, 2, &unit,
                  "Memory units: GiB = 2^30 bytes (as nvidia-smi and PyTorch report), GB = 10^9 bytes (datasheets)",
                  shortcut_for("units"))) {
        app.view.units = unit == 0 ? codec::ViewUnits::gib : codec::ViewUnits::gb;
        app.view_changed();
    }
    help_tooltip("Memory units", "GiB = 2\xC2\xB3\xE2\x81\xB0 bytes (what nvidia-smi and PyTorch report). GB = 10\xE2\x81\xB9 bytes (datasheets).");
}

float units_toggle_width(bool with_caption) {
    const float pad = ImGui::GetStyle().FramePadding.x;
    return ImGui::CalcTextSize("GiB").x + ImGui::CalcTextSize("GB").x + 4 * 10 + 2 +
           (with_caption ? ImGui::CalcTextSize("Units").x + ImGui::GetStyle().ItemSpacing.x : 0) + (pad - 9) * 2;
}

// Sun / moon: switches to the other theme (kept in the link as theme=light|dark).
bool theme_button(App& app, float size) {
    const Palette& pal = palette();
    ImVec2 p = ImGui::GetCursorScreenPos();
    bool pressed = ImGui::InvisibleButton("##theme", ImVec2(size, size));
    bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + size, p.y + size),
                      ImGui::GetColorU32(hovered ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg), 6);
    ImVec2 c(p.x + size * 0.5f, p.y + size * 0.5f);
    if (app.light) {  // a moon: what pressing gives
        dl->AddCircleFilled(c, size * 0.24f, pal.text_dim, 24);
        dl->AddCircleFilled(ImVec2(c.x + size * 0.11f, c.y - size * 0.08f), size * 0.2f,
                            ImGui::GetColorU32(hovered ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg), 24);
    } else {  // a sun
        dl->AddCircleFilled(c, size * 0.15f, pal.text_dim, 20);
        for (int i = 0; i < 8; ++i) {
            float a = float(i) * 3.14159265f / 4;
            ImVec2 d(std::cos(a), std::sin(a));
            dl->AddLine(ImVec2(c.x + d.x * size * 0.23f, c.y + d.y * size * 0.23f),
                        ImVec2(c.x + d.x * size * 0.32f, c.y + d.y * size * 0.32f), pal.text_dim, 1.6f);
        }
    }
    record_item("theme");
    dom::Control b{"theme", dom::Role::button, app.light ? "Dark theme" : "Light theme",
                   "Switches the colour theme; the choice is kept in the link (theme=light or dark)."};
    b.shortcut = shortcut_for("theme");
    dom::add(std::move(b));
    help_tooltip(app.light ? "Dark theme" : "Light theme", "The choice is kept in the link.");
    if (pressed || dom::activated("theme")) {
        app.view.theme = app.light ? codec::ViewTheme::dark : codec::ViewTheme::light;
        app.view_changed();
        return true;
    }
    return false;
}

void copy_link_button(App& app, float width) {
    const Palette& pal = palette();
    const char* copy_label = ImGui::GetTime() < app.copied_until ? "Copied \xE2\x9C\x93" : "Copy link";
    ImGui::PushStyleVar(ImGuiStyleVar_ButtonTextAlign, ImVec2(0.5f, 0.5f));
    ImGui::PushStyleColor(ImGuiCol_Button, pal.accent);
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, pal.accent_hover);
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, pal.accent_active);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.on_accent);
    bool pressed = ImGui::Button(copy_label, ImVec2(width, 0));
    ImGui::PopStyleColor(4);
    ImGui::PopStyleVar();
    record_item("copy_link");
    dom::Control b{"copy_link", dom::Role::button, copy_label,
                   "Copies a link that opens this exact scenario (it lives in the part of the URL after #)."};
    b.shortcut = shortcut_for("copy_link");
    dom::add(std::move(b));
    if (pressed || dom::activated("copy_link")) {
        web::copy_to_clipboard(web::page_url_with_hash(app.hash_for(app.link), false));
        app.copied_until = ImGui::GetTime() + 1.6;
    }
    help_tooltip("Copy link", "Copies a link that opens this exact scenario (it lives in the part of the URL after #).");
}

// Header: logo, name, tagline (when it fits), then right-aligned: units, theme, keyboard help,
// Copy link. Every width from 320 px up lays out without overlap: what does not fit is dropped in
// this order (tagline, "Units" caption, help button, the name beside the logo) before anything could touch.
void draw_header(App& app, float width) {
    const Palette& pal = palette();
    ImVec2 start = ImGui::GetCursorScreenPos();
    const float logo = 30;
    const float h = ImGui::GetFrameHeight();
    const float gap = 8;
    const float copy_w = ImGui::CalcTextSize("Copied \xE2\x9C\x93").x + 24;
    const float theme_w = h, help_w = h;
    ImGui::PushFont(fonts().title);
    const float name_w = ImGui::CalcTextSize("vramcalc").x;
    ImGui::PopFont();
    const char* tagline = "GPU memory and compute for training transformers";
    const float tagline_w = ImGui::CalcTextSize(tagline).x;
    const float left_w = logo + 12 + name_w;
    auto right_w = [&](bool caption, bool help) {
        return units_toggle_width(caption) + gap + theme_w + (help ? gap + help_w : 0) + gap + copy_w;
    };
    const bool show_help = left_w + 16 + right_w(false, true) <= width;
    const bool show_caption = left_w + 16 + right_w(true, show_help) <= width;
    const bool show_tagline = left_w + 12 + tagline_w + 24 + right_w(show_caption, show_help) <= width;
    const bool show_name = left_w + 16 + right_w(false, show_help) <= width;  // else the logo alone (phones)

    draw_logo(ImVec2(start.x, start.y + (h - logo) * 0.5f), logo);
    ImGui::SetCursorScreenPos(ImVec2(start.x + logo + 12, start.y + (h - ImGui::GetFontSize() * 1.2f) * 0.5f));
    ImGui::PushFont(fonts().title);
    ImGui::TextUnformatted(show_name ? "vramcalc" : "");
    ImGui::PopFont();
    record_item("header_name");
    dom::add({"header_name", dom::Role::heading, "vramcalc: " + std::string(tagline)}).level = 2;
    if (show_tagline) {
        ImGui::SameLine(0, 12);
        ImGui::SetCursorPosY(ImGui::GetCursorPosY() + 2);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
        ImGui::TextUnformatted(tagline);
        ImGui::PopStyleColor();
        record_item("header_tagline");
    }

    float x = start.x + width - right_w(show_caption, show_help);
    ImGui::SetCursorScreenPos(ImVec2(x, start.y));
    units_toggle(app, show_caption);
    ImGui::SameLine(0, gap);
    theme_button(app, theme_w);
    if (show_help) {
        ImGui::SameLine(0, gap);
        bool pressed = ImGui::Button("?", ImVec2(help_w, h));
        record_item("keyboard_help");
        dom::Control b{"keyboard_help", dom::Role::button, "Keyboard shortcuts", "Shows or hides the list of keys."};
        b.expanded = app.keyboard_help_open;
        b.shortcut = shortcut_for("keyboard_help");
        dom::add(std::move(b));
        if (pressed || dom::activated("keyboard_help")) app.keyboard_help_open = !app.keyboard_help_open;
        help_tooltip("Keyboard shortcuts", "Tab moves through every control; press ? for the list.");
    } else if (dom::activated("keyboard_help")) {
        app.keyboard_help_open = !app.keyboard_help_open;
    }
    ImGui::SameLine(0, gap);
    ImGui::SetCursorScreenPos(ImVec2(start.x + width - copy_w, start.y));
    copy_link_button(app, copy_w);
    ImGui::SetCursorScreenPos(ImVec2(start.x, start.y + std::max(logo, h) + 14));
}

void draw_link_banner(App& app) {
    if (!app.link_banner_open || app.link_issues.empty()) return;
    const Palette& pal = palette();
    begin_card("link_banner", 0, pal.warn_card);
    ImGui::PushFont(fonts().bold);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.warn);
    // As many problems as the JS API's list stands for (its last issue counts those not listed).
    // The DOM layer shows an alert as "label: description", so the label has no colon of its own.
    const std::size_t problems = app.link_problems;
    std::string summary = "This link had " + format_grouped(double(problems)) + " problem" +
                          (problems == 1 ? "" : "s") + ", so those values use the defaults";
    std::string title = "\xE2\x9A\xA0  " + summary + ":";
    ImGui::TextWrapped("%s", title.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    dom::Control alert{"link_banner", dom::Role::alert, summary};
    int shown = 0;
    for (const auto& issue : app.link_issues) {
        if (++shown > 8) {
            std::string more = "… and " + format_grouped(double(problems - 8)) + " more";
            text_dim(more.c_str());
            alert.description += more;
            break;
        }
        const FieldSpec* f = find_field_by_path(issue.field);
        std::string line = (f ? std::string(f->label) + " (" + issue.field + ")" : issue.field) + " " + issue.message;
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(("\xE2\x80\xA2 " + line).c_str());
        ImGui::PopTextWrapPos();
        alert.description += line + ". ";
    }
    dom::add_at(std::move(alert), ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    if (pill_button("Dismiss", false, "dismiss_banner", "Hides this message")) app.link_banner_open = false;
    record_item("dismiss_banner");
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

void draw_keyboard_help(App& app) {
    if (!app.keyboard_help_open) return;
    const Palette& pal = palette();
    begin_card("keyboard_help_card", 0, pal.note_card);
    section_title("Keyboard", nullptr, "keyboard_title");
    dom::Control table{"keyboard_table", dom::Role::table, "Keyboard shortcuts"};
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(6, 3));
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_NoSavedSettings)) {
        ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed, 110);
        ImGui::TableSetupColumn("does", ImGuiTableColumnFlags_WidthStretch);
        auto row = [&](const char* keys, const char* does) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushFont(fonts().bold);
            ImGui::TextUnformatted(keys);
            ImGui::PopFont();
            ImGui::TableNextColumn();
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(does);
            ImGui::PopTextWrapPos();
            table.rows.push_back({keys, does, ""});
        };
        for (const auto& s : shortcut_table) row(s.keys, s.does);
        for (const auto& k : field_keys) row(k[0], k[1]);
        ImGui::EndTable();
    }
    ImGui::PopStyleVar();
    dom::add(std::move(table));
    if (pill_button("Close", false, "close_keyboard_help", "Hides the keyboard help")) app.keyboard_help_open = false;
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

const char* const title_dot = "  \xC2\xB7  ";

// "QLoRA r16", "LoRA r8", "freeze (last 4 layers)", "full training".
std::string method_short(const TrainingConfig& t) {
    const std::string rank = " r" + std::to_string(t.lora_rank);
    switch (t.method) {
        case TrainingMethod::full: return "full training";
        case TrainingMethod::lora: return "LoRA" + rank;
        case TrainingMethod::qlora: return "QLoRA" + rank;
        case TrainingMethod::freeze:
            return t.trainable_layers > 0 ? "freeze (last " + std::to_string(t.trainable_layers) + " layers)" : "freeze";
    }
    return "";
}

std::string recompute_short(Recompute r) {
    switch (r) {
        case Recompute::none: return "no recompute";
        case Recompute::selective: return "selective recompute";
        case Recompute::full: return "full recompute";
        case Recompute::ops: return "op-level recompute";
    }
    return "";
}

}  // namespace

std::string setup_short(const Scenario& s) {
    return method_short(s.training) + title_dot + "s " + format_grouped(double(s.training.seq_len)) + title_dot +
           recompute_short(s.training.recompute);
}

namespace {

// The "editing" state: a typed value waits for Enter, a pause or leaving the field.
void draw_editing_hint(App& app) {
    if (!app.editing()) return;
    const Palette& pal = palette();
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
    ImGui::TextUnformatted("\xE2\x80\xA2 Editing: the results update when you press Enter or pause (Escape puts the value back)");
    record_item("editing_hint");
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

void draw_stale_banner(App& app) {
    if (app.evaluation.ok() || !app.has_valid) return;
    const Palette& pal = palette();
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.bad);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted("Showing the last valid result (dimmed) until the inputs marked in red are fixed.");
    record_item("stale_banner");
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

// Phones: once the verdict card has scrolled away, a bar pinned to the top keeps it in view
// (while a field far below is edited): "✓ Fits · 14.0 of 24.0 GiB · 9.9 GiB headroom". Takes no input.
void draw_sticky_verdict(App& app, float width) {
    const Palette& pal = palette();
    const bool ok = app.evaluation.ok();
    const Estimate& e = ok ? app.evaluation.estimate : app.valid_evaluation.estimate;
    std::string text, margin;
    if (!ok) {
        text = "\xE2\x9C\x95 Cannot estimate";
        margin = "fix the inputs marked in red";
    } else {
        text = std::string(e.fits ? "\xE2\x9C\x93 Fits" : "\xE2\x9C\x95 Does not fit");
        margin = format_bytes(e.memory_per_gpu_bytes.total, app.units) + " of " + format_bytes(e.capacity_bytes, app.units) +
                 "  \xC2\xB7  " + (e.fits ? format_bytes(e.headroom_bytes, app.units) + " headroom"
                                      : "short by " + format_bytes(-e.headroom_bytes, app.units));
    }
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(width, 0));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, with_alpha(pal.backdrop, 255));
    ImGui::PushStyleColor(ImGuiCol_Border, pal.card_border);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(12, 7));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 1.0f);
    ImGui::Begin("##sticky_verdict", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::PushFont(fonts().bold);
    ImGui::PushStyleColor(ImGuiCol_Text, ok && e.fits ? pal.good : pal.bad);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    ImGui::SameLine(0, 10);
    const bool one_line = ImGui::CalcTextSize(margin.c_str()).x <= ImGui::GetContentRegionAvail().x;
    if (!one_line) ImGui::NewLine();
    text_dim(margin.c_str());
    if (app.editing()) {
        ImGui::PushFont(fonts().small);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
        ImGui::TextUnformatted("Editing: Enter or a pause applies, Escape puts the value back");
        ImGui::PopStyleColor();
        ImGui::PopFont();
    }
    const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    record_rect("sticky_verdict", at, ImVec2(at.x + size.x, at.y + size.y));
    ImGui::End();
    ImGui::PopStyleVar(2);
    ImGui::PopStyleColor(2);
}

App g_app;

// "Llama-3.1-8B · QLoRA r16 · s 2,048 · full recompute · 1 × RTX-4090": what the embed computes.
// Serving: "Llama-3.1-70B · vllm awq · 32,768 × 1 · 2 × RTX-4090" (one replica: t·p GPUs).
std::string embed_title(const Scenario& s, bool with_setup) {
    const bool serve = s.workload == Workload::inference;
    const std::int64_t gpus = serve ? s.parallel.tensor * s.parallel.pipeline : s.parallel.num_gpus;
    const std::string setup =
        serve ? std::string(engine_names()[std::size_t(s.inference.engine)]) + " " +
                    weight_format_names()[std::size_t(s.inference.weight_format)] + title_dot +
                    format_grouped(double(s.inference.context_len)) + " \xC3\x97 " + format_grouped(double(s.inference.concurrency))
              : setup_short(s);
    return visible_text(s.model.name) + title_dot + (with_setup ? setup + title_dot : std::string()) +
           format_grouped(double(gpus)) + " \xC3\x97 " + visible_text(s.hardware.gpu);
}

}  // namespace

App& the_app() { return g_app; }

const std::vector<Shortcut>& shortcuts() { return shortcut_table; }

const char* shortcut_for(const char* control_id) {
    for (const auto& s : shortcut_table)
        if (std::string_view(s.control) == control_id) return s.keys;
    return "";
}

LastValidResults::LastValidResults(App& a) : app(a), active(!a.evaluation.ok() && a.has_valid) {
    if (!active) return;
    std::swap(app.scenario, app.valid_scenario);
    std::swap(app.evaluation, app.valid_evaluation);
    ImGui::BeginDisabled();
}

LastValidResults::~LastValidResults() {
    if (!active) return;
    ImGui::EndDisabled();
    std::swap(app.scenario, app.valid_scenario);
    std::swap(app.evaluation, app.valid_evaluation);
}

void App::init() {
    std::string h = web::location_hash();
    load_fragment(h);
    embed = view.embed || web::is_embed_mode();
    prefers_light = web::prefers_light();
    apply_theme();
}

void App::load_fragment(const std::string& fragment) {
    codec::DecodeResult r = codec::decode_link(fragment);
    codec::ViewDecodeResult v = codec::decode_view(fragment);
    link_issues = r.issues;
    link_issues.insert(link_issues.end(), v.issues.begin(), v.issues.end());
    link_problems = codec::problem_count(r.issues) + v.issues.size();
    link_banner_open = !link_issues.empty();
    notes = r.notes;
    clear_input_errors();
    const bool embed_before = view.embed;
    view = v.view;
    view.embed = view.embed || embed_before;
    units = view.units == codec::ViewUnits::gb ? ByteUnits::gb : ByteUnits::gib;
    set_scenario(r.scenario);
    apply_theme();
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
    // Text typed into a field that is no value of it ("abc", "32.5" in a whole-number field) makes
    // the inputs invalid like any other rule: the results dim, the summary says why.
    std::vector<ValidationIssue> typed;
    for (const auto& [path, why] : input_errors) typed.push_back({path, why});
    evaluation.errors.insert(evaluation.errors.begin(), typed.begin(), typed.end());
    if (evaluation.ok()) {
        valid_scenario = scenario;
        valid_evaluation = evaluation;
        has_valid = true;
    }
    ++revision;
    pending_sync = true;
}

void App::view_changed() {
    units = view.units == codec::ViewUnits::gb ? ByteUnits::gb : ByteUnits::gib;
    apply_theme();
    pending_sync = true;
}

void App::apply_theme() {
    bool want = view.theme == codec::ViewTheme::light || (view.theme == codec::ViewTheme::system && prefers_light);
    light = want;
    set_light_theme(want);
    web::set_page_theme(want);
}

void App::clear_input_errors() {
    for (const auto& [path, why] : input_errors) dom::clear_draft(path);  // the refused text goes too
    input_errors.clear();
}

bool App::editing() const {
    for (const std::string& id : dom::draft_ids()) {
        if (input_errors.count(id)) continue;  // applied and refused: shown as an error, not as editing
        if (id.size() > 7 && id.compare(id.size() - 7, 7, ":search") == 0) continue;  // a picker's filter
        return true;
    }
    return false;
}

const char* App::field_error(const char* path) const {
    if (auto it = input_errors.find(std::string_view(path)); it != input_errors.end()) return it->second.c_str();
    for (const auto& e : evaluation.errors)
        if (e.field == path) return e.message.c_str();
    return nullptr;
}

// A pasted, dropped, picked or fetched config, read by the JS API's importHfConfig /
// importDeepSpeedConfig (web/main.js loads it on the first import, so the page itself carries no
// JSON parser): what it set comes as "path<TAB>value" lines, applied like typed values, so a
// combination the layout does not allow shows as errors in place instead of being repaired.
void App::import_fields(const std::string& fields, const ImportReport& report) {
    import_report = report;
    import_report.open = true;
    import_report.busy = false;
    std::size_t start = 0;
    while (start < fields.size()) {
        std::size_t end = fields.find('\n', start);
        if (end == std::string::npos) end = fields.size();
        std::string_view line(fields.data() + start, end - start);
        start = end + 1;
        auto tab = line.find('\t');
        if (tab == std::string_view::npos) continue;
        const FieldSpec* f = find_field_by_path(line.substr(0, tab));
        if (!f) continue;
        std::string problem = codec::set_field_from_text(scenario, *f, line.substr(tab + 1));
        if (!problem.empty()) import_report.issues.push_back({f->path, problem});
    }
    notes.clear();
    clear_input_errors();
    touched();
}

std::string App::hash_for(const std::string& fragment) const {
    std::string out = embed && view.embed ? "embed=1&" + fragment : fragment;
    std::string v = codec::encode_view(view);
    return v.empty() ? out : out + "&" + v;
}

bool App::animating() const { return ImGui::GetTime() < copied_until + 0.1; }

std::string App::summary_text() const {
    if (serving(*this)) return serving_summary_text(*this);
    const Scenario& s = scenario;
    auto n = [](std::int64_t v) { return format_grouped(double(v)); };
    // What and where first, so a one- or two-line bar (embed, phone) still shows the verdict; the
    // labels as typed may still break the text rule (the error names the field): shown inert.
    std::string head = visible_text(s.model.name) +
                       (s.training.method != TrainingMethod::full ? ", " + method_short(s.training) : "") + ", " +
                       n(s.parallel.num_gpus) + " \xC3\x97 " + visible_text(s.hardware.gpu);
    std::string setup = " Setup: ZeRO-" + n(s.parallel.zero_stage) + ", tensor " + n(s.parallel.tensor) + ", pipeline " +
                        n(s.parallel.pipeline) + ", micro-batch " + n(s.training.micro_batch_size) + ", sequence " +
                        n(s.training.seq_len) + ", " + recompute_short(s.training.recompute) +
                        (s.training.method != TrainingMethod::full ? ", " + describe_method(s.training) : "") + ".";
    if (!evaluation.ok()) {
        std::string out = head + ": cannot estimate — ";
        for (std::size_t i = 0; i < evaluation.errors.size(); ++i)
            out += (i ? "; " : "") + evaluation.errors[i].field + " " + evaluation.errors[i].message;
        return out + "." + setup;
    }
    const Estimate& e = evaluation.estimate;
    std::string out = head + ": " + format_bytes(e.memory_per_gpu_bytes.total, units) + " of " +
                      format_bytes(e.capacity_bytes, units) + " per GPU — ";
    out += e.fits ? "fits, " + format_bytes(e.headroom_bytes, units) + " headroom"
                  : "does not fit, short by " + format_bytes(-e.headroom_bytes, units);
    std::string phase = step_phase_label(e.memory_per_gpu_bytes.peak_phase);
    for (char& c : phase) c = char(std::tolower(static_cast<unsigned char>(c)));
    out += ", peak in the " + phase + ".";
    if (!e.fits && !fixes_for(*this).empty()) {
        const Fix& fix = fixes_for(*this).front();
        out += " Fits with " + describe_fix(fix, s) + " (" + format_bytes(fix.total_bytes, units) + " per GPU).";
    }
    out += setup;
    // The headline outputs: "Parameters 6.66 B, TFLOP-hours 3,333,333, …".
    const char* separator = " ";
    for (OutputSection section : {OutputSection::parameters, OutputSection::compute, OutputSection::layout,
                                  OutputSection::memory, OutputSection::detail})
        for (const auto& o : outputs()) {
            if (o.section != section || !(o.show & show_summary) || !output_applies(o, e.workload)) continue;
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
    const float top = ImGui::GetCursorPosY();

    if (embed) {
        {
            ImGui::AlignTextToFramePadding();
            ImGui::PushFont(fonts().bold);
            const std::string title = embed_title(scenario, true);
            const char* open_label = "Open in vramcalc \xE2\x86\x97";
            float bw = ImGui::CalcTextSize(open_label).x + 24;
            float seg_w = units_toggle_width(false);
            // Where the whole title does not fit beside the buttons, the setup goes to the verdict's line.
            embed_setup_in_verdict = content_w <= bw + seg_w + 8 + ImGui::CalcTextSize(title.c_str()).x + 16;
            const std::string shown = embed_setup_in_verdict ? embed_title(scenario, false) : title;
            ImGui::PushTextWrapPos(0);
            ImGui::TextUnformatted(shown.c_str());
            ImGui::PopTextWrapPos();
            ImGui::PopFont();
            dom::add({"embed_title", dom::Role::heading, title}).level = 2;
            if (content_w > bw + seg_w + 8 + ImGui::CalcTextSize(shown.c_str()).x + 16)
                ImGui::SameLine(content_w - bw - seg_w - 8 + ImGui::GetStyle().WindowPadding.x);
            units_toggle(*this, false);
            ImGui::SameLine(0, 8);
            if (pill_button(open_label, true, "open_full",
                            "Opens this scenario in the full calculator in a new tab, where every input can be changed."))
                web::open_in_new_tab(web::page_url_with_hash(hash_for(codec::encode_link(scenario)), true));
            record_item("open_full");
            help_tooltip("Open the full calculator", "Opens this scenario in the full calculator in a new tab, where every input can be changed.");
        }
        ImGui::Dummy(ImVec2(0, 2));
        draw_link_banner(*this);
        if (evaluation.ok()) {
            serving(*this) ? draw_serving_verdict(*this) : draw_verdict(*this);
            draw_tiles(*this, content_w >= 560 ? 4 : 2);
            draw_warnings(*this);
        } else {
            draw_errors(*this);
        }
        content_height = ImGui::GetCursorPosY() - top + ImGui::GetStyle().WindowPadding.y * 2 + 2;
        // Shorter than its content (a fixed iframe height): say that there is more, at the bottom.
        ImGuiWindow* w = ImGui::GetCurrentWindow();
        embed_more_below = w->ScrollMax.y > 0 && w->Scroll.y < w->ScrollMax.y - 1;
        if (embed_more_below) {
            const Palette& pal = palette();
            ImDrawList* fg = ImGui::GetForegroundDrawList();
            const float h = 34, y1 = height, y0 = height - h;
            fg->AddRectFilledMultiColor(ImVec2(0, y0), ImVec2(width, y1), with_alpha(pal.backdrop, 0), with_alpha(pal.backdrop, 0),
                                        with_alpha(pal.backdrop, 245), with_alpha(pal.backdrop, 245));
            const char* more = "\xE2\x96\xBC more below: scroll";
            ImGui::PushFont(fonts().small);
            ImVec2 ts = ImGui::CalcTextSize(more);
            fg->AddText(ImVec2((width - ts.x) * 0.5f, y1 - ts.y - 5), pal.text_dim, more);
            ImGui::PopFont();
        }
        ImGui::End();
        return;
    }

    draw_header(*this, content_w);
    draw_link_banner(*this);
    draw_keyboard_help(*this);
    draw_notes(*this);
    draw_workload_switch(*this);

    auto charts = [&] {  // serving: its fit map; training: the fit map, sweeps and the planner
        if (serving(*this)) return draw_serving_fit_map(*this);
        draw_fit_map(*this);
        draw_sweeps(*this);
        draw_plan(*this);
    };
    auto results = [&](bool side_by_side_details) {
        draw_stale_banner(*this);
        LastValidResults last_valid(*this);
        if (!evaluation.ok()) return;
        serving(*this) ? draw_serving_verdict(*this) : draw_verdict(*this);
        draw_tiles(*this, ImGui::GetContentRegionAvail().x >= 640 ? 4 : 2);
        draw_warnings(*this);
        charts();
        draw_details(*this, side_by_side_details && ImGui::GetContentRegionAvail().x >= 720);
        draw_explain(*this);
    };
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
        draw_editing_hint(*this);
        if (!evaluation.ok()) draw_errors(*this);
        results(true);
        ImGui::Dummy(ImVec2(0, 8));
        ImGui::EndChild();
    } else {
        draw_editing_hint(*this);
        if (!evaluation.ok()) draw_errors(*this);
        float verdict_bottom = 0;  // screen y where the verdict card ends
        {
            draw_stale_banner(*this);
            LastValidResults last_valid(*this);
            if (evaluation.ok()) {
                serving(*this) ? draw_serving_verdict(*this) : draw_verdict(*this);
                verdict_bottom = ImGui::GetCursorScreenPos().y;
                draw_tiles(*this, content_w >= 720 ? 4 : 2);
            }
        }
        draw_presets(*this, content_w < 560);
        draw_inputs(*this);
        {
            LastValidResults last_valid(*this);
            if (evaluation.ok()) {
                draw_warnings(*this);
                charts();
                draw_details(*this, false);
                draw_explain(*this);
            }
        }
        ImGui::Dummy(ImVec2(0, 8));
        content_height = ImGui::GetCursorPosY() - top;
        ImGui::End();
        if (has_valid && verdict_bottom < 40) draw_sticky_verdict(*this, width);
        draw_import_report(*this, width, height);
        return;
    }
    content_height = ImGui::GetCursorPosY() - top;
    ImGui::End();
    draw_import_report(*this, width, height);
}

}  // namespace vramcalc::app
