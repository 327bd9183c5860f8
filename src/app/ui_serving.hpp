// Serving panels (workload = inference): ui_serving.cpp (switch, verdict, summary) and
// ui_serving_fitmap.cpp (context × concurrency fit map). Their draw functions are declared in
// panels.hpp; here: the workload test, the summary line and what the serving fit map drew.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vramcalc::app {

struct App;

bool serving(const App& app);                      // the scenario's workload is inference
std::string serving_summary_text(const App& app);  // the DOM summary line in inference mode

// What the serving fit map drew in the last frame (test hooks).
struct ServingFitMapView {
    const std::vector<std::int64_t>& contexts;
    const std::vector<std::int64_t>& concurrencies;
    const std::vector<float>& ratios;
    std::vector<float> rect;
    bool drawn;
    double ms;
    int shader_draws;
};
ServingFitMapView serving_fit_map_view();

}  // namespace vramcalc::app
