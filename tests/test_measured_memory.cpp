// Peak memory of publicly reported training runs whose memory was measured
// (tests/data/memory/measured_cases.json: every case quotes its source and says what was measured),
// compared with the output that measures the same thing: torch.cuda.max_memory_allocated →
// peak_allocated, max_memory_reserved → peak_reserved, nvidia-smi → total. docs/accuracy.md
// lists the per-case errors.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "codec/codec.hpp"

using namespace vramcalc;

namespace {

nlohmann::json load_cases() {
    std::ifstream in(std::string(VRAMCALC_SOURCE_DIR) + "/tests/data/memory/measured_cases.json");
    REQUIRE(in.good());
    return nlohmann::json::parse(in);
}

double predicted(const MemoryBreakdown& m, const std::string& kind) {
    if (kind == "allocated") return m.peak_allocated;
    if (kind == "reserved") return m.peak_reserved;
    if (kind == "device_total") return m.total;
    FAIL("unknown measured kind " << kind);
    return 0;
}

// Grade A/B cases state (or pin through recipe files) every setting; C cases infer one of them.
// nvidia-smi readings also hold whatever the caching allocator kept over the whole run and memory
// outside PyTorch, so they get a wider band than the allocator's own peaks.
double tolerance(const std::string& grade, const std::string& kind) {
    double band = kind == "device_total" ? 0.20 : 0.15;
    return grade == "C" ? 2.0 * band : band;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

TEST_CASE("measured peak memory of public training runs") {
    auto data = load_cases();
    std::vector<double> graded_errors;
    int evaluated = 0;
    for (const auto& c : data.at("cases")) {
        std::string id = c.at("id");
        INFO(id);
        auto decoded = codec::scenario_from_json(c.at("scenario"));
        for (const auto& issue : decoded.issues) INFO(issue.field << ": " << issue.message);
        REQUIRE(decoded.ok());
        Estimate e = estimate(decoded.scenario);
        for (const char* key : {"measured", "measured_secondary"}) {
            if (!c.contains(key)) continue;
            const auto& m = c.at(key);
            std::string kind = m.at("kind");
            double measured = m.at("bytes");
            double error = (predicted(e.memory_per_gpu_bytes, kind) - measured) / measured;
            INFO(key << " " << kind << ": measured " << measured / bytes_per_gib << " GiB, predicted "
                     << predicted(e.memory_per_gpu_bytes, kind) / bytes_per_gib << " GiB, error " << error * 100 << " %");
            if (c.contains("known_gap") && key == std::string("measured")) {
                // A documented, unexplained gap: the error must stay inside the band the case states, so a
                // change in the model that moves it (either way) is noticed and the case re-examined.
                const auto& gap = c.at("known_gap");
                INFO("known gap: " << gap.at("reason").get<std::string>());
                CHECK(error >= gap.at("error_range").at(0).get<double>());
                CHECK(error <= gap.at("error_range").at(1).get<double>());
            } else {
                CHECK(std::fabs(error) <= tolerance(c.at("grade"), kind));
            }
            if (c.at("grade") != "C") graded_errors.push_back(std::fabs(error));
            ++evaluated;
        }
    }
    CHECK(evaluated >= 20);
    // The target of issue 9: median error ≤ 5 % on the cases whose settings are all stated.
    CHECK(median(graded_errors) <= 0.05);
}
