// The core's one-row-per-thing tables: memory components (core/results.hpp) and warnings
// (core/warnings.cpp). Each list is written once; these checks fail when a row goes missing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "codec/scenario_json.hpp"
#include "core/estimate.hpp"
#include "core/model/presets.hpp"
#include "core/warnings.hpp"

using namespace vramcalc;

namespace {

// Scenarios whose timelines have every component non-zero somewhere: full training with a foreach
// AdamW step (temporaries), and the same at ZeRO-3 with autocast copies.
std::vector<Scenario> timeline_scenarios() {
    std::vector<Scenario> out(1);
    Scenario llama;
    apply_model_preset(llama, "llama-2-7b");
    llama.parallel.num_gpus = 8;
    llama.parallel.zero_stage = 3;
    llama.parallel.zero3_live_params = 1e9;
    llama.training.precision = Precision::amp_bf16;
    out.push_back(llama);
    return out;
}

}  // namespace

TEST_CASE("memory components add up to each phase's total, in the order JSON lists them") {
    for (const Scenario& sc : timeline_scenarios()) {
        REQUIRE(validate(sc).empty());
        const Estimate e = estimate(sc);
        for (StepPhase phase : all_step_phases) {
            const PhaseMemory& p = e.memory_timeline.at(phase);
            double sum = 0;
            for (const auto& c : memory_components) sum += p.*c.bytes;
            CHECK(sum == p.total());  // same terms, same order: exactly equal
        }
        CHECK(e.memory_timeline.at(e.memory_per_gpu_bytes.peak_phase).total() == e.memory_per_gpu_bytes.peak_allocated);
    }
    // The codec's timeline keys are the table's ids, then "total".
    const auto keys = codec::memory_timeline_components();
    REQUIRE(keys.size() == std::size(memory_components) + 1);
    std::set<std::string> ids, labels;
    std::set<int> slots;
    for (std::size_t i = 0; i < std::size(memory_components); ++i) {
        CHECK(std::string(keys[i].key) == memory_components[i].id);
        ids.insert(memory_components[i].id);
        labels.insert(memory_components[i].label);
        slots.insert(memory_components[i].colour_slot);
    }
    CHECK(std::string(keys.back().key) == "total");
    CHECK(ids.size() == std::size(memory_components));
    CHECK(labels.size() == std::size(memory_components));
    CHECK(slots.size() == std::size(memory_components));  // one colour each
    CHECK(slots.count(overhead_colour_slot) == 0);
    CHECK(memory_colour_slots() == overhead_colour_slot + 1);
}

TEST_CASE("the warning table has every warning once, with a unique id and a message") {
    const auto table = warning_table();
    std::set<int> seen;
    std::set<std::string> ids;
    for (const auto& row : table) {
        seen.insert(int(row.warning));
        ids.insert(row.id);
        CHECK(std::string(warning_id(row.warning)) == row.id);
        CHECK(std::string(warning_message(row.warning)) == row.message);
        CHECK(std::string(row.message).size() > 20);
        CHECK(row.workloads != 0);
    }
    CHECK(seen.size() == table.size());
    CHECK(ids.size() == table.size());
    // Warning's last enumerator is engine_does_not_start: every value 0..it has a row.
    CHECK(int(seen.size()) == int(Warning::engine_does_not_start) + 1);
    CHECK(table.size() <= Warnings{}.items.size());
}

TEST_CASE("warnings are raised in table order") {
    // GPT-2 124M on 8 GPUs with 1B tokens, p = 2 with ZeRO-2 and one micro-batch per step: fewer
    // than 200B tokens, fewer than 20·P = 2.5B (Chinchilla), PP with ZeRO-2 (DeepSpeed), and the
    // bubble (1 micro-batch < 2 stages).
    Scenario sc;
    apply_model_preset(sc, "gpt2");
    sc.training.tokens = 1e9;
    sc.parallel.num_gpus = 8;
    sc.parallel.pipeline = 2;
    sc.parallel.zero_stage = 2;
    sc.training.global_batch_size = 0;
    sc.training.grad_accum_steps = 1;
    REQUIRE(validate(sc).empty());
    const Warnings w = estimate(sc).warnings;
    std::vector<std::string> got;
    for (int i = 0; i < w.count; ++i) got.push_back(warning_id(w.items[i]));
    std::vector<std::string> expected = {"few_tokens", "below_chinchilla", "pipeline_with_zero23", "pipeline_bubble_large"};
    std::vector<std::string> listed;
    for (const auto& id : got)
        if (std::find(expected.begin(), expected.end(), id) != expected.end()) listed.push_back(id);
    CHECK(listed == expected);
}
