// The inference planner (docs/serving.md §7): which GPU × tensor parallel × format × engine serve a
// model, ranked by cost per million output tokens. The cases follow from published sizes: a model's
// parameter count × the format's bytes against a GPU's memory.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "core/model/presets.hpp"
#include "core/serving/planner.hpp"

using namespace vramcalc;

namespace {

// A serving scenario: the model preset, vLLM, 8 k context, one sequence (the defaults but the model).
Scenario serving_scenario(const char* model) {
    Scenario s;
    apply_model_preset(s, model);
    s.workload = Workload::inference;
    s.inference.context_len = 8192;
    s.inference.concurrency = 1;
    return s;
}

ServingPlanResult plan_for(const Scenario& s, ServingPlanOptions o) {
    auto issues = serving_plan_issues(s, o);
    INFO((issues.empty() ? std::string() : issues.front().field + ": " + issues.front().message));
    REQUIRE(issues.empty());
    return serving_plan(s, o);
}

// Every row of a search on one GPU preset.
ServingPlanResult all_on(const Scenario& s, const char* gpu, ServingPlanOptions o = {}) {
    o.gpus = {gpu};
    o.max_results = 1000;
    return plan_for(s, o);
}

bool has_plan(const ServingPlanResult& r, WeightFormat f, std::int64_t t, std::int64_t p = 1) {
    return std::any_of(r.plans.begin(), r.plans.end(), [&](const ServingPlan& x) {
        return x.scenario.inference.weight_format == f && x.scenario.parallel.tensor == t && x.scenario.parallel.pipeline == p;
    });
}

}  // namespace

TEST_CASE("Llama-3.1-70B in bf16 needs two 80 GB GPUs, in 4-bit AWQ one", "[serving][planner]") {
    // 70,553,706,496 parameters (Meta model card) × 2 B = 141 GB of bf16 weights: more than one
    // H100's 79.6 GiB, half of it (70.6 GB = 65.7 GiB) fits. hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4:
    // "approximately 35 GiB of VRAM needed just to load the model checkpoint".
    ServingPlanResult r = all_on(serving_scenario("llama-3.1-70b"), "H100-SXM");
    REQUIRE_FALSE(r.plans.empty());
    CHECK_FALSE(has_plan(r, WeightFormat::bf16, 1));
    CHECK(has_plan(r, WeightFormat::bf16, 2));
    CHECK(has_plan(r, WeightFormat::awq, 1));
    // fp8: 70.6 GB of linears at 1 B + 4.2 GB of bf16 embedding and head = 67.8 GiB, under vLLM's
    // 0.9 × 79.6 = 71.6 GiB budget, but with its activation profile what is left holds less than one
    // 8k sequence's 2.5 GiB of KV (8192 × 80 layers × 8 KV heads × 128 × 2 × 2 B); two GPUs fit.
    CHECK_FALSE(has_plan(r, WeightFormat::fp8, 1));
    CHECK(has_plan(r, WeightFormat::fp8, 2));
    for (const auto& p : r.plans) {
        CHECK(p.scenario.hardware.gpu == "H100-SXM");
        // every row is the estimator's own verdict on that scenario
        Estimate again = estimate(p.scenario);
        CHECK(again.fits);
        CHECK(again.memory_per_gpu_bytes.total == p.estimate.memory_per_gpu_bytes.total);
    }
    const auto awq = std::find_if(r.plans.begin(), r.plans.end(), [](const ServingPlan& p) {
        return p.scenario.inference.weight_format == WeightFormat::awq && p.scenario.parallel.tensor == 1;
    });
    REQUIRE(awq != r.plans.end());
    CHECK(awq->estimate.inference.weights_total_bytes / bytes_per_gib == Approx(35).epsilon(0.1));
    CHECK(awq->bits_per_weight > 4.0);
    CHECK(awq->bits_per_weight < 4.6);
}

TEST_CASE("plans are ranked by cost per million output tokens from the presets' prices", "[serving][planner]") {
    Scenario s = serving_scenario("llama-3.1-8b");
    ServingPlanOptions o;
    o.max_results = 50;
    ServingPlanResult r = plan_for(s, o);
    REQUIRE(r.plans.size() == 50);
    CHECK(r.fitting >= r.meeting);
    CHECK(r.meeting >= 50);
    for (std::size_t i = 0; i < r.plans.size(); ++i) {
        const auto& p = r.plans[i];
        const GpuPreset* g = find_gpu_preset(p.scenario.hardware.gpu);
        REQUIRE(g != nullptr);
        // $/h of the replica over its output tokens per hour, per million
        const double cost = g->price_per_gpu_hour * p.gpus / (p.decode_tokens_per_second * 3600.0) * 1e6;
        CHECK(p.cost_per_million_output_tokens == Approx(cost).epsilon(1e-9));
        CHECK(p.gpus == double(p.scenario.parallel.tensor * p.scenario.parallel.pipeline));
        if (i > 0) CHECK(p.cost_per_million_output_tokens >= r.plans[i - 1].cost_per_million_output_tokens * (1 - 1e-3));
    }
}

TEST_CASE("the quality floor leaves out the GGUF types under 4 bits per weight", "[serving][planner]") {
    // TheBloke/Llama-2-7B-GGUF: Q3_K_M 3.30 GB, Q2_K 2.83 GB, Q4_0 3.83 GB for 6,738,415,616
    // parameters: 3.92, 3.36 and 4.55 bits per weight.
    Scenario s = serving_scenario("llama-2-7b");
    s.inference.context_len = 4096;
    s.inference.engine = Engine::llamacpp;
    ServingPlanOptions o;
    o.max_results = 1000;
    ServingPlanResult r = plan_for(s, o);
    CHECK(r.below_min_bits == std::vector<WeightFormat>{WeightFormat::gguf_q3_k_m, WeightFormat::gguf_q2_k});
    CHECK(has_plan(r, WeightFormat::gguf_q4_0, 1));
    for (const auto& p : r.plans) CHECK(p.bits_per_weight >= 4.0);
    const auto q4_0 = std::find_if(r.plans.begin(), r.plans.end(),
                                   [](const ServingPlan& p) { return p.scenario.inference.weight_format == WeightFormat::gguf_q4_0; });
    CHECK(q4_0->bits_per_weight == Approx(3.83e9 * 8 / 6738415616.0).epsilon(0.02));
    o.min_bits_per_weight = 3.5;  // lowered on purpose: Q3_K_M (3.92) comes back, Q2_K (3.36) stays out
    ServingPlanResult low = plan_for(s, o);
    CHECK(low.below_min_bits == std::vector<WeightFormat>{WeightFormat::gguf_q2_k});
    CHECK(std::any_of(low.plans.begin(), low.plans.end(),
                      [](const ServingPlan& p) { return p.scenario.inference.weight_format == WeightFormat::gguf_q3_k_m; }));
}

TEST_CASE("pipeline across nodes only when one node cannot hold the model", "[serving][planner]") {
    // Llama-3.1-405B: 405,853,388,800 parameters × 2 B = 812 GB of bf16 weights (756 GiB). Eight
    // H100s hold 8 × 79.6 = 637 GiB, so it takes two nodes (t 8 × p 2); eight H200s hold 1123 GiB.
    Scenario s = serving_scenario("llama-3.1-405b");
    ServingPlanOptions o;
    o.min_bits_per_weight = 16;
    ServingPlanResult h100 = all_on(s, "H100-SXM", o);
    CHECK_FALSE(has_plan(h100, WeightFormat::bf16, 8, 1));
    CHECK(has_plan(h100, WeightFormat::bf16, 8, 2));
    CHECK_FALSE(has_plan(h100, WeightFormat::bf16, 8, 4));  // p stops at the first that fits
    for (const auto& p : h100.plans) CHECK(p.nodes == 2);
    ServingPlanResult h200 = all_on(s, "H200", o);
    CHECK(has_plan(h200, WeightFormat::bf16, 8, 1));
    for (const auto& p : h200.plans) CHECK(p.scenario.parallel.pipeline == 1);
}

TEST_CASE("an aggregate tokens/s target raises the concurrency to the smallest that reaches it", "[serving][planner]") {
    Scenario s = serving_scenario("llama-3.1-8b");
    ServingPlanOptions o;
    o.min_tokens_per_second = 2000;
    o.gpus = {"H100-SXM"};
    o.max_results = 20;
    ServingPlanResult r = plan_for(s, o);
    REQUIRE_FALSE(r.plans.empty());
    for (const auto& p : r.plans) {
        CHECK(p.decode_tokens_per_second >= 2000);
        CHECK(p.estimate.fits);
        Scenario fewer = p.scenario;
        fewer.inference.concurrency -= 1;
        REQUIRE(fewer.inference.concurrency >= 1);
        CHECK(estimate(fewer).inference.speed.decode_tokens_per_second < 2000);
    }
}

TEST_CASE("nothing fits, or the target is out of reach: a message says which and what to change", "[serving][planner]") {
    // 405B parameters at 4 bits are 203 GB: no single GPU preset holds them (B200: 179 GiB).
    Scenario s = serving_scenario("llama-3.1-405b");
    ServingPlanOptions o;
    o.max_gpus = 1;
    ServingPlanResult none = plan_for(s, o);
    CHECK(none.plans.empty());
    CHECK(none.fitting == 0);
    CHECK(none.shortfall == ServingPlanShortfall::nothing_fits);
    CHECK(none.message.find("options.max_gpus") != std::string::npos);
    // A sequence cannot decode faster than its weights can be read: 16 GB of Llama-3.1-8B over
    // 8 TB/s (B200) is 2 ms, at most ~500 tokens/s; a million per sequence is out of reach.
    Scenario small = serving_scenario("llama-3.1-8b");
    ServingPlanOptions fast;
    fast.min_sequence_tokens_per_second = 1e6;
    ServingPlanResult r = plan_for(small, fast);
    CHECK(r.plans.empty());
    CHECK(r.shortfall == ServingPlanShortfall::target_unreached);
    CHECK(r.fitting > 0);
    CHECK(r.best_sequence_tokens_per_second > 0);
    CHECK(r.best_sequence_tokens_per_second < 1000);
    CHECK(r.message.find("options.min_sequence_tokens_per_second") != std::string::npos);
}

TEST_CASE("the planner's options and the scenario are checked, each problem named", "[serving][planner]") {
    Scenario s = serving_scenario("llama-3.1-8b");
    ServingPlanOptions o;
    o.min_tokens_per_second = -1;
    o.min_sequence_tokens_per_second = std::nan("");
    o.max_gpus = 0;
    o.min_bits_per_weight = 64;
    o.gpus = {"H100-SXM", "TPU-v9"};
    auto issues = serving_plan_issues(s, o);
    auto named = [&](const char* field) {
        return std::any_of(issues.begin(), issues.end(), [&](const ValidationIssue& i) { return i.field == field; });
    };
    CHECK(named("options.min_tokens_per_second"));
    CHECK(named("options.min_sequence_tokens_per_second"));
    CHECK(named("options.max_gpus"));
    CHECK(named("options.min_bits_per_weight"));
    CHECK(named("options.gpus"));
    CHECK(issues.size() == 5);
    o = {};
    o.min_tokens_per_second = 2e9;  // absurd: more than 10^9 tokens/s
    CHECK(serving_plan_issues(s, o).size() == 1);
    s.inference.context_len = 0;
    CHECK(serving_plan_issues(s, {}).front().field == "inference.context_len");
}

TEST_CASE("formats the engine has no kernel for on a GPU are not offered (vLLM's hardware table)", "[serving][planner]") {
    CHECK_FALSE(format_runs_on(Engine::vllm, WeightFormat::awq, GpuFamily::volta));
    CHECK(format_runs_on(Engine::vllm, WeightFormat::gptq, GpuFamily::volta));
    CHECK_FALSE(format_runs_on(Engine::vllm, WeightFormat::fp8, GpuFamily::volta));
    CHECK(format_runs_on(Engine::vllm, WeightFormat::fp8, GpuFamily::ampere));  // Marlin W8A16
    CHECK_FALSE(format_runs_on(Engine::vllm, WeightFormat::fp8, GpuFamily::cdna2));
    CHECK(format_runs_on(Engine::vllm, WeightFormat::fp8, GpuFamily::cdna3));
    CHECK_FALSE(format_runs_on(Engine::vllm, WeightFormat::awq, GpuFamily::cdna3));
    CHECK_FALSE(format_runs_on(Engine::trtllm, WeightFormat::bf16, GpuFamily::cdna3));
    CHECK(format_runs_on(Engine::llamacpp, WeightFormat::gguf_q4_k_m, GpuFamily::cdna3));
    ServingPlanResult r = all_on(serving_scenario("llama-3.1-8b"), "V100-32GB");
    REQUIRE_FALSE(r.plans.empty());
    for (const auto& p : r.plans) CHECK(p.scenario.inference.weight_format != WeightFormat::awq);
}

TEST_CASE("every engine when asked: llama.cpp and HF rows beside vLLM's", "[serving][planner]") {
    ServingPlanOptions o;
    o.all_engines = true;
    ServingPlanResult r = all_on(serving_scenario("llama-3.1-8b"), "RTX-4090", o);
    auto engine_seen = [&](Engine e) {
        return std::any_of(r.plans.begin(), r.plans.end(), [&](const ServingPlan& p) { return p.scenario.inference.engine == e; });
    };
    CHECK(engine_seen(Engine::vllm));
    CHECK(engine_seen(Engine::llamacpp));
    CHECK(engine_seen(Engine::hf));
    // 8.03 B × 2 B = 16.1 GB of bf16 weights fit a 24 GB card for every engine
    CHECK(has_plan(r, WeightFormat::bf16, 1));
}

TEST_CASE("vramcalc --workload inference --plan: text, --json, and errors named by flag", "[serving][planner][cli]") {
    using vramcalc::testing::run_cli;
    const std::string base = "--model-preset llama-3.1-70b --workload inference --plan --plan-gpus H100-SXM";
    auto text = run_cli(base + " --plan-top 3");
    CHECK(text.exit_code == 0);
    CHECK(text.out.find("$/M tokens") != std::string::npos);
    CHECK(text.out.find("H100-SXM") != std::string::npos);
    auto json = run_cli(base + " --plan-top 3 --json");
    REQUIRE(json.exit_code == 0);
    auto j = nlohmann::json::parse(json.out);
    CHECK(j["plans"].size() == 3);
    CHECK(j["plans"][0]["gpu"] == "H100-SXM");
    CHECK(j["plans"][0]["bits_per_weight"].get<double>() >= 4.0);
    CHECK(j["errors"].empty());
    // the same rows as the core's, cheapest first
    Scenario s = serving_scenario("llama-3.1-70b");
    ServingPlanOptions o;
    o.gpus = {"H100-SXM"};
    o.max_results = 3;
    ServingPlanResult r = serving_plan(s, o);
    CHECK(j["plans"][0]["cost_per_million_output_tokens"].get<double>() == r.plans[0].cost_per_million_output_tokens);
    auto nothing = run_cli("--model-preset llama-3.1-405b --workload inference --plan --plan-max-gpus 1");
    CHECK(nothing.exit_code == 0);
    CHECK(nothing.out.find("--plan-max-gpus") != std::string::npos);
    auto bad = run_cli(base + " --plan-tokens-per-second -3");
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("--plan-tokens-per-second") != std::string::npos);
    auto word = run_cli(base + " --plan-max-gpus lots");
    CHECK(word.exit_code == 2);
    CHECK(word.err.find("--plan-max-gpus: must be a number") != std::string::npos);
    auto training = run_cli("--model-preset llama-3.1-8b --plan-min-bits 3");
    CHECK(training.exit_code == 2);
    CHECK(training.err.find("add --workload inference --plan") != std::string::npos);
}
