// What both fit maps (ui_fitmap.cpp: training, ui_serving_fitmap.cpp: serving) draw the same way:
// the map placed on whole framebuffer pixels with the shader's texture and its border, the axis
// titles, a tick on each axis, the user's point, the hovered cell and the footer (legend, timing).
#pragma once

#include <string>

#include "fitmap.hpp"
#include "imgui.h"

namespace vramcalc::app {

struct MapFrame {
    ImVec2 origin;    // the cursor where the map's row began (left of the y-axis labels)
    ImVec2 min, max;  // the map itself
    float w, h;
    int nx, ny;       // cells across and up
    bool visible;
    float cell_x(float i) const { return min.x + (i + 0.5f) / nx * w; }  // centre of column i
    float cell_y(float j) const { return max.y - (j + 0.5f) / ny * h; }  // centre of row j (row 0 at the bottom)
};

// "↑ Concurrency, sequences at once" above the map (small, dim), and the room it takes.
void draw_map_y_title(const std::string& title);
// Places a w × h map `left` px right of the cursor and draws the shader's texture (or why there is
// none) and the border. `smooth_x/y`: interpolate along dense axes (fitmap::texture).
MapFrame draw_map_image(float left, float w, float h, int nx, int ny, bool smooth_x, bool smooth_y, fitmap::Kind kind);
// A tick and its label under the map at x, or left of it at y (in the small font, pushed by the caller).
void draw_map_x_tick(const MapFrame& f, float x, const std::string& label);
void draw_map_y_tick(const MapFrame& f, float y, const std::string& label);
void draw_map_x_title(const MapFrame& f, const std::string& title);  // centred under the x ticks
void draw_map_point(ImVec2 at);                                      // the user's setting: a ringed dot
// The cell under the mouse (the map's InvisibleButton must be the last item and hovered), outlined
// at least `min_size` px wide and high.
void hovered_cell(const MapFrame& f, float min_size, int& ix, int& iy);
// Below the map: its legend (drawn by `legend` at the card's width) and the timing line.
void draw_map_footer(const MapFrame& f, float width, void (*legend)(float width), const char* timing);

}  // namespace vramcalc::app
