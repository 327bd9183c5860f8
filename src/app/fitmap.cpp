#include "fitmap.hpp"

#include <GLES3/gl3.h>
#include <emscripten.h>

#include <algorithm>
#include <cstdio>
#include <utility>

#include "gfx.hpp"
#include "gl_state.hpp"
#include "page.hpp"
#include "shaders_embedded.hpp"

namespace vramcalc::app::fitmap {
namespace {

EM_JS(void, js_console_error, (const char* text), { console.error(UTF8ToString(text)); });

GLuint program = 0;
GLuint grid_texture = 0;
int tex_w = 0, tex_h = 0;
bool build_tried = false;
std::string build_error;
int draw_count = 0;
GLint u_rect = -1, u_grid = -1, u_cells = -1, u_smooth = -1, u_line_px = -1, u_scale = -1, u_ramp = -1, u_over = -1,
      u_invalid = -1;

GLuint target = 0, framebuffer = 0;  // the rendered heatmap
int target_w = 0, target_h = 0;
unsigned grid_version = 0, rendered_version = ~0u;
bool rendered_smooth_x = false, rendered_smooth_y = false;
float rendered_ratio = 0;

GLuint compiling_program = 0, compiling_vs = 0, compiling_fs = 0;  // started, status not yet asked

GLuint compile(GLenum stage, const char* body) {
    GLuint sh = glCreateShader(stage);
    const char* parts[] = {"#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n",
                           body};
    glShaderSource(sh, 2, parts, nullptr);
    glCompileShader(sh);
    return sh;
}

// Compiles and links without asking how it went (that would wait for the compiler).
void start() {
    if (build_tried) return;
    build_tried = true;
    compiling_vs = compile(GL_VERTEX_SHADER, shaders::quad_vert);
    compiling_fs = compile(GL_FRAGMENT_SHADER, shaders::fitmap_frag);
    compiling_program = glCreateProgram();
    glAttachShader(compiling_program, compiling_vs);
    glAttachShader(compiling_program, compiling_fs);
    glLinkProgram(compiling_program);
}

// Whether the browser is still compiling (KHR_parallel_shader_compile answers without waiting;
// without it, false: finish() then waits).
bool compiling() { return compiling_program != 0 && !gl_state::program_done(compiling_program); }

// Asks how the build went; logs a failure; looks up the uniforms.
void finish() {
    if (!compiling_program) return;
    GLuint p = compiling_program, vs = compiling_vs, fs = compiling_fs;
    compiling_program = compiling_vs = compiling_fs = 0;
    GLint linked = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &linked);
    if (!linked) {
        char log[2048] = {};
        for (auto [sh, stage_name] : {std::pair{vs, "vertex"}, std::pair{fs, "fragment"}}) {
            GLint ok = 0;
            glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
            if (ok) continue;
            glGetShaderInfoLog(sh, sizeof log, nullptr, log);
            build_error += std::string("fitmap ") + stage_name + " shader failed to compile: " + log + "\n";
        }
        glGetProgramInfoLog(p, sizeof log, nullptr, log);
        build_error += std::string("fitmap program failed to link: ") + log + "\n";
    }
    glDeleteShader(vs);
    glDeleteShader(fs);
    if (!linked) {
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
    u_ramp = glGetUniformLocation(p, "u_ramp");
    u_over = glGetUniformLocation(p, "u_over");
    u_invalid = glGetUniformLocation(p, "u_invalid");
}

void render(int w, int h, bool smooth_x, bool smooth_y, float ratio) {
    if (!target) {
        glGenTextures(1, &target);
        glGenFramebuffers(1, &framebuffer);
    }
    glBindTexture(GL_TEXTURE_2D, target);
    if (w != target_w || h != target_h) {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        target_w = w;
        target_h = h;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, grid_texture);
    gfx::Program p;
    p.id = program;
    p.name = "fitmap";
    gfx::draw_rect(p, 0, 0, float(w), float(h), w, h, [&](const gfx::Program&) {
        glUniform1i(u_grid, 0);
        glUniform2f(u_cells, float(tex_w), float(tex_h));
        glUniform2f(u_smooth, smooth_x ? 1.0f : 0.0f, smooth_y ? 1.0f : 0.0f);
        glUniform1f(u_line_px, 1.25f * ratio);
        glUniform1f(u_scale, ratio);
        float ramp[4 * 4];
        for (int i = 0; i < 4; ++i) {
            const RampStop& s = fit_ramp[i];
            float stop[4] = {s.colour.r, s.colour.g, s.colour.b, s.at};
            std::copy(stop, stop + 4, ramp + 4 * i);
        }
        glUniform4fv(u_ramp, 4, ramp);
        const float over[6] = {over_near.r, over_near.g, over_near.b, over_far.r, over_far.g, over_far.b};
        glUniform3fv(u_over, 2, over);
        const float invalid[6] = {invalid_light.r, invalid_light.g, invalid_light.b,
                                  invalid_dark.r,  invalid_dark.g,  invalid_dark.b};
        glUniform3fv(u_invalid, 2, invalid);
    });
    p.id = 0;  // not ours to delete
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    ++draw_count;
}

}  // namespace

Colour ramp_colour(float r) {
    r = std::clamp(r, 0.0f, 1.0f);
    Colour c = fit_ramp[0].colour;
    for (int i = 1; i < 4; ++i) {
        const RampStop &a = fit_ramp[i - 1], &b = fit_ramp[i];
        if (r < a.at) break;
        float t = std::clamp((r - a.at) / (b.at - a.at), 0.0f, 1.0f);
        c = {a.colour.r + (b.colour.r - a.colour.r) * t, a.colour.g + (b.colour.g - a.colour.g) * t,
             a.colour.b + (b.colour.b - a.colour.b) * t};
    }
    return c;
}

void upload(const float* ratios, int columns, int rows) {
    if (columns <= 0 || rows <= 0) return;
    if (!grid_texture) {
        glGenTextures(1, &grid_texture);
        glBindTexture(GL_TEXTURE_2D, grid_texture);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    } else {
        glBindTexture(GL_TEXTURE_2D, grid_texture);
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
    ++grid_version;
}

unsigned texture(int w, int h, bool smooth_x, bool smooth_y, float ratio) {
    start();
    if (compiling()) {  // drawn in a later frame, once compiled
        wake(2);
        return 0;
    }
    finish();
    if (!program || !grid_texture || w <= 0 || h <= 0) return 0;
    w = std::min(w, 4096);
    h = std::min(h, 4096);
    if (rendered_version != grid_version || w != target_w || h != target_h || smooth_x != rendered_smooth_x ||
        smooth_y != rendered_smooth_y || ratio != rendered_ratio) {
        render(w, h, smooth_x, smooth_y, ratio);
        rendered_version = grid_version;
        rendered_smooth_x = smooth_x;
        rendered_smooth_y = smooth_y;
        rendered_ratio = ratio;
    }
    return target;
}

bool build_now() {
    start();
    finish();
    return program != 0;
}
bool pending() { return compiling(); }
bool ok() { return program != 0; }
bool tried() { return build_tried; }
const std::string& error() { return build_error; }
int draws() { return draw_count; }

}  // namespace vramcalc::app::fitmap
