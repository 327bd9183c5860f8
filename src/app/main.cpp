// Entry point of the page: GLFW/WebGL2 setup, the on-demand frame loop, HiDPI handling and the
// C exports that web/main.js calls (frame, wake-up, hash changes; the test hooks are test_hooks.cpp).
//
// Start-up, in two steps so the numbers come first: main() (as soon as the wasm is instantiated)
// evaluates the scenario of the link and writes the verdict and headline numbers into the DOM
// summary, touching no GL. web/main.js lets the browser show them, then calls
// vramcalc_start_gl(): WebGL context, ImGui backends, shaders, fonts; then the first canvas frame.
// GL state queries and ImGui's shader status checks are answered without waiting (gl_state.hpp).
//
// Frame loop: web/main.js owns requestAnimationFrame. Input events call vramcalc_wake(), which
// asks for a few frames; vramcalc_frame() returns 1 while it wants more (settling layout,
// feedback animations, a held mouse button). With no input the page draws nothing at all.
//
// HiDPI (TOOLCHAIN.md): the canvas's CSS size comes from the stylesheet; its backing store is
// CSS size × devicePixelRatio. ImGui works in CSS pixels (DisplaySize), renders at the ratio
// (DisplayFramebufferScale), mouse positions from GLFW (backing-store pixels) are divided by it,
// and fonts are rasterised at size × ratio and drawn at 1/ratio.
#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app.hpp"
#include "dom.hpp"
#include "page.hpp"
#include "gfx.hpp"
#include "gl_state.hpp"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "imgui_internal.h"
#include "web.hpp"
#include "widgets.hpp"

using namespace vramcalc;
using namespace vramcalc::app;

namespace {

GLFWwindow* window = nullptr;
bool device_objects = false;  // ImGui's GL program and font texture exist
int frames_wanted = 0;
long long frame_count = 0;
float current_ratio = 0;
int backing_w = 0, backing_h = 0;
double css_w = 0, css_h = 0;

// GLFW on Emscripten passes wheel deltas as raw DOM pixels with y down; ImGui wants steps, y up.
void scroll_callback(GLFWwindow* w, double dx, double dy) {
    ImGui_ImplGlfw_ScrollCallback(w, -dx / 100.0, -dy / 100.0);
}

// Dear ImGui 1.86 samples key state once per frame, so a key pressed and released between two
// frames (a quick tap, or any tap while a frame is slow) would be lost. Releases of keys pressed
// since the last frame are held back until that frame has seen the press.
std::vector<int> pressed_since_frame;
std::vector<std::array<int, 3>> deferred_releases;  // key, scancode, mods

void key_callback(GLFWwindow* w, int key, int scancode, int action, int mods) {
    if (action == GLFW_PRESS) pressed_since_frame.push_back(key);
    if (action == GLFW_RELEASE &&
        std::find(pressed_since_frame.begin(), pressed_since_frame.end(), key) != pressed_since_frame.end()) {
        deferred_releases.push_back({key, scancode, mods});
        return;
    }
    ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
}

void release_deferred_keys() {
    pressed_since_frame.clear();
    if (deferred_releases.empty()) return;
    for (const auto& r : deferred_releases) ImGui_ImplGlfw_KeyCallback(window, r[0], r[1], GLFW_RELEASE, r[2]);
    deferred_releases.clear();
    wake(2);  // one more frame sees the release
}

void update_canvas() {
    web::CanvasMetrics m = web::canvas_metrics();
    css_w = std::max(1.0, m.css_width);
    css_h = std::max(1.0, m.css_height);
    float ratio = float(m.pixel_ratio);
    int bw = int(std::lround(css_w * ratio)), bh = int(std::lround(css_h * ratio));
    if (bw != backing_w || bh != backing_h) {
        web::set_canvas_backing_size(bw, bh);
        backing_w = bw;
        backing_h = bh;
    }
    if (ratio != current_ratio) {
        current_ratio = ratio;
        build_fonts(ratio);
        if (device_objects) {  // at start-up, CreateDeviceObjects uploads the atlas
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
        }
    }
}

// Touch: web/main.js turns a tap into a click and a one-finger drag into a scroll of the window
// under the finger, by this many CSS pixels (applied after NewFrame, when ImGui knows that window).
float pending_touch_scroll = 0;

void apply_touch_scroll() {
    if (pending_touch_scroll == 0) return;
    ImGuiContext& g = *ImGui::GetCurrentContext();
    ImGuiWindow* w = g.HoveredWindow;
    while (w && (w->Flags & ImGuiWindowFlags_ChildWindow) && w->ScrollMax.y <= 0) w = w->ParentWindow;
    if (w && w->ScrollMax.y > 0) ImGui::SetScrollY(w, w->Scroll.y - pending_touch_scroll);
    pending_touch_scroll = 0;
}

}  // namespace

namespace vramcalc::app {

void wake(int frames) {
    if (frames > frames_wanted) frames_wanted = frames;
    web::request_frame();
}

CanvasLayout canvas_layout() { return {css_w, css_h, backing_w, backing_h, current_ratio}; }
long long frames_drawn() { return frame_count; }

}  // namespace vramcalc::app

extern "C" {

EMSCRIPTEN_KEEPALIVE void vramcalc_wake() { wake(6); }

EMSCRIPTEN_KEEPALIVE void vramcalc_touch_scroll(float dy) {
    pending_touch_scroll += dy;
    wake(6);
}

EMSCRIPTEN_KEEPALIVE void vramcalc_hash_changed() {
    the_app().on_hash_changed();
    wake(6);
}

EMSCRIPTEN_KEEPALIVE int vramcalc_frame() {
    if (!window) return 0;
    update_canvas();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(float(css_w), float(css_h));
    io.DisplayFramebufferScale = ImVec2(float(backing_w / css_w), float(backing_h / css_h));
    if (io.MousePos.x != -FLT_MAX) io.MousePos = ImVec2(io.MousePos.x / current_ratio, io.MousePos.y / current_ratio);
    ImGui::NewFrame();
    release_deferred_keys();
    clear_item_rects();
    apply_touch_scroll();
    dom::begin_frame();
    the_app().draw(io.DisplaySize.x, io.DisplaySize.y);
    dom::end_frame();
    ImGui::Render();

    gfx::begin_frame(backing_w, backing_h, io.DisplayFramebufferScale.x);
    glViewport(0, 0, backing_w, backing_h);
    gfx::draw_background(palette().background);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    the_app().after_frame();
    ++frame_count;
    if (frame_count == 1) web::mark_first_frame();

    bool any_down = false;
    for (bool d : io.MouseDown) any_down |= d;
    if (frames_wanted > 0) --frames_wanted;
    return (frames_wanted > 0 || any_down || the_app().animating()) ? 1 : 0;
}

// The ImGui shaders' real compile and link status (asked once the page is idle: by then the
// browser has compiled them, so the answer does not wait). 1 = all built, 0 = one failed (logged),
// -1 = the browser is still compiling (KHR_parallel_shader_compile says so without waiting): ask
// again later, or with wait = 1 to have the answer now (the query waits for the compiler).
EMSCRIPTEN_KEEPALIVE int vramcalc_check_gl(int wait) {
    if (!wait && !gl_state::deferred_done()) return -1;
    return gl_state::check_deferred() ? 1 : 0;
}

// Step 2 of the start-up (web/main.js calls it once the DOM numbers are shown and the fonts have
// arrived): the WebGL2 context, ImGui's backends, shaders and fonts. 1 on success.
EMSCRIPTEN_KEEPALIVE int vramcalc_start_gl() {
    if (window) return 1;
    if (!fonts_available()) {
        web::set_status_note("Could not load the page's fonts: reload the page to use the calculator (the summary "
                             "shows the current numbers).");
        return 0;
    }
    if (!glfwInit()) {
        web::set_status_note("Could not start the page (GLFW).");
        return 0;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    glfwWindowHint(GLFW_ALPHA_BITS, 0);
    glfwWindowHint(GLFW_DEPTH_BITS, 0);
    glfwWindowHint(GLFW_STENCIL_BITS, 0);
    glfwWindowHint(GLFW_SAMPLES, 0);
    // The backing store at CSS size × devicePixelRatio from the start (allocated once).
    web::CanvasMetrics m = web::canvas_metrics();
    int bw = std::max(1, int(std::lround(m.css_width * m.pixel_ratio)));
    int bh = std::max(1, int(std::lround(m.css_height * m.pixel_ratio)));
    window = glfwCreateWindow(bw, bh, "vramcalc", nullptr, nullptr);
    if (!window) {
        web::set_status_note("This page needs WebGL 2, which this browser did not provide.");
        return 0;
    }
    glfwMakeContextCurrent(window);
    gl_state::seed();  // the only state read back from the context, while nothing is queued
    web::mark("vramcalc-window");

    ImGui_ImplGlfw_InitForOpenGL(window, true);
    glfwSetScrollCallback(window, scroll_callback);
    glfwSetKeyCallback(window, key_callback);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    gfx::init();      // our shaders compile in the browser while the fonts are rasterised
    update_canvas();  // backing store, font atlas (CPU)
    web::mark("vramcalc-fonts-built");
    // ImGui's program (waits once, for its link: uniform locations) and the font texture.
    gl_state::begin_deferred_status();
    ImGui_ImplOpenGL3_CreateDeviceObjects();
    gl_state::end_deferred_status();
    device_objects = true;
    web::mark("vramcalc-gl-ready");
    wake(4);
    return 1;
}

}  // extern "C"

// Step 1 of the start-up: the numbers, before any GL work.
int main() {
    web::mark("vramcalc-main");
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    // Keyboard focus and editing are the DOM layer's (dom.hpp): ImGui's own navigation stays off.
    io.ConfigInputTextCursorBlink = false;  // a blinking cursor would mean redrawing while idle
    io.ConfigWindowsMoveFromTitleBarOnly = true;
    io.SetClipboardTextFn = [](void*, const char* text) { web::copy_to_clipboard(text ? text : ""); };
    apply_theme();
    set_touch_targets(web::coarse_pointer());
    the_app().init();
    the_app().after_frame();  // the canonical link in the address bar, the numbers in the DOM summary
    web::mark("vramcalc-numbers");
    return 0;
}
