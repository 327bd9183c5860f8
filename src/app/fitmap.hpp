// The fit map's GPU side: the grid of per-GPU memory / capacity ratios (computed on the CPU by
// the core's fit_grid_into) lives in an R32F texture, and shaders/fitmap.frag (with quad.vert)
// turns it into the heatmap with its ratio = 1 contour. It is drawn inside the ImGui frame
// through an ImDrawList callback, so it is clipped and ordered with the widgets around it.
#pragma once

#include <string>

struct ImDrawList;
struct ImVec2;

namespace vramcalc::app::fitmap {

// Uploads a grid (row-major, x fastest, row 0 = bottom row). Cheap when the size is unchanged.
void upload(const float* ratios, int columns, int rows);

// Queues the heatmap over [min, max] (CSS pixels). `smooth_x/y`: interpolate along dense
// numeric axes; discrete axes (t, p, ZeRO stage) show whole cells.
void add_draw(ImDrawList* draw_list, const ImVec2& min, const ImVec2& max, bool smooth_x, bool smooth_y);

// Builds the program now (it is otherwise built at the first draw) and reports the result:
// a compile or link error is logged to the console (console.error) and kept in error().
bool build_now();
bool ok();                 // built and linked (false before the first build)
bool tried();              // a build was attempted
const std::string& error();  // the compiler's/linker's log when !ok()
int draws();               // heatmap draws executed (test hook: the shader really ran)

}  // namespace vramcalc::app::fitmap
