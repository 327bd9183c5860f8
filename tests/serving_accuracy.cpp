// Prints docs/accuracy.md's serving table: every measured inference case
// (tests/data/inference/measured_cases.json) against the serving estimate, fitted and held-out
// cases apart, per-quantity median and largest |error|. Not a test: the bands are asserted in
// tests/test_measured_inference.cpp. Usage: vramcalc_serving_accuracy > table.md
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "inference_cases.hpp"

using namespace vramcalc::inference_cases;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n == 0 ? 0.0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Memory in GiB, the time to first token in ms, counts and speeds as they are.
double shown(const Comparison& c, double value) {
    if (c.quantity == "ttft") return 1000.0 * value;  // ms
    const bool bytes = c.quantity == "weights" || c.quantity == "kv_pool_bytes" || c.quantity == "kv_cache" ||
                       c.quantity == "compute_buffer" || c.quantity == "device_total";
    return bytes ? value / vramcalc::bytes_per_gib : value;
}

void print_cases(const std::vector<CaseResult>& results, const std::string& split) {
    std::printf("| case | engine | grade | quantity | measured | predicted | error |\n|---|---|---|---|---:|---:|---:|\n");
    for (const auto& r : results) {
        if (r.split != split || !r.not_expressible.empty()) continue;
        const std::string link = "[" + r.id + "](" + r.source_url.substr(0, r.source_url.find(' ')) + ")";
        if (r.reported_does_not_fit)
            std::printf("| %s | %s | %s | verdict | does not fit | %s | %s |\n", link.c_str(), r.engine.c_str(), r.grade.c_str(),
                        r.predicted_fits ? "fits" : "does not fit", r.predicted_fits ? "**missed**" : "called");
        for (const auto& c : r.comparisons)
            std::printf("| %s | %s | %s | %s | %.4g | %.4g | %+.1f %% |\n", link.c_str(), r.engine.c_str(), r.grade.c_str(),
                        c.quantity.c_str(), shown(c, c.measured), shown(c, c.predicted), 100 * c.error());
    }
}

void print_summary(const std::vector<CaseResult>& results, const std::string& split) {
    std::map<std::string, std::vector<double>> errors;
    int called = 0, reported = 0;
    for (const auto& r : results) {
        if (r.split != split || !r.not_expressible.empty()) continue;
        if (r.reported_does_not_fit) ++reported, called += r.predicted_fits ? 0 : 1;
        for (const auto& c : r.comparisons) errors[c.quantity].push_back(std::fabs(c.error()));
    }
    std::printf("| quantity | cases | median abs error | max abs error |\n|---|---:|---:|---:|\n");
    for (const auto& [q, e] : errors)
        std::printf("| %s | %zu | %.1f %% | %.1f %% |\n", q.c_str(), e.size(), 100 * median(e), 100 * *std::max_element(e.begin(), e.end()));
    std::printf("| \"does not fit\" called | %d of %d | | |\n", called, reported);
}

}  // namespace

int main() {
    const auto results = evaluate_all();
    for (const char* split : {"fit", "holdout"}) {
        std::printf("\n#### %s cases: summary\n\n", split == std::string("fit") ? "Fitted" : "Held-out");
        print_summary(results, split);
        std::printf("\n#### %s cases\n\n", split == std::string("fit") ? "Fitted" : "Held-out");
        print_cases(results, split);
    }
    std::printf("\n#### Cases the estimate cannot express\n\n| case | split | why |\n|---|---|---|\n");
    for (const auto& r : results)
        if (!r.not_expressible.empty())
            std::printf("| [%s](%s) | %s | %s |\n", r.id.c_str(), r.source_url.substr(0, r.source_url.find(' ')).c_str(),
                        r.split.c_str(), r.not_expressible.c_str());
    std::printf("\n#### Quantities the estimate cannot express (the case's other quantities are compared above)\n\n"
                "| case | split | quantity | why |\n|---|---|---|---|\n");
    for (const auto& r : results)
        for (const auto& [quantity, why] : r.quantities_not_expressible)
            std::printf("| [%s](%s) | %s | %s | %s |\n", r.id.c_str(), r.source_url.substr(0, r.source_url.find(' ')).c_str(),
                        r.split.c_str(), quantity.c_str(), why.c_str());
    int problems = 0;
    for (const auto& r : results)
        if (!r.decode_problem.empty()) std::fprintf(stderr, "%s: %s\n", r.id.c_str(), r.decode_problem.c_str()), ++problems;
    return problems ? 1 : 0;
}
