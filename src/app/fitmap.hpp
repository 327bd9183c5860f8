// The fit map's GPU side: the grid of per-GPU memory / capacity ratios (computed on the CPU by
// the core's fit_grid_into) lives in an R32F texture, and shaders/fitmap.frag (with quad.vert)
// turns it into the heatmap with its ratio = 1 contour, rendered into a texture that the ImGui
// frame shows with ImGui::Image (so it is clipped and ordered with the widgets around it).
#pragma once

#include <string>

namespace vramcalc::app::fitmap {

// Uploads a grid (row-major, x fastest, row 0 = bottom row). Cheap when the size is unchanged.
void upload(const float* ratios, int columns, int rows);

// The heatmap as a texture of w × h framebuffer pixels (top row first when drawn with
// uv (0,1)-(1,0)), re-rendered by the shader only when the grid, the size or the flags changed:
// frames that only move the mouse cost one textured quad. 0 if the shader is unavailable.
// `smooth_x/y`: interpolate along dense numeric axes; discrete axes (t, p, ZeRO) show whole cells.
unsigned texture(int width_px, int height_px, bool smooth_x, bool smooth_y, float pixel_ratio);

// Builds the program now (it is otherwise built at the first draw) and reports the result:
// a compile or link error is logged to the console (console.error) and kept in error().
bool build_now();
bool ok();                 // built and linked (false before the first build)
bool tried();              // a build was attempted
const std::string& error();  // the compiler's/linker's log when !ok()
int draws();               // heatmap renders executed (test hook: the shader really ran)

}  // namespace vramcalc::app::fitmap
