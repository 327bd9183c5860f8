// The published throughput measurements of tests/data/throughput/*.json, read for the validation
// test (test_throughput.cpp) and the fit tool (throughput_fit.cpp).
#pragma once

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "codec/codec.hpp"
#include "core/estimate.hpp"

namespace vramcalc::throughput_cases {

struct Case {
    std::string id;
    std::string file;
    bool fit = false;                // in the set the constants are fitted on
    bool partly_specified = false;   // some layout fields are assumptions
    bool planner_check = true;       // false: the published layout is not representable (see the case)
    bool reported_only = false;      // loaded and reported by the fit tool, not asserted nor fitted yet
    std::string not_evaluated;       // why the estimator cannot state this run yet (FP8, CP, HSDP, ...)
    Scenario scenario;
    double measured_step_seconds = 0;
};

// FLOPs per iteration by the convention the source used to report teraFLOP/s.
inline double source_flops(const std::string& formula, const Scenario& sc) {
    const auto& m = sc.model;
    double B = double(sc.training.global_batch_size), s = double(sc.training.seq_len);
    double l = double(m.layers), h = double(m.hidden_size), V = double(m.vocab_size);
    if (formula == "narayanan2021_eq3")  // arXiv 2104.04473 §5.1 eq. 3 (with activation recomputation)
        return 96.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * l * h));
    if (formula == "megatron_model_flops") {  // Megatron-LM training.py num_floating_point_operations (MHA, GELU 4h)
        double f = m.ffn_hidden_size > 0 ? double(m.ffn_hidden_size) : 4.0 * h;
        return 12.0 * B * s * l * h * h * ((2.0 + s / h) + f / h + V / (2.0 * l * h));
    }
    return NAN;
}

inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Measured step seconds from a published tokens/s figure: step = B·s / rate (per GPU: / N as well, N the
// published GPU count, which differs from the scenario's where it cannot state context parallelism).
inline double step_from_tokens_per_second(const std::string& metric, double value, double gpus, const Scenario& sc) {
    double tokens = double(resolve_layout(sc).global_batch_size) * double(sc.training.seq_len);
    if (metric == "tokens_per_second_per_gpu") return tokens / (gpus * value);
    if (metric == "tokens_per_second") return tokens / value;
    return NAN;
}

// Every case of every file; `problems` collects decoding errors (a test fails on any). Cases marked
// "reported_only" (or carrying "not_evaluated") are skipped unless `include_reported`.
inline std::vector<Case> load(const std::filesystem::path& dir, std::vector<std::string>& problems,
                              bool include_reported = false) {
    std::vector<Case> out;
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".json" && !entry.path().filename().string().starts_with("h200_"))
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
        auto doc = nlohmann::json::parse(read_text(path));
        for (const auto& c : doc.at("cases")) {
            Case k;
            k.id = c.at("id").get<std::string>();
            k.file = path.filename().string();
            k.fit = c.at("set").get<std::string>() == "fit";
            k.partly_specified = c.value("partly_specified", false);
            k.planner_check = c.value("planner_check", true);
            k.not_evaluated = c.value("not_evaluated", std::string());
            k.reported_only = c.value("reported_only", false) || !k.not_evaluated.empty();
            if (k.reported_only && !include_reported) continue;
            auto decoded = codec::scenario_from_json(c.at("scenario"));
            for (const auto& issue : decoded.issues) problems.push_back(k.id + ": " + issue.field + " " + issue.message);
            k.scenario = decoded.scenario;
            const auto& measured = c.at("measured");
            std::string metric = measured.at("metric").get<std::string>();
            double value = measured.at("value").get<double>();
            if (metric == "step_seconds") {
                k.measured_step_seconds = value;
            } else if (metric == "achieved_tflops_per_gpu") {
                double flops = source_flops(measured.at("flops_formula").get<std::string>(), k.scenario);
                k.measured_step_seconds = flops / (double(k.scenario.parallel.num_gpus) * value * 1e12);
            } else if (decoded.issues.empty()) {
                double gpus = measured.value("gpus", double(k.scenario.parallel.num_gpus));
                k.measured_step_seconds = step_from_tokens_per_second(metric, value, gpus, k.scenario);
            }
            if (!(k.measured_step_seconds > 0)) problems.push_back(k.id + ": no measured step time");
            out.push_back(std::move(k));
        }
    }
    return out;
}

// Predicted / measured − 1.
inline double relative_error(const Case& c, const Estimate& e) {
    return e.performance.step_seconds / c.measured_step_seconds - 1.0;
}

}  // namespace vramcalc::throughput_cases
