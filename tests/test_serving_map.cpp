// The serving fit map's grid (src/core/serving/serving_map.cpp): every cell says what the serving
// estimate says there, and the boundary sits where an engine's own log puts it.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "core/estimate.hpp"
#include "core/fields.hpp"
#include "core/model/presets.hpp"
#include "core/serving/serving_map.hpp"

using namespace vramcalc;

namespace {

Scenario llama3_8b_vllm_h100() {
    Scenario s;
    apply_model_preset(s, "llama-3-8b");
    s.workload = Workload::inference;
    s.hardware.memory_gib = 79.22;  // vLLM PR 10511's log: total_gpu_memory
    s.inference.engine = Engine::vllm;
    s.inference.context_len = 8192;
    s.inference.max_batched_tokens = 8192;
    return s;
}

}  // namespace

TEST_CASE("serving fit map: each cell is the serving estimate's verdict at that context and concurrency", "[serving][map]") {
    Scenario s = llama3_8b_vllm_h100();
    const auto contexts = serving_context_axis(s, 12);
    const auto concurrencies = serving_concurrency_axis(s, 53.0, 10);
    std::vector<float> grid(contexts.size() * concurrencies.size());
    serving_fit_grid_into(s, contexts, concurrencies, grid);
    for (std::size_t j = 0; j < concurrencies.size(); ++j)
        for (std::size_t i = 0; i < contexts.size(); ++i) {
            Scenario c = s;
            c.inference.context_len = contexts[i];
            c.inference.concurrency = concurrencies[j];
            Evaluation ev = evaluate(c);
            const float r = grid[j * contexts.size() + i];
            INFO("context " << contexts[i] << ", concurrency " << concurrencies[j] << ", ratio " << r);
            REQUIRE(ev.ok());
            CHECK((r <= 1.0f) == ev.estimate.fits);
            CHECK(r >= 0.0f);
        }
}

TEST_CASE("serving fit map: the boundary at 8k context is vLLM's reported pool (PR 10511, Llama-3-8B, H100)", "[serving][map]") {
    // The log: available_kv_cache_memory 53.29 GiB. Llama 3 8B (config.json): 32 layers, 8 KV heads,
    // head dim 128, bf16 → 2·8·128·2 B · 32 = 128 KiB per token; 8,192-token sequences: 53.29 GiB /
    // (8192 · 128 KiB) = 53.3 sequences. The estimate's pool is within 5 % of the log (that log counts
    // vLLM's start-up baseline as non-torch memory; test_serving_engines, docs/accuracy.md), so the
    // boundary lies between 0.95 · 53.3 = 50.6 and 1.05 · 53.3 = 56.0 sequences.
    Scenario s = llama3_8b_vllm_h100();
    const std::vector<std::int64_t> contexts = {8192};
    const std::vector<std::int64_t> concurrencies = {1, 49, 50, 56, 57, 200};
    std::vector<float> grid(concurrencies.size());
    serving_fit_grid_into(s, contexts, concurrencies, grid);
    CHECK(grid[0] < 0.05f);   // one sequence: 1/53 of the pool
    CHECK(grid[1] <= 1.0f);
    CHECK(grid[2] <= 1.0f);
    CHECK(grid[3] > 1.0f);
    CHECK(grid[4] > 1.0f);
    CHECK(grid[5] == Approx(200.0 / 53.3).epsilon(0.05));
}

TEST_CASE("serving fit map axes: log-spaced, distinct, with the user's value", "[serving][map]") {
    const auto v = serving_axis_values(256, 131072, 32000, 10);
    REQUIRE(v.front() == 256);
    REQUIRE(v.back() == 131072);
    CHECK(std::binary_search(v.begin(), v.end(), std::int64_t(32000)));
    for (std::size_t k = 1; k < v.size(); ++k) CHECK(v[k] > v[k - 1]);
    // 256 · 2^(9·k/9): the ten log-spaced values of 256…131072 are powers of two.
    CHECK(std::binary_search(v.begin(), v.end(), std::int64_t(4096)));
    const auto n = serving_axis_values(1, 16, 3, 40);
    CHECK(n.size() == 16);  // 1…16 has 16 distinct integers
}

TEST_CASE("fields a workload does not read are known (the page hides them)", "[serving][fields]") {
    CHECK(field_used_by("workload", Workload::inference));
    CHECK(field_used_by("model.layers", Workload::inference));
    CHECK(field_used_by("parallel.tensor", Workload::inference));
    CHECK(field_used_by("inference.context_len", Workload::inference));
    CHECK_FALSE(field_used_by("training.micro_batch_size", Workload::inference));
    CHECK_FALSE(field_used_by("parallel.zero_stage", Workload::inference));
    CHECK_FALSE(field_used_by("inference.context_len", Workload::training));
    CHECK(field_used_by("training.micro_batch_size", Workload::training));
    // Every field is read by at least one workload.
    for (const auto& f : scenario_fields())
        CHECK((field_used_by(f.path, Workload::training) || field_used_by(f.path, Workload::inference)));
}
