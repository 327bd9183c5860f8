// Inputs: the preset pickers and the four input groups, built from the field table (fields.hpp):
// labels, tooltips (symbol, unit, help), ranges and kinds all come from there.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>

#include "app.hpp"
#include "core/finetune.hpp"
#include "core/presets.hpp"
#include "core/text.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

bool contains_ci(std::string_view haystack, const char* needle) {
    std::string_view n(needle);
    // Every space-separated word of the filter must occur.
    std::size_t start = 0;
    while (start < n.size()) {
        std::size_t end = n.find(' ', start);
        if (end == std::string_view::npos) end = n.size();
        std::string_view word = n.substr(start, end - start);
        start = end + 1;
        if (word.empty()) continue;
        auto it = std::search(haystack.begin(), haystack.end(), word.begin(), word.end(), [](char a, char b) {
            return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        });
        if (it == haystack.end()) return false;
    }
    return true;
}

std::string pretty_choice(const char* name) {
    std::string s = name;
    std::replace(s.begin(), s.end(), '_', ' ');
    return s;
}

const char* section_name(std::string_view prefix) {
    if (prefix == "model") return "Model";
    if (prefix == "training") return "Training";
    if (prefix == "parallel") return "Parallelism";
    if (prefix == "hardware") return "Hardware";
    return "Other";
}

const char* section_hint(std::string_view prefix) {
    if (prefix == "model") return "architecture";
    if (prefix == "training") return "batch, precision, optimizer";
    if (prefix == "parallel") return "how the GPUs share the work";
    if (prefix == "hardware") return "one GPU";
    return "";
}

std::string field_tooltip_title(const FieldSpec& f) {
    std::string t = f.label;
    if (*f.symbol) t += std::string("  (") + f.symbol + ")";
    return t;
}

std::string field_tooltip_body(const FieldSpec& f) {
    std::string b = f.help;
    if (*f.unit) b += std::string("\nUnit: ") + f.unit + ".";
    b += std::string("\nIn links: ") + f.url_key + "=…   JSON: " + f.path;
    return b;
}

double preset_params(const ModelPreset& p) {
    if (p.published_params > 0) return p.published_params;
    Scenario s;
    s.model = p.model;
    return estimate(s).parameters.total;
}

bool picker_button(const char* id, const char* caption, const std::string& value, float width) {
    const Palette& pal = palette();
    ImGui::PushID(id);
    ImVec2 p = ImGui::GetCursorScreenPos();
    float h = ImGui::GetFrameHeight() + 18;
    bool pressed = ImGui::InvisibleButton("##picker", ImVec2(width, h));
    bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + width, p.y + h),
                      ImGui::GetColorU32(hovered ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg), 8);
    dl->AddRect(p, ImVec2(p.x + width, p.y + h), hovered ? pal.accent : pal.card_border, 8);
    ImGui::PushFont(fonts().small);
    dl->AddText(ImVec2(p.x + 12, p.y + 5), pal.text_faint, caption);
    float small_h = ImGui::GetFontSize();
    ImGui::PopFont();
    ImGui::PushFont(fonts().bold);
    ImVec2 clip_max(p.x + width - 28, p.y + h);
    dl->PushClipRect(p, clip_max, true);
    dl->AddText(ImVec2(p.x + 12, p.y + 7 + small_h), pal.text, value.c_str());
    dl->PopClipRect();
    ImGui::PopFont();
    dl->AddText(ImVec2(p.x + width - 22, p.y + h * 0.5f - ImGui::GetFontSize() * 0.5f), pal.text_dim, "\xE2\x96\xBE");
    ImGui::PopID();
    return pressed;
}

// A searchable list in a popup. `items` yields (label, detail) for index i; returns the picked
// index or -1.
template <class Items>
int search_popup(const char* popup_id, char* filter, std::size_t filter_size, const char* hint, int count, Items items,
                 float width, int current) {
    int picked = -1;
    ImGui::SetNextWindowSize(ImVec2(width, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(10, 10));
    if (ImGui::BeginPopup(popup_id)) {
        if (ImGui::IsWindowAppearing()) {
            filter[0] = 0;
            ImGui::SetKeyboardFocusHere();
        }
        ImGui::SetNextItemWidth(-FLT_MIN);
        bool enter = ImGui::InputTextWithHint("##search", hint, filter, filter_size, ImGuiInputTextFlags_EnterReturnsTrue);
        int matches = 0;
        for (int i = 0; i < count; ++i) matches += contains_ci(std::get<2>(items(i)), filter) ? 1 : 0;
        const float row_step = ImGui::GetTextLineHeight() + 10 + ImGui::GetStyle().ItemSpacing.y;
        float list_h = std::min(row_step * float(std::clamp(matches, 1, 10)), ImGui::GetIO().DisplaySize.y * 0.55f);
        ImGui::BeginChild("##list", ImVec2(0, list_h), false);
        int first_match = -1, shown = 0;
        for (int i = 0; i < count; ++i) {
            auto [label, detail, search] = items(i);
            if (!contains_ci(search, filter)) continue;
            if (first_match < 0) first_match = i;
            ++shown;
            ImGui::PushID(i);
            float row_h = ImGui::GetTextLineHeight() + 10;
            if (ImGui::Selectable("##row", i == current, 0, ImVec2(0, row_h))) picked = i;
            ImVec2 r0 = ImGui::GetItemRectMin(), r1 = ImGui::GetItemRectMax();
            ImDrawList* dl = ImGui::GetWindowDrawList();
            dl->AddText(ImVec2(r0.x + 6, r0.y + 5), palette().text, label.c_str());
            ImGui::PushFont(fonts().small);
            ImVec2 ds = ImGui::CalcTextSize(detail.c_str());
            dl->AddText(ImVec2(r1.x - ds.x - 6, r0.y + 5 + (ImGui::GetTextLineHeight() > 0 ? 1 : 0)), palette().text_dim,
                        detail.c_str());
            ImGui::PopFont();
            ImGui::PopID();
        }
        if (shown == 0) text_dim("No match. Try fewer letters.");
        ImGui::EndChild();
        if (enter && first_match >= 0) picked = first_match;
        if (picked >= 0 || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
    ImGui::PopStyleVar();
    return picked;
}

// Fine-tuning fields appear only with the method they belong to (and whenever they hold an error);
// the method itself is chosen next to the presets.
bool field_visible(const App& app, std::string_view path) {
    if (app.field_error(std::string(path).c_str())) return true;
    const TrainingMethod method = app.scenario.training.method;
    const bool adapters = is_adapter_method(method);
    if (path == "training.method") return false;
    if (path == "training.lora_rank" || path == "training.lora_targets" || path == "training.lora_dropout" ||
        path == "training.adapter_dtype")
        return adapters;
    if (path == "training.base_weight_format") return method == TrainingMethod::qlora;
    if (path == "training.trainable_layers") return method == TrainingMethod::freeze;
    return true;
}

// training.lora_targets as one checkbox per linear (q, k, v, o, gate, up, down): the field stays one
// text value ("q,v", "attention", "all_linear") in JSON, links, the CLI and the JS API.
bool lora_targets_widget(Scenario& sc, const std::string& title, const std::string& body) {
    bool changed = false;
    std::uint32_t mask = sc.training.lora_targets & lora_all_linear;
    const auto names = lora_module_names();
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (std::size_t i = 0; i < names.size(); ++i) {
        bool on = mask & (1u << i);
        if (i > 0) {
            float next_w = ImGui::CalcTextSize(names[i]).x + ImGui::GetFrameHeight() + 14;
            ImGui::SameLine(0, 8);
            if (ImGui::GetCursorScreenPos().x + next_w > right) ImGui::NewLine();
        }
        if (ImGui::Checkbox(names[i], &on)) {
            mask = on ? (mask | (1u << i)) : (mask & ~(1u << i));
            sc.training.lora_targets = mask;
            changed = true;
        }
        record_item(std::string("training.lora_targets#") + names[i]);
        help_tooltip(title.c_str(), body.c_str());
    }
    return changed;
}

// One input row: label (with tooltip) | widget (+ in-place validation message).
void field_row(App& app, const FieldSpec& f) {
    const Palette& pal = palette();
    Scenario& sc = app.scenario;
    const char* error = app.field_error(f.path);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(f.label);
    bool label_hovered = ImGui::IsItemHovered();
    if (*f.symbol) {
        ImGui::SameLine(0, 6);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
        ImGui::TextUnformatted(f.symbol);
        ImGui::PopStyleColor();
        label_hovered |= ImGui::IsItemHovered();
    }
    std::string title = field_tooltip_title(f), body = field_tooltip_body(f);
    if (label_hovered) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26);
        ImGui::PushFont(fonts().bold);
        ImGui::TextUnformatted(title.c_str());
        ImGui::PopFont();
        ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
        ImGui::TextUnformatted(body.c_str());
        ImGui::PopStyleColor();
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }

    ImGui::TableNextColumn();
    ImGui::PushID(f.path);
    if (error) {
        ImGui::PushStyleColor(ImGuiCol_FrameBg, IM_COL32(0x3A, 0x16, 0x1C, 255));
        ImGui::PushStyleColor(ImGuiCol_Border, pal.bad);
        ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 1.5f);
    }
    bool changed = false;
    const float full = ImGui::GetContentRegionAvail().x;
    const float button = ImGui::GetFrameHeight();
    const float spacing = 4;
    std::string suffix = f.unit;
    ImVec2 box_min, box_max;  // the input box, for the unit drawn inside it
    switch (f.kind) {
        case FieldKind::integer: {
            long long v = static_cast<long long>(f.get(sc));
            ImGui::SetNextItemWidth(std::max(40.0f, full - 2 * (button + spacing)));
            if (ImGui::InputScalar("##v", ImGuiDataType_S64, &v, nullptr, nullptr, "%lld")) {
                f.set(sc, double(v));
                changed = true;
            }
            box_min = ImGui::GetItemRectMin(), box_max = ImGui::GetItemRectMax();
            record_item(f.path);
            help_tooltip(title.c_str(), body.c_str());
            if (v == 0 && f.zero_means) suffix = f.zero_means;
            const bool geometric = f.ui_max > 256;  // big ranges move by halves/doubles
            ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(0, ImGui::GetStyle().FramePadding.y));
            ImGui::SameLine(0, spacing);
            if (ImGui::Button("\xE2\x88\x92", ImVec2(button, button))) {
                long long next = geometric ? v / 2 : v - 1;
                next = std::max<long long>(next, static_cast<long long>(f.ui_min));
                if (next != v) f.set(sc, double(next)), changed = true;
            }
            record_item(std::string(f.path) + "#minus");
            help_tooltip(geometric ? "Halve" : "Decrease by 1", nullptr);
            ImGui::SameLine(0, spacing);
            if (ImGui::Button("+", ImVec2(button, button))) {
                long long next = geometric ? (v <= 0 ? 1 : v * 2) : v + 1;
                next = std::min<long long>(next, static_cast<long long>(f.ui_max));
                if (next != v) f.set(sc, double(next)), changed = true;
            }
            record_item(std::string(f.path) + "#plus");
            help_tooltip(geometric ? "Double" : "Increase by 1", nullptr);
            ImGui::PopStyleVar();
            break;
        }
        case FieldKind::number: {
            double v = f.get(sc);
            ImGui::SetNextItemWidth(full);
            if (ImGui::InputDouble("##v", &v, 0, 0, "%g")) {
                f.set(sc, v);
                changed = true;
            }
            box_min = ImGui::GetItemRectMin(), box_max = ImGui::GetItemRectMax();
            record_item(f.path);
            help_tooltip(title.c_str(), body.c_str());
            if (v == 0 && f.zero_means) suffix = f.zero_means;
            else if (std::fabs(v) >= 1e5 && !ImGui::IsItemActive()) suffix = format_count(v) + (suffix.empty() ? "" : " " + suffix);
            break;
        }
        case FieldKind::boolean: {
            bool v = f.get(sc) != 0;
            if (ImGui::Checkbox(v ? "on" : "off", &v)) {
                f.set(sc, v ? 1.0 : 0.0);
                changed = true;
            }
            record_item(f.path);
            help_tooltip(title.c_str(), body.c_str());
            suffix.clear();
            break;
        }
        case FieldKind::choice: {
            int v = static_cast<int>(f.get(sc));
            ImGui::SetNextItemWidth(full);
            std::string preview = v >= 0 && v < int(f.choices.size()) ? pretty_choice(f.choices[v]) : "?";
            ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetColorU32(ImGuiCol_FrameBg));
            ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImGui::GetColorU32(ImGuiCol_FrameBgHovered));
            ImGui::PushStyleColor(ImGuiCol_Text, palette().text);
            bool open_combo = ImGui::BeginCombo("##v", preview.c_str(), ImGuiComboFlags_NoArrowButton);
            record_item(f.path);
            ImGui::PopStyleColor(3);
            {
                ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
                ImGui::GetWindowDrawList()->AddText(ImVec2(b.x - 20, a.y + (b.y - a.y - ImGui::GetFontSize()) * 0.5f),
                                                    palette().text_dim, "\xE2\x96\xBE");
            }
            if (open_combo) {
                for (int i = 0; i < int(f.choices.size()); ++i) {
                    if (ImGui::Selectable(pretty_choice(f.choices[i]).c_str(), i == v)) {
                        f.set(sc, double(i));
                        changed = true;
                    }
                    if (i == v) ImGui::SetItemDefaultFocus();
                }
                ImGui::EndCombo();
            }
            help_tooltip(title.c_str(), body.c_str());
            suffix.clear();
            break;
        }
        case FieldKind::text: {
            if (std::string_view(f.path) == "training.lora_targets") {
                changed = lora_targets_widget(sc, title, body);
                suffix.clear();
                break;
            }
            // Room for max_text_length characters of up to 4 bytes; a longer value is cut between characters.
            char buf[max_text_length * 4 + 1];
            std::string v = f.get_text(sc);
            std::size_t keep = std::min(v.size(), sizeof buf - 1);
            while (keep > 0 && keep < v.size() && (static_cast<unsigned char>(v[keep]) & 0xC0) == 0x80) --keep;
            std::memcpy(buf, v.data(), keep);
            buf[keep] = '\0';
            ImGui::SetNextItemWidth(full);
            if (ImGui::InputText("##v", buf, sizeof buf)) {
                f.set_text(sc, buf);
                changed = true;
            }
            record_item(f.path);
            help_tooltip(title.c_str(), body.c_str());
            // Typing a preset name and leaving the field selects that preset.
            if (ImGui::IsItemDeactivatedAfterEdit()) {
                if (std::string_view(f.path) == "hardware.gpu") {
                    if (apply_gpu_preset(sc, buf)) changed = true;
                } else if (std::string_view(f.path) == "model.name") {
                    std::string name = buf;
                    if (const ModelPreset* p = find_model_preset(name)) {
                        app.notes.clear();
                        apply_model_preset(sc, *p, &app.notes);
                        changed = true;
                    }
                }
            }
            suffix.clear();
            break;
        }
    }
    // The unit (and a readable form of big numbers) inside the right end of the input box.
    if (!suffix.empty() && box_max.x > box_min.x) {
        ImGui::PushFont(fonts().small);
        ImVec2 ts = ImGui::CalcTextSize(suffix.c_str());
        if (ts.x < (box_max.x - box_min.x) * 0.55f) {
            float y = box_min.y + (box_max.y - box_min.y - ts.y) * 0.5f;
            ImGui::GetWindowDrawList()->AddText(ImVec2(box_max.x - ts.x - 9, y), pal.text_faint, suffix.c_str());
        }
        ImGui::PopFont();
    }
    if (error) {
        ImGui::PopStyleVar();
        ImGui::PopStyleColor(2);
        ImGui::PushFont(fonts().small);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.bad);
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(error);
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
        ImGui::PopFont();
    }
    ImGui::PopID();
    if (changed) app.touched();
}

}  // namespace

void draw_presets(App& app, bool stacked) {
    Scenario& sc = app.scenario;
    begin_card("presets");
    section_title("Start from a preset", "then edit anything below");
    ImGui::Dummy(ImVec2(0, 2));
    const float avail = ImGui::GetContentRegionAvail().x;
    const float gap = 10;
    const float w = stacked ? avail : (avail - gap) * 0.5f;

    // Model.
    const auto models = model_presets();
    int current_model = -1;
    for (int i = 0; i < int(models.size()); ++i)
        if (same_model(sc.model, models[i].model)) current_model = i;
    std::string model_text = sc.model.name;
    if (current_model < 0 && find_model_preset(sc.model.name)) model_text += "  (edited)";
    if (current_model < 0 && !find_model_preset(sc.model.name)) model_text += "  (custom)";
    ImVec2 model_pos = ImGui::GetCursorScreenPos();
    if (picker_button("model_picker", "Model", model_text, w)) ImGui::OpenPopup("model_popup");
    record_item("model_picker");
    help_tooltip("Model preset", "Fills every model field with a published architecture (exact parameter count). Edit any field afterwards; the link records the preset plus your edits.");
    ImGui::SetNextWindowPos(ImVec2(model_pos.x, model_pos.y + ImGui::GetFrameHeight() + 22));
    int picked = search_popup(
        "model_popup", app.model_filter, sizeof app.model_filter, "Search models (e.g. llama 70)", int(models.size()),
        [&](int i) {
            const ModelPreset& p = models[i];
            std::string detail = format_count(preset_params(p)) + " params";
            return std::tuple<std::string, std::string, std::string>(p.model.name, detail,
                                                                     std::string(p.model.name) + " " + p.id);
        },
        std::max(w, 320.0f), current_model);
    if (picked >= 0) {
        app.notes.clear();
        apply_model_preset(sc, models[picked], &app.notes);
        app.touched();
    }

    // GPU.
    if (!stacked) ImGui::SameLine(0, gap);
    const auto gpus = gpu_presets();
    int current_gpu = -1;
    for (int i = 0; i < int(gpus.size()); ++i) {
        const GpuPreset& g = gpus[i];
        if (sc.hardware.gpu == g.id && sc.hardware.memory_gib == g.memory_gib && sc.hardware.peak_tflops == g.peak_tflops)
            current_gpu = i;
    }
    std::string gpu_text = sc.hardware.gpu;
    if (current_gpu < 0) gpu_text += find_gpu_preset(sc.hardware.gpu) ? "  (edited)" : "  (custom)";
    ImVec2 gpu_pos = ImGui::GetCursorScreenPos();
    if (picker_button("gpu_picker", "GPU", gpu_text, w)) ImGui::OpenPopup("gpu_popup");
    record_item("gpu_picker");
    help_tooltip("GPU preset", "Fills memory, peak and typical achieved TFLOP/s and an indicative price per GPU-hour (sources in the preset table).");
    ImGui::SetNextWindowPos(ImVec2(stacked ? gpu_pos.x : std::min(gpu_pos.x, ImGui::GetIO().DisplaySize.x - std::max(w, 320.0f) - 8),
                                   gpu_pos.y + ImGui::GetFrameHeight() + 22));
    picked = search_popup(
        "gpu_popup", app.gpu_filter, sizeof app.gpu_filter, "Search GPUs (e.g. h100)", int(gpus.size()),
        [&](int i) {
            const GpuPreset& g = gpus[i];
            std::string detail = format_bytes(g.memory_gib * bytes_per_gib, app.units) + "  \xC2\xB7  " +
                                 format_sig(g.peak_tflops, 4) + " TFLOP/s";
            return std::tuple<std::string, std::string, std::string>(g.id, detail, g.id);
        },
        std::max(w, 320.0f), current_gpu);
    if (picked >= 0) {
        apply_gpu_preset(sc, gpus[picked].id);
        app.touched();
    }

    // The training method changes what trains, and so almost every number: it sits with the presets.
    ImGui::Dummy(ImVec2(0, 2));
    {
        static const char* method_labels[] = {"Full", "LoRA", "QLoRA", "Freeze"};
        const FieldSpec* field = find_field_by_path("training.method");
        int method = static_cast<int>(sc.training.method);
        ImGui::AlignTextToFramePadding();
        text_dim("Method");
        if (field) help_tooltip("Training method", field->help);
        ImGui::SameLine(0, 10);
        if (segmented("method", method_labels, 4, &method)) {
            sc.training.method = static_cast<TrainingMethod>(method);
            app.touched();
        }
        if (sc.training.method != TrainingMethod::full && app.evaluation.ok()) {
            const auto& p = app.evaluation.estimate.parameters;
            std::string what = format_count(p.trainable) + " trainable (" +
                               format_sig(100.0 * p.trainable / std::max(1.0, p.total + p.adapter), 3) + " %)";
            if (!stacked) ImGui::SameLine(0, 12);
            // The share goes when the line has no room for it.
            if (ImGui::CalcTextSize(what.c_str()).x > ImGui::GetContentRegionAvail().x)
                what = format_count(p.trainable) + " trainable";
            ImGui::AlignTextToFramePadding();
            text_dim(what.c_str());
        }
    }
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

void draw_inputs(App& app) {
    const Palette& pal = palette();
    begin_card("inputs");
    auto fields = scenario_fields();
    std::size_t i = 0;
    bool first = true;
    while (i < fields.size()) {
        std::string_view path = fields[i].path;
        std::string_view prefix = path.substr(0, path.find('.'));
        std::size_t end = i;
        int errors = 0;
        while (end < fields.size() && std::string_view(fields[end].path).starts_with(std::string(prefix) + ".")) {
            if (app.field_error(fields[end].path)) ++errors;
            ++end;
        }
        if (!first) ImGui::Dummy(ImVec2(0, 4));
        first = false;
        std::string header = section_name(prefix);
        ImGui::PushID(std::string(prefix).c_str());
        ImGui::PushFont(fonts().title);
        ImGui::PushStyleColor(ImGuiCol_Header, IM_COL32(0, 0, 0, 0));
        ImGui::PushStyleColor(ImGuiCol_HeaderHovered, IM_COL32(255, 255, 255, 10));
        ImGui::PushStyleColor(ImGuiCol_HeaderActive, IM_COL32(255, 255, 255, 16));
        ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(4, 6));
        bool open = ImGui::CollapsingHeader((header + "###section").c_str(), ImGuiTreeNodeFlags_DefaultOpen);
        ImGui::PopStyleVar();
        ImGui::PopStyleColor(3);
        ImGui::PopFont();
        // Hint (and error count) to the right of the section title.
        {
            ImVec2 r0 = ImGui::GetItemRectMin(), r1 = ImGui::GetItemRectMax();
            ImGui::PushFont(fonts().small);
            std::string hint = errors ? std::to_string(errors) + (errors == 1 ? " problem" : " problems")
                                      : std::string(section_hint(prefix));
            ImVec2 ts = ImGui::CalcTextSize(hint.c_str());
            ImGui::GetWindowDrawList()->AddText(ImVec2(r1.x - ts.x - 4, (r0.y + r1.y - ts.y) * 0.5f),
                                                errors ? pal.bad : pal.text_faint, hint.c_str());
            ImGui::PopFont();
        }
        if (open) {
            ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(4, 4));
            if (ImGui::BeginTable("fields", 2, ImGuiTableFlags_NoSavedSettings)) {
                float label_w = std::clamp(ImGui::GetContentRegionAvail().x * 0.42f, 120.0f, 190.0f);
                ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, label_w);
                ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
                for (std::size_t k = i; k < end; ++k)
                    if (field_visible(app, fields[k].path)) field_row(app, fields[k]);
                ImGui::EndTable();
            }
            ImGui::PopStyleVar();
        }
        ImGui::PopID();
        i = end;
    }
    // Errors that name no field of the table (e.g. a rule across fields) still show here.
    for (const auto& e : app.evaluation.errors) {
        if (find_field_by_path(e.field)) continue;
        wrapped_coloured(pal.bad, (e.field + ": " + e.message).c_str());
    }
    end_card();
}

}  // namespace vramcalc::app
