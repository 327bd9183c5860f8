// GL state queries answered without asking the browser. Force-included (-include) into every
// source of the page that calls GL, the Dear ImGui OpenGL3 backend included (its sources stay
// unmodified): the macros below route those calls through vramcalc_gl_*.
//
// Why: in WebGL, glGetIntegerv(GL_SCISSOR_BOX), GL_VIEWPORT and the GL_BLEND_* queries are
// synchronous round trips to the browser's GPU process, which first finishes all queued work
// (shader compiles, uploads, the last frame): the ImGui backend's state backup/restore made the
// first frame wait ~100–200 ms and every later frame wait for the previous one. Every call that
// sets that state goes through here too, so a cache answers the queries exactly; it is read from
// the context once, when nothing is queued (gl_state::seed, right after the context is made).
//
// Shader and program status: the ImGui backend checks them right after each compile and link,
// one blocking wait each. Here GL_COMPILE_STATUS / GL_LINK_STATUS / GL_INFO_LOG_LENGTH of the
// shaders and programs it makes are answered "ok, no log" at once (the compiles then run back to
// back) and checked for real later, once the first frame is drawn (gl_state::check_deferred:
// failures are logged with their info logs and reported). Where the browser offers
// KHR_parallel_shader_compile, whether a program is done is asked first (COMPLETION_STATUS_KHR
// does not wait), so no status query has to wait for a compile: gl_state::program_done.
#pragma once

#include <GLES3/gl3.h>

#ifdef __cplusplus
extern "C" {
#endif
void vramcalc_gl_viewport(GLint x, GLint y, GLsizei width, GLsizei height);
void vramcalc_gl_scissor(GLint x, GLint y, GLsizei width, GLsizei height);
void vramcalc_gl_blend_func(GLenum src, GLenum dst);
void vramcalc_gl_blend_func_separate(GLenum src_rgb, GLenum dst_rgb, GLenum src_alpha, GLenum dst_alpha);
void vramcalc_gl_blend_equation(GLenum mode);
void vramcalc_gl_blend_equation_separate(GLenum mode_rgb, GLenum mode_alpha);
void vramcalc_gl_get_integerv(GLenum pname, GLint* data);
void vramcalc_gl_get_shaderiv(GLuint shader, GLenum pname, GLint* params);
void vramcalc_gl_get_programiv(GLuint program, GLenum pname, GLint* params);
#ifdef __cplusplus
}
#endif

#ifndef VRAMCALC_GL_STATE_IMPL
#define glViewport vramcalc_gl_viewport
#define glScissor vramcalc_gl_scissor
#define glBlendFunc vramcalc_gl_blend_func
#define glBlendFuncSeparate vramcalc_gl_blend_func_separate
#define glBlendEquation vramcalc_gl_blend_equation
#define glBlendEquationSeparate vramcalc_gl_blend_equation_separate
#define glGetIntegerv vramcalc_gl_get_integerv
#define glGetShaderiv vramcalc_gl_get_shaderiv
#define glGetProgramiv vramcalc_gl_get_programiv
#endif

#ifdef __cplusplus
namespace vramcalc::app::gl_state {

// Reads the cached state from the current context (once, right after it is made).
void seed();
// Status queries of shaders and programs made from now until end_deferred_status() are answered
// "ok, no log" without waiting (for the ImGui backend's device objects).
void begin_deferred_status();
void end_deferred_status();
// Checks the shaders and programs deferred since the last check for real (they are done by the
// time the first frame is drawn, so this does not wait); logs failures. False if any ever failed.
bool check_deferred();
// Whether the deferred programs are compiled and linked (KHR_parallel_shader_compile: asking does
// not wait). Always true without the extension: a status query then has to wait anyway.
bool deferred_done();
// The same for one program made by the page.
bool program_done(GLuint program);
// Whether the browser offers KHR_parallel_shader_compile (known after seed()).
bool parallel_compile();
// Whether the state cache agrees with the context (test hook; asks the browser, so it waits).
// False before the context exists.
bool cache_matches_context();

}  // namespace vramcalc::app::gl_state
#endif
