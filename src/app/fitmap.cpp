#include "fitmap.hpp"

#include <GLES3/gl3.h>
#include <emscripten.h>

#include <cstdio>
#include <deque>

#include "gfx.hpp"
#include "imgui.h"
#include "shaders_embedded.hpp"

namespace vramcalc::app::fitmap {
namespace {

EM_JS(void, js_console_error, (const char* text), { console.error(UTF8ToString(text)); });

GLuint program = 0;
GLuint texture = 0;
int tex_w = 0, tex_h = 0;
bool build_tried = false;
std::string build_error;
int draw_count = 0;
GLint u_rect = -1, u_grid = -1, u_cells = -1, u_smooth = -1, u_line_px = -1, u_scale = -1;

struct Command {
    ImVec2 min, max;
    bool smooth_x, smooth_y;
};
std::deque<Command> commands;  // stable addresses for one frame's callbacks
int commands_frame = -1;

GLuint compile(GLenum stage, const char* body, const char* stage_name) {
    GLuint sh = glCreateShader(stage);
    const char* parts[] = {"#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n",
                           body};
    glShaderSource(sh, 2, parts, nullptr);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        glGetShaderInfoLog(sh, sizeof log, nullptr, log);
        build_error += std::string("fitmap ") + stage_name + " shader failed to compile: " + log + "\n";
    }
    return sh;
}

void build() {
    if (build_tried) return;
    build_tried = true;
    GLuint vs = compile(GL_VERTEX_SHADER, shaders::quad_vert, "vertex");
    GLuint fs = compile(GL_FRAGMENT_SHADER, shaders::fitmap_frag, "fragment");
    GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    GLint linked = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &linked);
    if (!linked) {
        char log[2048] = {};
        glGetProgramInfoLog(p, sizeof log, nullptr, log);
        build_error += std::string("fitmap program failed to link: ") + log + "\n";
    }
    glDeleteShader(vs);
    glDeleteShader(fs);
    if (!linked || !build_error.empty()) {
        glDeleteProgram(p);
        std::string message = "[vramcalc] " + build_error;
        js_console_error(message.c_str());
        return;
    }
    program = p;
    u_rect = glGetUniformLocation(p, "u_rect");
    u_grid = glGetUniformLocation(p, "u_grid");
    u_cells = glGetUniformLocation(p, "u_cells");
    u_smooth = glGetUniformLocation(p, "u_smooth");
    u_line_px = glGetUniformLocation(p, "u_line_px");
    u_scale = glGetUniformLocation(p, "u_scale");
}

void callback(const ImDrawList*, const ImDrawCmd* cmd) {
    const auto* c = static_cast<const Command*>(cmd->UserCallbackData);
    build();
    if (!program || !texture) return;
    const ImDrawData* dd = ImGui::GetDrawData();
    const float scale = dd ? dd->FramebufferScale.x : 1.0f;
    const int fb_w = int(dd ? dd->DisplaySize.x * dd->FramebufferScale.x + 0.5f : 1);
    const int fb_h = int(dd ? dd->DisplaySize.y * dd->FramebufferScale.y + 0.5f : 1);
    ImVec2 clip_min(cmd->ClipRect.x * scale, cmd->ClipRect.y * scale);
    ImVec2 clip_max(cmd->ClipRect.z * scale, cmd->ClipRect.w * scale);
    if (clip_max.x <= clip_min.x || clip_max.y <= clip_min.y) return;
    glEnable(GL_SCISSOR_TEST);
    glScissor(GLint(clip_min.x), GLint(fb_h - clip_max.y), GLsizei(clip_max.x - clip_min.x),
              GLsizei(clip_max.y - clip_min.y));
    glDisable(GL_BLEND);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
    gfx::Program p;
    p.id = program;
    p.name = "fitmap";
    const float x = c->min.x * scale, y = c->min.y * scale;
    const float w = (c->max.x - c->min.x) * scale, h = (c->max.y - c->min.y) * scale;
    gfx::draw_rect(p, x, y, w, h, fb_w, fb_h, [&](const gfx::Program&) {
        glUniform1i(u_grid, 0);
        glUniform2f(u_cells, float(tex_w), float(tex_h));
        glUniform2f(u_smooth, c->smooth_x ? 1.0f : 0.0f, c->smooth_y ? 1.0f : 0.0f);
        glUniform1f(u_line_px, 1.25f * scale);
        glUniform1f(u_scale, scale);
    });
    p.id = 0;  // not ours to delete
    ++draw_count;
}

}  // namespace

void upload(const float* ratios, int columns, int rows) {
    if (columns <= 0 || rows <= 0) return;
    if (!texture) {
        glGenTextures(1, &texture);
        glBindTexture(GL_TEXTURE_2D, texture);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    } else {
        glBindTexture(GL_TEXTURE_2D, texture);
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    if (columns == tex_w && rows == tex_h) {
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, columns, rows, GL_RED, GL_FLOAT, ratios);
    } else {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, columns, rows, 0, GL_RED, GL_FLOAT, ratios);
        tex_w = columns;
        tex_h = rows;
    }
    glBindTexture(GL_TEXTURE_2D, 0);
}

void add_draw(ImDrawList* draw_list, const ImVec2& min, const ImVec2& max, bool smooth_x, bool smooth_y) {
    int frame = ImGui::GetFrameCount();
    if (frame != commands_frame) {
        commands.clear();
        commands_frame = frame;
    }
    commands.push_back({min, max, smooth_x, smooth_y});
    draw_list->AddCallback(callback, &commands.back());
    draw_list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

bool build_now() {
    build();
    return program != 0;
}
bool ok() { return program != 0; }
bool tried() { return build_tried; }
const std::string& error() { return build_error; }
int draws() { return draw_count; }

}  // namespace vramcalc::app::fitmap
