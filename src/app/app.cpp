#include "app.hpp"

#include <algorithm>
#include <cmath>

#include "codec/field_text.hpp"
#include "core/training/finetune.hpp"
#include "core/outputs.hpp"
#include "core/model/presets.hpp"
#include "core/text.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "panels.hpp"
#include "ui_charts.hpp"
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
App g_app;
}  // namespace

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

namespace {

// The embed's footer: shorter than its content (a fixed iframe height), a fade and "more below".
void draw_more_below(App& app, float width, float height) {
    ImGuiWindow* w = ImGui::GetCurrentWindow();
    app.embed_more_below = w->ScrollMax.y > 0 && w->Scroll.y < w->ScrollMax.y - 1;
    if (!app.embed_more_below) return;
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

// Wide: the inputs in a column on the left, the results on the right, each scrolling by itself.
void draw_wide(App& app, const PanelContext& c) {
    const float gap = 20;
    const float left_w = std::clamp(c.content_w * 0.36f, 380.0f, 520.0f);
    const float avail_h = ImGui::GetContentRegionAvail().y;
    ImGui::BeginChild("inputs_column", ImVec2(left_w, avail_h), false);
    draw_region(app, c, Region::inputs);
    ImGui::Dummy(ImVec2(0, 8));
    ImGui::EndChild();
    ImGui::SameLine(0, gap);
    ImGui::BeginChild("results_column", ImVec2(0, avail_h), false);
    draw_region(app, c, Region::head);
    draw_region(app, c, Region::results);
    ImGui::Dummy(ImVec2(0, 8));
    ImGui::EndChild();
}

// Narrow: one column; the verdict and tiles first, then the inputs, then the rest of the results.
void draw_narrow(App& app, const PanelContext& c) {
    app.panels.verdict_bottom = 0;
    draw_region(app, c, Region::head);
    draw_region(app, c, Region::inputs);
    draw_region(app, c, Region::results);
    ImGui::Dummy(ImVec2(0, 8));
}

}  // namespace

void App::draw(float width, float height) {
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(width, height));
    const Layout layout = embed ? layout_embed : width >= 920 ? layout_wide : layout_narrow;
    const float pad = width < 520 ? 12.0f : 24.0f;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(pad, pad * 0.75f));
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                             ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (layout == layout_wide) flags |= ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
    ImGui::Begin("vramcalc", nullptr, flags);
    ImGui::PopStyleVar();
    const PanelContext c{layout, width, height, ImGui::GetContentRegionAvail().x};
    const float top = ImGui::GetCursorPosY();
    draw_region(*this, c, Region::top);
    if (layout == layout_embed) {
        draw_region(*this, c, Region::head);
        draw_region(*this, c, Region::results);
        content_height = ImGui::GetCursorPosY() - top + ImGui::GetStyle().WindowPadding.y * 2 + 2;
        draw_more_below(*this, width, height);
        ImGui::End();
        return;
    }
    layout == layout_wide ? draw_wide(*this, c) : draw_narrow(*this, c);
    content_height = ImGui::GetCursorPosY() - top;
    ImGui::End();
    draw_region(*this, c, Region::overlay);
}

}  // namespace vramcalc::app
