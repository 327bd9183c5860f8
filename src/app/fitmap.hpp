// The fit map's GPU side: the grid of per-GPU memory / capacity ratios (computed on the CPU by
// the core's fit_grid_into) lives in an R32F texture, and shaders/fitmap.frag (with quad.vert)
// turns it into the heatmap with its ratio = 1 contour, rendered into a texture that the ImGui
// frame shows with ImGui::Image (so it is clipped and ordered with the widgets around it).
#pragma once

#include <string>

namespace vramcalc::app::fitmap {

// Which heatmap: the training fit map (shaders/fitmap.frag) or the serving one (context ×
// concurrency, shaders/serving_fitmap.frag); each has its own grid, program and texture.
enum class Kind { training, serving };

// The map's colours, said once: the shader receives them as uniforms (u_ramp, u_over, u_invalid)
// and the legend draws the same values.
struct Colour {
    float r, g, b;
};
struct RampStop {
    float at;  // memory / capacity
    Colour colour;
};
// Fits (ratio ≤ 1): deep blue (plenty of room) through green to amber at the limit.
inline constexpr RampStop fit_ramp[4] = {{0.0f, {0.082f, 0.176f, 0.322f}},    // #152D52
                                         {0.45f, {0.118f, 0.420f, 0.561f}},   // #1E6B8F
                                         {0.8f, {0.188f, 0.647f, 0.471f}},    // #30A578
                                         {1.0f, {0.910f, 0.737f, 0.259f}}};   // #E8BC42
// Serving map, fits (KV need ≤ pool): deep green (plenty of room) to light green at the limit.
inline constexpr RampStop serving_ramp[4] = {{0.0f, {0.059f, 0.239f, 0.180f}},    // #0F3D2E
                                             {0.5f, {0.090f, 0.439f, 0.290f}},    // #17704A
                                             {0.85f, {0.184f, 0.659f, 0.400f}},   // #2FA866
                                             {1.0f, {0.608f, 0.839f, 0.353f}}};   // #9BD65A
// Does not fit: bright red at capacity to dark wine at 4× capacity and beyond (log scale).
inline constexpr Colour over_near = {0.929f, 0.290f, 0.302f};  // #ED4A4D
inline constexpr Colour over_far = {0.361f, 0.082f, 0.157f};
// Invalid layout: grey cross-hatch between these two.
inline constexpr Colour invalid_light = {0.205f, 0.220f, 0.255f};  // #343841
inline constexpr Colour invalid_dark = {0.150f, 0.162f, 0.190f};
Colour ramp_colour(float ratio, Kind kind = Kind::training);  // the map's fit ramp at a ratio in [0, 1] (the shader's fit_colour)

// Uploads a grid (row-major, x fastest, row 0 = bottom row). Cheap when the size is unchanged.
void upload(const float* ratios, int columns, int rows, Kind kind = Kind::training);

// The heatmap as a texture of w × h framebuffer pixels (top row first when drawn with
// uv (0,1)-(1,0)), re-rendered by the shader only when the grid, the size or the flags changed:
// frames that only move the mouse cost one textured quad. 0 if the shader is unavailable, or
// while the browser is still compiling it (pending(); another frame is asked for).
// `smooth_x/y`: interpolate along dense numeric axes; discrete axes (t, p, ZeRO) show whole cells.
unsigned texture(int width_px, int height_px, bool smooth_x, bool smooth_y, float pixel_ratio,
                 Kind kind = Kind::training);

// Builds the program now (it is otherwise built at the first draw) and reports the result:
// a compile or link error is logged to the console (console.error) and kept in error().
bool build_now(Kind kind = Kind::training);
bool ok(Kind kind = Kind::training);                 // built and linked (false before the first build)
bool pending(Kind kind = Kind::training);            // being compiled by the browser (KHR_parallel_shader_compile says so)
bool tried(Kind kind = Kind::training);              // a build was attempted
const std::string& error(Kind kind = Kind::training);  // the compiler's/linker's log when !ok()
int draws(Kind kind = Kind::training);               // heatmap renders executed (test hook: the shader really ran)

}  // namespace vramcalc::app::fitmap
