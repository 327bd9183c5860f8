// The page's frame loop (main.cpp) as the rest of src/app sees it.
#pragma once

namespace vramcalc::app {

void wake(int frames);  // asks for this many more frames (the loop is on demand)

struct CanvasLayout {
    double css_w, css_h;          // CSS pixels
    int backing_w, backing_h;     // device pixels
    float ratio;                  // device pixel ratio
};
CanvasLayout canvas_layout();
long long frames_drawn();

}  // namespace vramcalc::app
