// What the panels keep between frames, as structs the App owns (App::panels): caches recomputed
// when the scenario changes (App::revision), the user's view choices inside a panel (which fit-map
// axes, which explain term, per GPU or whole cluster), and what the last frame drew (read by the
// test hooks). A panel's file reads and writes its own struct here; no panel keeps state of its own.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis.hpp"
#include "core/estimate.hpp"
#include "core/explain.hpp"
#include "core/training/fixes.hpp"
#include "ui_charts.hpp"
#include "ui_plan.hpp"
#include "ui_serving_plan.hpp"

namespace vramcalc::app {

// The verdict card (ui_verdict.cpp): the memory bar shows one GPU (0) or the whole cluster (1).
struct VerdictState {
    int bar_view = 0;
};

// "Does not fit": the single changes that fit (ui_fixes.cpp).
struct FixesState {
    unsigned revision = ~0u;
    std::vector<Fix> fixes;
};

// The training fit map (ui_fitmap.cpp).
struct FitMapState {
    SweepAxis x_axis = SweepAxis::micro_batch_size, y_axis = SweepAxis::seq_len;
    std::vector<std::int64_t> xs, ys;
    std::vector<float> grid;
    unsigned revision = ~0u;
    bool smooth_x = true, smooth_y = true;
    // Hover cache: the estimate of the hovered cell, computed once per cell.
    int hover_x = -1, hover_y = -1;
    unsigned hover_revision = ~0u;
    bool hover_valid = false;
    Estimate hover_estimate;
    std::string hover_issue;
    double grid_ms = 0;
    float rect[4] = {0, 0, 0, 0};  // where the last frame drew it (test hooks)
    bool drawn = false;
};

// The serving fit map (ui_serving_fitmap.cpp).
struct ServingMapState {
    std::vector<std::int64_t> contexts, concurrencies;
    std::vector<float> grid;
    unsigned revision = ~0u;
    double ms = 0;
    int fit = 0, valid = 0;
    float rect[4] = {0, 0, 0, 0};
    bool drawn = false;
    int hover_x = -1, hover_y = -1;
    unsigned hover_revision = ~0u;
    Estimate hover;
};

// The sweep charts (ui_sweeps.cpp): per axis, the values and one line per ZeRO stage.
inline constexpr int sweep_stages = 4;
struct SweepData {
    SweepAxis axis;
    std::vector<std::int64_t> values;
    std::array<std::vector<SweepPoint>, sweep_stages> lines;
};
struct SweepsState {
    std::array<SweepData, 3> data = {SweepData{SweepAxis::micro_batch_size, {}, {}},
                                     SweepData{SweepAxis::seq_len, {}, {}}, SweepData{SweepAxis::num_gpus, {}, {}}};
    unsigned revision = ~0u;
    double ms = 0;
    std::vector<DrawnSweep> drawn;  // what the last frame drew (test hooks)
};

// The Plan panel (ui_plan.cpp).
struct PlanState {
    PlanView view;
    std::string use_note;  // what the last "Use" switched, shown under the table until the next change
    unsigned use_note_revision = ~0u;
    bool scroll_request = false;
};

// The explain panel (ui_explain.cpp).
struct ExplainState {
    std::string selected = "memory_per_gpu_bytes.activations";
    bool scroll_pending = false;
    unsigned terms_revision = ~0u;
    std::vector<ExplainTerm> terms;
    double copied_until = -1;
    std::string last_copied;
    struct Drawn {  // what the panel showed in the last frame (test hooks)
        std::string id, label, formula, source, value;
        std::vector<std::array<std::string, 3>> inputs;
        bool drawn = false;
    } drawn;
};

// A picker of the inputs panel (ui_inputs.cpp): a button showing the current choice that opens a
// searchable list. The search field is a DOM combobox over the drawn one.
struct Picker {
    const char* id;       // "model_picker"
    const char* caption;  // "Model"
    const char* hint;     // placeholder of the search field
    int highlight = 0;
    bool was_open = false;
};
struct PickersState {
    Picker model{"model_picker", "Model", "Search models, or a Hugging Face id (org/name)"};
    Picker gpu{"gpu_picker", "GPU", "Search GPUs (e.g. h100)"};
    Picker framework{"framework_picker", "Framework", "Search frameworks"};
};

// Every panel's state; App::panels. `mutable` in App: the caches fill on reading a const App.
struct PanelStates {
    VerdictState verdict;
    Analysis analysis;  // largest b and s that fit (ui_largest_fit.cpp)
    FixesState fixes;
    TimelineDrawn timeline;  // what the timeline chart drew (ui_timeline.cpp)
    FitMapState fit_map;
    ServingMapState serving_map;
    SweepsState sweeps;
    PlanState plan;
    ServingPlanView serving_plan;  // ui_serving_plan.cpp
    ExplainState explain;
    PickersState pickers;
    float verdict_bottom = 0;  // screen y where this frame's verdict card ended (narrow: the sticky verdict)
};

}  // namespace vramcalc::app
