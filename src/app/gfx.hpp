// Our own WebGL2 drawing next to ImGui's: shader programs built from shaders/ (embedded at build
// time), a rectangle drawer, and a way to draw a shader rectangle *inside* the ImGui frame via an
// ImDrawList callback (clipped and ordered with the widgets): the page background and the
// over-capacity hatching (add_hatch_rect). The fit map renders into a texture instead (fitmap.hpp).
#pragma once

#include <GLES3/gl3.h>
#include <functional>
#include <string>

struct ImDrawList;
struct ImVec2;

namespace vramcalc::app::gfx {

struct Program {
    GLuint id = 0;
    std::string name;
    GLuint vs = 0, fs = 0;  // until finish_program
    bool pending = false;   // compiled and linked, status not yet queried
    bool ok() const { return id != 0; }
    GLint uniform(const char* name) const;
};

// Compiles "#version 300 es" + precision + body for each stage; logs and returns !ok() on error.
Program build_program(const char* name, const char* vertex_body, const char* fragment_body);
// The same in two steps, so the browser can compile while the CPU does other work.
Program start_program(const char* name, const char* vertex_body, const char* fragment_body);
bool finish_program(Program& program);

// Draws `program` over a rectangle given in framebuffer pixels (origin top-left); the program
// must use quad.vert (u_rect). `setup` sets the other uniforms.
void draw_rect(const Program& program, float x, float y, float w, float h, int framebuffer_w, int framebuffer_h,
               const std::function<void(const Program&)>& setup = {});

bool init();                 // builds the programs; false if any shader fails (logged)
bool shaders_ok();
bool build_all_for_test();   // builds the lazily built programs too (the test hook checks they compile)
void begin_frame(int framebuffer_w, int framebuffer_h, float scale);  // per frame, before ImGui renders
void draw_background(const float (&colours)[3][3]);  // full-screen gradient (top, bottom, glow), before ImGui's draw data

// Queues a shader rectangle inside the ImGui frame (screen coordinates in CSS pixels).
struct HatchStyle {
    float colour_a[4], colour_b[4];
    float period_px, radius_px;
};
void add_hatch_rect(ImDrawList* draw_list, const ImVec2& min, const ImVec2& max, const HatchStyle& style);

}  // namespace vramcalc::app::gfx
