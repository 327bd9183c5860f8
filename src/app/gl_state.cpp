// The GL state cache and deferred status checks of gl_state.hpp. This file calls the real GL
// functions: CMake compiles it with VRAMCALC_GL_STATE_IMPL defined (no redirecting macros).
#include "gl_state.hpp"

#include <emscripten/html5.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

struct Cache {
    bool seeded = false;
    GLint viewport[4] = {};
    GLint scissor_box[4] = {};
    GLint blend_src_rgb = GL_ONE, blend_dst_rgb = GL_ZERO, blend_src_alpha = GL_ONE, blend_dst_alpha = GL_ZERO;
    GLint blend_equation_rgb = GL_FUNC_ADD, blend_equation_alpha = GL_FUNC_ADD;
} cache;

bool deferring = false;
std::vector<GLuint> deferred_shaders, deferred_programs;
bool deferred_ok = true;  // every deferred status checked so far was ok
bool has_parallel_compile = false;  // KHR_parallel_shader_compile is enabled on the context
constexpr GLenum completion_status_khr = 0x91B1;  // GL_COMPLETION_STATUS_KHR (KHR_parallel_shader_compile)

void remember(std::vector<GLuint>& list, GLuint id) {
    if (std::find(list.begin(), list.end(), id) == list.end()) list.push_back(id);
}

// The value(s) of a cached query, or nullptr when pname is not cached.
const GLint* cached(GLenum pname, int& count) {
    count = 1;
    switch (pname) {
        case GL_VIEWPORT: count = 4; return cache.viewport;
        case GL_SCISSOR_BOX: count = 4; return cache.scissor_box;
        case GL_BLEND_SRC_RGB: return &cache.blend_src_rgb;
        case GL_BLEND_DST_RGB: return &cache.blend_dst_rgb;
        case GL_BLEND_SRC_ALPHA: return &cache.blend_src_alpha;
        case GL_BLEND_DST_ALPHA: return &cache.blend_dst_alpha;
        case GL_BLEND_EQUATION_RGB: return &cache.blend_equation_rgb;  // == GL_BLEND_EQUATION
        case GL_BLEND_EQUATION_ALPHA: return &cache.blend_equation_alpha;
        default: return nullptr;
    }
}

constexpr GLenum cached_queries[] = {GL_VIEWPORT,         GL_SCISSOR_BOX,          GL_BLEND_SRC_RGB,
                                     GL_BLEND_DST_RGB,    GL_BLEND_SRC_ALPHA,      GL_BLEND_DST_ALPHA,
                                     GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA};

}  // namespace

extern "C" {

void vramcalc_gl_viewport(GLint x, GLint y, GLsizei width, GLsizei height) {
    cache.viewport[0] = x, cache.viewport[1] = y, cache.viewport[2] = width, cache.viewport[3] = height;
    glViewport(x, y, width, height);
}

void vramcalc_gl_scissor(GLint x, GLint y, GLsizei width, GLsizei height) {
    cache.scissor_box[0] = x, cache.scissor_box[1] = y, cache.scissor_box[2] = width, cache.scissor_box[3] = height;
    glScissor(x, y, width, height);
}

void vramcalc_gl_blend_func(GLenum src, GLenum dst) {
    cache.blend_src_rgb = cache.blend_src_alpha = GLint(src);
    cache.blend_dst_rgb = cache.blend_dst_alpha = GLint(dst);
    glBlendFunc(src, dst);
}

void vramcalc_gl_blend_func_separate(GLenum src_rgb, GLenum dst_rgb, GLenum src_alpha, GLenum dst_alpha) {
    cache.blend_src_rgb = GLint(src_rgb), cache.blend_dst_rgb = GLint(dst_rgb);
    cache.blend_src_alpha = GLint(src_alpha), cache.blend_dst_alpha = GLint(dst_alpha);
    glBlendFuncSeparate(src_rgb, dst_rgb, src_alpha, dst_alpha);
}

void vramcalc_gl_blend_equation(GLenum mode) {
    cache.blend_equation_rgb = cache.blend_equation_alpha = GLint(mode);
    glBlendEquation(mode);
}

void vramcalc_gl_blend_equation_separate(GLenum mode_rgb, GLenum mode_alpha) {
    cache.blend_equation_rgb = GLint(mode_rgb), cache.blend_equation_alpha = GLint(mode_alpha);
    glBlendEquationSeparate(mode_rgb, mode_alpha);
}

void vramcalc_gl_get_integerv(GLenum pname, GLint* data) {
    int count = 0;
    const GLint* values = cache.seeded ? cached(pname, count) : nullptr;
    if (!values) return glGetIntegerv(pname, data);
    std::copy(values, values + count, data);
}

void vramcalc_gl_get_shaderiv(GLuint shader, GLenum pname, GLint* params) {
    if (deferring && (pname == GL_COMPILE_STATUS || pname == GL_INFO_LOG_LENGTH)) {
        remember(deferred_shaders, shader);
        *params = pname == GL_COMPILE_STATUS ? GL_TRUE : 0;
        return;
    }
    glGetShaderiv(shader, pname, params);
}

void vramcalc_gl_get_programiv(GLuint program, GLenum pname, GLint* params) {
    if (deferring && (pname == GL_LINK_STATUS || pname == GL_INFO_LOG_LENGTH)) {
        remember(deferred_programs, program);
        *params = pname == GL_LINK_STATUS ? GL_TRUE : 0;
        return;
    }
    glGetProgramiv(program, pname, params);
}

}  // extern "C"

namespace vramcalc::app::gl_state {

void seed() {
    glGetIntegerv(GL_VIEWPORT, cache.viewport);
    glGetIntegerv(GL_SCISSOR_BOX, cache.scissor_box);
    glGetIntegerv(GL_BLEND_SRC_RGB, &cache.blend_src_rgb);
    glGetIntegerv(GL_BLEND_DST_RGB, &cache.blend_dst_rgb);
    glGetIntegerv(GL_BLEND_SRC_ALPHA, &cache.blend_src_alpha);
    glGetIntegerv(GL_BLEND_DST_ALPHA, &cache.blend_dst_alpha);
    glGetIntegerv(GL_BLEND_EQUATION_RGB, &cache.blend_equation_rgb);
    glGetIntegerv(GL_BLEND_EQUATION_ALPHA, &cache.blend_equation_alpha);
    cache.seeded = true;
    has_parallel_compile =
        emscripten_webgl_enable_extension(emscripten_webgl_get_current_context(), "KHR_parallel_shader_compile");
}

bool parallel_compile() { return has_parallel_compile; }

bool program_done(GLuint program) {
    if (!has_parallel_compile || program == 0) return true;
    GLint done = GL_TRUE;
    glGetProgramiv(program, completion_status_khr, &done);
    return done == GL_TRUE;
}

bool deferred_done() {
    return std::all_of(deferred_programs.begin(), deferred_programs.end(), program_done);
}

void begin_deferred_status() { deferring = true; }
void end_deferred_status() { deferring = false; }

bool check_deferred() {
    // A program's link status is known to the browser once its uniforms were looked up (the
    // ImGui backend does that at once), so asking does not wait. Shader status is asked only when a
    // link failed, for its message: that query waits for the GPU process.
    char log[1024];
    bool linked = true;
    for (GLuint program : deferred_programs) {
        GLint status = GL_TRUE;
        glGetProgramiv(program, GL_LINK_STATUS, &status);
        if (status == GL_TRUE) continue;
        linked = false;
        log[0] = 0;
        glGetProgramInfoLog(program, sizeof log, nullptr, log);
        std::fprintf(stderr, "[gl] ImGui program %u failed to link: %s\n", program, log);
    }
    if (!linked) {
        for (GLuint shader : deferred_shaders) {
            GLint status = GL_TRUE;
            glGetShaderiv(shader, GL_COMPILE_STATUS, &status);
            if (status == GL_TRUE) continue;
            log[0] = 0;
            glGetShaderInfoLog(shader, sizeof log, nullptr, log);
            std::fprintf(stderr, "[gl] ImGui shader %u failed to compile: %s\n", shader, log);
        }
    }
    deferred_ok = deferred_ok && linked;
    deferred_shaders.clear();
    deferred_programs.clear();
    return deferred_ok;
}

bool cache_matches_context() {
    if (!cache.seeded) return false;  // no context yet
    for (GLenum pname : cached_queries) {
        int count = 0;
        const GLint* values = cached(pname, count);
        GLint real[4] = {};
        glGetIntegerv(pname, real);
        if (!std::equal(values, values + count, real)) return false;
    }
    return true;
}

}  // namespace vramcalc::app::gl_state
