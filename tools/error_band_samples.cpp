#include "error_band_samples.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "inference_cases.hpp"
#include "throughput_cases.hpp"

namespace vramcalc::error_band_tool {
namespace {

void add(std::vector<Sample>& out, const std::string& id, ErrorFigure figure, const Scenario& sc, const Estimate& e,
         double predicted, double measured) {
    if (measured > 0 && std::isfinite(predicted)) out.push_back({id, figure, error_regime_of(sc, e), predicted / measured - 1.0});
}

// A step time measured as `measured` s: the step-time error, and that of tokens/s (the same tokens
// over the measured and the predicted step).
void add_step(std::vector<Sample>& out, const std::string& id, const Scenario& sc, double measured) {
    const Estimate e = estimate(sc);
    add(out, id, ErrorFigure::step_time, sc, e, e.performance.step_seconds, measured);
    add(out, id, ErrorFigure::tokens_per_second, sc, e, 1.0 / e.performance.step_seconds, 1.0 / measured);
}

// Published runs (tests/data/throughput, reported-only ones included): the held-out set of the
// fit, without the runs the estimator cannot state (`not_evaluated`).
void throughput_samples(const std::string& dir, std::vector<Sample>& out, std::vector<std::string>& problems) {
    for (const auto& c : throughput_cases::load(dir + "/tests/data/throughput", problems, true)) {
        if (c.fit || !c.not_evaluated.empty()) continue;
        if (!validate(c.scenario).empty()) {
            problems.push_back(c.id + ": scenario does not validate");
            continue;
        }
        add_step(out, c.id, c.scenario, c.measured_step_seconds);
    }
}

// vramcalc's own H200 steps (tests/data/throughput/h200_hf_steps.json): all held out.
void h200_step_samples(const std::string& dir, std::vector<Sample>& out, std::vector<std::string>& problems) {
    auto data = nlohmann::json::parse(throughput_cases::read_text(dir + "/tests/data/throughput/h200_hf_steps.json"));
    for (const auto& c : data.at("cases")) {
        auto decoded = codec::scenario_from_json(c.at("scenario"));
        if (!decoded.ok()) {
            problems.push_back(c.at("id").get<std::string>() + ": scenario does not decode");
            continue;
        }
        add_step(out, c.at("id"), decoded.scenario, c.at("measured_step_seconds").get<double>());
    }
}

// Measured peaks (tests/data/memory/measured_cases.json); a measurement with "set": "fit" is one of
// the 14 that hardware.allocator_overhead was fitted on.
void memory_samples(const std::string& dir, std::vector<Sample>& out, std::vector<std::string>& problems) {
    auto data = nlohmann::json::parse(throughput_cases::read_text(dir + "/tests/data/memory/measured_cases.json"));
    for (const auto& c : data.at("cases")) {
        const std::string id = c.at("id");
        auto decoded = codec::scenario_from_json(c.at("scenario"));
        if (!decoded.ok()) {
            problems.push_back(id + ": scenario does not decode");
            continue;
        }
        const Estimate e = estimate(decoded.scenario);
        const auto& m = e.memory_per_gpu_bytes;
        for (const char* key : {"measured", "measured_secondary"}) {
            if (!c.contains(key) || c.at(key).value("set", std::string()) == "fit") continue;
            const std::string kind = c.at(key).at("kind");
            const double measured = c.at(key).at("bytes");
            if (kind == "allocated") add(out, id, ErrorFigure::peak_allocated, decoded.scenario, e, m.peak_allocated, measured);
            if (kind == "reserved") add(out, id, ErrorFigure::peak_reserved, decoded.scenario, e, m.peak_reserved, measured);
            if (kind == "device_total") add(out, id, ErrorFigure::device_total, decoded.scenario, e, m.total, measured);
        }
    }
}

ErrorFigure serving_figure(const std::string& quantity) {
    if (quantity == "weights") return ErrorFigure::serving_weights;
    if (quantity == "kv_pool_tokens") return ErrorFigure::kv_pool_tokens;
    if (quantity == "device_total") return ErrorFigure::serving_device_total;
    if (quantity == "decode_tps") return ErrorFigure::decode_tokens_per_second;
    if (quantity == "prefill_tps") return ErrorFigure::prefill_tokens_per_second;
    if (quantity == "ttft") return ErrorFigure::time_to_first_token;
    return ErrorFigure::none;  // kv_pool_bytes, max_concurrency, llama.cpp's buffers: no output of their own band
}

// Serving (tests/data/inference/measured_cases.json), split "holdout", paired as the serving suite does.
void serving_samples(std::vector<Sample>& out, std::vector<std::string>& problems) {
    for (const auto& c : inference_cases::load_inference_cases()) {
        if (c.at("split") != "holdout" || c.contains("not_expressible")) continue;
        inference_cases::CaseResult r;
        Scenario sc;
        std::string problem;
        if (!inference_cases::decode_scenario(c.at("scenario"), sc, problem)) {
            problems.push_back(c.at("id").get<std::string>() + ": " + problem);
            continue;
        }
        const Estimate e = estimate(sc);
        inference_cases::compare_memory(c, e, r);
        inference_cases::compare_speed(c, sc, e, r);
        for (const auto& comparison : r.comparisons)
            if (ErrorFigure f = serving_figure(comparison.quantity); f != ErrorFigure::none)
                add(out, c.at("id"), f, sc, e, comparison.predicted, comparison.measured);
    }
}

}  // namespace

std::vector<Sample> held_out_samples(const std::string& source_dir, std::vector<std::string>& problems) {
    std::vector<Sample> out;
    throughput_samples(source_dir, out, problems);
    h200_step_samples(source_dir, out, problems);
    memory_samples(source_dir, out, problems);
    serving_samples(out, problems);
    return out;
}

}  // namespace vramcalc::error_band_tool
