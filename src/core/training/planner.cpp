#include "core/training/planner.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/model/architecture.hpp"
#include "core/training/context_parallel.hpp"

namespace vramcalc {
namespace {

// Layouts the search prunes without estimating, each dominated in the model by one it keeps:
// - t > 1 without sequence parallelism: SP moves the same bytes (reduce-scatter + all-gather per
//   all-reduce) and divides the replicated activations and their elementwise work by t.
//   [Korthikanti et al. 2022, arXiv 2205.05198 §4.2.2]
// - ZeRO-0 with DP > 1: ZeRO-1 moves the same bytes (reduce-scatter + all-gather) and shards the
//   optimizer. [Rajbhandari et al. 2019, arXiv 1910.02054 §7.1]
// - with DP = 1, every stage but the lowest: sharding over one GPU divides nothing. That is stage 0
//   without offload and stage 1 with it (ZeRO-Offload trains on a single GPU, Ren et al. 2021,
//   arXiv 2101.06840; validate(): DeepSpeed offloads optimizer states only with ZeRO stages 1-3).
// - at one micro-batch size and ZeRO stage, recomputation once no recomputation fits, and full
//   recomputation once op-level or selective fits (each only adds compute); selective
//   recomputation with FlashAttention (no score tensor to drop).
// - optimizer offload while some layout without it fits at that micro-batch size.
// - ZeRO-2/3 with pipeline parallelism (DeepSpeed disallows it; Megatron shards only the optimizer).

bool divides(std::int64_t a, std::int64_t b) { return b % a == 0; }

// What every layout of a search holds fixed: the GPU count, the global batch and the model's widths.
struct LayoutSpace {
    std::int64_t gpus = 0, batch = 0;
    std::int64_t heads = 1, kv_heads = 1, ffn = 1, layers = 1, expert = 1;
    std::int64_t context = 1;      // cp of this part of the search (gpus is then N / cp); 1: gpus = N counts the cp ranks
    std::int64_t shard_group = 0;  // HSDP shard group held from the scenario (0: shard over all)
};

LayoutSpace layout_space(const Scenario& base, const PlanOptions& options) {
    Layout r = resolve_layout(base);
    LayoutSpace s;
    s.gpus = options.num_gpus > 0 ? options.num_gpus : base.parallel.num_gpus;
    s.batch = options.global_batch_size > 0 ? options.global_batch_size : r.global_batch_size;
    s.heads = base.model.num_heads;
    s.kv_heads = r.kv_heads;
    s.ffn = r.ffn_hidden_size;
    s.layers = base.model.layers;
    s.expert = base.parallel.expert;
    s.shard_group = base.parallel.shard_group;
    return s;
}

// Tensor-parallel degrees the search tries: t divides the GPUs, the heads, the KV heads and the FFN width.
bool tensor_allowed(const LayoutSpace& s, const Scenario& base, const PlanOptions& o, std::int64_t t) {
    if (!divides(t, s.gpus) || !divides(t, s.heads) || !divides(t, s.kv_heads) || !divides(t, s.ffn)) return false;
    return o.search_tensor || t == base.parallel.tensor;
}

// Pipeline degrees for a tensor degree: p ≤ layers, and DP = N/(t·p·cp) (s.gpus is N/cp) a
// multiple of the expert-parallel degree that divides the global batch (one micro-batch of 1 per
// rank at least).
bool pipeline_allowed(const LayoutSpace& s, const Scenario& base, const PlanOptions& o, std::int64_t t, std::int64_t p) {
    if (p > s.layers || !divides(p, s.gpus / t)) return false;
    // A held ZeRO-2/3 keeps p = 1, as the search does when it chooses the stage (DeepSpeed's
    // PipelineEngine rejects ZeRO stage 2 and 3); before, holding stage 3 let p > 1 through.
    if (!o.search_zero_stage && base.parallel.zero_stage >= 2 && p > 1) return false;
    std::int64_t dp = s.gpus / (t * p);
    if (!divides(s.expert, dp) || !divides(dp, s.batch)) return false;
    // HSDP: the held shard group must divide the DP·cp ranks (validate(): each replica a whole group).
    if (s.shard_group > 0 && !divides(s.shard_group, dp * std::max<std::int64_t>(1, s.context))) return false;
    std::int64_t v = base.parallel.interleave;
    return o.search_interleave || v == 1 || (p > 1 && divides(p * v, s.layers));
}

// Whether two scenarios of one search have the same layout (every field the search sets).
bool same_layout(const Scenario& a, const Scenario& b) {
    const auto &x = a.parallel, &y = b.parallel;
    return x.tensor == y.tensor && x.pipeline == y.pipeline && x.zero_stage == y.zero_stage &&
           x.sequence_parallel == y.sequence_parallel && x.interleave == y.interleave &&
           x.offload_optimizer == y.offload_optimizer && a.training.micro_batch_size == b.training.micro_batch_size &&
           a.training.recompute == b.training.recompute && x.context == y.context;
}

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
    const Scenario* own = nullptr;  // the base scenario's own layout, when it is one of this search
    bool own_seen = false;

    bool fits(const Estimate& e) const {
        return e.fits && e.headroom_bytes >= options.min_headroom_fraction * e.capacity_bytes;
    }

    void consider(const Estimate& e) {
        if (own && !own_seen && same_layout(scenario, *own)) own_seen = true;
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
    else if (name == "context") o.search_context = false;
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

namespace {

// Every ZeRO stage, micro-batch, recomputation mode, offload and interleave of one (t, p).
void search_layout(Search& search, const Scenario& base, const LayoutSpace& space, std::int64_t t, std::int64_t p) {
    const PlanOptions& options = search.options;
    Scenario& sc = search.scenario;
    // Lightest first: none; then op-level and selective (each a part of a full forward); full last.
    const Recompute modes[] = {Recompute::none, Recompute::ops, Recompute::selective, Recompute::full};
    const std::int64_t dp = space.gpus / (t * p), batch = space.batch;
    sc.parallel.tensor = t;
    sc.parallel.pipeline = p;
    sc.parallel.sequence_parallel = options.search_sequence_parallel ? t > 1 : base.parallel.sequence_parallel;
    // --tp-comm-overlap (the scenario's) where the layout allows it: t > 1 with SP (validate()).
    sc.parallel.tp_comm_overlap = base.parallel.tp_comm_overlap && t > 1 && sc.parallel.sequence_parallel;
    for (std::int64_t b = 1; b <= options.max_micro_batch && b * dp <= batch; b *= 2) {
        if (!divides(b * dp, batch)) continue;
        sc.training.micro_batch_size = b;
        bool fits_at_b = false;
        for (bool offload : {false, true}) {
            if (!options.search_offload && offload != base.parallel.offload_optimizer) continue;
            if (offload && options.search_offload && fits_at_b) break;
            sc.parallel.offload_optimizer = offload;
            // HSDP (a held shard group) shards ZeRO states: stage 1 at least (validate()).
            int lowest_stage = dp > 1 || offload || base.parallel.shard_group > 0 ? 1 : 0;
            int highest_stage = dp == 1 ? lowest_stage : (p > 1 ? 1 : 3);
            if (!options.search_zero_stage) lowest_stage = highest_stage = base.parallel.zero_stage;
            else if (base.parallel.offload_params)  // validate(): parameter offload needs ZeRO-3 (not with pipelining)
                lowest_stage = 3, highest_stage = p > 1 ? highest_stage : 3;
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
                        if (v > 1 && (p == 1 || !divides(p * v, space.layers))) continue;
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

// The base scenario's own layout as a candidate of this search (`searched`: the base with the
// search's GPU count, batch and sequence), so that the best plan is never worse than the scenario
// itself; none when the search is for another GPU count, batch or sequence, or it breaks a rule.
bool own_layout(const Scenario& base, const Scenario& searched, Scenario& own) {
    if (base.parallel.num_gpus != searched.parallel.num_gpus || base.training.seq_len != searched.training.seq_len ||
        resolve_layout(base).global_batch_size != searched.training.global_batch_size)
        return false;
    own = base;
    own.training.global_batch_size = searched.training.global_batch_size;
    own.training.grad_accum_steps = 0;
    own.hardware.throughput_model = ThroughputModel::predicted;
    return is_valid(own);
}

}  // namespace

PlanResult plan(const Scenario& base, const PlanOptions& options) {
    PlanResult result;
    Search search{options, result, base, std::max(1, options.max_results)};
    Scenario& sc = search.scenario;
    const LayoutSpace space = layout_space(base, options);
    const std::int64_t n = space.gpus, batch = space.batch;
    result.num_gpus = n;
    result.global_batch_size = batch;
    sc.parallel.num_gpus = n;
    sc.training.global_batch_size = batch;
    sc.training.grad_accum_steps = 0;
    if (options.seq_len > 0) sc.training.seq_len = options.seq_len;
    if (n < 1 || batch < 1 || sc.training.seq_len < 1 || sc.training.seq_len > longest_sequence(base.model))
        return result;
    sc.hardware.throughput_model = ThroughputModel::predicted;
    result.plans.reserve(std::size_t(search.keep) + 1);
    Scenario own;
    if (own_layout(base, sc, own)) search.own = &own;

    // Context-parallel degrees (long sequences): each leaves N / cp GPUs for t × p × DP.
    std::int64_t cps[7];
    const int cp_count = context_candidates(sc, n, options.search_context, cps);
    for (int i = 0; i < cp_count; ++i) {
        if (n % cps[i] != 0) continue;
        LayoutSpace cp_space = space;
        cp_space.gpus = n / cps[i];
        cp_space.context = cps[i];
        sc.parallel.context = cps[i];
        // t divides the heads, so no more than them are tried (not every count up to N: 10^8 GPUs took seconds).
        for (std::int64_t t = 1; t <= cp_space.gpus && t <= space.heads; ++t) {
            if (!tensor_allowed(cp_space, base, options, t)) continue;
            for (std::int64_t p = 1; p <= cp_space.gpus / t && p <= space.layers; ++p)
                if (pipeline_allowed(cp_space, base, options, t, p)) search_layout(search, base, cp_space, t, p);
        }
    }
    if (search.own && !search.own_seen) {
        sc = own;
        search.consider(estimate(own));
    }
    auto& plans = result.plans;
    for (std::size_t i = 0; i < plans.size(); ++i) {
        plans[i].slowdown = plans[i].estimate.performance.step_seconds / plans[0].estimate.performance.step_seconds - 1.0;
        if (plans.size() > 1) explain_against(plans[i], i == 0 ? plans[1].estimate : plans[0].estimate);
    }
    return result;
}

namespace {

// The first (t, p) the search tries, if any.
bool first_layout(const LayoutSpace& space, const Scenario& base, const PlanOptions& options, std::int64_t& t_out,
                  std::int64_t& p_out) {
    for (std::int64_t t = 1; t <= space.gpus && t <= space.heads; ++t) {
        if (!tensor_allowed(space, base, options, t)) continue;
        for (std::int64_t p = 1; p <= space.gpus / t && p <= space.layers; ++p) {
            if (!pipeline_allowed(space, base, options, t, p)) continue;
            t_out = t, p_out = p;
            return true;
        }
    }
    return false;
}

// Why no t × p × DP equals the GPU count (tensor_allowed, pipeline_allowed).
std::string no_layout_message(const LayoutSpace& space, const Scenario& base, const PlanOptions& options) {
    std::int64_t widest_t = 1;
    for (std::int64_t t = 1; t <= space.heads; ++t)
        if (divides(t, space.heads) && divides(t, space.kv_heads) && divides(t, space.ffn) &&
            (options.search_tensor || t == base.parallel.tensor))
            widest_t = t;
    const double most = double(widest_t) * double(space.layers) * double(space.batch);
    std::string rule = "tensor t dividing model.num_heads (" + std::to_string(space.heads) + "), the KV heads (" +
                       std::to_string(space.kv_heads) + ") and the FFN width (" + std::to_string(space.ffn) +
                       "), pipeline p at most model.layers (" + std::to_string(space.layers) +
                       "), data-parallel DP dividing the global batch (" + std::to_string(space.batch) + ")";
    if (space.expert > 1) rule += " and a multiple of parallel.expert (" + std::to_string(space.expert) + ")";
    if (double(space.gpus) > most)
        return "must be at most " + std::to_string(std::int64_t(most)) + " for this model and batch (got " +
               std::to_string(space.gpus) + "): every layout is t × p × DP GPUs with " + rule;
    return "has no layout: " + std::to_string(space.gpus) + " GPUs must be t × p × DP with " + rule;
}

}  // namespace

std::vector<ValidationIssue> plan_issues(const Scenario& base, const PlanOptions& options) {
    if (!layout_inputs_in_range(base)) return validate(base);  // names each field out of range
    const LayoutSpace space = layout_space(base, options);
    // The search's first layout stands for the layouts searched (one micro-batch per rank); the
    // rules are then validate()'s, with the predicted throughput model the planner uses.
    Scenario probe = base;
    probe.hardware.throughput_model = ThroughputModel::predicted;
    if (options.seq_len > 0) probe.training.seq_len = options.seq_len;
    std::vector<ValidationIssue> issues;
    std::int64_t t = 1, p = 1;
    const bool gpus_in_range = space.gpus >= 1 && space.batch >= 1;
    // The search's first context-parallel degree (the scenario's own where cp is held or the sequence
    // is short): its t × p × DP covers N / cp GPUs, as in plan().
    LayoutSpace first_space = space;
    if (gpus_in_range) {
        std::int64_t cps[7];
        if (context_candidates(probe, space.gpus, options.search_context, cps) > 0 && cps[0] >= 1 &&
            space.gpus % cps[0] == 0) {
            first_space.gpus = space.gpus / cps[0];
            first_space.context = cps[0];
            probe.parallel.context = cps[0];
        }
    }
    if (gpus_in_range && !first_layout(first_space, base, options, t, p)) {
        issues.push_back({options.num_gpus > 0 ? "options.num_gpus" : "parallel.num_gpus",
                          no_layout_message(space, base, options)});
        probe.parallel.num_gpus = 1, probe.parallel.expert = 1, probe.parallel.context = 1;  // the other rules, on one GPU
        t = p = 1;
    } else if (gpus_in_range) {
        probe.parallel.num_gpus = space.gpus;
    }
    probe.parallel.tensor = t;
    probe.parallel.pipeline = p;
    if (options.search_interleave) probe.parallel.interleave = 1;
    if (gpus_in_range) {
        probe.training.micro_batch_size = 1;
        probe.training.global_batch_size = space.batch;
        probe.training.grad_accum_steps = 0;
    }
    if (options.search_zero_stage && probe.parallel.offload_optimizer) probe.parallel.zero_stage = std::max(1, probe.parallel.zero_stage);
    if (options.search_zero_stage && probe.parallel.offload_params) probe.parallel.zero_stage = 3;  // the stage searched
    std::vector<ValidationIssue> rules = validate(probe);
    issues.insert(issues.end(), rules.begin(), rules.end());
    return issues;
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
