// Instructions per estimate() (docs/performance.md "BM_Estimate: instructions per estimate"):
// run under callgrind with N = 1 and N = 1001 and divide the difference by 1,000:
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null build-native/bench/vramcalc_estimate_icount N [default]
// Without "default" the scenario is BM_Estimate's (bench_estimate.cpp), else Scenario{}.
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "core/estimate.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 1;
    Scenario s;
    if (argc <= 2 || std::string_view(argv[2]) != "default") {
        s.model = find_model_preset("llama-2-70b")->model;
        s.parallel.num_gpus = 64;
        s.parallel.tensor = 8;
        s.parallel.pipeline = 4;
        s.parallel.sequence_parallel = true;
        s.training.recompute = Recompute::selective;
        s.training.global_batch_size = 512;
    }
    double sink = 0;
    for (int i = 0; i < n; ++i) {
        asm volatile("" : : "r"(&s) : "memory");  // the compiler may not hoist the estimate out of the loop
        Estimate e = estimate(s);
        asm volatile("" : : "r"(&e) : "memory");
        sink += e.memory_per_gpu_bytes.total;
    }
    std::printf("%g\n", sink);
}
