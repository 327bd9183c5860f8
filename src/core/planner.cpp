#include "planner.hpp"

#include <algorithm>
#include <cmath>

namespace vramcalc {
namespace {

// Layouts the search prunes without estimating, each dominated in the model by one it keeps:
// - t > 1 without sequence parallelism: SP moves the same bytes (reduce-scatter + all-gather per
//   all-reduce) and divides the replicated activations and their elementwise work by t.
//   [Korthikanti et al. 2022, arXiv 2205.05198 §4.2.2]
// - ZeRO-0 with DP > 1: ZeRO-1 moves the same bytes (reduce-scatter + all-gather) and shards the
//   optimizer. [Rajbhandari et al. 2019, arXiv 1910.02054 §7.1]
// - at one micro-batch size and ZeRO stage, recomputation once no recomputation fits, and full
//   recomputation once op-level or selective fits (each only adds compute); selective
//   recomputation with FlashAttention (no score tensor to drop).
// - optimizer offload while some layout without it fits at that micro-batch size.
// - ZeRO-2/3 with pipeline parallelism (DeepSpeed disallows it; Megatron shards only the optimizer).

bool divides(std::int64_t a, std::int64_t b) { return b % a == 0; }

double total_memory(const Estimate& e) { return e.memory_per_gpu_bytes.total; }

// Ranking: shorter step first; within 0.1 % the one with less memory per GPU.
bool better(const Estimate& a, const Estimate& b) {
    double ta = a.performance.step_seconds, tb = b.performance.step_seconds;
    if (std::fabs(ta - tb) > 1e-3 * std::min(ta, tb)) return ta < tb;
    return total_memory(a) < total_memory(b);
}

double factor_value(const Estimate& e, PlanFactor f) {
    const auto& p = e.performance;
    const auto& b = p.breakdown_seconds;
    switch (f) {
        case PlanFactor::compute: return b.compute - p.recompute_seconds;
        case PlanFactor::recompute: return p.recompute_seconds;
        case PlanFactor::tensor_parallel: return b.tensor_parallel;
        case PlanFactor::pipeline_bubble: return b.pipeline_bubble;
        case PlanFactor::pipeline_p2p: return b.pipeline_p2p;
        case PlanFactor::data_parallel: return b.data_parallel;
        case PlanFactor::zero: return b.zero;
        case PlanFactor::optimizer_step: return b.optimizer_step;
        case PlanFactor::memory_headroom: return e.headroom_bytes;
    }
    return 0;
}

void explain_against(Plan& plan, const Estimate& reference) {
    // The two time factors that differ most, then the memory headroom difference.
    PlanReason time_reasons[plan_factor_count];
    int n = 0;
    for (int i = 0; i < plan_factor_count; ++i) {
        auto f = PlanFactor(i);
        if (f == PlanFactor::memory_headroom) continue;
        double delta = factor_value(plan.estimate, f) - factor_value(reference, f);
        if (delta != 0) time_reasons[n++] = {f, delta};
    }
    std::sort(time_reasons, time_reasons + n,
              [](const PlanReason& a, const PlanReason& b) { return std::fabs(a.delta) > std::fabs(b.delta); });
    plan.reason_count = 0;
    for (int i = 0; i < n && plan.reason_count < 2; ++i) plan.reasons[plan.reason_count++] = time_reasons[i];
    plan.reasons[plan.reason_count++] = {PlanFactor::memory_headroom,
                                         factor_value(plan.estimate, PlanFactor::memory_headroom) -
                                             factor_value(reference, PlanFactor::memory_headroom)};
}

struct Search {
    const PlanOptions& options;
    PlanResult& result;
    Scenario scenario;
    int keep;

    bool fits(const Estimate& e) const {
        return e.fits && e.headroom_bytes >= options.min_headroom_fraction * e.capacity_bytes;
    }

    void consider(const Estimate& e) {
        ++result.searched;
        if (!fits(e)) return;
        ++result.feasible;
        auto& plans = result.plans;
        if (int(plans.size()) >= keep && !better(e, plans.back().estimate)) return;
        auto at = std::find_if(plans.begin(), plans.end(), [&](const Plan& p) { return better(e, p.estimate); });
        if (int(plans.size()) >= keep) plans.pop_back();
        Plan plan;
        plan.scenario = scenario;
        plan.estimate = e;
        plans.insert(at, std::move(plan));
    }
};

}  // namespace

bool hold_plan_choice(PlanOptions& o, std::string_view name) {
    if (name == "tensor") o.search_tensor = false;
    else if (name == "recompute") o.search_recompute = false;
    else if (name == "sequence_parallel") o.search_sequence_parallel = false;
    else if (name == "zero_stage") o.search_zero_stage = false;
    else if (name == "interleave") o.search_interleave = false;
    else if (name == "offload_optimizer") o.search_offload = false;
    else return false;
    return true;
}

const char* plan_factor_id(PlanFactor f) {
    switch (f) {
        case PlanFactor::compute: return "compute";
        case PlanFactor::recompute: return "recompute";
        case PlanFactor::tensor_parallel: return "tensor_parallel";
        case PlanFactor::pipeline_bubble: return "pipeline_bubble";
        case PlanFactor::pipeline_p2p: return "pipeline_p2p";
        case PlanFactor::data_parallel: return "data_parallel";
        case PlanFactor::zero: return "zero";
        case PlanFactor::optimizer_step: return "optimizer_step";
        case PlanFactor::memory_headroom: return "memory_headroom";
    }
    return "unknown";
}

const char* plan_factor_label(PlanFactor f) {
    switch (f) {
        case PlanFactor::compute: return "compute";
        case PlanFactor::recompute: return "recomputation";
        case PlanFactor::tensor_parallel: return "TP communication";
        case PlanFactor::pipeline_bubble: return "pipeline bubble";
        case PlanFactor::pipeline_p2p: return "pipeline sends";
        case PlanFactor::data_parallel: return "DP communication";
        case PlanFactor::zero: return "ZeRO-3 communication";
        case PlanFactor::optimizer_step: return "optimizer step";
        case PlanFactor::memory_headroom: return "memory headroom";
    }
    return "";
}

PlanResult plan(const Scenario& base, const PlanOptions& options) {
    PlanResult result;
    Search search{options, result, base, std::max(1, options.max_results)};
    Scenario& sc = search.scenario;
    const auto& m = base.model;
    Layout r0 = resolve_layout(base);

    std::int64_t n = options.num_gpus > 0 ? options.num_gpus : base.parallel.num_gpus;
    std::int64_t batch = options.global_batch_size > 0 ? options.global_batch_size : r0.global_batch_size;
    result.num_gpus = n;
    result.global_batch_size = batch;
    sc.parallel.num_gpus = n;
    sc.training.global_batch_size = batch;
    sc.training.grad_accum_steps = 0;
    if (options.seq_len > 0) sc.training.seq_len = options.seq_len;
    if (n < 1 || batch < 1 || sc.training.seq_len < 1 ||
        (m.position_embedding == PositionEmbedding::learned && sc.training.seq_len > m.max_position_embeddings))
        return result;
    sc.hardware.throughput_model = ThroughputModel::predicted;
    result.plans.reserve(std::size_t(search.keep) + 1);

    std::int64_t kv_heads = r0.kv_heads;
    std::int64_t ffn = r0.ffn_hidden_size;
    std::int64_t ep = base.parallel.expert;
    // Lightest first: none; then op-level and selective (each a part of a full forward); full last.
    const Recompute modes[] = {Recompute::none, Recompute::ops, Recompute::selective, Recompute::full};

    // t divides the heads, so no more than them are tried (not every count up to N: 10^8 GPUs took seconds).
    for (std::int64_t t = 1; t <= n && t <= m.num_heads; ++t) {
        if (!divides(t, n) || !divides(t, m.num_heads) || !divides(t, kv_heads) || !divides(t, ffn)) continue;
        if (!options.search_tensor && t != base.parallel.tensor) continue;
        for (std::int64_t p = 1; p <= n / t && p <= m.layers; ++p) {
            if (!divides(p, n / t)) continue;
            std::int64_t dp = n / (t * p);
            if (!divides(ep, dp) || !divides(dp, batch)) continue;
            sc.parallel.tensor = t;
            sc.parallel.pipeline = p;
            sc.parallel.sequence_parallel = options.search_sequence_parallel ? t > 1 : base.parallel.sequence_parallel;
            int lowest_stage = dp > 1 ? 1 : 0;
            int highest_stage = dp == 1 ? 0 : (p > 1 ? 1 : 3);
            if (!options.search_zero_stage) lowest_stage = highest_stage = base.parallel.zero_stage;
            for (std::int64_t b = 1; b <= options.max_micro_batch && b * dp <= batch; b *= 2) {
                if (!divides(b * dp, batch)) continue;
                sc.training.micro_batch_size = b;
                bool fits_at_b = false;
                for (bool offload : {false, true}) {
                    if (!options.search_offload && offload != base.parallel.offload_optimizer) continue;
                    if (offload && options.search_offload && (fits_at_b || highest_stage == 0)) break;
                    sc.parallel.offload_optimizer = offload;
                    for (int stage = lowest_stage; stage <= highest_stage; ++stage) {
                        if (offload && stage == 0) continue;
                        sc.parallel.zero_stage = stage;
                        bool none_fits = false, partial_fits = false;
                        for (Recompute mode : modes) {
                            if (!options.search_recompute && mode != base.training.recompute) continue;
                            if (options.search_recompute) {
                                // Recomputing more only adds compute: skip modes a lighter one dominates.
                                if (mode == Recompute::selective && base.training.flash_attention) continue;
                                if (mode != Recompute::none && none_fits) break;
                                if (mode == Recompute::full && partial_fits) break;
                            }
                            sc.training.recompute = mode;
                            bool fits_mode = false;
                            for (std::int64_t v = 1; v <= options.max_interleave; ++v) {
                                if (v > 1 && (p == 1 || !divides(p * v, m.layers))) continue;
                                if (!options.search_interleave && v != base.parallel.interleave) continue;
                                sc.parallel.interleave = v;
                                Estimate e = estimate(sc);
                                search.consider(e);
                                fits_mode = fits_mode || search.fits(e);
                            }
                            if (fits_mode) fits_at_b = true;
                            if (fits_mode && mode == Recompute::none) none_fits = true;
                            if (fits_mode && (mode == Recompute::ops || mode == Recompute::selective)) partial_fits = true;
                        }
                    }
                }
                if (!fits_at_b) break;  // memory grows with b
            }
        }
    }
    auto& plans = result.plans;
    for (std::size_t i = 0; i < plans.size(); ++i) {
        plans[i].slowdown = plans[i].estimate.performance.step_seconds / plans[0].estimate.performance.step_seconds - 1.0;
        if (plans.size() > 1) explain_against(plans[i], i == 0 ? plans[1].estimate : plans[0].estimate);
    }
    return result;
}

std::vector<ScalingPoint> plan_scaling(const Scenario& base, const std::vector<std::int64_t>& gpu_counts,
                                       const PlanOptions& options) {
    std::vector<ScalingPoint> out;
    out.reserve(gpu_counts.size());
    PlanOptions one = options;
    one.max_results = 1;
    for (std::int64_t n : gpu_counts) {
        one.num_gpus = n;
        PlanResult r = plan(base, one);
        ScalingPoint point;
        point.num_gpus = n;
        if (!r.plans.empty()) {
            point.found = true;
            point.step_seconds = r.plans[0].estimate.performance.step_seconds;
            point.tokens_per_second = r.plans[0].estimate.performance.tokens_per_second;
            point.scenario = std::move(r.plans[0].scenario);
        }
        out.push_back(point);
    }
    return out;
}

}  // namespace vramcalc
