// Instructions per estimate() (docs/performance.md "BM_Estimate: instructions per estimate"):
// run under callgrind with N = 1 and N = 1001 and divide the difference by 1,000:
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null build-native/bench/vramcalc_estimate_icount N [default]
// Without "default" the scenario is BM_Estimate's (bench_estimate.cpp), else Scenario{}.
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "bench_scenarios.hpp"
#include "core/estimate.hpp"

using namespace vramcalc;

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 1;
    const Scenario s = argc > 2 && std::string_view(argv[2]) == "default" ? Scenario{} : bench::llama70b_3d();
    double sink = 0;
    for (int i = 0; i < n; ++i) {
        asm volatile("" : : "r"(&s) : "memory");  // the compiler may not hoist the estimate out of the loop
        Estimate e = estimate(s);
        asm volatile("" : : "r"(&e) : "memory");
        sink += e.memory_per_gpu_bytes.total;
    }
    std::printf("%g\n", sink);
}
