// Compute, time and cost against Transformer Math 101 and published training budgets.
#include <catch2/catch.hpp>

#include "core/estimate.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;

TEST_CASE("GPT-3 175B on 300B tokens: C = 6PD ≈ 3.14e23 FLOPs, 3640 PF-days") {
    // Brown et al. 2020, Table D.1: 3.14E+23 FLOPs, 3.64E+03 PetaFLOP/s-days.
    Scenario s;
    s.model = find_model_preset("gpt3-175b")->model;
    s.training.tokens = 300e9;
    Estimate e = estimate(s);
    CHECK(e.compute.total_flops == Approx(3.14e23).epsilon(0.005));
    CHECK(e.compute.pflop_days == Approx(3640).epsilon(0.005));
    // Forward 2PD, backward 4PD.
    CHECK(e.compute.forward_flops == Approx(2 * e.parameters.total * 300e9));
    CHECK(e.compute.backward_flops == Approx(4 * e.parameters.total * 300e9));
}

TEST_CASE("time, GPU-hours, TFLOP-hours and cost follow T = C / tau") {
    Scenario s;
    s.model.params_override = 1e9;
    s.training.tokens = 1e12;  // C = 6e21
    s.parallel.num_gpus = 100;
    s.training.global_batch_size = 100;
    s.hardware.achieved_tflops = 150;
    s.hardware.price_per_gpu_hour = 2;
    Estimate e = estimate(s);
    double seconds = 6e21 / (100 * 150e12);  // 400,000 s
    CHECK(e.compute.total_flops == 6e21);
    CHECK(e.compute.seconds == Approx(seconds));
    CHECK(e.compute.days == Approx(seconds / 86400));
    CHECK(e.compute.gpu_hours == Approx(seconds * 100 / 3600));
    CHECK(e.compute.tflop_hours == Approx(6e21 / 1e12 / 3600));
    CHECK(e.compute.pflop_days == Approx(6e21 / (1e15 * 24 * 3600)));
    CHECK(e.compute.cost == Approx(e.compute.gpu_hours * 2));
    CHECK(e.compute.chinchilla_tokens == 20e9);  // D = 20·P
}

TEST_CASE("recomputation adds up to one forward pass") {
    Scenario s;
    s.model.params_override = 1e9;
    s.training.tokens = 1e9;
    s.training.recompute = Recompute::full;
    Estimate full = estimate(s);
    // Full recomputation: one more forward, 2PD + the attention core's forward 4·L·s·h·D (2PD ≤
    // C_forward ≤ 4PD, TM101). L = 32, s = 2048, h = 4096: 4·32·2048·4096 = 1,073,741,824 per token.
    CHECK(full.compute.model_flops == 6e18);
    CHECK(full.compute.total_flops == 6e18 + 2e18 + 1073741824.0 * 1e9);
    s.training.recompute = Recompute::selective;
    Estimate selective = estimate(s);
    // Selective: only the attention core's forward again (Korthikanti et al. 2022, §5).
    CHECK(selective.compute.total_flops == 6e18 + 1073741824.0 * 1e9);
}

TEST_CASE("attention FLOPs option: 6P + 12·L·s·h per token") {
    // Chowdhery et al. 2022 (PaLM), Appendix B.
    Scenario s;
    s.training.attention_flops = true;
    Estimate e = estimate(s);
    double expected = 6 * e.parameters.total + 12.0 * 32 * 2048 * 4096;
    CHECK(e.compute.flops_per_token == Approx(expected));
}

TEST_CASE("MFU instead of achieved throughput") {
    Scenario s;
    s.model.params_override = 1e9;
    s.training.tokens = 1e12;
    s.hardware.achieved_tflops = 0;
    s.hardware.mfu = 0.5;
    s.hardware.peak_tflops = 300;
    Estimate e = estimate(s);
    CHECK(e.compute.seconds == Approx(6e21 / (8 * 150e12)));
}

TEST_CASE("mixture of experts: compute uses active parameters") {
    Scenario s;
    s.model = find_model_preset("mixtral-8x7b")->model;
    s.training.tokens = 1e12;
    Estimate e = estimate(s);
    CHECK(e.compute.model_flops == Approx(6 * e.parameters.active * 1e12));
}

TEST_CASE("warnings from Transformer Math 101 and Chinchilla") {
    Scenario s;
    s.training.tokens = 100e9;  // < 200B
    s.hardware.achieved_tflops = 110;  // < 115 on an A100
    s.parallel.pipeline = 2;
    s.parallel.zero_stage = 2;
    Estimate e = estimate(s);
    CHECK(e.warnings.has(Warning::few_tokens));
    CHECK(e.warnings.has(Warning::low_throughput));
    CHECK(e.warnings.has(Warning::pipeline_with_zero23));

    Scenario healthy;
    healthy.training.tokens = 300e9;
    Estimate ok = estimate(healthy);
    CHECK_FALSE(ok.warnings.has(Warning::few_tokens));
    CHECK_FALSE(ok.warnings.has(Warning::low_throughput));
    CHECK_FALSE(ok.warnings.has(Warning::pipeline_with_zero23));
    for (int i = 0; i < ok.warnings.count; ++i) CHECK(std::string(warning_message(ok.warnings.items[i])).size() > 10);
}
