#include "plan_json.hpp"

#include "codec.hpp"
#include "core/fields.hpp"

namespace vramcalc::codec {

using nlohmann::json;

json layout_to_json(const Scenario& sc, const Estimate& e) {
    return {{"tensor", sc.parallel.tensor},
            {"pipeline", sc.parallel.pipeline},
            {"data_parallel", e.resolved.data_parallel},
            {"zero_stage", sc.parallel.zero_stage},
            {"micro_batch_size", sc.training.micro_batch_size},
            {"grad_accum_steps", e.resolved.grad_accum_steps},
            {"recompute", recompute_names()[std::size_t(sc.training.recompute)]},
            {"sequence_parallel", sc.parallel.sequence_parallel},
            {"interleave", sc.parallel.interleave},
            {"offload_optimizer", sc.parallel.offload_optimizer}};
}

json plan_to_json(const PlanResult& result) {
    json plans = json::array();
    for (const auto& p : result.plans) {
        json estimate = estimate_to_json(p.estimate);
        json reasons = json::array();
        for (int i = 0; i < p.reason_count; ++i) {
            const auto& r = p.reasons[std::size_t(i)];
            reasons.push_back({{"factor", plan_factor_id(r.factor)},
                               {"label", plan_factor_label(r.factor)},
                               {"delta", r.delta},
                               {"unit", r.factor == PlanFactor::memory_headroom ? "bytes" : "seconds"}});
        }
        plans.push_back({{"layout", layout_to_json(p.scenario, p.estimate)},
                         {"memory_per_gpu_bytes", estimate["memory_per_gpu_bytes"]},
                         {"fits", p.estimate.fits},
                         {"performance", estimate["performance"]},
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
            {"global_batch_size", result.global_batch_size}};
}

}  // namespace vramcalc::codec
