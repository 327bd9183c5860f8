#include "plan_json.hpp"

#include <algorithm>
#include <cmath>

#include "codec/scenario_json.hpp"
#include "codec/link.hpp"
#include "core/fields.hpp"

namespace vramcalc::codec {

using nlohmann::json;

json layout_to_json(const Scenario& sc, const Estimate& e) {
    return {{"tensor", sc.parallel.tensor},
            {"pipeline", sc.parallel.pipeline},
            {"data_parallel", e.layout.data_parallel},
            {"zero_stage", sc.parallel.zero_stage},
            {"micro_batch_size", sc.training.micro_batch_size},
            {"grad_accum_steps", e.layout.grad_accum_steps},
            {"recompute", recompute_names()[std::size_t(sc.training.recompute)]},
            {"sequence_parallel", sc.parallel.sequence_parallel},
            {"interleave", sc.parallel.interleave},
            {"context", sc.parallel.context},
            {"offload_optimizer", sc.parallel.offload_optimizer}};
}

PlanOptions plan_options_from_json(const json& j, std::vector<ValidationIssue>& issues) {
    PlanOptions o;
    if (j.is_null()) return o;
    if (!j.is_object()) {
        issues.push_back({"options", "must be an object"});
        return o;
    }
    auto integer = [&](const char* key, std::int64_t lo, std::int64_t hi, std::int64_t& out) {
        auto it = j.find(key);
        if (it == j.end() || it->is_null()) return;
        std::string field = std::string("options.") + key;
        if (!it->is_number() || it->get<double>() != std::floor(it->get<double>()) || it->get<double>() < double(lo) ||
            it->get<double>() > double(hi)) {
            issues.push_back({field, "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi)});
            return;
        }
        out = it->get<std::int64_t>();
    };
    integer("num_gpus", 1, 100'000'000, o.num_gpus);
    integer("global_batch_size", 1, 1'000'000'000, o.global_batch_size);
    integer("seq_len", 1, 100'000'000, o.seq_len);
    std::int64_t results = o.max_results;
    integer("max_results", 1, 1000, results);
    o.max_results = int(results);
    if (auto it = j.find("min_headroom_fraction"); it != j.end() && !it->is_null()) {
        if (!it->is_number() || !(it->get<double>() >= 0) || it->get<double>() >= 1)
            issues.push_back({"options.min_headroom_fraction", "must be a number from 0 to below 1"});
        else
            o.min_headroom_fraction = it->get<double>();
    }
    if (auto it = j.find("hold"); it != j.end() && !it->is_null()) {
        if (!it->is_array()) {
            issues.push_back({"options.hold", "must be an array of field names"});
        } else {
            for (const auto& item : *it) {
                if (!item.is_string() || !hold_plan_choice(o, item.get<std::string>()))
                    issues.push_back({"options.hold", std::string("must list ") + plan_hold_names});
            }
        }
    }
    const char* known[] = {"num_gpus", "global_batch_size", "seq_len", "max_results", "min_headroom_fraction", "hold"};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (std::find(std::begin(known), std::end(known), it.key()) == std::end(known))
            issues.push_back({"options." + it.key().substr(0, 40), "unknown option"});
    return o;
}

json plan_to_json(const PlanResult& result) {
    json plans = json::array();
    for (const auto& p : result.plans) {
        json reasons = json::array();
        for (int i = 0; i < p.reason_count; ++i) {
            const auto& r = p.reasons[std::size_t(i)];
            reasons.push_back({{"factor", plan_factor_id(r.factor)},
                               {"label", plan_factor_label(r.factor)},
                               {"delta", r.delta},
                               {"unit", r.factor == PlanFactor::memory_headroom ? "bytes" : "seconds"}});
        }
        plans.push_back({{"layout", layout_to_json(p.scenario, p.estimate)},
                         {"memory_per_gpu_bytes", outputs_to_json(p.estimate, "memory_per_gpu_bytes")},
                         {"fits", p.estimate.fits},
                         {"performance", outputs_to_json(p.estimate, "performance")},
                         {"days", p.estimate.compute.days},
                         {"cost", p.estimate.compute.cost},
                         {"link", encode_link(p.scenario)},
                         {"slowdown", p.slowdown},
                         {"reasons", reasons}});
    }
    return {{"plans", plans},
            {"searched", result.searched},
            {"feasible", result.feasible},
            {"num_gpus", result.num_gpus},
            {"global_batch_size", result.global_batch_size},
            {"errors", json::array()}};  // as every --json document and JS API result: none
}

}  // namespace vramcalc::codec
