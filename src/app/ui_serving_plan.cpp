#include "ui_serving_plan.hpp"

#include <cstdio>
#include <string>

#include "app.hpp"
#include "core/fields.hpp"
#include "core/serving/engines.hpp"
#include "core/text.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "plot.hpp"
#include "ui_plan.hpp"
#include "ui_serving.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

constexpr int shown_plans = 8;
constexpr const char* floor_labels[] = {"16-bit", "\xE2\x89\xA5 8 bits", "\xE2\x89\xA5 4 bits", "any"};
constexpr double floor_bits[] = {16, 8, 4, 0};
constexpr const char* engine_labels[] = {"This engine", "Every engine"};

ServingPlanView& st() { return the_app().panels.serving_plan; }

void refresh(const App& app) {
    const int key = st().floor_choice * 2 + st().engines_choice;
    if (st().revision == app.revision && st().options_key == key) return;
    st().revision = app.revision;
    st().options_key = key;
    st().result = ServingPlanResult{};
    if (!app.evaluation.ok() || !serving(app)) return;
    ServingPlanOptions options;
    options.max_results = shown_plans;
    options.min_bits_per_weight = floor_bits[st().floor_choice];
    options.all_engines = st().engines_choice == 1;
    if (!serving_plan_issues(app.scenario, options).empty()) return;
    const double t0 = now_ms();
    st().result = serving_plan(app.scenario, options);
    st().plan_ms = now_ms() - t0;
}

const char* format_name(const Scenario& s) { return weight_format_names()[std::size_t(s.inference.weight_format)]; }

// "2 × H100-SXM · t 2 · awq · vLLM" (p and nodes when pipelined)
std::string config_text(const ServingPlan& p) {
    const auto& s = p.scenario;
    std::string out = format_grouped(p.gpus) + " \xC3\x97 " + s.hardware.gpu + " \xC2\xB7 t " + std::to_string(s.parallel.tensor);
    if (s.parallel.pipeline > 1)
        out += " \xC2\xB7 p " + std::to_string(s.parallel.pipeline) + " (" + format_grouped(p.nodes) + " nodes)";
    return out + " \xC2\xB7 " + format_name(s) + " \xC2\xB7 " + serving::engine_profile(s.inference.engine).label;
}

std::string speed_text(const ServingPlan& p) {
    std::string out = format_sig(p.decode_tokens_per_second) + " tok/s";
    if (p.scenario.inference.concurrency > 1)
        out += " (" + format_sig(p.sequence_tokens_per_second) + " per sequence \xC3\x97 " +
               std::to_string(p.scenario.inference.concurrency) + ")";
    return out;
}

bool in_use(const App& app, const ServingPlan& p) {
    const auto &a = app.scenario, &b = p.scenario;
    return a.hardware.gpu == b.hardware.gpu && a.parallel.tensor == b.parallel.tensor && a.parallel.pipeline == b.parallel.pipeline &&
           a.inference.weight_format == b.inference.weight_format && a.inference.engine == b.inference.engine &&
           a.inference.concurrency == b.inference.concurrency;
}

void plan_row(App& app, std::size_t i, bool wide) {
    const ServingPlan& p = st().result.plans[i];
    const bool current = in_use(app, p);
    ImGui::PushID(int(i));
    plan_row_title(i, config_text(p));
    plan_note(speed_text(p));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_money(p.cost_per_million_output_tokens).c_str());
    if (wide) {
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", p.bits_per_weight);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(format_bytes(p.estimate.memory_per_gpu_bytes.total, app.units).c_str());
    }
    ImGui::TableNextColumn();
    const std::string id = "serving_plan:use:" + std::to_string(i);
    if (current) {
        ImGui::PushStyleColor(ImGuiCol_Text, palette().good);
        ImGui::TextUnformatted("in use");
        ImGui::PopStyleColor();
    } else if (pill_button("Use", i == 0, id.c_str(), config_text(p).c_str(), ("Use configuration " + std::to_string(i + 1)).c_str())) {
        app.notes.clear();
        app.set_scenario(p.scenario);
    }
    record_item(id);
    ImGui::PopID();
}

void plan_table(App& app, float width) {
    const auto& plans = st().result.plans;
    const bool wide = width >= 640;
    dom::Control table{"serving_plan:table", dom::Role::table, "Cheapest configurations, by cost per million output tokens"};
    for (std::size_t i = 0; i < plans.size(); ++i) {
        const ServingPlan& p = plans[i];
        char bits[16];
        std::snprintf(bits, sizeof bits, "%.2f", p.bits_per_weight);
        table.rows.push_back({std::to_string(i + 1) + ". " + config_text(p),
                              format_money(p.cost_per_million_output_tokens) + " per million output tokens",
                              speed_text(p) + ", " + bits + " bits per weight, " +
                                  format_bytes(p.estimate.memory_per_gpu_bytes.total, app.units) + " per GPU" +
                                  (in_use(app, p) ? ", in use" : "")});
    }
    const ImVec2 start = ImGui::GetCursorScreenPos();
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(6, 5));
    if (ImGui::BeginTable("serving_plans", wide ? 6 : 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_NoSavedSettings)) {
        ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, 18);
        ImGui::TableSetupColumn("Configuration", ImGuiTableColumnFlags_WidthStretch, 3.0f);
        ImGui::TableSetupColumn(wide ? "$/M tokens" : "$/M", ImGuiTableColumnFlags_WidthStretch, 0.9f);
        if (wide) {
            ImGui::TableSetupColumn("Bits/weight", ImGuiTableColumnFlags_WidthStretch, 0.8f);
            ImGui::TableSetupColumn("Memory/GPU", ImGuiTableColumnFlags_WidthStretch, 0.9f);
        }
        ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("in use").x + 22);
        plan_table_headers();
        for (std::size_t i = 0; i < plans.size(); ++i) plan_row(app, i, wide);
        ImGui::EndTable();
    }
    ImGui::PopStyleVar();
    dom::add_at(std::move(table), start, ImVec2(start.x + width, ImGui::GetCursorScreenPos().y));
}

std::string below_text() {
    std::string names;
    for (WeightFormat f : st().result.below_min_bits) names += (names.empty() ? "" : ", ") + std::string(weight_format_names()[std::size_t(f)]);
    return names.empty() ? std::string() : " Left out under the quality floor: " + names + ".";
}

}  // namespace

const ServingPlanView& serving_plan_view(const App& app) {
    refresh(app);
    return st();
}

void draw_serving_plan(App& app) {
    if (!app.evaluation.ok() || !serving(app)) return;
    refresh(app);
    const auto& r = st().result;
    begin_card("serving_plan_card");
    const std::string hint = format_grouped(double(app.scenario.inference.concurrency)) + " \xC3\x97 " +
                             format_grouped(double(app.scenario.inference.context_len)) + " tokens";
    section_title("Plan: cheapest ways to serve", ImGui::GetContentRegionAvail().x > 480 ? hint.c_str() : nullptr);
    ImGui::AlignTextToFramePadding();
    text_dim("Quality floor");
    ImGui::SameLine();
    segmented("serving_plan_floor", floor_labels, 4, &st().floor_choice, "Quality floor: formats of at least this many bits per weight");
    if (ImGui::GetContentRegionAvail().x >= 600) ImGui::SameLine(0, 16);  // narrow: on its own line
    segmented("serving_plan_engines", engine_labels, 2, &st().engines_choice, "Engines searched");
    refresh(app);
    const float avail = ImGui::GetContentRegionAvail().x;
    if (r.plans.empty()) {
        const std::string none = r.message.empty() ? std::string("No configuration to show.") : r.message;
        wrapped_coloured(palette().bad, none.c_str());
        dom::add({"serving_plan:none", dom::Role::text, none});
    } else {
        plan_table(app, avail);
    }
    plan_note(format_grouped(double(r.searched)) + " configurations searched (GPU presets \xC3\x97 tensor parallel 1\xE2\x80\x93" "8, pipeline "
          "across nodes where one node does not fit \xC3\x97 the engine's formats), " + format_grouped(double(r.fitting)) +
          " fit; ranked by cost per million output tokens at each preset's $/GPU-hour (docs/serving.md \xC2\xA7" "7)." + below_text() +
          " \"Use\" sets the GPU, t, p, format and engine. Planned in " + format_sig(st().plan_ms, 2) + " ms.");
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

}  // namespace vramcalc::app
