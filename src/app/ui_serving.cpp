// Serving (workload = inference, docs/serving.md) on the page: the Train | Serve switch, the
// serving verdict with its per-GPU breakdown (weights / KV cache / activations / overhead) and
// what is short, the engine's KV pool, concurrency and context, the Transformer Math 101
// baseline beside it, and the summary line. Every number comes from the Estimate (src/core).
#include <algorithm>
#include <cmath>
#include <string>

#include "app.hpp"
#include "core/model/architecture.hpp"
#include "core/model/presets.hpp"
#include "core/serving/engines.hpp"
#include "core/text.hpp"
#include "dom.hpp"
#include "imgui.h"
#include "ui_charts.hpp"
#include "ui_explain.hpp"
#include "ui_serving.hpp"
#include "widgets.hpp"

namespace vramcalc::app {
namespace {

// "2 × RTX-4090 (tensor 2) · vLLM": the replica and the engine.
std::string replica_text(const Scenario& sc) {
    const auto& inf = sc.inference;
    std::string out = format_grouped(double(sc.parallel.tensor * sc.parallel.pipeline)) + " \xC3\x97 " +
                      visible_text(sc.hardware.gpu);
    if (sc.parallel.tensor > 1 || sc.parallel.pipeline > 1)
        out += " (tensor " + format_grouped(double(sc.parallel.tensor)) + ", pipeline " +
               format_grouped(double(sc.parallel.pipeline)) + ")";
    return out + ", " + serving::engine_profile(inf.engine).label;
}

// What the verdict says in one word group.
const char* verdict_word(const Estimate& e) {
    if (e.fits) return "Fits";
    return e.inference.starts ? "Does not fit" : "Engine does not start";
}

// The sentence under the verdict: the KV cache the sequences need against the pool, and when it
// does not fit, what is short and what would fit instead.
std::string kv_sentence(const Scenario& sc, const Estimate& e, ByteUnits u) {
    const auto& i = e.inference;
    const auto& m = i.memory;
    const auto& inf = sc.inference;
    const std::string need = format_bytes(m.kv_cache, u), pool = format_bytes(std::max(0.0, i.kv_pool_bytes), u);
    const std::string shape = format_sequences(double(inf.concurrency)) + " of " + format_tokens(double(inf.context_len));
    if (e.fits)
        return "KV cache for " + shape + ": " + need + " of a " + pool + " pool (" +
               format_bytes(e.headroom_bytes, u) + " spare, room for " + format_sequences(i.max_concurrency) + ").";
    if (!i.starts) {
        if (i.kv_pool_bytes <= 0)
            return "Weights " + format_bytes(m.weights, u) + " + activations " + format_bytes(m.activations, u) +
                   " + overhead " + format_bytes(m.overhead, u) + " leave no memory for the KV cache (short by " +
                   format_bytes(-i.kv_pool_bytes + m.kv_cache / std::max<double>(1, double(inf.concurrency)), u) +
                   " for one sequence of " + format_tokens(double(inf.context_len)) + ").";
        return "The " + pool + " KV pool cannot hold one sequence of " + format_tokens(double(inf.context_len)) +
               "; the longest that fits is " + format_tokens(i.max_context_len) + ".";
    }
    return "Short by " + format_bytes(m.kv_cache - i.kv_pool_bytes, u) + " of KV cache: the " + pool + " pool holds " +
           format_sequences(i.max_concurrency) + " of " + format_tokens(double(inf.context_len)) + " (" +
           format_grouped(double(inf.concurrency)) + " wanted); at " + format_grouped(double(inf.concurrency)) +
           " the longest context is " + format_tokens(i.max_context_len) + ".";
}

std::vector<BarSegment> serving_segments(const Estimate& e, ByteUnits u) {
    const Palette& pal = palette();
    const auto& m = e.inference.memory;
    return {{"Weights", m.weights, pal.terms[0], format_bytes(m.weights, u)},
            {"KV cache", m.kv_cache, pal.terms[1], format_bytes(m.kv_cache, u)},
            {"Activations", m.activations, pal.terms[2], format_bytes(m.activations, u)},
            {"Overhead", m.overhead, pal.terms[3], format_bytes(m.overhead, u)}};
}

// One "label value" fact of the facts row; a click opens its explanation.
void fact(const char* label, const std::string& value, const char* explain, bool& first) {
    const Palette& pal = palette();
    const std::string text = std::string(label) + " " + value;
    const float w = ImGui::CalcTextSize(text.c_str()).x;
    if (!first) {
        ImGui::SameLine(0, 14);
        if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
    }
    first = false;
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_dim);
    if (ImGui::Selectable((text + "##" + explain).c_str(), explain_is_selected(explain), 0, ImVec2(w, 0)))
        explain_select(explain);
    ImGui::PopStyleColor();
    record_item(std::string("serving_fact:") + explain);
}

void draw_breakdown(App& app, const Estimate& e) {
    const std::string cap = format_bytes(e.capacity_bytes, app.units);
    auto segments = serving_segments(e, app.units);
    ImGui::PushFont(fonts().small);
    text_dim("Per GPU: weights, KV cache, activations, overhead");
    ImGui::PopFont();
    stacked_bar("##serving_bar", segments, e.capacity_bytes, cap + " capacity", 30);
    record_item("memory_bar");
    legend(segments, e.inference.memory.total);
    record_item("legend");
    dom::Control breakdown{"breakdown", dom::Role::table,
                           "Memory per GPU while serving, total " + format_bytes(e.inference.memory.total, app.units) +
                               " of " + cap};
    for (const auto& seg : segments)
        breakdown.rows.push_back({seg.label, seg.value_text,
                                  e.inference.memory.total > 0 ? format_percent(seg.value / e.inference.memory.total) : ""});
    dom::add(std::move(breakdown));
}

void draw_facts(App& app, const Estimate& e) {
    const auto& i = e.inference;
    const auto& inf = app.scenario.inference;
    ImGui::PushFont(fonts().small);
    bool first = true;
    fact("KV pool", format_tokens(i.kv_pool_tokens), "inference.kv_pool_tokens", first);
    fact("Max concurrency", format_sig(i.max_concurrency, 3) + " at " + format_tick(inf.context_len), "inference.kv_pool_tokens", first);
    fact("Max context", format_tokens(i.max_context_len) + " at " + format_grouped(double(inf.concurrency)),
         "inference.kv_pool_tokens", first);
    fact("KV per token", format_bytes(i.kv_bytes_per_token, app.units == ByteUnits::gib ? ByteUnits::gib : ByteUnits::gb),
         "memory_per_gpu_bytes.kv_cache", first);
    ImGui::PopFont();
    const std::string text = "KV pool " + format_tokens(i.kv_pool_tokens) + "; maximum concurrency " +
                             format_sig(i.max_concurrency, 3) + " sequences of " + format_tokens(double(inf.context_len)) +
                             "; longest context " + format_tokens(i.max_context_len) + " at " +
                             format_sequences(double(inf.concurrency)) + ".";
    dom::add({"serving_facts", dom::Role::text, text});
}

// Transformer Math 101's rule beside the engine's answer.
void draw_tm101(App& app, const Estimate& e) {
    const Palette& pal = palette();
    const auto& i = e.inference;
    const std::string text = "Transformer Math 101 (total \xE2\x89\x88 1.2 \xC3\x97 weights): " +
                             format_bytes(i.tm101_bytes, app.units) + " per GPU; " +
                             serving::engine_profile(app.scenario.inference.engine).label + " as modelled here: " +
                             format_bytes(i.memory.total, app.units) + " with this KV cache.";
    ImGui::PushFont(fonts().small);
    ImGui::PushStyleColor(ImGuiCol_Text, pal.text_faint);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::PopFont();
    if (ImGui::IsItemClicked()) explain_select("inference.tm101_bytes");  // its explanation
    record_item("tm101");
    dom::add({"tm101", dom::Role::text, text});
}

}  // namespace

bool serving(const App& app) { return app.scenario.workload == Workload::inference; }

void draw_workload_switch(App& app) {
    static const char* labels[] = {"Train", "Serve"};
    int selected = serving(app) ? 1 : 0;
    ImGui::AlignTextToFramePadding();
    text_dim("Workload");
    ImGui::SameLine(0, 10);
    if (segmented("workload", labels, 2, &selected, "Workload: train the model, or serve it with an inference engine")) {
        Scenario& sc = app.scenario;
        sc.workload = selected == 1 ? Workload::inference : Workload::training;
        app.notes.clear();
        // A model with learned positions takes no longer context: lowered, and said, as a link does.
        fit_context_to_model(sc, &app.notes);
        app.touched();
    }
    help_tooltip("Train | Serve", find_field_by_path("workload")->help);
    ImGui::Dummy(ImVec2(0, 2));
}

void draw_serving_verdict(App& app) {
    const Palette& pal = palette();
    const Estimate& e = app.evaluation.estimate;
    const Scenario& sc = app.scenario;
    begin_card("verdict");
    const float avail = ImGui::GetContentRegionAvail().x;
    ImGui::PushFont(fonts().big);
    ImGui::PushStyleColor(ImGuiCol_Text, e.fits ? pal.good : pal.bad);
    ImGui::TextUnformatted((std::string(e.fits ? "\xE2\x9C\x93 " : "\xE2\x9C\x95 ") + verdict_word(e)).c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
    record_item("verdict");
    const std::string where = replica_text(sc);
    ImGui::PushFont(fonts().small);
    text_dim(where.c_str());
    ImGui::PopFont();
    const std::string used = format_bytes(e.inference.memory.total, app.units);
    const std::string cap = format_bytes(e.capacity_bytes, app.units);
    ImGui::PushFont(fonts().bold);
    ImGui::TextUnformatted(used.c_str());
    ImGui::PopFont();
    ImGui::SameLine(0, 6);
    text_dim(("of " + cap + (avail > 420 ? " per GPU" : "")).c_str());
    const std::string kv = kv_sentence(sc, e, app.units);
    ImGui::PushStyleColor(ImGuiCol_Text, e.fits ? pal.good : pal.bad);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(kv.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    record_item("serving_kv");
    dom::add({"verdict", dom::Role::text,
              std::string(verdict_word(e)) + ": " + where + ", " + used + " of " + cap + " per GPU. " + kv});
    ImGui::Dummy(ImVec2(0, 2));
    draw_breakdown(app, e);
    ImGui::Dummy(ImVec2(0, 2));
    draw_facts(app, e);
    if (e.host_memory_bytes.total > 0) {
        std::string host = "Host (CPU) memory for the layers llama.cpp keeps off the GPU: " +
                           format_bytes(e.host_memory_bytes.total, app.units) + ".";
        wrapped_coloured(pal.text_dim, host.c_str());
        dom::add({"host_memory", dom::Role::text, host});
    }
    draw_tm101(app, e);
    end_card();
    ImGui::Dummy(ImVec2(0, 2));
}

std::string serving_summary_text(const App& app) {
    const Scenario& sc = app.scenario;
    const auto& inf = sc.inference;
    std::string setup = "Serving " + visible_text(sc.model.name) + " on " + replica_text(sc) + ", " +
                        format_sequences(double(inf.concurrency)) + " of " + format_tokens(double(inf.context_len));
    if (!app.evaluation.ok()) {
        std::string out = setup + ": cannot estimate — ";
        for (std::size_t k = 0; k < app.evaluation.errors.size(); ++k)
            out += (k ? "; " : "") + app.evaluation.errors[k].field + " " + app.evaluation.errors[k].message;
        return out + ".";
    }
    const Estimate& e = app.evaluation.estimate;
    const auto& s = e.inference.speed;
    return setup + ": " + verdict_word(e) + ", " + format_bytes(e.inference.memory.total, app.units) + " of " +
           format_bytes(e.capacity_bytes, app.units) + " per GPU. " + kv_sentence(sc, e, app.units) + " KV pool " +
           format_tokens(e.inference.kv_pool_tokens) + ", time to first token " + format_step_time(s.time_to_first_token_seconds) +
           ", decode " + format_sig(s.decode_tokens_per_second, 3) + " tokens/s in all, cost per million output tokens " +
           format_money(s.cost_per_million_output_tokens) + ".";
}

}  // namespace vramcalc::app
