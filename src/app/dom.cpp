#include "dom.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include <emscripten.h>

#include "imgui_internal.h"
#include "page.hpp"

namespace vramcalc::app::dom {
namespace {

struct Event {
    std::string type, id, value;
    bool consumed = false;
};

std::vector<Control> list;          // this frame's controls, in reading order
std::vector<Control> last_list;     // the last complete frame's
std::vector<Event> events;          // arrived since the last frame
std::map<std::string, std::string, std::less<>> drafts;
std::string focused;                // the id DOM focus is on ("" when none)
std::string scroll_to;              // bring this control into view when it is drawn
std::string focus_request;          // ask the page to focus this control after the frame
std::string published;              // the last structure JSON handed to the page
bool changed = true;
std::vector<float> rect_data;

const char* role_name(Role r) {
    switch (r) {
        case Role::button: return "button";
        case Role::checkbox: return "checkbox";
        case Role::textbox: return "textbox";
        case Role::number: return "number";
        case Role::select: return "select";
        case Role::combobox: return "combobox";
        case Role::option: return "option";
        case Role::heading: return "heading";
        case Role::table: return "table";
        case Role::image: return "image";
        case Role::text: return "text";
        case Role::alert: return "alert";
    }
    return "button";
}

void append_string(std::string& out, std::string_view s) {
    out += '"';
    for (char ch : s) {
        unsigned char c = static_cast<unsigned char>(ch);
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += ch;
                }
        }
    }
    out += '"';
}

void append_key(std::string& out, const char* key) {
    if (out.back() != '{') out += ',';
    append_string(out, key);
    out += ':';
}

void append_number(std::string& out, double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    out += buf;
}

// The structure the page builds its elements from (everything but the rectangles).
std::string structure_json(const std::vector<Control>& controls) {
    std::string out = "{\"controls\":[";
    bool first = true;
    for (const Control& c : controls) {
        if (!first) out += ',';
        first = false;
        out += '{';
        append_key(out, "id"), append_string(out, c.id);
        append_key(out, "role"), append_string(out, role_name(c.role));
        append_key(out, "label"), append_string(out, c.label);
        if (!c.description.empty()) append_key(out, "description"), append_string(out, c.description);
        if (!c.value.empty() || c.role == Role::textbox || c.role == Role::number || c.role == Role::combobox)
            append_key(out, "value"), append_string(out, c.value);
        if (!c.options.empty()) {
            append_key(out, "options");
            out += '[';
            for (std::size_t i = 0; i < c.options.size(); ++i) {
                if (i) out += ',';
                append_string(out, c.options[i]);
            }
            out += ']';
        }
        if (!c.rows.empty()) {
            append_key(out, "rows");
            out += '[';
            for (std::size_t i = 0; i < c.rows.size(); ++i) {
                if (i) out += ',';
                out += '[';
                append_string(out, c.rows[i].label);
                out += ',';
                append_string(out, c.rows[i].value);
                out += ',';
                append_string(out, c.rows[i].note);
                out += ']';
            }
            out += ']';
        }
        if (c.selected >= 0) append_key(out, "selected"), append_number(out, c.selected);
        if (c.role == Role::heading) append_key(out, "level"), append_number(out, c.level);
        if (c.has_range) {
            append_key(out, "min"), append_number(out, c.min);
            append_key(out, "max"), append_number(out, c.max);
        }
        if (c.pressed) append_key(out, "pressed"), out += *c.pressed ? "true" : "false";
        if (c.expanded) append_key(out, "expanded"), out += *c.expanded ? "true" : "false";
        if (c.checked) append_key(out, "checked"), out += *c.checked ? "true" : "false";
        if (c.invalid) append_key(out, "invalid"), out += "true";
        if (c.editing) append_key(out, "editing"), out += "true";
        if (!c.focusable) append_key(out, "focusable"), out += "false";
        if (c.popup) append_key(out, "popup"), out += "true";
        if (c.autofocus) append_key(out, "autofocus"), out += "true";
        if (!c.shortcut.empty()) append_key(out, "shortcut"), append_string(out, c.shortcut);
        if (!c.haspopup.empty()) append_key(out, "haspopup"), append_string(out, c.haspopup);
        if (c.pad_right > 0) append_key(out, "padRight"), append_number(out, std::round(c.pad_right));
        out += '}';
    }
    out += "]";
    if (!focus_request.empty()) {
        out += ",\"focus\":";
        append_string(out, focus_request);
    }
    out += '}';
    return out;
}

Event* find_event(std::string_view type, std::string_view id) {
    for (Event& e : events)
        if (!e.consumed && e.type == type && e.id == id) return &e;
    return nullptr;
}

}  // namespace

void begin_frame() { list.clear(); }

void end_frame() {
    rect_data.resize(list.size() * 8);
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Control& c = list[i];
        float* r = &rect_data[i * 8];
        r[0] = c.min_rect.x, r[1] = c.min_rect.y, r[2] = c.max_rect.x - c.min_rect.x, r[3] = c.max_rect.y - c.min_rect.y;
        r[4] = c.clip.x, r[5] = c.clip.y, r[6] = c.clip.z, r[7] = c.clip.w;
    }
    std::string json = structure_json(list);
    if (json != published) {
        published = std::move(json);
        changed = true;
    }
    focus_request.clear();
    events.clear();
    last_list.swap(list);
}

Control& add(Control c) { return add_at(std::move(c), ImGui::GetItemRectMin(), ImGui::GetItemRectMax()); }

Control& add_at(Control c, ImVec2 min, ImVec2 max) {
    for (Control& existing : list)
        if (existing.id == c.id) return existing;
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    ImRect clip = window->ClipRect;
    c.min_rect = min;
    c.max_rect = max;
    c.clip = ImVec4(clip.Min.x, clip.Min.y, clip.Max.x, clip.Max.y);
    if (!scroll_to.empty() && c.id == scroll_to) {
        // Focus moved here by keyboard: bring it into view, in its window and the windows around it.
        ImRect r(min, max);
        if (!(r.Min.y >= clip.Min.y && r.Max.y <= clip.Max.y && r.Min.x >= clip.Min.x - 1 && r.Max.x <= clip.Max.x + 1)) {
            r.Expand(ImVec2(0, 12));
            ImGui::ScrollToRect(window, r, ImGuiScrollFlags_KeepVisibleEdgeY | ImGuiScrollFlags_KeepVisibleEdgeX);
        }
        scroll_to.clear();
    }
    list.push_back(std::move(c));
    return list.back();
}

bool activated(std::string_view id) {
    Event* e = find_event("activate", id);
    if (!e) return false;
    e->consumed = true;
    return true;
}

std::optional<std::string> committed(std::string_view id) {
    Event* e = find_event("commit", id);
    if (!e) return std::nullopt;
    e->consumed = true;
    return e->value;
}

std::optional<int> stepped(std::string_view id) {
    Event* e = find_event("step", id);
    if (!e) return std::nullopt;
    e->consumed = true;
    return std::atoi(e->value.c_str());
}

std::optional<std::string> key(std::string_view id) {
    Event* e = find_event("key", id);
    if (!e) return std::nullopt;
    e->consumed = true;
    return e->value;
}

bool cancelled(std::string_view id) {
    Event* e = find_event("cancel", id);
    if (!e) return false;
    e->consumed = true;
    return true;
}

const std::string* draft(std::string_view id) {
    auto it = drafts.find(id);
    return it == drafts.end() ? nullptr : &it->second;
}

void set_draft(std::string_view id, std::string text) { drafts[std::string(id)] = std::move(text); }

void clear_draft(std::string_view id) {
    auto it = drafts.find(id);
    if (it != drafts.end()) drafts.erase(it);
}

std::vector<std::string> draft_ids() {
    std::vector<std::string> ids;
    for (const auto& [id, text] : drafts) ids.push_back(id);
    return ids;
}
bool is_focused(std::string_view id) { return !focused.empty() && focused == id; }
bool has_focus() { return !focused.empty(); }
std::string focused_id() { return focused; }
void request_focus(std::string_view id) { focus_request = std::string(id); }
const std::vector<Control>& controls() { return last_list; }

void on_event(std::string_view type, std::string_view id, std::string_view value) {
    if (type == "focus") {
        focused = std::string(id);
        scroll_to = focused;
        return;
    }
    if (type == "blur") {
        if (focused == id) focused.clear();
        return;
    }
    if (type == "draft") {
        drafts[std::string(id)] = std::string(value);
        return;
    }
    if (type == "commit") clear_draft(id);  // applied (or kept again with its error by the panel)
    if (type == "cancel") {
        clear_draft(id);
        events.push_back({"cancel", std::string(id), std::string(value)});
        return;
    }
    events.push_back({std::string(type), std::string(id), std::string(value)});
}

bool take_structure_if_changed(std::string& json_out) {
    if (!changed) return false;
    changed = false;
    json_out = published;
    return true;
}

const float* rects(int* count) {
    *count = int(rect_data.size() / 8);
    return rect_data.data();
}

}  // namespace vramcalc::app::dom

// ── What web/dom.js calls ──
extern "C" {

// type: activate | commit | draft | cancel | step | key | focus | blur.
EMSCRIPTEN_KEEPALIVE void vramcalc_dom_event(const char* type, const char* id, const char* value) {
    vramcalc::app::dom::on_event(type ? type : "", id ? id : "", value ? value : "");
    vramcalc::app::wake(4);
}

// The controls as JSON when they changed since the last call, else null.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_dom_take() {
    static std::string taken;
    return vramcalc::app::dom::take_structure_if_changed(taken) ? taken.c_str() : nullptr;
}

EMSCRIPTEN_KEEPALIVE const float* vramcalc_dom_rects() {
    int n = 0;
    return vramcalc::app::dom::rects(&n);
}

EMSCRIPTEN_KEEPALIVE int vramcalc_dom_rect_count() {
    int n = 0;
    vramcalc::app::dom::rects(&n);
    return n;
}

}  // extern "C"
