// Framework profiles: each sets the fields its stack fixes; the default scenario is the generic profile.
#include <catch2/catch.hpp>

#include "core/fields.hpp"
#include "core/frameworks.hpp"

using namespace vramcalc;

TEST_CASE("the default scenario is the generic profile applied to itself") {
    Scenario defaults;
    Scenario applied = defaults;
    apply_framework_profile(applied, Framework::generic);
    for (const auto& f : scenario_fields()) {
        INFO(f.path);
        CHECK(field_equal(f, defaults, applied));
    }
}

TEST_CASE("profiles set what their stack fixes and leave layout choices alone") {
    Scenario s;
    s.parallel.zero_stage = 3;
    s.training.recompute = Recompute::full;
    apply_framework_profile(s, Framework::hf);
    CHECK(s.training.framework == Framework::hf);
    CHECK(s.training.kernels == Kernels::eager);
    CHECK(s.training.precision == Precision::amp_bf16);   // bf16=True autocasts an fp32 model
    CHECK(s.training.flash_attention);                     // attn_implementation "sdpa"
    CHECK(s.parallel.zero_stage == 3);
    CHECK(s.training.recompute == Recompute::full);
    apply_framework_profile(s, Framework::torchtune);
    CHECK(s.training.loss == Loss::chunked);
    CHECK(s.training.loss_chunks == 8);                    // CEWithChunkedOutputLoss default
    CHECK(s.training.precision == Precision::bf16);        // dtype: bf16, no fp32 copy
    apply_framework_profile(s, Framework::megatron);
    CHECK(s.training.kernels == Kernels::fused);
    CHECK(s.training.grad_dtype == GradDtype::fp32);       // bf16 accumulates main_grad in fp32
    apply_framework_profile(s, Framework::deepspeed);
    CHECK(s.parallel.zero3_live_params == 1e9);            // stage3_max_live_parameters default
    apply_framework_profile(s, Framework::fsdp);
    CHECK(s.parallel.zero_impl == ZeroImpl::fsdp);
    CHECK(s.parallel.zero3_live_params == 0);
}
