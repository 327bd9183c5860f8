// Entry point of the page: WebGL2 setup, the on-demand frame loop, HiDPI handling, ImGui's mouse
// input and the C exports that web/main.js calls (frame, wake-up, pointer, hash changes; the test
// hooks are test_hooks.cpp).
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
// (DisplayFramebufferScale), and fonts are rasterised at size × ratio and drawn at 1/ratio.
//
// Input: the keyboard is the DOM layer's (dom.hpp); ImGui gets only the mouse, from web/main.js's
// canvas listeners (vramcalc_pointer_*, CSS pixels), as ImGui 1.86's GLFW backend would pass it:
// the last position, the buttons held (a press between two frames counts as held for one frame,
// so a quick click is not lost) and wheel steps.
#include <GLES3/gl3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app.hpp"
#include "dom.hpp"
#include "page.hpp"
#include "gfx.hpp"
#include "gl_state.hpp"
#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "imgui_internal.h"
#include "web.hpp"
#include "widgets.hpp"

using namespace vramcalc;
using namespace vramcalc::app;

namespace {

EMSCRIPTEN_WEBGL_CONTEXT_HANDLE gl_context = 0;
bool device_objects = false;  // ImGui's GL program and font texture exist
int frames_wanted = 0;
long long frame_count = 0;
float current_ratio = 0;
int backing_w = 0, backing_h = 0;
double css_w = 0, css_h = 0;

// The mouse as web/main.js reports it (CSS pixels from the canvas's top left), for ImGui's next frame.
struct Pointer {
    ImVec2 position{-FLT_MAX, -FLT_MAX};
    bool held[3] = {};         // ImGui's buttons: 0 left, 1 right, 2 middle
    bool pressed[3] = {};      // pressed since the last frame
    float wheel_x = 0, wheel_y = 0;  // ImGui wheel steps
} pointer;
double last_frame_s = 0;

// What ImGui's platform backend would give it each frame: the time step and the mouse.
void pass_input_to_imgui(ImGuiIO& io) {
    const double now_s = emscripten_get_now() / 1000.0;
    io.DeltaTime = last_frame_s > 0 ? float(std::max(now_s - last_frame_s, 1e-4)) : 1.0f / 60.0f;
    last_frame_s = now_s;
    io.MousePos = pointer.position;
    for (int i = 0; i < 3; ++i) {
        io.MouseDown[i] = pointer.pressed[i] || pointer.held[i];
        pointer.pressed[i] = false;
    }
    io.MouseWheelH += pointer.wheel_x;
    io.MouseWheel += pointer.wheel_y;
    pointer.wheel_x = pointer.wheel_y = 0;
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

// The mouse over the canvas (web/main.js): x, y in CSS pixels from its top left.
EMSCRIPTEN_KEEPALIVE void vramcalc_pointer_move(float x, float y) {
    pointer.position = ImVec2(x, y);
    wake(6);
}

// A button (DOM numbering: 0 main, 1 middle, 2 secondary) pressed (down = 1) or released.
EMSCRIPTEN_KEEPALIVE void vramcalc_pointer_button(int dom_button, int down) {
    const int button = dom_button == 1 ? 2 : dom_button == 2 ? 1 : dom_button;
    if (button < 0 || button > 2) return;
    pointer.held[button] = down != 0;
    if (down) pointer.pressed[button] = true;
    wake(6);
}

// A wheel turn, in ImGui steps (one step: a DOM delta of 100, up and left positive).
EMSCRIPTEN_KEEPALIVE void vramcalc_pointer_wheel(float steps_x, float steps_y) {
    pointer.wheel_x += steps_x;
    pointer.wheel_y += steps_y;
    wake(6);
}

EMSCRIPTEN_KEEPALIVE void vramcalc_touch_scroll(float dy) {
    pending_touch_scroll += dy;
    wake(6);
}

EMSCRIPTEN_KEEPALIVE void vramcalc_hash_changed() {
    the_app().on_hash_changed();
    wake(6);
}

EMSCRIPTEN_KEEPALIVE int vramcalc_frame() {
    if (!gl_context) return 0;
    update_canvas();
    ImGui_ImplOpenGL3_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(float(css_w), float(css_h));
    io.DisplayFramebufferScale = ImVec2(float(backing_w / css_w), float(backing_h / css_h));
    pass_input_to_imgui(io);
    ImGui::NewFrame();
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
    if (gl_context) return 1;
    if (!fonts_available()) {
        web::set_status_note("Could not load the page's fonts: reload the page to use the calculator (the summary "
                             "shows the current numbers).");
        return 0;
    }
    // The backing store at CSS size × devicePixelRatio from the start (allocated once).
    web::CanvasMetrics m = web::canvas_metrics();
    web::set_canvas_backing_size(std::max(1, int(std::lround(m.css_width * m.pixel_ratio))),
                                 std::max(1, int(std::lround(m.css_height * m.pixel_ratio))));
    EmscriptenWebGLContextAttributes attributes;
    emscripten_webgl_init_context_attributes(&attributes);
    attributes.majorVersion = 2;
    attributes.alpha = false;  // the page draws an opaque background
    attributes.depth = false;
    attributes.stencil = false;
    attributes.antialias = false;
    attributes.enableExtensionsByDefault = false;  // gl_state enables the one extension it uses
    EMSCRIPTEN_WEBGL_CONTEXT_HANDLE context = emscripten_webgl_create_context("#canvas", &attributes);
    if (context <= 0) {
        web::set_status_note("This page needs WebGL 2, which this browser did not provide.");
        return 0;
    }
    gl_context = context;
    emscripten_webgl_make_context_current(gl_context);
    gl_state::seed();  // the only state read back from the context, while nothing is queued
    web::mark("vramcalc-window");

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
    io.IniFilename = nullptr;  // no settings are read or written (imgui_sscanf.cpp)
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
