// Framework profiles: each sets the fields its stack fixes; the default scenario is the generic profile.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "core/fields.hpp"
#include "core/training/frameworks.hpp"

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

#include "codec/scenario_json.hpp"
#include "codec/link.hpp"

TEST_CASE("a framework travels in links and JSON like a preset: its profile, then the fields that differ") {
    Scenario s;
    apply_framework_profile(s, Framework::hf);
    s.training.recompute = Recompute::full;
    std::string link = codec::encode_link(s);
    CHECK(link == "v=3&fw=hf&rc=full");  // the profile's fields are implied by fw
    auto decoded = codec::decode_link(link);
    REQUIRE(decoded.ok());
    for (const auto& f : scenario_fields()) {
        INFO(f.path);
        CHECK(field_equal(f, decoded.scenario, s));
    }
    // An override of a profile field is written and read back.
    s.training.kernels = Kernels::compiled;
    CHECK(codec::encode_link(s) == "v=3&fw=hf&rc=full&kern=compiled");  // fields in table order
    CHECK(codec::decode_link(codec::encode_link(s)).scenario.training.kernels == Kernels::compiled);

    auto json = codec::scenario_from_json_text(R"({"training": {"framework": "torchtune", "loss_chunks": 16}})");
    REQUIRE(json.ok());
    CHECK(json.scenario.training.loss == Loss::chunked);  // from the profile
    CHECK(json.scenario.training.loss_chunks == 16);      // explicit field wins
}

TEST_CASE("framework_profile_fields lists exactly the fields a profile sets") {
    // A base where every field differs from anything a profile could set: numbers moved, choices
    // rotated, flags flipped, text changed.
    Scenario scrambled;
    for (const auto& f : scenario_fields()) {
        switch (f.kind) {
            case FieldKind::text: f.set_text(scrambled, f.get_text(scrambled) + "x"); break;
            case FieldKind::boolean: f.set(scrambled, f.get(scrambled) != 0 ? 0.0 : 1.0); break;
            case FieldKind::choice: f.set(scrambled, double((int(f.get(scrambled)) + 1) % int(f.choices.size()))); break;
            default: f.set(scrambled, f.get(scrambled) * 2 + 3); break;
        }
    }
    std::vector<Scenario> bases = {Scenario{}, scrambled};
    for (const auto& p : framework_profiles()) {
        Scenario b;
        apply_framework_profile(b, p.id);
        bases.push_back(b);
    }
    auto listed = [](std::string_view path) {
        for (const char* f : framework_profile_fields())
            if (path == f) return true;
        return false;
    };
    std::set<std::string> changed_somewhere;
    for (const auto& p : framework_profiles()) {
        for (const auto& base : bases) {
            Scenario applied = base;
            apply_framework_profile(applied, p.id);
            for (const auto& f : scenario_fields()) {
                if (field_equal(f, base, applied) || std::string_view(f.path) == "training.framework") continue;
                INFO(p.label << " changed " << f.path);
                CHECK(listed(f.path));
                changed_somewhere.insert(f.path);
            }
        }
    }
    for (const char* f : framework_profile_fields()) {
        INFO(f);
        CHECK(changed_somewhere.count(f) == 1);
        CHECK(find_field_by_path(f) != nullptr);
    }
}
