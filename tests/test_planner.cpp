// The layout planner: valid, fitting, ranked layouts; the published layouts of the validation
// suite are its top choice or predicted within 5 % of it; the search is exhaustive where it claims.
#include <catch2/catch.hpp>

#include "codec/codec.hpp"
#include "codec/plan_json.hpp"
#include "core/training/planner.hpp"
#include "core/model/presets.hpp"
#include "throughput_fit.hpp"

using namespace vramcalc;

namespace {

const std::filesystem::path data_dir = VRAMCALC_SOURCE_DIR "/tests/data/throughput";

Scenario llama70b_on(const char* gpu, std::int64_t gpus) {
    Scenario s;
    s.model = find_model_preset("llama-2-70b")->model;
    apply_gpu_preset(s.hardware, *find_gpu_preset(gpu));
    s.hardware.throughput_model = ThroughputModel::predicted;
    s.training.seq_len = 4096;
    s.training.global_batch_size = 1024;
    s.training.flash_attention = true;
    s.training.dropout = false;
    s.parallel.num_gpus = gpus;
    return s;
}

}  // namespace

TEST_CASE("every plan is a valid scenario that fits, ranked by step time") {
    Scenario s = llama70b_on("H100-SXM", 64);
    REQUIRE(validate(s).empty());
    PlanResult r = plan(s);
    REQUIRE(r.plans.size() == 10);
    CHECK(r.searched >= r.feasible);
    CHECK(r.feasible >= 10);
    for (std::size_t i = 0; i < r.plans.size(); ++i) {
        const auto& p = r.plans[i];
        INFO("plan " << i << ": " << codec::encode_link(p.scenario));
        CHECK(validate(p.scenario).empty());
        CHECK(p.estimate.fits);
        CHECK(p.scenario.parallel.num_gpus == 64);
        CHECK(p.estimate.layout.global_batch_size == 1024);
        // The stored estimate is the scenario's.
        CHECK(estimate(p.scenario).performance.step_seconds == p.estimate.performance.step_seconds);
        if (i > 0) CHECK(p.estimate.performance.step_seconds >= r.plans[i - 1].estimate.performance.step_seconds * 0.999);
        CHECK(p.reason_count >= 1);
    }
    CHECK(r.plans[0].slowdown == 0);
}

TEST_CASE("no layout fits: an empty, honest answer") {
    Scenario s = llama70b_on("RTX-4090", 4);  // 70B on 4 × 24 GB
    PlanResult r = plan(s);
    CHECK(r.plans.empty());
    CHECK(r.feasible == 0);
    CHECK(r.searched > 0);
}

TEST_CASE("the search is exhaustive over the layouts it claims (8 GPUs, brute force)") {
    // Brute force over the same space without pruning; the planner's best must match.
    Scenario s;
    s.model = find_model_preset("llama-2-7b")->model;
    s.hardware.throughput_model = ThroughputModel::predicted;
    s.training.seq_len = 4096;
    s.training.global_batch_size = 64;
    s.parallel.num_gpus = 8;
    PlanOptions options;
    options.min_headroom_fraction = 0;  // the estimate's own verdict, as below
    PlanResult r = plan(s, options);
    REQUIRE(!r.plans.empty());
    double best = 1e300;
    for (std::int64_t t : {1, 2, 4, 8})
        for (std::int64_t p : {1, 2, 4, 8}) {
            if (t * p > 8) continue;
            std::int64_t dp = 8 / (t * p);
            for (std::int64_t b = 1; b * dp <= 64; b *= 2)
                for (int zero = 0; zero <= 3; ++zero)
                    for (Recompute rc : {Recompute::none, Recompute::ops, Recompute::selective, Recompute::full})
                        for (bool sp : {false, true})
                            for (std::int64_t v : {1, 2, 4, 8})
                                for (bool offload : {false, true}) {
                                    Scenario c = s;
                                    c.parallel.tensor = t;
                                    c.parallel.pipeline = p;
                                    c.parallel.zero_stage = zero;
                                    c.parallel.sequence_parallel = sp;
                                    c.parallel.interleave = v;
                                    c.parallel.offload_optimizer = offload;
                                    c.training.micro_batch_size = b;
                                    c.training.recompute = rc;
                                    if (!validate(c).empty()) continue;
                                    if (p > 1 && zero >= 2) continue;  // not offered (DeepSpeed disallows it)
                                    Estimate e = estimate(c);
                                    if (e.fits) best = std::min(best, e.performance.step_seconds);
                                }
        }
    CHECK_THAT(r.plans[0].estimate.performance.step_seconds, Catch::Matchers::WithinRel(best, 1e-9));
}

TEST_CASE("published layouts are the planner's top choice or within 5 % of it") {
    // Within each paper's own search space: t held at the GPUs of a node as the papers fix it
    // ("tensor model parallelism should generally be used up to degree g when using g-GPU servers",
    // arXiv 2104.04473 §5.4, Takeaway #1), and its recomputation mode, sequence parallelism and ZeRO
    // setting; p, DP, micro-batch and interleaving searched.
    std::vector<std::string> problems;
    auto cases = throughput_cases::load(data_dir, problems);
    REQUIRE(problems.empty());
    int checked = 0;
    for (const auto& c : cases) {
        if (c.partly_specified || c.scenario.parallel.zero_stage == 3) continue;  // ZeRO-3 rows: see below
        if (!c.planner_check) continue;  // the published layout is not representable (the case says why)
        PlanOptions options;
        options.search_tensor = false;
        options.search_recompute = false;
        options.search_sequence_parallel = false;
        options.search_zero_stage = false;
        options.search_offload = false;
        options.search_interleave = false;
        PlanResult r = plan(c.scenario, options);
        REQUIRE(!r.plans.empty());
        double best = r.plans[0].estimate.performance.step_seconds;
        double published = estimate(c.scenario).performance.step_seconds;
        INFO(c.id << ": published layout " << published << " s, planner's best " << best << " s ("
                  << codec::encode_link(r.plans[0].scenario) << ")");
        CHECK(published <= 1.05 * best);
        ++checked;
    }
    CHECK(checked >= 20);
}

TEST_CASE("issue 25.7: for every published run with a stated layout, reported ones and CP included, the planner's first choice is the published layout or within 5 % of it") {
    // The run's GPU count and its constraints: t, recomputation, SP, ZeRO stage, offload,
    // interleaving and context parallelism held at the published values (the run's framework and
    // recipe fix them), FP8 and HSDP kept; p, DP and the micro-batch searched.
    std::vector<std::string> problems;
    auto cases = throughput_cases::load(data_dir, problems, true);
    REQUIRE(problems.empty());
    int checked = 0, context = 0;
    for (const auto& c : cases) {
        if (c.partly_specified || !c.planner_check || !c.not_evaluated.empty()) continue;
        INFO(c.id);
        PlanOptions options;
        for (const char* held : {"tensor", "recompute", "sequence_parallel", "zero_stage", "offload_optimizer", "interleave", "context"})
            REQUIRE(hold_plan_choice(options, held));
        options.min_headroom_fraction = 0;  // the run ran: the estimate's own verdict, no safety margin
        REQUIRE(plan_issues(c.scenario, options).empty());
        PlanResult r = plan(c.scenario, options);
        const Estimate own = estimate(c.scenario);
        if (r.plans.empty()) {
            WARN(c.id << ": nothing fits in the estimate (the published layout: " << own.memory_per_gpu_bytes.total / 1e9
                      << " GB of " << own.capacity_bytes / 1e9 << ")");
            CHECK(!own.fits);
            continue;
        }
        double best = r.plans[0].estimate.performance.step_seconds;
        double published = own.performance.step_seconds;
        INFO(c.id << ": published layout " << published << " s, planner's first choice " << best << " s ("
                  << codec::encode_link(r.plans[0].scenario) << ")");
        CHECK(validate(r.plans[0].scenario).empty());
        CHECK(published <= 1.05 * best);
        ++checked;
        if (c.scenario.parallel.context > 1) ++context;
    }
    CHECK(checked >= 100);
    CHECK(context >= 10);
}

TEST_CASE("HSDP: every layout the planner returns keeps the shard group dividing DP·cp, with ZeRO ≥ 1") {
    // Llama-2-7B on 16 A100s sharded inside groups of 8 (fms-fsdp's HSDP): a layout with DP·cp = 4
    // (t·p = 4) cannot hold shard groups of 8; before, the planner estimated and returned such layouts.
    Scenario s = llama70b_on("A100-80GB", 16);
    s.model = find_model_preset("llama-2-7b")->model;
    s.training.global_batch_size = 64;
    s.parallel.zero_stage = 3;
    s.parallel.zero_impl = ZeroImpl::fsdp;
    s.parallel.shard_group = 8;
    REQUIRE(validate(s).empty());
    PlanOptions options;
    options.max_results = 1000;
    PlanResult r = plan(s, options);
    REQUIRE(!r.plans.empty());
    for (const auto& p : r.plans) {
        INFO(codec::encode_link(p.scenario));
        CHECK(validate(p.scenario).empty());
    }
}

TEST_CASE("ZeRO-3 without model parallelism is not what the planner picks for 175B at 1,536 A100s") {
    // arXiv 2104.04473 §5.2: PTD-P beats ZeRO-3 by 70 % at the larger counts.
    std::vector<std::string> problems;
    auto cases = throughput_cases::load(data_dir, problems);
    for (const auto& c : cases) {
        if (c.id != "narayanan2021-table2-zero3-174.6B-1536") continue;
        PlanOptions options;
        options.search_recompute = false;
        options.search_sequence_parallel = false;
        PlanResult r = plan(c.scenario, options);
        REQUIRE(!r.plans.empty());
        CHECK(r.plans[0].scenario.parallel.zero_stage < 3);
        CHECK(r.plans[0].scenario.parallel.tensor * r.plans[0].scenario.parallel.pipeline > 1);
        CHECK(estimate(c.scenario).performance.step_seconds > 1.5 * r.plans[0].estimate.performance.step_seconds);
    }
}

TEST_CASE("reasons: the largest differences from the best plan, by cause") {
    Scenario s = llama70b_on("A100-80GB", 64);
    PlanResult r = plan(s);
    REQUIRE(r.plans.size() >= 2);
    auto cause = [](const Estimate& e, PlanFactor f) {
        const auto& b = e.performance.breakdown_seconds;
        switch (f) {
            case PlanFactor::compute: return b.compute - e.performance.recompute_seconds;
            case PlanFactor::recompute: return e.performance.recompute_seconds;
            case PlanFactor::tensor_parallel: return b.tensor_parallel;
            case PlanFactor::pipeline_bubble: return b.pipeline_bubble;
            case PlanFactor::pipeline_p2p: return b.pipeline_p2p;
            case PlanFactor::data_parallel: return b.data_parallel;
            case PlanFactor::zero: return b.zero;
            case PlanFactor::optimizer_step: return b.optimizer_step;
            case PlanFactor::memory_headroom: return e.headroom_bytes;
        }
        return 0.0;
    };
    for (std::size_t i = 0; i < r.plans.size(); ++i) {
        const auto& p = r.plans[i];
        const Estimate& reference = (i == 0 ? r.plans[1] : r.plans[0]).estimate;
        REQUIRE(p.reason_count >= 1);
        CHECK(p.reasons[std::size_t(p.reason_count - 1)].factor == PlanFactor::memory_headroom);
        for (int k = 0; k < p.reason_count; ++k) {
            const auto& reason = p.reasons[std::size_t(k)];
            CHECK_THAT(reason.delta, Catch::Matchers::WithinAbs(cause(p.estimate, reason.factor) -
                                                                    cause(reference, reason.factor), 1e-6));
            if (k > 0 && reason.factor != PlanFactor::memory_headroom)
                CHECK(std::fabs(reason.delta) <= std::fabs(p.reasons[std::size_t(k - 1)].delta));
        }
    }
}

TEST_CASE("plan JSON: the documented shape") {
    Scenario s = llama70b_on("H100-SXM", 64);
    PlanOptions options;
    options.max_results = 3;
    auto j = codec::plan_to_json(plan(s, options));
    REQUIRE(j["plans"].size() == 3);
    CHECK(j["searched"].get<std::int64_t>() >= j["feasible"].get<std::int64_t>());
    for (const auto& p : j["plans"]) {
        for (const char* key : {"layout", "memory_per_gpu_bytes", "fits", "performance", "days", "cost", "link", "reasons"})
            CHECK(p.contains(key));
        auto decoded = codec::decode_link(p["link"].get<std::string>());
        CHECK(decoded.ok());
        CHECK(decoded.scenario.parallel.tensor == p["layout"]["tensor"].get<std::int64_t>());
        CHECK(estimate(decoded.scenario).performance.step_seconds == p["performance"]["step_seconds"].get<double>());
    }
}

TEST_CASE("scaling chart: the best step time falls as GPUs are added (fixed global batch)") {
    Scenario s = llama70b_on("H100-SXM", 64);
    auto points = plan_scaling(s, {16, 32, 64, 128, 256});
    REQUIRE(points.size() == 5);
    for (std::size_t i = 1; i < points.size(); ++i) {
        INFO(points[i].num_gpus << " GPUs");
        REQUIRE(points[i].found);
        REQUIRE(points[i].step_seconds > 0);
        CHECK(points[i].scenario.parallel.num_gpus == points[i].num_gpus);
        CHECK(estimate(points[i].scenario).performance.step_seconds == points[i].step_seconds);
        if (points[i - 1].step_seconds > 0) CHECK(points[i].step_seconds < points[i - 1].step_seconds);
    }
}

namespace {

// The CLI's `--model-preset llama-3-8b --gpu H100-SXM --num-gpus 1`: the defaults with the presets.
Scenario llama3_8b_on_one_h100() {
    Scenario s = current_presets().defaults();
    REQUIRE(apply_model_preset(s, "llama-3-8b"));
    apply_gpu_preset(s.hardware, *find_gpu_preset("H100-SXM"));
    s.parallel.num_gpus = 1;
    fit_sequence_to_model(s, nullptr);
    return s;
}

}  // namespace

TEST_CASE("issue 22.1: on one GPU the planner searches ZeRO 1-3 with optimizer offload (brute force)") {
    // Llama 3 8B (8.03 B parameters, Meta's model card) with mixed-precision AdamW needs
    // 16 bytes per parameter (Transformer Math 101): 128 GB, more than an H100's 80 GB. ZeRO-Offload
    // moves the 12 bytes of fp32 master and moments to the host (Ren et al. 2021, arXiv 2101.06840,
    // trained on one GPU), which DeepSpeed allows with ZeRO stages 1-3 only.
    Scenario s = llama3_8b_on_one_h100();
    REQUIRE(validate(s).empty());
    REQUIRE(plan_issues(s).empty());
    PlanOptions options;
    options.min_headroom_fraction = 0;  // the estimate's own verdict, as below
    PlanResult r = plan(s, options);
    REQUIRE(!r.plans.empty());
    CHECK(r.plans[0].scenario.parallel.offload_optimizer);
    CHECK(r.plans[0].scenario.parallel.zero_stage >= 1);
    double best = 1e300;
    const std::int64_t batch = resolve_layout(s).global_batch_size;
    for (std::int64_t b = 1; b <= batch && b <= 64; b *= 2)
        for (int zero = 0; zero <= 3; ++zero)
            for (Recompute rc : {Recompute::none, Recompute::ops, Recompute::selective, Recompute::full})
                for (bool offload : {false, true}) {
                    Scenario c = s;
                    c.hardware.throughput_model = ThroughputModel::predicted;
                    c.training.global_batch_size = batch;
                    c.training.grad_accum_steps = 0;
                    c.parallel.zero_stage = zero;
                    c.parallel.offload_optimizer = offload;
                    c.training.micro_batch_size = b;
                    c.training.recompute = rc;
                    if (!validate(c).empty()) continue;
                    Estimate e = estimate(c);
                    if (e.fits) best = std::min(best, e.performance.step_seconds);
                }
    REQUIRE(best < 1e300);
    CHECK_THAT(r.plans[0].estimate.performance.step_seconds, Catch::Matchers::WithinRel(best, 1e-9));
    // With the default 10 % headroom too, and the plan's own layout is a valid offloaded scenario.
    PlanResult safe = plan(s);
    REQUIRE(!safe.plans.empty());
    CHECK(validate(safe.plans[0].scenario).empty());
    CHECK(safe.plans[0].scenario.parallel.offload_optimizer);
}

TEST_CASE("issue 22.1: the best plan is never worse than the scenario itself when it fits") {
    // A micro-batch of 3 is outside the powers of two the search tries: the scenario's own layout
    // is a candidate too, so the answer is at least as fast.
    Scenario s;
    s.model = find_model_preset("llama-2-7b")->model;
    apply_gpu_preset(s.hardware, *find_gpu_preset("H100-SXM"));
    s.hardware.throughput_model = ThroughputModel::predicted;
    s.training.seq_len = 2048;
    s.training.flash_attention = true;
    s.parallel.num_gpus = 8;
    s.parallel.tensor = 2;
    s.parallel.sequence_parallel = true;
    s.training.micro_batch_size = 3;
    s.training.global_batch_size = 48;
    s.training.grad_accum_steps = 0;
    REQUIRE(validate(s).empty());
    Estimate own = estimate(s);
    REQUIRE(own.fits);
    REQUIRE(own.headroom_bytes >= 0.1 * own.capacity_bytes);
    PlanOptions options;
    options.search_recompute = false;  // a narrow search: held at the scenario's
    options.max_micro_batch = 2;
    options.max_results = 1000;  // every layout that fits
    PlanResult r = plan(s, options);
    REQUIRE(!r.plans.empty());
    CHECK(r.plans[0].estimate.performance.step_seconds <= own.performance.step_seconds * (1 + 1e-9));
    int own_layouts = 0;
    for (const auto& p : r.plans) own_layouts += p.scenario.training.micro_batch_size == 3;
    CHECK(own_layouts == 1);
    CHECK(r.feasible == std::int64_t(r.plans.size()));
    // A layout the search enumerates anyway (b = 2) is not counted twice.
    s.training.micro_batch_size = 2;
    PlanResult twice = plan(s, options);
    int same = 0;
    for (const auto& p : twice.plans)
        same += p.scenario.training.micro_batch_size == 2 && p.scenario.parallel.tensor == 2 &&
                p.scenario.parallel.pipeline == 1 && p.scenario.parallel.zero_stage == s.parallel.zero_stage &&
                !p.scenario.parallel.offload_optimizer && p.scenario.parallel.interleave == 1;
    CHECK(same == 1);
    CHECK(twice.searched == r.searched - 1);
}

TEST_CASE("issue 22.8: the planner's GPU-count rule, one for the CLI and the JS API") {
    Scenario s = llama3_8b_on_one_h100();
    const std::int64_t batch = resolve_layout(s).global_batch_size;
    // 7 GPUs: a valid layout exists (t = 1, p = 7 ≤ 32 layers, DP = 1), though the scenario's own
    // DP = 7 does not divide its batch.
    PlanOptions seven;
    seven.num_gpus = 7;
    CHECK(plan_issues(s, seven).empty());
    CHECK(plan(s, seven).searched > 0);
    Scenario on7 = s;
    on7.parallel.num_gpus = 7;
    CHECK(plan_issues(on7).empty());
    CHECK(plan(on7).searched == plan(s, seven).searched);
    // 10^6 GPUs: more than any layout uses (t ≤ 8 dividing 8 KV heads, p ≤ 32 layers, DP ≤ batch).
    PlanOptions million;
    million.num_gpus = 1'000'000;
    auto issues = plan_issues(s, million);
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].field == "options.num_gpus");
    CHECK(issues[0].message.find("must be at most " + std::to_string(8 * 32 * batch)) == 0);
    // 37 GPUs (a prime above the 32 layers that does not divide the batch): no layout.
    PlanOptions prime;
    prime.num_gpus = 37;
    REQUIRE(batch % 37 != 0);
    issues = plan_issues(s, prime);
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].message.find("has no layout: 37 GPUs must be t × p × DP") == 0);
    // The other rules are still the scenario's: a broken model is named as validate() names it.
    Scenario broken = on7;
    broken.model.num_heads = 30;
    CHECK(plan_issues(broken)[0].field == "model.hidden_size");
}
