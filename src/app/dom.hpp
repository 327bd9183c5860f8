// The DOM layer: what a canvas cannot do, done by real DOM elements.
//
// Every control and result the panels draw is registered here, in reading order, with a role, an
// accessible name and the rectangle it was drawn at. web/dom.js mirrors that list as labelled DOM
// elements positioned over the canvas: Tab and Shift+Tab move through them from page load with a
// visible focus ring, screen readers read them, and a field being edited is a real <input> over
// the drawn box, so the system keyboard, IME, paste, autofill and undo all work. What happens to
// those elements (a click or Enter on a button, a committed value, a focus change) comes back as
// events that the panels read on their next frame, so mouse, touch and keyboard share one path:
//
//     if (ImGui::Button("Copy link") || dom::activated("copy_link")) copy();
//
// Text fields never use ImGui's InputText: the DOM input edits, the canvas shows the value.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "imgui.h"

namespace vramcalc::app::dom {

enum class Role {
    button,    // <button>; `pressed` makes it a toggle (aria-pressed); `expanded` a disclosure
    checkbox,  // <input type=checkbox>
    textbox,   // <input type=text>
    number,    // <input type=text role=spinbutton>: arrow keys step, Enter applies
    select,    // <select> with `options`, `selected`
    combobox,  // a search field that filters a list of `option`s (aria-activedescendant)
    option,    // an item of the list the last combobox controls
    heading,   // <h2>/<h3> (`level`) with the label as text
    table,     // <table> named by `label`: `rows` of {label, value, note}
    image,     // role=img named by `label`, described by `description` (charts)
    text,      // <p>: a sentence a screen reader should find in reading order
    alert,     // role=alert: problems that need attention (announced when they appear)
};

struct Row {
    std::string label, value, note;
};

struct Control {
    Control() = default;
    Control(std::string id_, Role role_, std::string label_, std::string description_ = {})
        : id(std::move(id_)), role(role_), label(std::move(label_)), description(std::move(description_)) {}
    std::string id;           // stable across frames: "model.layers", "model.layers#plus", "copy_link"
    Role role = Role::button;
    std::string label;        // the accessible name
    std::string description;  // help text (aria-description): the field table's help, units, errors
    std::string value;        // textbox/number/combobox: the text shown; select: unused
    std::vector<std::string> options;  // select
    std::vector<Row> rows;    // table
    int selected = -1;        // select: the chosen index; combobox: the highlighted option index
    int level = 2;            // heading
    double min = 0, max = 0;  // number: the UI range (aria-valuemin/max)
    bool has_range = false;
    std::optional<bool> pressed, expanded, checked;
    bool invalid = false;     // aria-invalid (the description says why)
    bool editing = false;     // a typed value not yet applied
    bool focusable = true;    // false: reachable by screen readers, not by Tab (e.g. +/- beside a number)
    bool popup = false;       // part of an open popup: the only controls the pointer reaches meanwhile
    bool autofocus = false;   // focus it when it appears (a popup's search field)
    std::string shortcut;     // aria-keyshortcuts and the page's keyboard help ("/", "g")
    std::string haspopup;     // aria-haspopup ("listbox")
    float pad_right = 0;      // textbox/number: room kept for the unit drawn inside the box (CSS px)
    ImVec2 min_rect, max_rect;  // where it was drawn (CSS px, canvas coordinates)
    ImVec4 clip;                // the visible part of its window (x0, y0, x1, y1)
};

// Frame bracket (main.cpp): begin clears the list, end publishes it and drops unread events.
void begin_frame();
void end_frame();

// Registers a control at the last ImGui item's rectangle, or at an explicit one. Returns it so
// callers can adjust it; ids registered twice in a frame keep the first.
Control& add(Control control);
Control& add_at(Control control, ImVec2 min, ImVec2 max);

// ── Events from the DOM, read by the panels on the frame after they happened ──
bool activated(std::string_view id);                   // a button, option or checkbox was activated
std::optional<std::string> committed(std::string_view id);  // a value to apply (Enter, blur, pause, select change)
std::optional<int> stepped(std::string_view id);       // arrow keys on a number: +1/−1, ±10 with PageUp/Down (one press per call)
std::optional<std::string> key(std::string_view id);   // other keys a control forwards ("ArrowDown", "Escape")
bool cancelled(std::string_view id);                   // Escape in a field: its typed text was dropped
const std::string* draft(std::string_view id);         // text typed but not applied yet, or null
void set_draft(std::string_view id, std::string text);  // keeps text that could not be applied, shown with its error
void clear_draft(std::string_view id);
std::vector<std::string> draft_ids();                  // the controls holding typed text (the page's "editing" state)
bool is_focused(std::string_view id);                  // DOM focus is on this control
bool has_focus();                                      // DOM focus is on any control
std::string focused_id();

// Asks the page to move DOM focus to a control after this frame (e.g. back to a picker when its
// popup closes).
void request_focus(std::string_view id);

// For the test hooks: the controls of the last frame, and a JSON description of them.
const std::vector<Control>& controls();

// The JS side (web/dom.js) calls these through main.cpp's exports.
void on_event(std::string_view type, std::string_view id, std::string_view value);
bool take_structure_if_changed(std::string& json_out);  // true when the list changed since last taken
const float* rects(int* count);                             // per control: x, y, w, h, clip x0, y0, x1, y1

}  // namespace vramcalc::app::dom
