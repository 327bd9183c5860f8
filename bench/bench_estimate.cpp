// How long one full estimate takes (target: <= 200 ns), plus validation and the link codec.
#include <benchmark/benchmark.h>

#include "codec/codec.hpp"
#include "core/estimate.hpp"
#include "core/presets.hpp"

using namespace vramcalc;

namespace {

Scenario llama70b_3d() {
    Scenario s;
    s.model = find_model_preset("llama-2-70b")->model;
    s.parallel.num_gpus = 64;
    s.parallel.tensor = 8;
    s.parallel.pipeline = 4;
    s.parallel.sequence_parallel = true;
    s.training.recompute = Recompute::selective;
    s.training.global_batch_size = 512;
    return s;
}

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

}  // namespace

BENCHMARK_MAIN();
