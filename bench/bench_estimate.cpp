// How long one full estimate takes (target: <= 200 ns), plus validation and the link codec.
#include <benchmark/benchmark.h>

#include "codec/codec.hpp"
#include "core/analysis.hpp"
#include "core/estimate.hpp"
#include "core/training/planner.hpp"
#include "core/model/presets.hpp"
#include "core/serving/planner.hpp"
#include "bench_scenarios.hpp"

using namespace vramcalc;

namespace {

using bench::llama70b_3d;

void BM_Estimate(benchmark::State& state) {
    Scenario s = llama70b_3d();
    for (auto _ : state) {
        // Vary one input so the compiler cannot hoist the work out of the loop.
        benchmark::DoNotOptimize(s);
        Estimate e = estimate(s);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_Estimate);

// The same with the predicted throughput model (issue 12: estimate() stays <= 500 ns).
void BM_EstimatePredicted(benchmark::State& state) {
    Scenario s = llama70b_3d();
    s.hardware.throughput_model = ThroughputModel::predicted;
    for (auto _ : state) {
        benchmark::DoNotOptimize(s);
        Estimate e = estimate(s);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_EstimatePredicted);

// Serving (issue 24: an inference estimate <= 1 µs): Llama-3-70B, AWQ, vLLM on 2 GPUs, 32 × 8k.
void BM_EstimateInference(benchmark::State& state) {
    Scenario s = llama70b_3d();
    s.workload = Workload::inference;
    s.parallel.tensor = 2;
    s.parallel.pipeline = 1;
    s.inference.weight_format = WeightFormat::awq;
    s.inference.concurrency = 32;
    for (auto _ : state) {
        benchmark::DoNotOptimize(s);
        Estimate e = estimate(s);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_EstimateInference);

// The same as a GGUF on llama.cpp, whose recipe is decided layer by layer.
void BM_EstimateInferenceGguf(benchmark::State& state) {
    Scenario s = llama70b_3d();
    s.workload = Workload::inference;
    s.parallel.tensor = 1;
    s.parallel.pipeline = 1;
    s.inference.engine = Engine::llamacpp;
    s.inference.weight_format = WeightFormat::gguf_q4_k_m;
    for (auto _ : state) {
        benchmark::DoNotOptimize(s);
        Estimate e = estimate(s);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_EstimateInferenceGguf);

void BM_ValidateAndEstimate(benchmark::State& state) {
    Scenario s = llama70b_3d();
    for (auto _ : state) {
        benchmark::DoNotOptimize(s);
        Evaluation e = evaluate(s);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_ValidateAndEstimate);

void BM_EncodeLink(benchmark::State& state) {
    Scenario s = llama70b_3d();
    for (auto _ : state) benchmark::DoNotOptimize(codec::encode_link(s));
}
BENCHMARK(BM_EncodeLink);

void BM_DecodeLink(benchmark::State& state) {
    std::string link = codec::encode_link(llama70b_3d());
    for (auto _ : state) benchmark::DoNotOptimize(codec::decode_link(link));
}
BENCHMARK(BM_DecodeLink);

// The fit map: a square grid of micro-batch × sequence length (issue 5: must stay inside a frame).
void BM_FitGrid(benchmark::State& state) {
    Scenario s = llama70b_3d();
    auto n = std::size_t(state.range(0));
    std::vector<std::int64_t> bs(n), seqs(n);
    for (std::size_t i = 0; i < n; ++i) {
        bs[i] = std::int64_t(i + 1);
        seqs[i] = std::int64_t(128 * (i + 1));
    }
    std::vector<float> grid(n * n);
    for (auto _ : state) {
        fit_grid_into(s, SweepAxis::micro_batch_size, bs, SweepAxis::seq_len, seqs, grid);
        benchmark::DoNotOptimize(grid.data());
    }
    state.counters["cells"] = double(n * n);
}
BENCHMARK(BM_FitGrid)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond);

// The sweep charts: b, s, N, one line per ZeRO stage each, plus the largest fitting b and s.
void BM_AllSweeps(benchmark::State& state) {
    Scenario s = llama70b_3d();
    std::vector<SweepPoint> points(64);
    for (auto _ : state) {
        for (SweepAxis axis : {SweepAxis::micro_batch_size, SweepAxis::seq_len, SweepAxis::num_gpus}) {
            auto values = sweep_axis_values(s, axis, 64);
            for (int stage = 0; stage <= 3; ++stage) {
                Scenario z = s;
                z.parallel.zero_stage = stage;
                sweep_into(z, axis, values, std::span(points).first(values.size()));
            }
        }
        benchmark::DoNotOptimize(largest_fitting(s, SweepAxis::micro_batch_size, 1 << 16));
        benchmark::DoNotOptimize(largest_fitting(s, SweepAxis::seq_len, 1 << 22));
        benchmark::DoNotOptimize(points.data());
    }
}
BENCHMARK(BM_AllSweeps)->Unit(benchmark::kMicrosecond);

// The JS API's estimate() path, natively: scenario JSON text → decode + validate → estimate → JSON
// text, and its parts (what a wasm call costs on top of this is bench/js/api-bench.mjs's).
const std::string& default_scenario_text() {
    static const std::string text = codec::scenario_to_json(Scenario{}).dump();
    return text;
}

void BM_JsonParseScenarioText(benchmark::State& state) {
    for (auto _ : state) {
        nlohmann::json j;
        std::string problem;
        benchmark::DoNotOptimize(codec::parse_json_text(default_scenario_text(), j, problem));
        benchmark::DoNotOptimize(j);
    }
}
BENCHMARK(BM_JsonParseScenarioText);

// Issue 22.4: `{"model":` and N '[' (a hostile --config file) took 6.8 s and 3.8 GB for N = 60,000
// before the depth bound; now the scan stops at the 65th level, before parsing, whatever N.
void BM_DecodeDeeplyNested(benchmark::State& state) {
    const std::string text = "{\"model\":" + std::string(std::size_t(state.range(0)), '[');
    for (auto _ : state) benchmark::DoNotOptimize(codec::scenario_from_json_text(text));
}
BENCHMARK(BM_DecodeDeeplyNested)->Arg(60'000)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);

void BM_DecodeScenarioText(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(codec::scenario_from_json_text(default_scenario_text()));
}
BENCHMARK(BM_DecodeScenarioText);

void BM_EvaluationToJson(benchmark::State& state) {
    Scenario s;
    Evaluation ev = evaluate(s);
    for (auto _ : state) benchmark::DoNotOptimize(codec::evaluation_to_json(s, ev));
}
BENCHMARK(BM_EvaluationToJson);

void BM_EvaluationToJsonText(benchmark::State& state) {
    Scenario s;
    Evaluation ev = evaluate(s);
    for (auto _ : state) benchmark::DoNotOptimize(codec::evaluation_to_json(s, ev).dump());
}
BENCHMARK(BM_EvaluationToJsonText);

void BM_EstimateJsonTextRoundTrip(benchmark::State& state) {
    for (auto _ : state) {
        auto decoded = codec::scenario_from_json_text(default_scenario_text());
        benchmark::DoNotOptimize(codec::evaluation_to_json(decoded.scenario, evaluate(decoded.scenario), decoded.notes).dump());
    }
}
BENCHMARK(BM_EstimateJsonTextRoundTrip);

}  // namespace


// Times one planner search per iteration; `counter` reports how many candidates it estimated.
template <class Search>
void time_search(benchmark::State& state, const char* counter, Search search) {
    std::int64_t searched = 0;
    for (auto _ : state) {
        auto r = search();
        searched = r.searched;
        benchmark::DoNotOptimize(r);
    }
    state.counters[counter] = double(searched);
}

// The layout planner's full search (issue 12: ≤ 50 ms for 1,024 GPUs in wasm, ~2-3× native).
void BM_Plan(benchmark::State& state) {
    Scenario s;
    s.model = find_model_preset("llama-2-70b")->model;
    s.training.seq_len = 4096;
    s.training.global_batch_size = 1024;
    s.training.flash_attention = true;
    s.training.dropout = false;
    s.hardware.throughput_model = ThroughputModel::predicted;
    PlanOptions options;
    options.num_gpus = state.range(0);
    time_search(state, "layouts", [&] { return plan(s, options); });
}
BENCHMARK(BM_Plan)->Arg(8)->Arg(64)->Arg(1024)->Unit(benchmark::kMillisecond);

// The inference planner's default search (issue 24 item 8: interactive in the page, < 50 ms in wasm):
// Llama-3.1-70B, 8k × 1, vLLM's formats × every GPU preset × t 1-8 (arg 0); with all engines
// (arg 1); with an aggregate target of 2,000 decode tokens/s (arg 2).
void BM_PlanInference(benchmark::State& state) {
    Scenario s;
    apply_model_preset(s, "llama-3.1-70b");
    s.workload = Workload::inference;
    ServingPlanOptions options;
    options.all_engines = state.range(0) == 1;
    if (state.range(0) == 2) options.min_tokens_per_second = 2000;
    time_search(state, "candidates", [&] { return serving_plan(s, options); });
}
BENCHMARK(BM_PlanInference)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
