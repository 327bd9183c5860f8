#include "gfx.hpp"

#include <cstdio>
#include <deque>
#include <vector>

#include "gl_state.hpp"
#include "imgui.h"
#include "page.hpp"
#include "shaders_embedded.hpp"

namespace vramcalc::app::gfx {
namespace {

GLuint empty_vao = 0;
Program background_program, hatch_program;
bool all_ok = false;
int fb_w = 1, fb_h = 1;
float fb_scale = 1;

struct HatchCommand {
    ImVec2 min, max;  // CSS pixels
    HatchStyle style;
};
std::deque<HatchCommand> hatch_commands;  // stable addresses for the frame's callbacks

bool hatch_tried = false;

void hatch_callback(const ImDrawList*, const ImDrawCmd* cmd) {
    const auto* c = static_cast<const HatchCommand*>(cmd->UserCallbackData);
    if (!hatch_tried) {  // built on first use: most scenarios fit, and every program costs start-up time
        hatch_tried = true;
        hatch_program = build_program("hatch", shaders::quad_vert, shaders::hatch_frag);
        if (!hatch_program.ok()) all_ok = false;
    }
    if (!hatch_program.ok()) return;
    // Clip to the ImGui clip rectangle (scissor in framebuffer pixels, origin bottom-left).
    ImVec2 clip_min((cmd->ClipRect.x) * fb_scale, (cmd->ClipRect.y) * fb_scale);
    ImVec2 clip_max((cmd->ClipRect.z) * fb_scale, (cmd->ClipRect.w) * fb_scale);
    if (clip_max.x <= clip_min.x || clip_max.y <= clip_min.y) return;
    glEnable(GL_SCISSOR_TEST);
    glScissor(GLint(clip_min.x), GLint(fb_h - clip_max.y), GLsizei(clip_max.x - clip_min.x),
              GLsizei(clip_max.y - clip_min.y));
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    float x = c->min.x * fb_scale, y = c->min.y * fb_scale;
    float w = (c->max.x - c->min.x) * fb_scale, h = (c->max.y - c->min.y) * fb_scale;
    draw_rect(hatch_program, x, y, w, h, fb_w, fb_h, [&](const Program& p) {
        glUniform4fv(p.uniform("u_colour_a"), 1, c->style.colour_a);
        glUniform4fv(p.uniform("u_colour_b"), 1, c->style.colour_b);
        glUniform1f(p.uniform("u_period"), c->style.period_px * fb_scale);
        glUniform1f(p.uniform("u_radius"), c->style.radius_px * fb_scale);
        glUniform2f(p.uniform("u_size"), w, h);
    });
}

}  // namespace

GLint Program::uniform(const char* uniform_name) const { return glGetUniformLocation(id, uniform_name); }

Program build_program(const char* name, const char* vertex_body, const char* fragment_body) {
    Program p = start_program(name, vertex_body, fragment_body);
    finish_program(p);
    return p;
}

Program start_program(const char* name, const char* vertex_body, const char* fragment_body) {
    Program p;
    p.name = name;
    GLuint vs = glCreateShader(GL_VERTEX_SHADER), fs = glCreateShader(GL_FRAGMENT_SHADER);
    const char* prefix = "#version 300 es\nprecision highp float;\nprecision highp int;\n";
    const char* vparts[] = {prefix, vertex_body};
    const char* fparts[] = {prefix, fragment_body};
    glShaderSource(vs, 2, vparts, nullptr);
    glShaderSource(fs, 2, fparts, nullptr);
    glCompileShader(vs);
    glCompileShader(fs);
    p.id = glCreateProgram();
    glAttachShader(p.id, vs);
    glAttachShader(p.id, fs);
    glLinkProgram(p.id);
    p.vs = vs;
    p.fs = fs;
    p.pending = true;
    return p;
}

// Queries the compile/link status (this waits for the compiler); logs and clears the program on error.
bool finish_program(Program& p) {
    if (!p.pending) return p.ok();
    p.pending = false;
    GLint status = 0;
    glGetProgramiv(p.id, GL_LINK_STATUS, &status);
    if (!status) {
        char log[1024] = {};
        GLint ok = 0;
        for (GLuint sh : {p.vs, p.fs}) {
            glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
            if (!ok) {
                glGetShaderInfoLog(sh, sizeof log, nullptr, log);
                std::fprintf(stderr, "[gfx] %s (%s shader) failed to compile: %s\n", p.name.c_str(),
                             sh == p.vs ? "vertex" : "fragment", log);
            }
        }
        glGetProgramInfoLog(p.id, sizeof log, nullptr, log);
        std::fprintf(stderr, "[gfx] %s failed to link: %s\n", p.name.c_str(), log);
        glDeleteProgram(p.id);
        p.id = 0;
    }
    glDeleteShader(p.vs);
    glDeleteShader(p.fs);
    p.vs = p.fs = 0;
    return p.ok();
}

void draw_rect(const Program& program, float x, float y, float w, float h, int framebuffer_w, int framebuffer_h,
               const std::function<void(const Program&)>& setup) {
    if (!program.ok() || framebuffer_w <= 0 || framebuffer_h <= 0) return;
    glViewport(0, 0, framebuffer_w, framebuffer_h);
    glUseProgram(program.id);
    // Top-left pixel rectangle → clip space (y up).
    float x0 = x / framebuffer_w * 2 - 1, x1 = (x + w) / framebuffer_w * 2 - 1;
    float y0 = 1 - (y + h) / framebuffer_h * 2, y1 = 1 - y / framebuffer_h * 2;
    glUniform4f(program.uniform("u_rect"), x0, y0, x1, y1);
    if (setup) setup(program);
    glBindVertexArray(empty_vao);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindVertexArray(0);
}

bool init() {
    glGenVertexArrays(1, &empty_vao);
    // Status is checked at the first draw: the browser compiles while the fonts are rasterised.
    background_program = start_program("background", shaders::quad_vert, shaders::background_frag);
    all_ok = true;
    return all_ok;
}

bool shaders_ok() { return all_ok; }

bool build_all_for_test() {
    if (!hatch_tried) {
        hatch_tried = true;
        hatch_program = build_program("hatch", shaders::quad_vert, shaders::hatch_frag);
    }
    finish_program(background_program);
    all_ok = background_program.ok() && hatch_program.ok();
    return all_ok;
}

void begin_frame(int framebuffer_w, int framebuffer_h, float scale) {
    fb_w = framebuffer_w;
    fb_h = framebuffer_h;
    fb_scale = scale;
    hatch_commands.clear();
}

void draw_background(const float (&colours)[3][3]) {
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
    // Still compiling (KHR_parallel_shader_compile tells without waiting): a plain clear this
    // frame and the gradient in a later one, instead of blocking the first frame on the compiler.
    bool compiling = background_program.pending && !gl_state::program_done(background_program.id);
    if (compiling) wake(2);
    else if (background_program.pending && !finish_program(background_program)) all_ok = false;
    if (compiling || !background_program.ok()) {
        glClearColor(colours[1][0], colours[1][1], colours[1][2], 1);  // the theme's background
        glClear(GL_COLOR_BUFFER_BIT);
        return;
    }
    draw_rect(background_program, 0, 0, float(fb_w), float(fb_h), fb_w, fb_h, [&colours](const Program& p) {
        glUniform2f(p.uniform("u_resolution"), float(fb_w), float(fb_h));
        glUniform3fv(p.uniform("u_top"), 1, colours[0]);
        glUniform3fv(p.uniform("u_bottom"), 1, colours[1]);
        glUniform3fv(p.uniform("u_glow"), 1, colours[2]);
        glUniform2f(p.uniform("u_glow_center"), 0.18f, 1.05f);
    });
}

void add_hatch_rect(ImDrawList* draw_list, const ImVec2& min, const ImVec2& max, const HatchStyle& style) {
    hatch_commands.push_back({min, max, style});
    draw_list->AddCallback(hatch_callback, &hatch_commands.back());
    draw_list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

}  // namespace vramcalc::app::gfx
