#include "serving_plan_json.hpp"

#include <algorithm>
#include <cmath>

#include "codec/link.hpp"
#include "codec/scenario_json.hpp"
#include "core/fields.hpp"

namespace vramcalc::codec {

using nlohmann::json;

namespace {

const char* shortfall_name(ServingPlanShortfall s) {
    switch (s) {
        case ServingPlanShortfall::none: return "none";
        case ServingPlanShortfall::nothing_fits: return "nothing_fits";
        case ServingPlanShortfall::target_unreached: return "target_unreached";
    }
    return "none";
}

json plan_row(const ServingPlan& p) {
    const Scenario& sc = p.scenario;
    return {{"gpu", sc.hardware.gpu},
            {"gpus", p.gpus},
            {"nodes", p.nodes},
            {"tensor", sc.parallel.tensor},
            {"pipeline", sc.parallel.pipeline},
            {"engine", engine_names()[std::size_t(sc.inference.engine)]},
            {"weight_format", weight_format_names()[std::size_t(sc.inference.weight_format)]},
            {"bits_per_weight", p.bits_per_weight},
            {"concurrency", sc.inference.concurrency},
            {"price_per_gpu_hour", sc.hardware.price_per_gpu_hour},
            {"cost_per_million_output_tokens", p.cost_per_million_output_tokens},
            {"decode_tokens_per_second", p.decode_tokens_per_second},
            {"sequence_tokens_per_second", p.sequence_tokens_per_second},
            {"memory_per_gpu_bytes", outputs_to_json(p.estimate, "memory_per_gpu_bytes")},
            {"inference", outputs_to_json(p.estimate, "inference")},
            {"performance", outputs_to_json(p.estimate, "performance")},
            {"link", encode_link(sc)}};
}

}  // namespace

json serving_plan_to_json(const ServingPlanResult& r) {
    json plans = json::array();
    for (const auto& p : r.plans) plans.push_back(plan_row(p));
    json below = json::array();
    for (WeightFormat f : r.below_min_bits) below.push_back(weight_format_names()[std::size_t(f)]);
    return {{"plans", plans},
            {"searched", r.searched},
            {"fitting", r.fitting},
            {"meeting", r.meeting},
            {"below_min_bits", below},
            {"shortfall", shortfall_name(r.shortfall)},
            {"best_tokens_per_second", r.best_tokens_per_second},
            {"best_sequence_tokens_per_second", r.best_sequence_tokens_per_second},
            {"message", r.message},
            {"errors", json::array()}};
}

ServingPlanOptions serving_plan_options_from_json(const json& j, std::vector<ValidationIssue>& issues) {
    ServingPlanOptions o;
    if (j.is_null()) return o;
    if (!j.is_object()) {
        issues.push_back({"options", "must be an object"});
        return o;
    }
    auto number = [&](const char* key, double& out) {
        auto it = j.find(key);
        if (it == j.end() || it->is_null()) return;
        if (!it->is_number()) issues.push_back({std::string("options.") + key, "must be a number"});
        else out = it->get<double>();  // ranges: serving_plan_issues()
    };
    auto integer = [&](const char* key, std::int64_t lo, std::int64_t hi, std::int64_t& out) {
        auto it = j.find(key);
        if (it == j.end() || it->is_null()) return;
        const double v = it->is_number() ? it->get<double>() : std::nan("");
        if (!(v >= double(lo) && v <= double(hi)) || v != std::floor(v))
            issues.push_back({std::string("options.") + key, "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi)});
        else
            out = std::int64_t(v);
    };
    number("min_tokens_per_second", o.min_tokens_per_second);
    number("min_sequence_tokens_per_second", o.min_sequence_tokens_per_second);
    number("min_bits_per_weight", o.min_bits_per_weight);
    integer("max_gpus", 1, serving_plan_max_gpus, o.max_gpus);
    std::int64_t results = o.max_results;
    integer("max_results", 1, 1000, results);
    o.max_results = int(results);
    if (auto it = j.find("all_engines"); it != j.end() && !it->is_null()) {
        if (!it->is_boolean()) issues.push_back({"options.all_engines", "must be true or false"});
        else o.all_engines = it->get<bool>();
    }
    if (auto it = j.find("gpus"); it != j.end() && !it->is_null()) {
        if (!it->is_array() || !std::all_of(it->begin(), it->end(), [](const json& v) { return v.is_string(); }))
            issues.push_back({"options.gpus", "must be an array of GPU preset ids"});
        else
            for (const auto& v : *it) o.gpus.push_back(v.get<std::string>());
    }
    const char* known[] = {"min_tokens_per_second", "min_sequence_tokens_per_second", "min_bits_per_weight", "all_engines",
                           "max_gpus", "max_results", "gpus"};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (std::find(std::begin(known), std::end(known), it.key()) == std::end(known))
            issues.push_back({"options." + it.key().substr(0, 40), "unknown option"});
    return o;
}

}  // namespace vramcalc::codec
