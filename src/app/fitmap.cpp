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

// One heatmap's GL objects and state: the training map (shaders/fitmap.frag) and the serving map
// (shaders/serving_fitmap.frag) each have their own; both take the same uniforms.
struct Map {
    const char* name;
    const char* fragment;
    const RampStop* ramp;  // 4 stops: its colours for the cells that fit
    GLuint program = 0;
    GLuint grid_texture = 0;
    int tex_w = 0, tex_h = 0;
    bool build_tried = false;
    std::string build_error;
    int draw_count = 0;
    GLint u_grid = -1, u_cells = -1, u_smooth = -1, u_line_px = -1, u_scale = -1, u_ramp = -1, u_over = -1,
          u_invalid = -1;
    GLuint target = 0, framebuffer = 0;  // the rendered heatmap
    int target_w = 0, target_h = 0;
    unsigned grid_version = 0, rendered_version = ~0u;
    bool rendered_smooth_x = false, rendered_smooth_y = false;
    float rendered_ratio = 0;
    GLuint compiling_program = 0, compiling_vs = 0, compiling_fs = 0;  // started, status not yet asked
};

Map maps[2] = {{.name = "fitmap", .fragment = shaders::fitmap_frag, .ramp = fit_ramp},
               {.name = "serving_fitmap", .fragment = shaders::serving_fitmap_frag, .ramp = serving_ramp}};
Map& map_of(Kind kind) { return maps[kind == Kind::serving ? 1 : 0]; }

GLuint compile(GLenum stage, const char* body) {
    GLuint sh = glCreateShader(stage);
    const char* parts[] = {"#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n",
                           body};
    glShaderSource(sh, 2, parts, nullptr);
    glCompileShader(sh);
    return sh;
}

// Compiles and links without asking how it went (that would wait for the compiler).
void start(Map& m) {
    if (m.build_tried) return;
    m.build_tried = true;
    m.compiling_vs = compile(GL_VERTEX_SHADER, shaders::quad_vert);
    m.compiling_fs = compile(GL_FRAGMENT_SHADER, m.fragment);
    m.compiling_program = glCreateProgram();
    glAttachShader(m.compiling_program, m.compiling_vs);
    glAttachShader(m.compiling_program, m.compiling_fs);
    glLinkProgram(m.compiling_program);
}

// Whether the browser is still compiling (KHR_parallel_shader_compile answers without waiting;
// without it, false: finish() then waits).
bool compiling(const Map& m) { return m.compiling_program != 0 && !gl_state::program_done(m.compiling_program); }

// Asks how the build went; logs a failure; looks up the uniforms.
void finish(Map& m) {
    if (!m.compiling_program) return;
    GLuint p = m.compiling_program, vs = m.compiling_vs, fs = m.compiling_fs;
    m.compiling_program = m.compiling_vs = m.compiling_fs = 0;
    GLint linked = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &linked);
    if (!linked) {
        char log[2048] = {};
        for (auto [sh, stage_name] : {std::pair{vs, "vertex"}, std::pair{fs, "fragment"}}) {
            GLint ok = 0;
            glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
            if (ok) continue;
            glGetShaderInfoLog(sh, sizeof log, nullptr, log);
            m.build_error += std::string(m.name) + " " + stage_name + " shader failed to compile: " + log + "\n";
        }
        glGetProgramInfoLog(p, sizeof log, nullptr, log);
        m.build_error += std::string(m.name) + " program failed to link: " + log + "\n";
    }
    glDeleteShader(vs);
    glDeleteShader(fs);
    if (!linked) {
        glDeleteProgram(p);
        std::string message = "[vramcalc] " + m.build_error;
        js_console_error(message.c_str());
        return;
    }
    m.program = p;
    m.u_grid = glGetUniformLocation(p, "u_grid");
    m.u_cells = glGetUniformLocation(p, "u_cells");
    m.u_smooth = glGetUniformLocation(p, "u_smooth");
    m.u_line_px = glGetUniformLocation(p, "u_line_px");
    m.u_scale = glGetUniformLocation(p, "u_scale");
    m.u_ramp = glGetUniformLocation(p, "u_ramp");
    m.u_over = glGetUniformLocation(p, "u_over");
    m.u_invalid = glGetUniformLocation(p, "u_invalid");
}

void render(Map& m, int w, int h, bool smooth_x, bool smooth_y, float ratio) {
    if (!m.target) {
        glGenTextures(1, &m.target);
        glGenFramebuffers(1, &m.framebuffer);
    }
    glBindTexture(GL_TEXTURE_2D, m.target);
    if (w != m.target_w || h != m.target_h) {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        m.target_w = w;
        m.target_h = h;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, m.framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m.target, 0);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, m.grid_texture);
    gfx::Program p;
    p.id = m.program;
    p.name = m.name;
    gfx::draw_rect(p, 0, 0, float(w), float(h), w, h, [&](const gfx::Program&) {
        glUniform1i(m.u_grid, 0);
        glUniform2f(m.u_cells, float(m.tex_w), float(m.tex_h));
        glUniform2f(m.u_smooth, smooth_x ? 1.0f : 0.0f, smooth_y ? 1.0f : 0.0f);
        glUniform1f(m.u_line_px, 1.25f * ratio);
        glUniform1f(m.u_scale, ratio);
        float ramp[4 * 4];
        for (int i = 0; i < 4; ++i) {
            const RampStop& s = m.ramp[i];
            float stop[4] = {s.colour.r, s.colour.g, s.colour.b, s.at};
            std::copy(stop, stop + 4, ramp + 4 * i);
        }
        glUniform4fv(m.u_ramp, 4, ramp);
        const float over[6] = {over_near.r, over_near.g, over_near.b, over_far.r, over_far.g, over_far.b};
        glUniform3fv(m.u_over, 2, over);
        const float invalid[6] = {invalid_light.r, invalid_light.g, invalid_light.b,
                                  invalid_dark.r,  invalid_dark.g,  invalid_dark.b};
        glUniform3fv(m.u_invalid, 2, invalid);
    });
    p.id = 0;  // not ours to delete
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    ++m.draw_count;
}

}  // namespace

Colour ramp_colour(float r, Kind kind) {
    const RampStop* stops = map_of(kind).ramp;
    r = std::clamp(r, 0.0f, 1.0f);
    Colour c = stops[0].colour;
    for (int i = 1; i < 4; ++i) {
        const RampStop &a = stops[i - 1], &b = stops[i];
        if (r < a.at) break;
        float t = std::clamp((r - a.at) / (b.at - a.at), 0.0f, 1.0f);
        c = {a.colour.r + (b.colour.r - a.colour.r) * t, a.colour.g + (b.colour.g - a.colour.g) * t,
             a.colour.b + (b.colour.b - a.colour.b) * t};
    }
    return c;
}

void upload(const float* ratios, int columns, int rows, Kind kind) {
    Map& m = map_of(kind);
    if (columns <= 0 || rows <= 0) return;
    if (!m.grid_texture) {
        glGenTextures(1, &m.grid_texture);
        glBindTexture(GL_TEXTURE_2D, m.grid_texture);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    } else {
        glBindTexture(GL_TEXTURE_2D, m.grid_texture);
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    if (columns == m.tex_w && rows == m.tex_h) {
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, columns, rows, GL_RED, GL_FLOAT, ratios);
    } else {
        glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, columns, rows, 0, GL_RED, GL_FLOAT, ratios);
        m.tex_w = columns;
        m.tex_h = rows;
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    ++m.grid_version;
}

unsigned texture(int w, int h, bool smooth_x, bool smooth_y, float ratio, Kind kind) {
    Map& m = map_of(kind);
    start(m);
    if (compiling(m)) {  // drawn in a later frame, once compiled
        wake(2);
        return 0;
    }
    finish(m);
    if (!m.program || !m.grid_texture || w <= 0 || h <= 0) return 0;
    w = std::min(w, 4096);
    h = std::min(h, 4096);
    if (m.rendered_version != m.grid_version || w != m.target_w || h != m.target_h || smooth_x != m.rendered_smooth_x ||
        smooth_y != m.rendered_smooth_y || ratio != m.rendered_ratio) {
        render(m, w, h, smooth_x, smooth_y, ratio);
        m.rendered_version = m.grid_version;
        m.rendered_smooth_x = smooth_x;
        m.rendered_smooth_y = smooth_y;
        m.rendered_ratio = ratio;
    }
    return m.target;
}

bool build_now(Kind kind) {
    Map& m = map_of(kind);
    start(m);
    finish(m);
    return m.program != 0;
}
bool pending(Kind kind) { return compiling(map_of(kind)); }
bool ok(Kind kind) { return map_of(kind).program != 0; }
bool tried(Kind kind) { return map_of(kind).build_tried; }
const std::string& error(Kind kind) { return map_of(kind).build_error; }
int draws(Kind kind) { return map_of(kind).draw_count; }

}  // namespace vramcalc::app::fitmap
