// vramcalc_gen_error_bands: runs the estimator on every held-out measured case of tests/data and
// writes the error-band table (a .cpp of constexpr rows, src/core/error_bands.hpp) that the
// outputs' `…_error_band` fields read. Cases in a fitted set are left out: a band made of them
// would flatter the model (docs/accuracy.md, "Error bands").
//   vramcalc_gen_error_bands --out FILE    write the table to FILE (the native builds, at build time)
//   vramcalc_gen_error_bands --write       rewrite src/core/error_bands_table.cpp (the web build's copy)
//   vramcalc_gen_error_bands --check       exit 1 when src/core/error_bands_table.cpp is stale
//   vramcalc_gen_error_bands --markdown    print the table of bands for docs/accuracy.md
// Exit 2: bad arguments, a data file that does not decode, or a file that cannot be written.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "error_band_samples.hpp"

namespace vramcalc::error_band_tool {
namespace {

const char* const figure_ids[] = {"step_time", "tokens_per_second", "peak_allocated", "peak_reserved",
                                  "device_total", "serving_weights", "kv_pool_tokens", "serving_device_total",
                                  "decode_tokens_per_second", "prefill_tokens_per_second", "time_to_first_token"};
static_assert(std::size(figure_ids) == error_figure_count);

const char* stack_name(const ErrorRegime& r) {
    static const char* const frameworks[] = {"Megatron", "DeepSpeed", "FSDP", "HF Trainer", "torchtune", "generic"};
    static const char* const engines[] = {"vLLM", "SGLang", "TensorRT-LLM", "llama.cpp", "HF Transformers"};
    if (r.inference) return r.stack < std::size(engines) ? engines[r.stack] : "?";
    return r.stack < std::size(frameworks) ? frameworks[r.stack] : "?";
}

std::string regime_name(const ErrorRegime& r, int level) {
    static const char* const sizes[] = {"< 1 B parameters", "1-10 B parameters", "10-100 B parameters",
                                        ">= 100 B parameters"};
    std::string nodes = r.several_nodes ? "several nodes" : "one node";
    if (level == 3) return nodes + (r.inference ? ", any GPU or engine" : ", any GPU or framework");
    if (level == 2) return nodes + ", " + stack_name(r) + ", any GPU";
    std::string name = std::string(r.gpu) + ", " + nodes + ", " + stack_name(r);
    if (level == 1) return name;
    return name + ", " + sizes[int(r.size)] + (r.long_sequence ? ", >= 16k tokens" : ", < 16k tokens");
}

// Linear interpolation between order statistics (numpy.percentile's default).
double percentile(const std::vector<double>& sorted, double p) {
    double h = (double(sorted.size()) - 1.0) * p;
    auto lo = std::size_t(std::floor(h));
    std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - double(lo)) * (sorted[hi] - sorted[lo]);
}

struct Group {
    ErrorFigure figure;
    int level;
    ErrorRegime regime;  // the first case's; only the fields of the level matter
    std::vector<double> errors;
};

using GroupKey = std::tuple<int, int, std::string, int, int, int, int>;

GroupKey key_of(ErrorFigure figure, const ErrorRegime& regime, int level) {
    ErrorBandRow k = error_regime_key(regime, level);
    return {int(figure), level, k.gpu ? std::string(k.gpu) : std::string(), k.several_nodes, k.stack, k.size,
            k.long_sequence};
}

std::vector<Group> groups_of(const std::vector<Sample>& samples) {
    std::map<GroupKey, Group> groups;
    for (const auto& s : samples)
        for (int level = 0; level < error_regime_levels; ++level) {
            auto [it, added] = groups.try_emplace(key_of(s.figure, s.regime, level), Group{s.figure, level, s.regime, {}});
            it->second.errors.push_back(s.error);
        }
    std::vector<Group> out;
    for (auto& [key, g] : groups) {
        // Too few for a band; kept at the coarsest level only, so the lookup can say so.
        if (int(g.errors.size()) < min_error_band_cases && g.level != error_regime_levels - 1) continue;
        std::sort(g.errors.begin(), g.errors.end());
        out.push_back(std::move(g));
    }
    return out;
}

std::string number(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4f", v);
    return std::string(buffer) == "-0.0000" ? "0.0000" : buffer;
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::string row_text(const Group& g) {
    ErrorBandRow k = error_regime_key(g.regime, g.level);
    auto field = [](std::int8_t v) { return std::to_string(int(v)); };
    return "    {ErrorFigure::" + std::string(figure_ids[int(g.figure)]) + ", " + std::to_string(g.level) + ", " +
           (k.gpu ? quoted(k.gpu) : "nullptr") + ", " + field(k.several_nodes) + ", " + field(k.stack) + ", " +
           field(k.size) + ", " + field(k.long_sequence) + ", " + number(percentile(g.errors, error_band_low_percentile)) +
           ", " + number(percentile(g.errors, error_band_high_percentile)) + ", " + number(percentile(g.errors, 0.5)) +
           ", " + std::to_string(g.errors.size()) + ", " + quoted(regime_name(g.regime, g.level)) + "},\n";
}

std::string table_source(const std::vector<Group>& groups, std::size_t samples) {
    std::string out =
        "// Generated by tools/gen_error_bands.cpp from the held-out cases of tests/data: do not edit.\n"
        "// Regenerate: build-check/tools/vramcalc_gen_error_bands --write (docs/accuracy.md, \"Error bands\").\n"
        "// " + std::to_string(samples) + " held-out comparisons; bands of regimes with at least " +
        std::to_string(min_error_band_cases) + " of them (fewer: kept\n// at the coarsest level as no band).\n"
        "#include \"core/error_bands.hpp\"\n\nnamespace vramcalc {\nnamespace {\n\n"
        "// figure, level, GPU, several nodes, framework/engine, size, long sequence, p10, p90, median, cases, regime\n"
        "constexpr ErrorBandRow rows[] = {\n";
    for (const auto& g : groups) out += row_text(g);
    if (groups.empty()) out += "    {ErrorFigure::none, 0, nullptr, -1, -1, -1, -1, 0, 0, 0, 0, \"\"},\n";
    out += "};\n\n}  // namespace\n\nstd::span<const ErrorBandRow> measured_error_bands() {\n";
    out += groups.empty() ? "    return {};\n" : "    return rows;\n";
    out += "}\n\n}  // namespace vramcalc\n";
    return out;
}

std::string percent(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%+.1f %%", 100.0 * v);
    return buffer;
}

std::string markdown(const std::vector<Group>& groups) {
    std::string out = "| figure | level | regime | held-out cases | p10 | median | p90 |\n|---|---:|---|---:|---:|---:|---:|\n";
    for (const auto& g : groups) {
        const bool band = int(g.errors.size()) >= min_error_band_cases;
        out += "| " + std::string(figure_ids[int(g.figure)]) + " | " + std::to_string(g.level) + " | " +
               regime_name(g.regime, g.level) + " | " + std::to_string(g.errors.size()) + " | " +
               (band ? percent(percentile(g.errors, error_band_low_percentile)) + " | " +
                           percent(percentile(g.errors, 0.5)) + " | " +
                           percent(percentile(g.errors, error_band_high_percentile))
                     : std::string("no band | | ")) +
               " |\n";
    }
    return out;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    return bool(out);
}

int usage() {
    std::cerr << "usage: vramcalc_gen_error_bands --out FILE | --write | --check | --markdown\n";
    return 2;
}

}  // namespace

int run(int argc, char** argv) {
    const std::string mode = argc >= 2 ? argv[1] : "";
    if (!((mode == "--out" && argc == 3) || (argc == 2 && (mode == "--write" || mode == "--check" || mode == "--markdown"))))
        return usage();
    std::vector<std::string> problems;
    const std::vector<Sample> samples = held_out_samples(VRAMCALC_SOURCE_DIR, problems);
    for (const auto& p : problems) std::cerr << "tests/data: " << p << "\n";
    if (!problems.empty()) return 2;
    const std::vector<Group> groups = groups_of(samples);
    if (mode == "--markdown") {
        std::cout << markdown(groups);
        return 0;
    }
    const std::string text = table_source(groups, samples.size());
    const std::string committed = std::string(VRAMCALC_SOURCE_DIR) + "/src/core/error_bands_table.cpp";
    if (mode == "--check") {
        if (read_file(committed) == text) return 0;
        std::cerr << "src/core/error_bands_table.cpp: stale (regenerate: vramcalc_gen_error_bands --write)\n";
        return 1;
    }
    const std::string path = mode == "--out" ? argv[2] : committed;
    if (mode == "--write" && read_file(path) == text) return 0;
    if (!write_file(path, text)) {
        std::cerr << path << ": could not be written\n";
        return 2;
    }
    return 0;
}

}  // namespace vramcalc::error_band_tool

int main(int argc, char** argv) { return vramcalc::error_band_tool::run(argc, argv); }
