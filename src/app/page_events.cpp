// What web/main.js tells the app besides input and frames: a config to import (pasted, dropped,
// picked or fetched), a fetch that failed, the system's colour preference and pointer changing,
// and the height an embed needs.
#include <emscripten.h>

#include "app.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "page.hpp"
#include "web.hpp"
#include "widgets.hpp"

using namespace vramcalc::app;

extern "C" {

// An import read by the JS API: `fields` are "path<TAB>value" lines; `lines` what the report card
// says ("\n"-separated); `source` where it came from ("llama3.json (dropped)", "meta-llama/…").
EMSCRIPTEN_KEEPALIVE void vramcalc_import(const char* fields, const char* source, const char* kind, const char* lines) {
    ImportReport r;
    r.source = source ? source : "";
    r.kind = kind ? kind : "";
    std::string text = lines ? lines : "";
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        if (end > start) r.lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    the_app().import_fields(fields ? fields : "", r);
    wake(6);
}

// The scenario's link fragment (the base an import starts from).
EMSCRIPTEN_KEEPALIVE const char* vramcalc_scenario_link() {
    static std::string link;
    link = vramcalc::codec::encode_link(the_app().scenario);
    return link.c_str();
}

// An import that failed (the file is no config, a fetch failed): each line of `message` says why.
EMSCRIPTEN_KEEPALIVE void vramcalc_import_failed(const char* source, const char* message) {
    ImportReport& r = the_app().import_report;
    r = {};
    r.open = true;
    r.source = source ? source : "";
    std::string text = message ? message : "failed";
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        if (end > start) r.issues.push_back({"import", text.substr(start, end - start)});
        start = end + 1;
    }
    wake(6);
}

// A fetch started (Hugging Face): the card says so until it ends.
EMSCRIPTEN_KEEPALIVE void vramcalc_import_busy(const char* source) {
    ImportReport& r = the_app().import_report;
    r = {};
    r.open = true;
    r.busy = true;
    r.source = source ? source : "";
    wake(6);
}

// prefers-color-scheme or (pointer: coarse) changed.
EMSCRIPTEN_KEEPALIVE void vramcalc_media_changed() {
    App& app = the_app();
    app.prefers_light = web::prefers_light();
    app.apply_theme();
    set_touch_targets(web::coarse_pointer());
    wake(6);
}

// The height the page's content needs at the current width (CSS px): the embed reports it to the
// host page so the iframe can fit it.
EMSCRIPTEN_KEEPALIVE double vramcalc_content_height() { return the_app().content_height; }

// Whether a wheel (or a finger) moving by dy (DOM pixels, down positive) would scroll something
// under the pointer, the way ImGui picks the window to scroll: when nothing can, the page lets
// the event go to the browser, so a host page around an embed scrolls.
EMSCRIPTEN_KEEPALIVE int vramcalc_can_scroll(double dy) {
    ImGuiContext* g = ImGui::GetCurrentContext();
    if (!g) return 0;
    for (ImGuiWindow* w = g->HoveredWindow; w; w = w->ParentWindow) {
        const bool child = (w->Flags & ImGuiWindowFlags_ChildWindow) != 0;
        const bool wheel_off = (w->Flags & ImGuiWindowFlags_NoScrollWithMouse) != 0;
        if (!wheel_off && w->ScrollMax.y > 0) {
            if (dy > 0) return w->Scroll.y < w->ScrollMax.y - 0.5f ? 1 : 0;
            if (dy < 0) return w->Scroll.y > 0.5f ? 1 : 0;
            return 1;
        }
        if (!child) break;
    }
    return 0;
}

}  // extern "C"
