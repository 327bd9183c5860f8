#include "ui_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "app.hpp"
#include "core/fields.hpp"
#include "core/training/planner.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "plot.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

constexpr int shown_plans = 8;

PlanState& st() { return the_app().panels.plan; }

// GPU counts for the chart: N·2^k for k = −3…3 that are whole numbers.
std::vector<std::int64_t> chart_counts(std::int64_t n) {
    std::vector<std::int64_t> out;
    for (int k = -3; k <= 3; ++k) {
        if (k < 0) {
            std::int64_t d = std::int64_t(1) << -k;
            if (n % d == 0) out.push_back(n / d);
        } else {
            out.push_back(n << k);
        }
    }
    return out;
}

void refresh(const App& app) {
    if (st().view.revision == app.revision) return;
    st().view.revision = app.revision;
    st().view.result = PlanResult{};
    st().view.scaling.clear();
    if (!app.evaluation.ok()) return;
    PlanOptions options;
    options.max_results = shown_plans;
    double t0 = now_ms();
    st().view.result = plan(app.scenario, options);
    double t1 = now_ms();
    st().view.scaling = plan_scaling(app.scenario, chart_counts(app.scenario.parallel.num_gpus), options);
    double t2 = now_ms();
    st().view.plan_ms = t1 - t0;
    st().view.scaling_ms = t2 - t1;
}

// "t 8 · p 4 · DP 2 · ZeRO-1 · b 2 · full · v 2 · SP · offload"
std::string layout_text(const Plan& p) {
    const auto& par = p.scenario.parallel;
    std::string s = "t " + std::to_string(par.tensor) + " \xC2\xB7 p " + std::to_string(par.pipeline) + " \xC2\xB7 DP " +
                    std::to_string(p.estimate.layout.data_parallel) + " \xC2\xB7 ZeRO-" + std::to_string(par.zero_stage) +
                    " \xC2\xB7 b " + std::to_string(p.scenario.training.micro_batch_size) + " \xC2\xB7 recompute " +
                    recompute_names()[static_cast<int>(p.scenario.training.recompute)];
    if (par.interleave > 1) s += " \xC2\xB7 v " + std::to_string(par.interleave);
    if (par.context > 1) s += " \xC2\xB7 cp " + std::to_string(par.context);
    if (par.sequence_parallel) s += " \xC2\xB7 SP";
    if (par.offload_optimizer) s += " \xC2\xB7 offload";
    return s;
}

std::string reasons_text(const Plan& p, ByteUnits units, bool best) {
    std::string out;
    for (int i = 0; i < p.reason_count; ++i) {
        const auto& r = p.reasons[std::size_t(i)];
        if (!out.empty()) out += "; ";
        if (r.factor == PlanFactor::memory_headroom) {
            if (std::fabs(r.delta) < 1) continue;
            out += (r.delta > 0 ? "+" : "\xE2\x88\x92") + format_bytes(std::fabs(r.delta), units) + " headroom";
        } else {
            out += std::string(plan_factor_label(r.factor)) + (r.delta > 0 ? " +" : " \xE2\x88\x92") +
                   format_step_time(std::fabs(r.delta));
        }
    }
    if (out.size() >= 2 && out.compare(out.size() - 2, 2, "; ") == 0) out.resize(out.size() - 2);
    return (best ? "vs the runner-up: " : "vs the best: ") + out;
}

void small_note(const std::string& text) { plan_note(text); }


// Adopts a plan; when that switches the throughput model to "predicted" (the planner ranks by
// predicted step time), a note says so and what it does to the training time.
void use_plan(App& app, const Plan& p) {
    const bool switches = app.scenario.hardware.throughput_model != ThroughputModel::predicted;
    const double before = app.evaluation.ok() ? app.evaluation.estimate.compute.seconds : 0;
    app.notes.clear();
    app.set_scenario(p.scenario);
    if (!switches) return;
    std::string message = "set to predicted by the planner's \"Use\" (it ranks layouts by predicted step time): time, "
                          "cost and MFU now come from the step-time model";
    if (before > 0 && app.evaluation.ok())
        message += ", training time " + format_duration(before) + " \xE2\x86\x92 " +
                   format_duration(app.evaluation.estimate.compute.seconds);
    app.notes.push_back({"hardware.throughput_model", message + ". Set it back to fixed under Hardware."});
    st().use_note = "Throughput model " + message + ".";
    st().use_note_revision = app.revision;
}

void plan_table(App& app, float width) {
    const Palette& pal = palette();
    const auto& plans = st().view.result.plans;
    const bool wide = width >= 700;
    const int columns = wide ? 7 : 4;
    dom::Control table{"plan:table", dom::Role::table, "Fastest layouts, by predicted step time"};
    const ImVec2 start = ImGui::GetCursorScreenPos();
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(6, 5));
    if (ImGui::BeginTable("plans", columns, ImGuiTableFlags_RowBg | ImGuiTableFlags_NoSavedSettings)) {
        ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, 18);
        ImGui::TableSetupColumn("Layout", ImGuiTableColumnFlags_WidthStretch, 3.0f);
        ImGui::TableSetupColumn("Step", ImGuiTableColumnFlags_WidthStretch, 0.8f);
        if (wide) {
            ImGui::TableSetupColumn("Memory/GPU", ImGuiTableColumnFlags_WidthStretch, 0.9f);
            ImGui::TableSetupColumn("MFU", ImGuiTableColumnFlags_WidthStretch, 0.6f);
            ImGui::TableSetupColumn("Run", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        }
        ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("in use").x + 22);
        plan_table_headers();
        for (std::size_t i = 0; i < plans.size(); ++i) {
            const Plan& p = plans[i];
            const auto& e = p.estimate;
            const bool current = p.scenario.parallel.tensor == app.scenario.parallel.tensor &&
                                 p.scenario.parallel.pipeline == app.scenario.parallel.pipeline &&
                                 p.scenario.parallel.zero_stage == app.scenario.parallel.zero_stage &&
                                 p.scenario.training.micro_batch_size == app.scenario.training.micro_batch_size &&
                                 p.scenario.training.recompute == app.scenario.training.recompute &&
                                 p.scenario.parallel.interleave == app.scenario.parallel.interleave &&
                                 p.scenario.parallel.sequence_parallel == app.scenario.parallel.sequence_parallel &&
                                 p.scenario.parallel.offload_optimizer == app.scenario.parallel.offload_optimizer &&
                                 app.scenario.hardware.throughput_model == ThroughputModel::predicted;
            table.rows.push_back({std::to_string(i + 1) + ". " + layout_text(p), "step " + format_step_time(e.performance.step_seconds),
                                  format_bytes(e.memory_per_gpu_bytes.total, app.units) + " per GPU, MFU " +
                                      format_percent(e.performance.mfu) + ", run " + format_duration(e.compute.seconds) +
                                      (current ? ", in use" : "") +
                                      (plans.size() > 1 ? ". " + reasons_text(p, app.units, i == 0) : std::string())});
            ImGui::PushID(int(i));
            plan_row_title(i, layout_text(p));
            if (plans.size() > 1) small_note(reasons_text(p, app.units, i == 0));
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_step_time(e.performance.step_seconds).c_str());
            if (i > 0) {
                ImGui::PushFont(fonts().small);
                ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
                ImGui::Text("+%s", format_percent(p.slowdown).c_str());
                ImGui::PopStyleColor();
                ImGui::PopFont();
            }
            if (wide) {
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(format_bytes(e.memory_per_gpu_bytes.total, app.units).c_str());
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(format_percent(e.performance.mfu).c_str());
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(format_duration(e.compute.seconds).c_str());
                ImGui::PushFont(fonts().small);
                ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
                ImGui::TextUnformatted(format_money(e.compute.cost).c_str());
                ImGui::PopStyleColor();
                ImGui::PopFont();
            }
            ImGui::TableNextColumn();
            if (current) {
                ImGui::PushStyleColor(ImGuiCol_Text, pal.good);
                ImGui::TextUnformatted("in use");
                ImGui::PopStyleColor();
            } else if (pill_button("Use", i == 0, ("plan:use:" + std::to_string(i)).c_str(), layout_text(p).c_str(),
                                   ("Use layout " + std::to_string(i + 1)).c_str())) {
                use_plan(app, p);
            }
            record_item("plan:use:" + std::to_string(i));
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    ImGui::PopStyleVar();
    dom::add_at(std::move(table), start, ImVec2(start.x + width, ImGui::GetCursorScreenPos().y));
}

// The scaling chart's grid with step-time ticks, the GPU counts under their slots and the axis
// name (in the small font, `label_h` its line height).
void scaling_axes(ImDrawList* dl, const SlotPlot& pl, const std::vector<ScalingPoint>& pts, double step, int ticks,
                  float label_h) {
    const Palette& pal = palette();
    dl->AddRectFilled(pl.pmin, pl.pmax, IM_COL32(255, 255, 255, 6), 4);
    for (int k = 0; k <= ticks; ++k) {
        double v = step * k;
        float y = pl.y(v);
        dl->AddLine(ImVec2(pl.pmin.x, y), ImVec2(pl.pmax.x, y), IM_COL32(255, 255, 255, k == 0 ? 40 : 16), 1);
        std::string label = format_step_time(v);
        if (k == 0) label = "0";
        ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        dl->AddText(ImVec2(pl.pmin.x - ts.x - 6, y - ts.y * 0.5f), pal.text_faint, label.c_str());
    }
    for (int i = 0; i < pl.n; ++i) {
        std::string label = format_grouped(double(pts[std::size_t(i)].num_gpus));
        ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        dl->AddText(ImVec2(pl.x(float(i)) - ts.x * 0.5f, pl.pmax.y + 4), pal.text_faint, label.c_str());
    }
    const char* xl = "GPUs (log\xE2\x82\x82)";
    ImVec2 ts = ImGui::CalcTextSize(xl);
    dl->AddText(ImVec2(pl.pmin.x + (pl.pw - ts.x) * 0.5f, pl.pmax.y + 6 + label_h), pal.text_dim, xl);
}

// The best layout's step time per GPU count: a line through the counts where one fits, × where
// none does, the scenario's own count ringed.
void scaling_line(ImDrawList* dl, const SlotPlot& pl, const std::vector<ScalingPoint>& pts, std::int64_t num_gpus,
                  float label_h) {
    const Palette& pal = palette();
    const int n = pl.n;
    auto xpos = [&](int i) { return pl.x(float(i)); };
    for (int i = 0; i + 1 < n; ++i)
        if (pts[std::size_t(i)].found && pts[std::size_t(i + 1)].found)
            dl->AddLine(ImVec2(xpos(i), pl.y(pts[std::size_t(i)].step_seconds)),
                        ImVec2(xpos(i + 1), pl.y(pts[std::size_t(i + 1)].step_seconds)), pal.accent, 2.2f);
    for (int i = 0; i < n; ++i) {
        const auto& p = pts[std::size_t(i)];
        if (!p.found) {
            dl->AddText(ImVec2(xpos(i) - 3, pl.pmax.y - label_h - 2), pal.bad, "\xC3\x97");
            continue;
        }
        ImVec2 c(xpos(i), pl.y(p.step_seconds));
        dl->AddCircleFilled(c, 3.4f, pal.accent, 12);
        if (p.num_gpus == num_gpus) dl->AddCircle(c, 6.5f, IM_COL32(255, 255, 255, 235), 20, 2.0f);
    }
}

// For screen readers: each GPU count's step time in words.
void scaling_summary(const std::vector<ScalingPoint>& pts) {
    std::string d;
    for (const auto& p : pts)
        d += (d.empty() ? "" : "; ") + format_gpus(p.num_gpus) + " " +
             (p.found ? format_step_time(p.step_seconds) : std::string("no layout fits"));
    dom::add({"plan:scaling", dom::Role::image, "Predicted step time against GPU count, best layout per count", d + "."});
}

// The mouse over the plot: the column's guide and its layout in a tooltip; a click uses it.
void scaling_hover(App& app, ImDrawList* dl, const SlotPlot& pl, const std::vector<ScalingPoint>& pts) {
    const Palette& pal = palette();
    int col = pl.slot_at(ImGui::GetIO().MousePos.x);
    const auto& p = pts[std::size_t(col)];
    const float x = pl.x(float(col));
    dl->AddLine(ImVec2(x, pl.pmin.y), ImVec2(x, pl.pmax.y), IM_COL32(255, 255, 255, 60), 1);
    ImGui::BeginTooltip();
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted(format_gpus(p.num_gpus).c_str());
    ImGui::PopFont();
    if (p.found) {
        ImGui::Text("step %s, %s tokens/s", format_step_time(p.step_seconds).c_str(), format_count(p.tokens_per_second).c_str());
        const auto& par = p.scenario.parallel;
        ImGui::Text("t %lld, p %lld, ZeRO-%d, b %lld", (long long)par.tensor, (long long)par.pipeline, par.zero_stage,
                    (long long)p.scenario.training.micro_batch_size);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
        ImGui::TextUnformatted("Click to use this GPU count and layout");
        ImGui::PopStyleColor();
    } else {
        ImGui::TextUnformatted("no layout fits");
    }
    ImGui::EndTooltip();
    if (p.found && ImGui::IsItemClicked(ImGuiMouseButton_Left)) app.set_scenario(p.scenario);
}

// Predicted step time of the best layout (y) against the GPU count (x, log₂), global batch held.
void scaling_chart(App& app, float width, float height) {
    const auto& pts = st().view.scaling;
    const int n = int(pts.size());
    if (n == 0) return;
    double top = 0;
    for (const auto& p : pts)
        if (p.found) top = std::max(top, p.step_seconds);
    if (top <= 0) {
        const char* none = "No layout fits at any of these GPU counts.";
        small_note(none);
        dom::add({"plan:scaling_none", dom::Role::text, none});
        return;
    }
    const double step = nice_step(top, 4);  // about 4 round ticks
    const int ticks = int(std::ceil(top * 1.05 / step));
    top = step * ticks;
    chart_title("Step time vs GPUs", width > 520 ? "best layout per count, global batch held" : nullptr);

    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGui::PushFont(fonts().small);
    const float label_h = ImGui::CalcTextSize("0").y;
    const float left = ImGui::CalcTextSize("9999 ms").x + 10;
    const SlotPlot pl = slot_plot(n, top, width, height, left, label_h * 2 + 10);
    scaling_axes(dl, pl, pts, step, ticks, label_h);
    ImGui::PopFont();
    scaling_line(dl, pl, pts, app.scenario.parallel.num_gpus, label_h);

    ImGui::SetCursorScreenPos(pl.pmin);
    ImGui::InvisibleButton("scaling", ImVec2(std::max(pl.pw, 1.0f), std::max(pl.ph, 1.0f)));
    record_item("plan:scaling");
    scaling_summary(pts);
    if (ImGui::IsItemHovered()) scaling_hover(app, dl, pl, pts);
    end_chart(pl, width, height);
}

}  // namespace

void plan_note(const std::string& text) {
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, palette().text_faint);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

void plan_table_headers() {
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, palette().text_faint);
    ImGui::TableHeadersRow();
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

void plan_row_title(std::size_t rank, const std::string& title) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(std::to_string(rank + 1).c_str());
    ImGui::TableNextColumn();
    if (rank == 0) ImGui::PushFont(fonts().bold);
    ImGui::TextWrapped("%s", title.c_str());
    if (rank == 0) ImGui::PopFont();
}

const PlanView& plan_view(const App& app) {
    refresh(app);
    return st().view;
}

void scroll_to_plan() { st().scroll_request = true; }

void draw_plan(App& app) {
    if (!app.evaluation.ok()) return;
    refresh(app);
    if (st().scroll_request) {
        st().scroll_request = false;
        ImGui::SetScrollHereY(0.0f);
    }
    const auto& r = st().view.result;
    begin_card("plan_card");
    std::string hint = format_grouped(double(r.num_gpus)) + " \xC3\x97 " + app.scenario.hardware.gpu + ", global batch " +
                       format_grouped(double(r.global_batch_size));
    section_title("Plan: fastest layouts", ImGui::GetContentRegionAvail().x > 480 ? hint.c_str() : nullptr);
    const float avail = ImGui::GetContentRegionAvail().x;
    if (r.plans.empty()) {
        const char* none = "No layout fits in memory: add GPUs, use a GPU with more memory, or lower the global batch "
                           "or sequence length.";
        wrapped_coloured(palette().bad, none);
        dom::add({"plan:none", dom::Role::text, none});  // for screen readers too, not only drawn
    } else {
        plan_table(app, avail);
        if (st().use_note_revision == app.revision) {
            small_note(st().use_note);
            dom::add({"plan_use_note", dom::Role::text, st().use_note});
        }
    }
    ImGui::Dummy(ImVec2(0, 4));
    scaling_chart(app, avail, 200.0f);
    small_note(format_grouped(double(r.searched)) + " layouts searched (t, p, ZeRO stage, micro-batch, recomputation, "
               "sequence parallelism, interleaving, offload), " + format_grouped(double(r.feasible)) +
               " fit with 10 % of memory free; ranked by predicted step time (docs/formulas.md \xC2\xA7" "10\xE2\x80\x93" "11). "
               "\"Use\" adopts a layout and the predicted throughput model. Planned in " + format_sig(st().view.plan_ms, 2) +
               " ms, chart in " + format_sig(st().view.scaling_ms, 2) + " ms.");
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

}  // namespace vramcalc::app
