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

// Every case of every file; `problems` collects decoding errors (a test fails on any).
inline std::vector<Case> load(const std::filesystem::path& dir, std::vector<std::string>& problems) {
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
