// Fits the throughput model's free constants on the "fit" cases of tests/data/throughput/ and prints
// every case's error (fit and held-out) as the Markdown table of docs/accuracy.md.
//   build-native/tests/vramcalc_throughput_fit [tests/data/throughput]
// The fitted values are then written into the constants table of src/core/performance.cpp;
// test_throughput.cpp checks that the table still holds the optimum.
#include <algorithm>
#include <cstdio>

#include "throughput_fit.hpp"

using namespace vramcalc;

int main(int argc, char** argv) {
    std::filesystem::path dir = argc > 1 ? argv[1] : VRAMCALC_SOURCE_DIR "/tests/data/throughput";
    std::vector<std::string> problems;
    auto cases = throughput_cases::load(dir, problems);
    for (const auto& p : problems) std::fprintf(stderr, "problem: %s\n", p.c_str());
    if (!problems.empty()) return 1;

    auto start = throughput_constants(GpuFamily::ampere);
    auto fitted = throughput_fit::fit(cases, start);
    std::printf("objective (sum of squared log errors on the fit set): shipped %.5f, fitted %.5f\n",
                throughput_fit::objective(cases, start), throughput_fit::objective(cases, fitted));
    std::printf("compute_factor (ampere) = %.4f\ninter_node_efficiency = %.4f\noverlap_fraction = %.4f\n"
                "step_overhead_seconds = %.4f\n\n",
                fitted.compute_factor, fitted.inter_node_efficiency, fitted.overlap_fraction,
                fitted.step_overhead_seconds);

    std::printf("| case | set | measured s/step | predicted s/step | error |\n|---|---|---:|---:|---:|\n");
    for (const auto& c : cases) {
        Estimate e = estimate(c.scenario);  // the shipped constants
        double err = throughput_cases::relative_error(c, e);
        std::printf("| %s | %s%s | %.3f | %.3f | %+.1f %% |\n", c.id.c_str(), c.fit ? "fit" : "held-out",
                    c.partly_specified ? " (partly specified)" : "", c.measured_step_seconds,
                    e.performance.step_seconds, 100.0 * err);
    }
    auto summary = throughput_fit::summarize(cases);
    std::printf("\nfit: median |error| %.1f %%, max %.1f %% (%d cases)\n", 100 * summary.fit_median,
                100 * summary.fit_max, summary.fit_count);
    std::printf("held-out: median |error| %.1f %%, max %.1f %% (%d cases, %d partly specified)\n",
                100 * summary.held_out_median, 100 * summary.held_out_max, summary.held_out_count,
                summary.partly_specified_count);
    return 0;
}
