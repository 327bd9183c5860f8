// Ways out of "does not fit" (issue 21.3): every fix returned is valid, fits per estimate() and
// changes only its own knob; the QLoRA case is fixed by recomputation, and a model whose
// model states alone exceed the GPU is fixed only by sharding or fewer trainable parameters.
#include <catch2/catch.hpp>

#include "codec/scenario_json.hpp"
#include "core/estimate.hpp"
#include "core/training/finetune.hpp"
#include "core/training/fixes.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;

namespace {

Scenario preset_scenario(const char* model, const char* gpu, std::int64_t gpus, int zero) {
    Scenario s;
    REQUIRE(apply_model_preset(s, model));
    REQUIRE(apply_gpu_preset(s, gpu));
    s.parallel.num_gpus = gpus;
    s.parallel.zero_stage = zero;
    return s;
}

// The case: QLoRA r 16 on attention, Llama-3.1-8B, one RTX 4090, ZeRO-3 kept from an
// earlier multi-GPU setup, no recomputation.
Scenario qlora_on_4090() {
    Scenario s = preset_scenario("llama-3.1-8b", "RTX-4090", 1, 3);
    s.training.method = TrainingMethod::qlora;
    s.training.lora_rank = 16;
    s.training.lora_targets = parse_lora_targets("attention");
    s.training.recompute = Recompute::none;
    return s;
}

const Fix* find_fix(const std::vector<Fix>& fixes, FixKind kind) {
    for (const Fix& f : fixes)
        if (f.kind == kind) return &f;
    return nullptr;
}

void check_each_fix_fits(const Scenario& from, const std::vector<Fix>& fixes) {
    REQUIRE(fixes.size() <= 4);
    for (const Fix& f : fixes) {
        INFO(fix_id(f.kind) << ": " << describe_fix(f, from));
        REQUIRE(validate(f.scenario).empty());
        const Estimate e = estimate(f.scenario);
        CHECK(e.fits);
        CHECK(f.total_bytes == e.memory_per_gpu_bytes.total);
        CHECK(f.headroom_bytes == e.headroom_bytes);
        CHECK(f.total_bytes <= e.capacity_bytes);
    }
}

}  // namespace

TEST_CASE("QLoRA on one RTX 4090 without recomputation: recomputation is a fix that fits") {
    const Scenario s = qlora_on_4090();
    REQUIRE(validate(s).empty());
    REQUIRE_FALSE(estimate(s).fits);
    const auto fixes = fixes_that_fit(s);
    REQUIRE_FALSE(fixes.empty());
    check_each_fix_fits(s, fixes);
    const Fix* recompute = find_fix(fixes, FixKind::recompute);
    REQUIRE(recompute != nullptr);
    CHECK(recompute->scenario.training.recompute != Recompute::none);
    // Only the recomputation changed.
    Scenario back = recompute->scenario;
    back.training.recompute = s.training.recompute;
    CHECK(estimate(back).memory_per_gpu_bytes.total == estimate(s).memory_per_gpu_bytes.total);
    // Already QLoRA with one GPU: no method change and no ZeRO stage above 3 is offered.
    CHECK(find_fix(fixes, FixKind::method) == nullptr);
    CHECK(find_fix(fixes, FixKind::zero_stage) == nullptr);
}

TEST_CASE("A scenario that fits has no fixes") {
    Scenario s = qlora_on_4090();
    s.training.recompute = Recompute::full;
    REQUIRE(estimate(s).fits);
    CHECK(fixes_that_fit(s).empty());
}

TEST_CASE("Full training of a 7B model on 8 x A100-80GB without ZeRO: only sharding or adapters help") {
    // Mixed-precision AdamW keeps 16 bytes per parameter (Transformer Math 101): 6.74e9 × 16 B
    // = 100 GiB of model states on each GPU, more than its 80 GiB, whatever the activations.
    Scenario s = preset_scenario("llama-2-7b", "A100-80GB", 8, 0);
    REQUIRE(validate(s).empty());
    REQUIRE_FALSE(estimate(s).fits);
    const auto fixes = fixes_that_fit(s);
    check_each_fix_fits(s, fixes);
    CHECK(find_fix(fixes, FixKind::recompute) == nullptr);
    CHECK(find_fix(fixes, FixKind::flash_attention) == nullptr);
    CHECK(find_fix(fixes, FixKind::micro_batch) == nullptr);
    // ZeRO-1 shards the 12 bytes of fp32 states over 8 ranks: 2 + 2 + 12/8 = 5.5 B/param ≈ 34.5 GiB.
    const Fix* zero = find_fix(fixes, FixKind::zero_stage);
    REQUIRE(zero != nullptr);
    CHECK(zero->scenario.parallel.zero_stage == 1);
    CHECK(describe_fix(*zero, s) == "ZeRO stage 0 \xE2\x86\x92 1");
    // Smallest change first: the ZeRO stage comes before offload and adapters.
    CHECK(fixes.front().kind == FixKind::zero_stage);
}

TEST_CASE("A smaller micro-batch keeps the global batch through gradient accumulation") {
    Scenario s = preset_scenario("llama-2-7b", "A100-80GB", 8, 3);
    s.training.micro_batch_size = 16;
    s.training.seq_len = 4096;
    s.training.global_batch_size = 1024;
    REQUIRE(validate(s).empty());
    REQUIRE_FALSE(estimate(s).fits);
    const auto fixes = fixes_that_fit(s, 8);
    check_each_fix_fits(s, fixes);
    const Fix* mb = find_fix(fixes, FixKind::micro_batch);
    REQUIRE(mb != nullptr);
    CHECK(mb->scenario.training.micro_batch_size < 16);
    CHECK(resolve_layout(mb->scenario).global_batch_size == 1024);
}

// The ways to fit in the JSON of an estimate (CLI --json, the JS API's `fixes`): issue 21.3's
// case fits with recomputation; each record names its change, the changed fields with their new
// values and the memory per GPU with it, as estimate() computes it.
TEST_CASE("The estimate's JSON lists the ways to fit: QLoRA on one RTX 4090 fits with recomputation") {
    const Scenario s = qlora_on_4090();
    const Evaluation ev = evaluate(s);
    REQUIRE(ev.ok());
    REQUIRE_FALSE(ev.estimate.fits);
    const nlohmann::json fixes = codec::evaluation_to_json(s, ev, {}, false)["fixes"];
    REQUIRE(fixes.is_array());
    REQUIRE_FALSE(fixes.empty());
    CHECK(fixes.size() <= 4);
    const nlohmann::json* recompute = nullptr;
    for (const auto& f : fixes)
        if (f["id"] == "recompute") recompute = &f;
    REQUIRE(recompute != nullptr);
    const std::string mode = (*recompute)["fields"]["training.recompute"].get<std::string>();
    CHECK((mode == "full" || mode == "selective"));
    CHECK((*recompute)["fields"].size() == 1);  // only the recomputation changes
    CHECK((*recompute)["change"] == mode + " recomputation");
    Scenario fixed = s;
    fixed.training.recompute = mode == "full" ? Recompute::full : Recompute::selective;
    const Estimate e = estimate(fixed);
    CHECK(e.fits);
    CHECK((*recompute)["total_bytes"].get<double>() == e.memory_per_gpu_bytes.total);
    CHECK((*recompute)["headroom_bytes"].get<double>() == e.headroom_bytes);
    // An RTX 4090 has 24 GiB: what fits is below it.
    CHECK((*recompute)["total_bytes"].get<double>() < 24.0 * 1024 * 1024 * 1024);
    // A scenario that fits has none.
    const Evaluation fits = evaluate(fixed);
    CHECK(codec::evaluation_to_json(fixed, fits, {}, false)["fixes"] == nlohmann::json::array());
}
