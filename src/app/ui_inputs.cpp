// Inputs: the pickers (model, GPU, framework profile, import) and the input groups, built from
// the field table (fields.hpp): labels, help, ranges, kinds and groups all come from there. Every
// field is a box drawn here with a real DOM control over it (dom.hpp): a number or text field
// is edited in a DOM <input> (keyboard, IME, paste), a choice is a native <select>, a flag a
// checkbox. Typed values apply on Enter, blur or a short pause; until then the field is "editing"
// and the results keep the last applied value.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>

#include "app.hpp"
#include "codec/field_text.hpp"
#include "codec/numbers.hpp"
#include "codec/typed.hpp"
#include "core/training/finetune.hpp"
#include "core/training/frameworks.hpp"
#include "core/model/presets.hpp"
#include "core/text.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "web.hpp"
#include "ui_serving.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

bool contains_ci(std::string_view haystack, std::string_view n) {
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

std::string field_tooltip_title(const FieldSpec& f) {
    std::string t = f.label;
    if (*f.symbol) t += std::string("  (") + f.symbol + ")";
    return t;
}

// Sequence lengths, where a typed K is 1,024 (codec/typed.hpp).
bool context_length(const FieldSpec& f) {
    return std::string_view(f.path) == "training.seq_len" || std::string_view(f.path) == "model.max_position_embeddings";
}
constexpr const char* context_k_note = "32K means 32,768 tokens (K = 1,024: context lengths are powers of two).";

std::string field_tooltip_body(const FieldSpec& f) {
    std::string b = f.help;
    if (*f.unit) b += std::string("\nUnit: ") + f.unit + ".";
    if (context_length(f)) b += std::string("\n") + context_k_note;
    b += std::string("\nIn links: ") + f.url_key + "=…   JSON: " + f.path;
    return b;
}

double preset_params(const ModelPreset& p) {
    if (p.published_params > 0) return p.published_params;
    Scenario s;
    s.model = p.model;
    return estimate(s).parameters.total;
}

// ── Numbers as shown in a field and stepped by arrow keys / the − + buttons ──

// Fields with a wide range move by halves and doubles (×/÷ 10 for ten steps), others by one (or
// a hundredth of their range for fractional fields); the range is the field table's.
bool geometric(const FieldSpec& f) {
    return f.kind == FieldKind::integer ? f.ui_max > 256 : f.ui_max >= 1000 * std::max(1.0, f.ui_min);
}

double step_value(const FieldSpec& f, double v, int steps) {
    const int dir = steps > 0 ? 1 : -1;
    const bool big = std::abs(steps) >= 10;
    double next;
    if (geometric(f)) {
        double factor = big ? 10.0 : 2.0;
        if (v <= 0) next = dir > 0 ? std::max(f.ui_min > 0 ? f.ui_min : std::pow(10.0, std::floor(std::log10(f.ui_max)) - 1), 1.0) : 0;
        else next = dir > 0 ? v * factor : v / factor;
        if (f.kind == FieldKind::integer) next = dir > 0 ? std::ceil(next) : std::floor(next);
    } else {
        double unit = f.kind == FieldKind::integer ? 1.0 : std::pow(10.0, std::floor(std::log10(f.ui_max - f.ui_min)) - 2);
        next = v + dir * unit * (big ? 10 : 1);
        if (f.kind == FieldKind::number) next = std::round(next / unit) * unit;  // no 0.30000000000000004
    }
    return std::clamp(next, f.ui_min, f.ui_max);
}

// ── The pickers ──

struct PickerItem {
    std::string label, detail, search;
};


bool picker_button(const char* id, const char* caption, const std::string& value, float width, bool open,
                   const char* description) {
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
    dl->AddText(ImVec2(p.x + 12, p.y + 5 + (h - ImGui::GetFrameHeight() - 18) * 0.5f), pal.text_faint, caption);
    float small_h = ImGui::GetFontSize();
    ImGui::PopFont();
    ImGui::PushFont(fonts().bold);
    ImVec2 clip_max(p.x + width - 28, p.y + h);
    dl->PushClipRect(p, clip_max, true);
    dl->AddText(ImVec2(p.x + 12, p.y + 7 + small_h + (h - ImGui::GetFrameHeight() - 18) * 0.5f), pal.text, value.c_str());
    dl->PopClipRect();
    ImGui::PopFont();
    dl->AddText(ImVec2(p.x + width - 22, p.y + h * 0.5f - ImGui::GetFontSize() * 0.5f), pal.text_dim, "\xE2\x96\xBE");
    ImGui::PopID();
    record_item(id);
    dom::Control b{id, dom::Role::button, std::string(caption) + ": " + value, description};
    b.haspopup = "listbox";
    b.expanded = open;
    b.shortcut = shortcut_for(id);
    dom::add(std::move(b));
    return pressed || dom::activated(id);
}

// The items whose search text holds every word of `filter`.
std::vector<int> picker_matches(const std::vector<PickerItem>& items, const std::string& filter) {
    std::vector<int> matches;
    for (int i = 0; i < int(items.size()); ++i)
        if (contains_ci(items[i].search, filter)) matches.push_back(i);
    return matches;
}

// The keys sent to the search box: Escape closes, Enter picks the highlighted item (into
// `picked`), arrows and pages move the highlight. Returns whether the highlight moved.
bool picker_keys(Picker& pk, const std::vector<int>& matches, const std::string& search_id, int& picked) {
    bool keyboard_moved = false;
    while (auto k = dom::key(search_id)) {
        auto pos = std::find(matches.begin(), matches.end(), pk.highlight);
        int at = pos == matches.end() ? -1 : int(pos - matches.begin());
        int n = int(matches.size());
        if (*k == "Escape") ImGui::CloseCurrentPopup();
        else if (*k == "Enter" && pk.highlight >= 0 && at >= 0) picked = pk.highlight;
        else if (n > 0 && (*k == "ArrowDown" || *k == "PageDown"))
            pk.highlight = matches[std::min(n - 1, at + (*k == "PageDown" ? 8 : 1))], keyboard_moved = true;
        else if (n > 0 && (*k == "ArrowUp" || *k == "PageUp"))
            pk.highlight = matches[std::max(0, at - (*k == "PageUp" ? 8 : 1))], keyboard_moved = true;
    }
    return keyboard_moved;
}

// The search box (drawn; the DOM input over it edits).
void picker_search_box(const Picker& pk, const std::string& search_id, const std::string& filter) {
    const Palette& pal = palette();
    ImVec2 p = ImGui::GetCursorScreenPos();
    float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetFrameHeight();
    ImGui::InvisibleButton("##search", ImVec2(w, h));
    if (ImGui::IsItemClicked()) dom::request_focus(search_id);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), ImGui::GetColorU32(ImGuiCol_FrameBg), 6);
    if (filter.empty())
        dl->AddText(ImVec2(p.x + 9, p.y + (h - ImGui::GetFontSize()) * 0.5f), pal.text_faint, pk.hint);
    dom::Control c{search_id, dom::Role::combobox, std::string("Search ") + pk.caption, pk.hint};
    c.value = filter;
    c.popup = true;
    c.autofocus = true;
    dom::add(std::move(c));
}

// One row of the list: label left, detail right, an option of the DOM listbox. Returns whether
// it was picked.
bool picker_row(const Picker& pk, const PickerItem& it, int i, float row_h, bool lit, bool current, bool scroll_to) {
    bool picked = false;
    ImGui::PushID(i);
    if (lit) ImGui::PushStyleColor(ImGuiCol_Header, ImGui::GetColorU32(ImGuiCol_HeaderHovered));
    if (ImGui::Selectable("##row", lit || current, 0, ImVec2(0, row_h))) picked = true;
    if (lit) ImGui::PopStyleColor();
    if (lit && scroll_to) ImGui::SetScrollHereY(0.5f);
    ImVec2 r0 = ImGui::GetItemRectMin(), r1 = ImGui::GetItemRectMax();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float ty = r0.y + (row_h - ImGui::GetFontSize()) * 0.5f;
    dl->AddText(ImVec2(r0.x + 6, ty), palette().text, it.label.c_str());
    ImGui::PushFont(fonts().small);
    ImVec2 ds = ImGui::CalcTextSize(it.detail.c_str());
    dl->AddText(ImVec2(r1.x - ds.x - 6, ty + 1), palette().text_dim, it.detail.c_str());
    ImGui::PopFont();
    const std::string option_id = std::string(pk.id) + ":option:" + std::to_string(i);
    dom::Control o{option_id, dom::Role::option, it.detail.empty() ? it.label : it.label + ", " + it.detail};
    o.selected = lit ? 1 : 0;
    o.popup = true;
    dom::add(std::move(o));
    if (dom::activated(option_id)) picked = true;
    ImGui::PopID();
    return picked;
}

// The scrolling list of the matches (at most ten rows tall). Returns the picked index, or -1.
int picker_list(const Picker& pk, const std::vector<PickerItem>& items, const std::vector<int>& matches, int current,
                bool keyboard_moved) {
    int picked = -1;
    const float row_h = ImGui::GetTextLineHeight() + (touch_targets() ? 26 : 10);
    const float row_step = row_h + ImGui::GetStyle().ItemSpacing.y;
    float list_h = std::min(row_step * float(std::clamp(int(matches.size()), 1, 10)), ImGui::GetIO().DisplaySize.y * 0.55f);
    ImGui::BeginChild("##list", ImVec2(0, list_h), false);
    for (int i : matches)
        if (picker_row(pk, items[i], i, row_h, i == pk.highlight, i == current, keyboard_moved)) picked = i;
    if (matches.empty()) {
        text_dim("No match. Try fewer letters.");
        dom::add({std::string(pk.id) + ":nomatch", dom::Role::text, "No match. Try fewer letters."}).popup = true;
    }
    ImGui::EndChild();
    return picked;
}

// The open popup's contents: search box, keys, list. Returns the picked index, or -1.
int picker_contents(Picker& pk, const std::vector<PickerItem>& items, int current, const std::string& search_id) {
    int picked = -1;
    const bool appearing = ImGui::IsWindowAppearing();
    if (appearing) {
        dom::clear_draft(search_id);
        pk.highlight = std::max(current, 0);
    }
    const std::string* draft = dom::draft(search_id);
    std::string filter = draft ? *draft : "";
    const std::vector<int> matches = picker_matches(items, filter);
    if (appearing || (draft && !filter.empty())) {
        // The highlight stays on the current item while it matches, else the first match.
        if (std::find(matches.begin(), matches.end(), pk.highlight) == matches.end())
            pk.highlight = matches.empty() ? -1 : matches.front();
    }
    const bool keyboard_moved = picker_keys(pk, matches, search_id, picked);
    picker_search_box(pk, search_id, filter);
    const int clicked = picker_list(pk, items, matches, current, keyboard_moved);
    if (clicked >= 0) picked = clicked;
    if (picked >= 0) ImGui::CloseCurrentPopup();
    return picked;
}

// The list of a picker, in a popup under its button; returns the picked index, or -1.
int picker_popup(Picker& pk, const std::vector<PickerItem>& items, float width, int current) {
    int picked = -1;
    const std::string popup_id = std::string(pk.id) + "_popup";
    const std::string search_id = std::string(pk.id) + ":search";
    ImGui::SetNextWindowSize(ImVec2(width, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(10, 10));
    bool open = ImGui::BeginPopup(popup_id.c_str());
    if (open) {
        picked = picker_contents(pk, items, current, search_id);
        ImGui::EndPopup();
    }
    ImGui::PopStyleVar();
    if (pk.was_open && (!open || picked >= 0)) {
        // Closed (picked, Escape, a click outside): focus goes back to the picker's button.
        dom::clear_draft(search_id);
        if (dom::is_focused(search_id) || dom::focused_id().rfind(pk.id, 0) == 0 || !dom::has_focus())
            dom::request_focus(pk.id);
    }
    pk.was_open = open && picked < 0;
    return picked;
}

// Fine-tuning fields appear only with the method they belong to (and whenever they hold an error);
// the method itself is chosen next to the presets.
bool field_visible(const App& app, std::string_view path) {
    if (app.field_error(std::string(path).c_str())) return true;
    if (!field_used_by(path, app.scenario.workload)) return false;  // the other workload's field
    const TrainingMethod method = app.scenario.training.method;
    const bool adapters = is_adapter_method(method);
    if (path == "training.method") return false;
    if (path == "training.lora_rank" || path == "training.lora_targets" || path == "training.lora_dropout" ||
        path == "training.adapter_dtype")
        return adapters;
    if (path == "training.base_weight_format") return method == TrainingMethod::qlora;
    if (path == "training.trainable_layers") return method == TrainingMethod::freeze;
    if (path == "parallel.shard_group") return app.scenario.parallel.zero_stage >= 1;  // HSDP shards ZeRO states
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
        const std::string id = std::string("training.lora_targets#") + names[i];
        bool clicked = ImGui::Checkbox(names[i], &on);
        record_item(id);
        help_tooltip(title.c_str(), body.c_str());
        dom::Control c{id, dom::Role::checkbox, std::string("LoRA on ") + names[i], body};
        c.checked = on;
        dom::add(std::move(c));
        if (auto v = dom::committed(id)) on = *v == "1", clicked = true;
        if (clicked) {
            mask = on ? (mask | (1u << i)) : (mask & ~(1u << i));
            sc.training.lora_targets = mask;
            changed = true;
        }
    }
    return changed;
}


// "org/name" typed in the model search: a Hugging Face model id whose config.json can be fetched.
bool looks_like_hf_id(const std::string& s) {
    auto slash = s.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 >= s.size() || s.find('/', slash + 1) != std::string::npos)
        return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '/')) return false;
    return s.size() <= 96;
}

// The framework profile's value of a field, or nothing when the profile does not set it.
bool profile_sets(std::string_view path) {
    for (const char* p : framework_profile_fields())
        if (path == p) return true;
    return false;
}

// ── One field ──

// The box a value is shown in. Returns whether the canvas was clicked on it (the DOM control
// normally takes the pointer; this is the fallback before the page has built it).
bool value_box(const char* id, const std::string& text, float width, bool error, bool editing, bool show_text) {
    const Palette& pal = palette();
    ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetFrameHeight();
    bool clicked = ImGui::InvisibleButton(id, ImVec2(width, h));
    bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImU32 bg = error ? pal.bad_field
                     : editing ? pal.field_editing : ImGui::GetColorU32(hovered ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg);
    dl->AddRectFilled(p, ImVec2(p.x + width, p.y + h), bg, ImGui::GetStyle().FrameRounding);
    if (error) dl->AddRect(p, ImVec2(p.x + width, p.y + h), pal.bad, ImGui::GetStyle().FrameRounding, 0, 1.5f);
    else if (editing) dl->AddRect(p, ImVec2(p.x + width, p.y + h), pal.accent, ImGui::GetStyle().FrameRounding, 0, 1.0f);
    if (show_text) {
        dl->PushClipRect(p, ImVec2(p.x + width - 4, p.y + h), true);
        dl->AddText(ImVec2(p.x + ImGui::GetStyle().FramePadding.x, p.y + (h - ImGui::GetFontSize()) * 0.5f), pal.text,
                    text.c_str());
        dl->PopClipRect();
    }
    return clicked;
}

// The text a DOM control sent for a field, as the field's text codec reads it: numbers as typed
// ("32K"), a choice by its index or name.
std::string typed_field_text(const FieldSpec& f, const std::string& typed) {
    if (f.kind == FieldKind::integer || f.kind == FieldKind::number) return codec::typed_number_text(typed, context_length(f));
    if (f.kind == FieldKind::choice && !typed.empty() && std::isdigit(static_cast<unsigned char>(typed[0])))
        return f.choices[std::clamp(std::atoi(typed.c_str()), 0, int(f.choices.size()) - 1)];
    return typed;
}

// A value typed into a field: set (a preset name selects that preset), or kept with what is
// wrong with it. Either way the inputs changed.
void apply_typed_value(App& app, const FieldSpec& f, const std::string& typed) {
    Scenario& sc = app.scenario;
    const std::string path = f.path;
    const std::string text = typed_field_text(f, typed);
    std::string problem = codec::set_field_from_text(sc, f, text);
    if (!problem.empty()) {
        app.input_errors[path] = problem;
        dom::set_draft(path, typed);  // the text stays, with what is wrong with it
        return;                       // invalid like any rule: results dim, the summary says why
    }
    app.input_errors.erase(path);
    if (f.kind != FieldKind::text) return;
    if (path == "hardware.gpu") apply_gpu_preset(sc, text);
    else if (path == "model.name") {
        if (const ModelPreset* p = find_model_preset(text)) {
            app.notes.clear();
            apply_model_preset(sc, *p, &app.notes);
        }
    }
}

// A field's value moved by `steps` (arrow keys, − and +); its draft and error go.
void set_stepped(App& app, const FieldSpec& f, double value) {
    f.set(app.scenario, value);
    dom::clear_draft(f.path);
    app.input_errors.erase(f.path);
}

// What the DOM sent for this field since the last frame: typed, cancelled, stepped. Returns
// whether the inputs changed.
bool field_events(App& app, const FieldSpec& f) {
    const std::string path = f.path;
    bool changed = false;
    if (auto typed = dom::committed(path)) {
        apply_typed_value(app, f, *typed);
        changed = true;
    }
    if (dom::cancelled(path) && app.input_errors.erase(path)) changed = true;
    while (auto steps = dom::stepped(path)) {  // every press of this frame (two ↑ 80 ms apart are two steps)
        if (f.kind == FieldKind::integer || f.kind == FieldKind::number) {
            set_stepped(app, f, step_value(f, f.get(app.scenario), *steps));
            changed = true;
        }
    }
    return changed;
}

// What a field row knows while it draws its box.
struct FieldRow {
    const FieldSpec& f;
    std::string path;
    const char* error;           // the field's problem, or nullptr
    const std::string* draft;    // the text being typed, or nullptr
    bool editing, focused;
    bool tooltip_ok;             // the box may show its tooltip
    std::string title, body;     // the tooltip
    std::string description;     // for screen readers
};

// The "profile" / "edited" tag after a label the framework profile sets; returns its sentence
// ("Set by the … profile."), or "" for a field no profile sets. `hovered` gains the tag's hover.
std::string profile_tag(const FieldSpec& f, const Scenario& sc, const Scenario& profile, bool& hovered) {
    const std::string path = f.path;
    if (!profile_sets(path)) return "";
    const Palette& pal = palette();
    const FrameworkProfile& fp = framework_profile(sc.training.framework);
    bool same = field_equal(f, sc, profile);
    ImGui::SameLine(0, 6);
    ImGui::PushFont(fonts().small);
    ImGui::SetCursorPosY(ImGui::GetCursorPosY() + 1);
    ImGui::PushStyleColor(ImGuiCol_Text, same ? pal.accent : pal.warn);
    ImGui::TextUnformatted(same ? "profile" : "edited");
    ImGui::PopStyleColor();
    ImGui::PopFont();
    record_item(path + "#profile");
    hovered |= ImGui::IsItemHovered();
    return same ? std::string("Set by the ") + fp.label + " profile."
                : std::string("Changed from the ") + fp.label + " profile's value.";
}

// The label column: label, symbol, profile tag, and the tooltip while hovered. Returns the
// profile tag's sentence.
std::string field_label(const FieldSpec& f, const Scenario& sc, const Scenario& profile, const std::string& title,
                        const std::string& body) {
    const Palette& pal = palette();
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
    // Set by the framework profile: a tag, "profile" while it holds the profile's value.
    std::string profile_note = profile_tag(f, sc, profile, label_hovered);
    if (label_hovered) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26);
        ImGui::PushFont(fonts().bold);
        ImGui::TextUnformatted(title.c_str());
        ImGui::PopFont();
        ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
        ImGui::TextUnformatted(body.c_str());
        if (!profile_note.empty()) ImGui::TextUnformatted(profile_note.c_str());
        ImGui::PopStyleColor();
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    return profile_note;
}

// Accessible description: the field table's help, unit, profile and any problem.
std::string field_description(const FieldSpec& f, const std::string& profile_note, const char* error) {
    std::string description = f.help;
    if (*f.unit) description += std::string(" Unit: ") + f.unit + ".";
    if (context_length(f)) description += std::string(" ") + context_k_note;
    if (!profile_note.empty()) description += " " + profile_note;
    if (error) description = std::string("Problem: ") + error + ". " + description;
    return description;
}

// The − and + buttons of an integer field (halve and double where its range is wide). Returns
// whether the value changed.
bool stepper_buttons(App& app, const FieldSpec& f, double v, float button, float spacing) {
    const std::string path = f.path;
    bool changed = false;
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(0, ImGui::GetStyle().FramePadding.y));
    ImGui::SameLine(0, spacing);
    bool minus = ImGui::Button("\xE2\x88\x92", ImVec2(button, button));
    record_item(path + "#minus");
    if (dom_button(minus, path + "#minus", std::string(geometric(f) ? "Halve " : "Decrease ") + f.label, "", false)) {
        double next = step_value(f, v, -1);
        if (next != v) set_stepped(app, f, next), changed = true;
    }
    help_tooltip(geometric(f) ? "Halve" : "Decrease by 1", nullptr);
    ImGui::SameLine(0, spacing);
    bool plus = ImGui::Button("+", ImVec2(button, button));
    record_item(path + "#plus");
    if (dom_button(plus, path + "#plus", std::string(geometric(f) ? "Double " : "Increase ") + f.label, "", false)) {
        double next = step_value(f, v, +1);
        if (next != v) set_stepped(app, f, next), changed = true;
    }
    help_tooltip(geometric(f) ? "Double" : "Increase by 1", nullptr);
    ImGui::PopStyleVar();
    return changed;
}

// The unit (or "auto" for a zero that means it, or a readable form of a big number) shown at the
// right end of a number box.
std::string number_suffix(const FieldSpec& f, double v, bool editing, bool focused) {
    if (v == 0 && f.zero_means && !editing) return f.zero_means;
    if (f.kind == FieldKind::number && std::fabs(v) >= 1e5 && !editing && !focused)
        return format_count(v) + (*f.unit ? std::string(" ") + f.unit : "");
    return f.unit;
}

// A number field: the box (the DOM input over it edits), steppers for integers, the unit inside
// the box where it fits. Returns whether the value changed.
bool number_field(App& app, const FieldRow& row) {
    const FieldSpec& f = row.f;
    const float full = ImGui::GetContentRegionAvail().x;
    const float button = ImGui::GetFrameHeight();
    const float spacing = 4;
    double v = f.get(app.scenario);
    const bool steppers = f.kind == FieldKind::integer;
    const float box_w = steppers ? std::max(40.0f, full - 2 * (button + spacing)) : full;
    std::string shown = row.draft ? *row.draft : format_input_number(v);
    const std::string suffix = number_suffix(f, v, row.editing, row.focused);
    if (value_box("##v", shown, box_w, row.error != nullptr, row.editing, !row.focused)) dom::request_focus(row.path);
    ImVec2 box_min = ImGui::GetItemRectMin(), box_max = ImGui::GetItemRectMax();
    record_item(row.path);
    if (row.tooltip_ok) help_tooltip(row.title.c_str(), row.body.c_str());
    dom::Control c{row.path, dom::Role::number, f.label, row.description};
    c.value = shown;
    c.min = f.ui_min, c.max = f.ui_max, c.has_range = true;
    c.invalid = row.error != nullptr;
    c.editing = row.editing;
    // The unit drawn inside the box stays readable while the DOM input shows the text.
    ImGui::PushFont(fonts().small);
    float suffix_w = suffix.empty() ? 0 : ImGui::CalcTextSize(suffix.c_str()).x;
    ImGui::PopFont();
    // The unit shows only where the value and it both fit ("50,257" never runs into "tokens").
    const float value_w = ImGui::CalcTextSize(shown.c_str()).x + ImGui::GetStyle().FramePadding.x;
    const bool unit_fits = suffix_w > 0 && suffix_w < (box_max.x - box_min.x) * 0.55f &&
                           value_w + 8 + suffix_w + 9 <= box_max.x - box_min.x;
    if (unit_fits) c.pad_right = suffix_w + 14;
    dom::add(std::move(c));
    const bool changed = steppers && stepper_buttons(app, f, v, button, spacing);
    if (unit_fits) {
        ImGui::PushFont(fonts().small);
        ImVec2 ts = ImGui::CalcTextSize(suffix.c_str());
        float y = box_min.y + (box_max.y - box_min.y - ts.y) * 0.5f;
        ImGui::GetWindowDrawList()->AddText(ImVec2(box_max.x - ts.x - 9, y), palette().text_faint, suffix.c_str());
        ImGui::PopFont();
    }
    return changed;
}

// A flag: a checkbox. Returns whether it changed.
bool boolean_field(Scenario& sc, const FieldRow& row) {
    const FieldSpec& f = row.f;
    bool changed = false;
    bool v = f.get(sc) != 0;
    if (ImGui::Checkbox(v ? "on" : "off", &v)) {
        f.set(sc, v ? 1.0 : 0.0);
        changed = true;
    }
    ImVec2 a = ImGui::GetItemRectMin();
    record_item(row.path);
    help_tooltip(row.title.c_str(), row.body.c_str());
    dom::Control c{row.path, dom::Role::checkbox, f.label, row.description};
    c.checked = v;
    dom::add_at(std::move(c), a, ImVec2(a.x + ImGui::GetFrameHeight(), a.y + ImGui::GetFrameHeight()));
    return changed;
}

// A choice: a box with the chosen name and ▾ (the DOM <select> over it picks).
void choice_field(const Scenario& sc, const FieldRow& row) {
    const FieldSpec& f = row.f;
    int v = static_cast<int>(f.get(sc));
    std::string preview = v >= 0 && v < int(f.choices.size()) ? pretty_choice(f.choices[v]) : "?";
    if (value_box("##v", preview, ImGui::GetContentRegionAvail().x, row.error != nullptr, false, true))
        dom::request_focus(row.path);
    ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    ImGui::GetWindowDrawList()->AddText(ImVec2(b.x - 20, a.y + (b.y - a.y - ImGui::GetFontSize()) * 0.5f),
                                        palette().text_dim, "\xE2\x96\xBE");
    record_item(row.path);
    if (row.tooltip_ok) help_tooltip(row.title.c_str(), row.body.c_str());
    dom::Control c{row.path, dom::Role::select, f.label, row.description};
    for (const char* name : f.choices) c.options.push_back(pretty_choice(name));
    c.selected = v;
    dom::add(std::move(c));
}

// A text field (LoRA targets: a checkbox per linear). Returns whether it changed.
bool text_field(Scenario& sc, const FieldRow& row) {
    const FieldSpec& f = row.f;
    if (row.path == "training.lora_targets") return lora_targets_widget(sc, row.title, row.body);
    std::string shown = row.draft ? *row.draft : f.get_text(sc);
    if (value_box("##v", shown, ImGui::GetContentRegionAvail().x, row.error != nullptr, row.editing, !row.focused))
        dom::request_focus(row.path);
    record_item(row.path);
    if (row.tooltip_ok) help_tooltip(row.title.c_str(), row.body.c_str());
    dom::Control c{row.path, dom::Role::textbox, f.label, row.description};
    c.value = shown;
    c.invalid = row.error != nullptr;
    c.editing = row.editing;
    dom::add(std::move(c));
    return false;
}

// The field's problem under its box, in small red text.
void field_error_text(const char* error) {
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, palette().bad);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(error);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

// One input row: label (with tooltip) | box (+ in-place validation message).
void field_row(App& app, const FieldSpec& f, const Scenario& profile) {
    // Events first: what the DOM sent since the last frame.
    bool changed = field_events(app, f);
    const std::string path = f.path;
    const char* error = app.field_error(f.path);
    const std::string* draft = dom::draft(path);
    const bool editing = draft != nullptr && !app.input_errors.count(path);
    const bool focused = dom::is_focused(path);
    // The box's tooltip stays away while the field is edited or shows its error: it would cover
    // the error under the field and, on narrow screens, the results the edit changes.
    FieldRow row{f, path, error, draft, editing, focused, !focused && !editing && !error,
                 field_tooltip_title(f), field_tooltip_body(f), ""};
    ImGui::TableNextRow();
    const std::string profile_note = field_label(f, app.scenario, profile, row.title, row.body);
    row.description = field_description(f, profile_note, error);

    ImGui::TableNextColumn();
    ImGui::PushID(f.path);
    switch (f.kind) {
        case FieldKind::integer:
        case FieldKind::number: changed = number_field(app, row) || changed; break;
        case FieldKind::boolean: changed = boolean_field(app.scenario, row) || changed; break;
        case FieldKind::choice: choice_field(app.scenario, row); break;
        case FieldKind::text: changed = text_field(app.scenario, row) || changed; break;
    }
    if (error) field_error_text(error);
    ImGui::PopID();
    if (changed) app.touched();
}

// A group's collapsible header; also a disclosure button of the DOM layer.
bool group_header(App& app, const FieldGroup& g, int errors) {
    const Palette& pal = palette();
    const std::string id = std::string("group:") + g.id;
    ImGui::PushID(g.id);
    ImGuiID header_id = ImGui::GetID("###section");
    bool was_open = ImGui::GetStateStorage()->GetInt(header_id, 1) != 0;
    if (dom::activated(id)) ImGui::SetNextItemOpen(!was_open);
    ImGui::PushFont(fonts().title);
    ImGui::PushStyleColor(ImGuiCol_Header, IM_COL32(0, 0, 0, 0));
    ImGui::PushStyleColor(ImGuiCol_HeaderHovered, with_alpha(pal.ink, 10));
    ImGui::PushStyleColor(ImGuiCol_HeaderActive, with_alpha(pal.ink, 16));
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(4, touch_targets() ? std::max(6.0f, (44.0f - ImGui::GetFontSize()) * 0.5f) : 6.0f));
    bool open = ImGui::CollapsingHeader((std::string(g.title) + "###section").c_str(), ImGuiTreeNodeFlags_DefaultOpen);
    ImGui::PopStyleVar();
    ImGui::PopStyleColor(3);
    ImGui::PopFont();
    std::string hint = errors ? format_grouped(errors) + (errors == 1 ? " problem" : " problems") : std::string(g.hint);
    {
        ImVec2 r0 = ImGui::GetItemRectMin(), r1 = ImGui::GetItemRectMax();
        ImGui::PushFont(fonts().small);
        ImVec2 ts = ImGui::CalcTextSize(hint.c_str());
        float title_w = ImGui::CalcTextSize(g.title).x * 18.0f / 13.0f + 40;
        if (r1.x - ts.x - 4 > r0.x + title_w)
            ImGui::GetWindowDrawList()->AddText(ImVec2(r1.x - ts.x - 4, (r0.y + r1.y - ts.y) * 0.5f),
                                                errors ? pal.bad : pal.text_faint, hint.c_str());
        ImGui::PopFont();
    }
    record_item(id);
    dom::Control c{id, dom::Role::button, g.title, hint};
    c.expanded = open;
    dom::add(std::move(c));
    ImGui::PopID();
    (void)app;
    return open;
}

// Where a picker's list opens: under its button, inside the page.
void place_popup(ImVec2 at, float popup_w) {
    float x = std::clamp(at.x, 8.0f, std::max(8.0f, ImGui::GetIO().DisplaySize.x - popup_w - 8));
    ImGui::SetNextWindowPos(ImVec2(x, at.y + ImGui::GetFrameHeight() + 22));
}

// The model picker; a Hugging Face id typed in its search fetches that model's config.json.
void model_picker(App& app, float w, float popup_w) {
    Scenario& sc = app.scenario;
    const auto models = model_presets();
    int current_model = -1;
    for (int i = 0; i < int(models.size()); ++i)
        if (same_model(sc.model, models[i].model)) current_model = i;
    std::string model_text = sc.model.name;
    if (current_model < 0 && find_model_preset(sc.model.name)) model_text += "  (edited)";
    if (current_model < 0 && !find_model_preset(sc.model.name)) model_text += "  (custom)";
    ImVec2 model_pos = ImGui::GetCursorScreenPos();
    if (picker_button("model_picker", "Model", model_text, w, app.panels.pickers.model.was_open,
                      "Fills every model field with a published architecture (exact parameter count); type a Hugging "
                      "Face model id (org/name) to fetch its config.json."))
        ImGui::OpenPopup("model_picker_popup");
    help_tooltip("Model preset", "Fills every model field with a published architecture (exact parameter count). Edit any field afterwards; the link records the preset plus your edits.");
    std::vector<PickerItem> model_items;
    const std::string* search = dom::draft("model_picker:search");
    const bool fetch_row = search && looks_like_hf_id(*search);
    for (const auto& p : models)
        model_items.push_back({p.model.name, format_count(preset_params(p)) + " params", std::string(p.model.name) + " " + p.id});
    if (fetch_row)
        model_items.push_back({"Fetch " + *search + " from Hugging Face", "config.json", *search});
    place_popup(model_pos, popup_w);
    int picked = picker_popup(app.panels.pickers.model, model_items, popup_w, current_model);
    if (picked >= 0 && picked < int(models.size())) {
        app.notes.clear();
        apply_model_preset(sc, models[picked], &app.notes);
        app.touched();
    } else if (picked >= 0 && fetch_row) {
        app.import_report = {};
        app.import_report.open = true;
        app.import_report.busy = true;
        app.import_report.source = model_items[picked].search;
        web::fetch_hf_config(model_items[picked].search);
    }
}

void gpu_picker(App& app, float w, float popup_w) {
    Scenario& sc = app.scenario;
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
    if (picker_button("gpu_picker", "GPU", gpu_text, w, app.panels.pickers.gpu.was_open,
                      "Fills memory, peak and typical achieved TFLOP/s and an indicative price per GPU-hour."))
        ImGui::OpenPopup("gpu_picker_popup");
    help_tooltip("GPU preset", "Fills memory, peak and typical achieved TFLOP/s and an indicative price per GPU-hour (sources in the preset table).");
    std::vector<PickerItem> gpu_items;
    for (const auto& g : gpus)
        gpu_items.push_back({g.id, format_bytes(g.memory_gib * bytes_per_gib, app.units) + "  \xC2\xB7  " +
                                       format_sig(g.peak_tflops, 4) + " TFLOP/s", g.id});
    place_popup(gpu_pos, popup_w);
    int picked = picker_popup(app.panels.pickers.gpu, gpu_items, popup_w, current_gpu);
    if (picked >= 0) {
        apply_gpu_preset(sc, gpus[picked].id);
        app.touched();
    }

}

// The framework profile (applied like a preset; every field it sets stays editable).
void framework_picker(App& app, float w, float popup_w) {
    Scenario& sc = app.scenario;
    const auto profiles = framework_profiles();
    const FrameworkProfile& fp = framework_profile(sc.training.framework);
    Scenario as_profile = sc;
    apply_framework_profile(as_profile, sc.training.framework);
    int edited = 0;
    for (const char* path : framework_profile_fields())
        if (const FieldSpec* f = find_field_by_path(path); f && !field_equal(*f, sc, as_profile)) ++edited;
    std::string fw_text = std::string(fp.label) + (edited ? "  (edited)" : "");
    ImVec2 fw_pos = ImGui::GetCursorScreenPos();
    if (picker_button("framework_picker", "Framework", fw_text, w, app.panels.pickers.framework.was_open,
                      find_field_by_path("training.framework")->help))
        ImGui::OpenPopup("framework_picker_popup");
    help_tooltip("Framework profile", (std::string(find_field_by_path("training.framework")->help) +
                                       "\nSource: " + fp.source).c_str());
    std::vector<PickerItem> fw_items;
    int current_fw = -1;
    for (int i = 0; i < int(profiles.size()); ++i) {
        const FrameworkProfile& p = profiles[i];
        if (p.id == sc.training.framework) current_fw = i;
        std::string detail = std::string(kernels_names()[std::size_t(p.kernels)]) + " kernels \xC2\xB7 " +
                             pretty_choice(precision_names()[std::size_t(p.precision)]);
        fw_items.push_back({p.label, detail, std::string(p.label) + " " + framework_names()[std::size_t(p.id)]});
    }
    place_popup(fw_pos, popup_w);
    int picked = picker_popup(app.panels.pickers.framework, fw_items, popup_w, current_fw);
    if (picked >= 0) {
        apply_framework_profile(sc, profiles[picked].id);
        app.touched();
    }

}

// Import: a config.json or DeepSpeed JSON from a file (paste or drop works anywhere).
void import_button(float w) {
    const Palette& pal = palette();
    ImVec2 p = ImGui::GetCursorScreenPos();
    float h = ImGui::GetFrameHeight() + 18;
    bool pressed = ImGui::InvisibleButton("##import", ImVec2(w, h));
    bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRect(p, ImVec2(p.x + w, p.y + h), hovered ? pal.accent : pal.card_border, 8, 0, 1.0f);
    ImGui::PushFont(fonts().small);
    dl->AddText(ImVec2(p.x + 12, p.y + 5 + (h - ImGui::GetFrameHeight() - 18) * 0.5f), pal.text_faint,
                "Import (or paste / drop anywhere)");
    float small_h = ImGui::GetFontSize();
    ImGui::PopFont();
    ImGui::PushFont(fonts().bold);
    dl->AddText(ImVec2(p.x + 12, p.y + 7 + small_h + (h - ImGui::GetFrameHeight() - 18) * 0.5f), pal.accent,
                "config.json / DeepSpeed\xE2\x80\xA6");
    ImGui::PopFont();
    record_item("import");
    dom::Control b{"import", dom::Role::button, "Import a config file",
                   "Opens a file picker for a Hugging Face config.json (sets the model) or a DeepSpeed JSON "
                   "(sets training and parallel settings). Pasting or dropping one anywhere works too."};
    b.shortcut = shortcut_for("import");
    dom::add(std::move(b));
    help_tooltip("Import a config", "A Hugging Face config.json sets the model (and its quantisation); a .gguf file (only its header is read) sets the model and format to serve with llama.cpp; a DeepSpeed JSON sets ZeRO, batch and precision. Paste or drop one anywhere on the page, too.");
    if (pressed || dom::activated("import")) web::open_file_picker();
}

// The training method changes what trains, and so almost every number: it sits with the presets.
void method_row(App& app, bool stacked) {
    Scenario& sc = app.scenario;
    static const char* method_labels[] = {"Full", "LoRA", "QLoRA", "Freeze"};
    const FieldSpec* field = find_field_by_path("training.method");
    int method = static_cast<int>(sc.training.method);
    ImGui::AlignTextToFramePadding();
    text_dim("Method");
    if (field) help_tooltip("Training method", field->help);
    ImGui::SameLine(0, 10);
    if (segmented("method", method_labels, 4, &method, "Training method")) {
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
        dom::add({"trainable_share", dom::Role::text, what});
    }
}

}  // namespace

void draw_presets(App& app, bool stacked) {
    begin_card("presets");
    section_title("Start from a preset", "then edit anything below", "presets_title");
    ImGui::Dummy(ImVec2(0, 2));
    const float avail = ImGui::GetContentRegionAvail().x;
    const float gap = 10;
    const float w = stacked ? avail : (avail - gap) * 0.5f;
    const float popup_w = std::max(w, std::min(360.0f, ImGui::GetIO().DisplaySize.x - 16));
    model_picker(app, w, popup_w);
    if (!stacked) ImGui::SameLine(0, gap);
    gpu_picker(app, w, popup_w);
    if (!serving(app)) framework_picker(app, w, popup_w);  // training only
    if (!stacked && !serving(app)) ImGui::SameLine(0, gap);
    import_button(w);
    ImGui::Dummy(ImVec2(0, 2));
    if (!serving(app)) method_row(app, stacked);
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

void draw_inputs(App& app) {
    const Palette& pal = palette();
    begin_card("inputs");
    Scenario profile = app.scenario;
    apply_framework_profile(profile, app.scenario.training.framework);
    bool first = true;
    auto group = [&](const FieldGroup& g, const std::vector<const FieldSpec*>& fields) {
        int errors = 0, visible = 0;
        for (const FieldSpec* f : fields) {
            if (app.field_error(f->path)) ++errors;
            if (field_visible(app, f->path)) ++visible;
        }
        if (visible == 0) return;  // e.g. Fine-tuning for full training: no empty heading
        if (!first) ImGui::Dummy(ImVec2(0, 4));
        first = false;
        if (group_header(app, g, errors)) {
            ImGui::PushID(g.id);
            ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(4, 4));
            if (ImGui::BeginTable("fields", 2, ImGuiTableFlags_NoSavedSettings)) {
                float label_w = std::clamp(ImGui::GetContentRegionAvail().x * 0.42f, 120.0f, 190.0f);
                ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthFixed, label_w);
                ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
                for (const FieldSpec* f : fields)
                    if (field_visible(app, f->path)) field_row(app, *f, profile);
                ImGui::EndTable();
            }
            ImGui::PopStyleVar();
            ImGui::PopID();
        }
    };
    for (const FieldGroup& g : field_groups()) {
        if (g.picker) continue;  // drawn as pickers with the presets
        std::vector<const FieldSpec*> fields;
        for (const char* path : g.paths)
            if (const FieldSpec* f = find_field_by_path(path)) fields.push_back(f);
        group(g, fields);
    }
    // A field no group lists (the field table grew) still shows, at the end.
    std::vector<const FieldSpec*> others;
    for (const auto& f : scenario_fields())
        if (!group_of_field(f.path)) others.push_back(&f);
    if (!others.empty()) {
        static const FieldGroup other_group{"other", "Other settings", "", {}};
        group(other_group, others);
    }
    // Errors that name no field of the table (e.g. a rule across fields) still show here.
    for (const auto& e : app.evaluation.errors) {
        if (find_field_by_path(e.field)) continue;
        wrapped_coloured(pal.bad, (e.field + ": " + e.message).c_str());
    }
    end_card();
}

}  // namespace vramcalc::app
