// Every test hook of the page, in one place: C exports that web/main.js gathers into
// window.vramcalcTest, so browser tests read numbers and what was drawn as JSON, never from
// pixels. The panels expose plain views of their state (ui_charts.hpp, ui_explain.hpp, page.hpp);
// only this file turns them into JSON.
#include <emscripten.h>

#include <algorithm>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "app.hpp"
#include "codec/field_text.hpp"
#include "codec/scenario_json.hpp"
#include "core/analysis.hpp"
#include "core/fields.hpp"
#include "fitmap.hpp"
#include "gfx.hpp"
#include "gl_state.hpp"
#include "page.hpp"
#include "plot.hpp"
#include "ui_charts.hpp"
#include "ui_serving.hpp"
#include "ui_explain.hpp"
#include "ui_plan.hpp"
#include "ui_serving_plan.hpp"
#include "widgets.hpp"

using namespace vramcalc;
using namespace vramcalc::app;
using nlohmann::json;

namespace {

std::string scratch;  // storage for the strings returned to JavaScript

const char* give(std::string text) {
    scratch = std::move(text);
    return scratch.c_str();
}

}  // namespace

extern "C" {

// ── The scenario, the estimate, the link ──
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_scenario_json() {
    return give(codec::scenario_to_json(the_app().scenario).dump());
}

EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_estimate_json() {
    const App& app = the_app();
    return give(codec::evaluation_to_json(app.scenario, app.evaluation, app.notes).dump());
}

EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_link() {
    return give(the_app().link.empty() ? codec::encode_link(the_app().scenario) : the_app().link);
}

// The problems of the link the page was opened with.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_messages() { return give(codec::issues_to_json(the_app().link_issues).dump()); }

// What the last preset choice or link changed besides itself (shown in the notes card).
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_notes() { return give(codec::notes_to_json(the_app().notes).dump()); }

// Sets a field by path from text; returns "" on success or the message.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_set_field(const char* path, const char* value) {
    const FieldSpec* f = find_field_by_path(path ? path : "");
    if (!f) return give(std::string("unknown field ") + (path ? path : ""));
    std::string problem = codec::set_field_from_text(the_app().scenario, *f, value ? value : "");
    if (problem.empty()) the_app().touched();
    wake(4);
    return give(problem);
}

// ── Layout and widgets ──
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_item_rect(const char* name) { return give(item_rect_json(name ? name : "")); }

EMSCRIPTEN_KEEPALIVE double vramcalc_test_frame_count() { return double(frames_drawn()); }

// The 15 px body and bold fonts (bold is the body face widened, widgets.cpp), in pixels at their
// rasterised size: {"body":{"size_px","digits_px": width of "0123456789","l_ink_px": width of
// the glyph 'l' in the atlas},"bold":{…}}.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_fonts() {
    json out = json::object();
    for (const auto& [name, font] : {std::pair{"body", fonts().body}, std::pair{"bold", fonts().bold}}) {
        if (!font) continue;
        const ImFontGlyph* l = font->FindGlyphNoFallback('l');
        out[name] = {{"size_px", font->FontSize},
                     {"digits_px", font->CalcTextSizeA(font->FontSize, 1e9f, 0.0f, "0123456789").x},
                     {"l_ink_px", l ? l->X1 - l->X0 : 0.0f}};
    }
    return give(out.dump());
}

// {"css":[w,h],"backing":[w,h],"ratio":r,"embed":bool,"shaders":bool,"parallel_compile":bool,"banner":bool}
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_layout() {
    CanvasLayout c = canvas_layout();
    const App& app = the_app();
    json j = {{"css", {c.css_w, c.css_h}},
              {"backing", {c.backing_w, c.backing_h}},
              {"ratio", c.ratio},
              {"embed", app.embed},
              {"shaders", gfx::build_all_for_test() && gl_state::check_deferred()},
              {"parallel_compile", gl_state::parallel_compile()},
              {"banner", app.link_banner_open && !app.link_issues.empty()},
              {"light", app.light},
              {"touch", touch_targets()},
              {"content_height", app.content_height},
              {"more_below", app.embed_more_below}};
    return give(j.dump());
}

// 1 when the GL state gl_state.hpp answers from its cache equals what WebGL reports (asks WebGL).
EMSCRIPTEN_KEEPALIVE int vramcalc_test_gl_state_cached() { return gl_state::cache_matches_context() ? 1 : 0; }

// ── Charts ──
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_charts() {
    const App& app = the_app();
    const Analysis& an = analysis(app);
    SweepsView sweeps = sweeps_view();
    FitMapView map = fit_map_view();
    json j;
    j["largest_micro_batch"] = an.largest_b;
    j["longest_sequence"] = an.largest_s;
    j["timings_ms"] = {{"largest", an.largest_ms}, {"sweeps", sweeps.ms}, {"grid", map.ms}};
    json drawn = json::array();
    for (const auto& s : sweeps.sweeps) {
        json lines = json::array();
        for (const auto& line : s.points) {
            json points = json::array();
            for (const auto& p : line) points.push_back({p[0], p[1], p[2] > 0});
            lines.push_back(points);
        }
        drawn.push_back({{"axis", s.axis}, {"values", s.values}, {"points", lines}});
    }
    j["sweeps"] = drawn;
    j["map"] = {{"x_axis", sweep_axis_id(map.x_axis)},
                {"y_axis", sweep_axis_id(map.y_axis)},
                {"xs", map.xs},
                {"ys", map.ys},
                {"rect", map.rect},
                {"drawn", map.drawn},
                {"hover", {map.hover_x, map.hover_y}},
                {"shader_draws", fitmap::draws()},
                {"ratios", map.ratios}};
    const ServingFitMapView sm = serving_fit_map_view();
    j["serving_map"] = {{"contexts", sm.contexts}, {"concurrencies", sm.concurrencies}, {"ratios", sm.ratios},
                        {"rect", sm.rect},         {"drawn", sm.drawn},                 {"ms", sm.ms},
                        {"shader_draws", sm.shader_draws}};
    const TimelineDrawn& tl = timeline_drawn();
    json bars = json::array();
    for (const auto& b : tl.bars)
        bars.push_back({{"phase", b.phase}, {"allocated", b.allocated}, {"top", b.top}, {"x", b.x}, {"y", b.y}});
    j["timeline"] = {{"drawn", tl.drawn}, {"peak", tl.peak}, {"bars", bars}, {"rect", tl.rect}, {"capacity_y", tl.capacity_y}};
    return give(j.dump());
}

// {"ok": bool, "tried": bool, "error": "..."}: builds the fit-map program if it was not yet.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_shaders() {
    bool ok = fitmap::build_now();
    return give(json({{"ok", ok}, {"tried", fitmap::tried()}, {"error", fitmap::error()}}).dump());
}

// "" or why the axes were not set.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_set_map_axes(const char* x, const char* y) {
    FitMapView map = fit_map_view();
    SweepAxis ax = map.x_axis, ay = map.y_axis;
    for (SweepAxis a : all_sweep_axes) {
        if (std::string(x) == sweep_axis_id(a)) ax = a;
        if (std::string(y) == sweep_axis_id(a)) ay = a;
    }
    bool set = set_fit_map_axes(ax, ay);
    wake(4);
    return give(set ? "" : "the two axes must differ");
}

// What the explain panel showed in the last frame, and the selection.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_explain() {
    ExplainView v = explain_view();
    json inputs = json::array();
    for (const auto& in : v.inputs) inputs.push_back({{"symbol", in[0]}, {"value", in[1]}, {"unit", in[2]}});
    json j = {{"selected", v.selected}, {"drawn", v.drawn},     {"id", v.id},         {"label", v.label},
              {"formula", v.formula},   {"source", v.source},   {"value", v.value},   {"inputs", inputs},
              {"last_copied", v.last_copied}};
    return give(j.dump());
}

EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_markdown() { return give(markdown_for(the_app())); }

// The keyboard shortcut table ([{keys, control, does}]): the page's help and docs/keyboard.md follow it.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_shortcuts() {
    json out = json::array();
    for (const auto& s : shortcuts()) out.push_back({{"keys", s.keys}, {"control", s.control}, {"does", s.does}});
    return give(out.dump());
}

// Times, in this browser's wasm, the fit-map grid over the same axes as bench/bench_estimate.cpp's
// BM_FitGrid (b = 1..128 × s = 128..16384, 128² cells) and all sweep charts (b, s, N × 4 ZeRO
// stages + largest b and s, as BM_AllSweeps) for the current scenario. Medians of `runs`; each
// sweep sample repeats 20 times (one pass is below the browser's timer resolution).
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_bench(const char* runs_text) {
    App& app = the_app();
    int runs = std::clamp(std::atoi(runs_text ? runs_text : "10"), 1, 200);
    std::vector<double> grid_t, sweep_t;
    std::vector<std::int64_t> xs(128), ys(128);
    for (int i = 0; i < 128; ++i) {
        xs[i] = i + 1;
        ys[i] = 128 * (i + 1);
    }
    std::vector<float> grid(xs.size() * ys.size());
    std::vector<SweepPoint> points(64);
    constexpr int sweep_reps = 20;
    for (int r = 0; r < runs; ++r) {
        double t0 = now_ms();
        fit_grid_into(app.scenario, SweepAxis::micro_batch_size, xs, SweepAxis::seq_len, ys, grid);
        double t1 = now_ms();
        for (int rep = 0; rep < sweep_reps; ++rep) {
            for (SweepAxis axis : {SweepAxis::micro_batch_size, SweepAxis::seq_len, SweepAxis::num_gpus}) {
                auto values = sweep_axis_values(app.scenario, axis, 12);
                for (int z = 0; z < 4; ++z) {
                    Scenario base = app.scenario;
                    base.parallel.zero_stage = z;
                    sweep_into(base, axis, values, std::span(points).first(values.size()));
                }
            }
            largest_fitting(app.scenario, SweepAxis::micro_batch_size, 1 << 16);
            largest_fitting(app.scenario, SweepAxis::seq_len, 1 << 22);
        }
        double t2 = now_ms();
        grid_t.push_back(t1 - t0);
        sweep_t.push_back((t2 - t1) / sweep_reps);
    }
    std::sort(grid_t.begin(), grid_t.end());
    std::sort(sweep_t.begin(), sweep_t.end());
    json j = {{"grid_ms", grid_t[grid_t.size() / 2]},
              {"sweeps_ms", sweep_t[sweep_t.size() / 2]},
              {"cells", xs.size() * ys.size()},
              {"runs", runs}};
    return give(j.dump());
}

// ── The Plan panel: its layouts, chart points and search times ──
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_plan() {
    const PlanView& v = plan_view(the_app());
    json plans = json::array();
    for (const auto& p : v.result.plans)
        plans.push_back({{"tensor", p.scenario.parallel.tensor},
                         {"pipeline", p.scenario.parallel.pipeline},
                         {"step_seconds", p.estimate.performance.step_seconds},
                         {"link", codec::encode_link(p.scenario)}});
    json scaling = json::array();
    for (const auto& s : v.scaling)
        scaling.push_back({{"num_gpus", s.num_gpus}, {"found", s.found}, {"step_seconds", s.step_seconds}});
    return give(json{{"plans", plans},
                     {"scaling", scaling},
                     {"searched", v.result.searched},
                     {"feasible", v.result.feasible},
                     {"plan_ms", v.plan_ms},
                     {"scaling_ms", v.scaling_ms}}
                    .dump());
}

// ── The Serve-mode Plan panel: its rows and search time ──
EMSCRIPTEN_KEEPALIVE const char* vramcalc_test_serving_plan() {
    const ServingPlanView& v = serving_plan_view(the_app());
    json plans = json::array();
    for (const auto& p : v.result.plans)
        plans.push_back({{"gpu", p.scenario.hardware.gpu},
                         {"tensor", p.scenario.parallel.tensor},
                         {"pipeline", p.scenario.parallel.pipeline},
                         {"weight_format", weight_format_names()[std::size_t(p.scenario.inference.weight_format)]},
                         {"bits_per_weight", p.bits_per_weight},
                         {"cost_per_million_output_tokens", p.cost_per_million_output_tokens},
                         {"link", codec::encode_link(p.scenario)}});
    return give(json{{"plans", plans},
                     {"searched", v.result.searched},
                     {"fitting", v.result.fitting},
                     {"message", v.result.message},
                     {"plan_ms", v.plan_ms}}
                    .dump());
}

}  // extern "C"
