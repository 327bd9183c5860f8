#include "error_bands.hpp"

#include <array>
#include <cstring>
#include <string_view>

#include "core/results.hpp"

namespace vramcalc {
namespace {

// "A100-80GB" → "A100", "H100-SXM" stays: a trailing "-<digits>GB" names the memory, not the chip.
void copy_gpu_family(std::string_view gpu, char (&out)[sizeof(ErrorRegime::gpu)]) {
    if (auto dash = gpu.rfind('-'); dash != std::string_view::npos && gpu.size() > dash + 3 &&
                                    gpu.substr(gpu.size() - 2) == "GB") {
        bool digits = true;
        for (char c : gpu.substr(dash + 1, gpu.size() - dash - 3)) digits = digits && c >= '0' && c <= '9';
        if (digits) gpu = gpu.substr(0, dash);
    }
    std::size_t n = gpu.size() < sizeof(out) - 1 ? gpu.size() : sizeof(out) - 1;
    std::memcpy(out, gpu.data(), n);
    out[n] = '\0';
}

ModelSize size_bucket(double parameters) {
    if (parameters < 1e9) return ModelSize::below_1b;
    if (parameters < 1e10) return ModelSize::b1_to_10;
    if (parameters < 1e11) return ModelSize::b10_to_100;
    return ModelSize::above_100b;
}

bool matches(const ErrorBandRow& row, const ErrorBandRow& key) {
    auto same = [](std::int8_t want, std::int8_t have) { return want < 0 || want == have; };
    return row.level == key.level && (row.gpu == nullptr || std::strcmp(row.gpu, key.gpu) == 0) &&
           same(row.several_nodes, key.several_nodes) && same(row.stack, key.stack) && same(row.size, key.size) &&
           same(row.long_sequence, key.long_sequence);
}

bool is_time(ErrorFigure figure) {
    return figure == ErrorFigure::step_time || figure == ErrorFigure::tokens_per_second;
}

}  // namespace

ErrorRegime error_regime_of(const Scenario& sc, const Estimate& e) {
    ErrorRegime r;
    copy_gpu_family(sc.hardware.gpu, r.gpu);
    r.inference = sc.workload == Workload::inference;
    const double gpus = r.inference ? e.inference.gpus : double(sc.parallel.num_gpus);
    r.several_nodes = gpus > double(sc.hardware.gpus_per_node);
    r.stack = r.inference ? std::uint8_t(sc.inference.engine) : std::uint8_t(sc.training.framework);
    r.size = size_bucket(e.parameters.total);
    r.long_sequence = (r.inference ? sc.inference.context_len : sc.training.seq_len) >= long_sequence_tokens;
    r.predicted_time = sc.hardware.throughput_model == ThroughputModel::predicted;
    return r;
}

ErrorBandRow error_regime_key(const ErrorRegime& r, int level) {
    ErrorBandRow key{};
    key.level = std::int8_t(level);
    key.gpu = level <= 1 ? r.gpu : nullptr;
    key.several_nodes = std::int8_t(r.several_nodes);
    key.stack = level <= 2 ? std::int8_t(r.stack) : std::int8_t(-1);
    key.size = level == 0 ? std::int8_t(r.size) : std::int8_t(-1);
    key.long_sequence = level == 0 ? std::int8_t(r.long_sequence) : std::int8_t(-1);
    return key;
}

ErrorBand error_band(const ErrorRegime& regime, ErrorFigure figure, std::span<const ErrorBandRow> rows) {
    ErrorBand none;
    if (is_time(figure) && !regime.predicted_time) {
        none.applies = false;
        none.regime = "no band: the time follows the given TFLOP/s or MFU (hardware.throughput_model = fixed)";
        return none;
    }
    // One pass over the table: the first matching row of the lowest (finest) level wins.
    ErrorBandRow keys[error_regime_levels];
    for (int level = 0; level < error_regime_levels; ++level) keys[level] = error_regime_key(regime, level);
    const ErrorBandRow* best = nullptr;
    bool measured = false;
    for (const auto& row : rows) {
        if (row.figure != figure) continue;
        measured = true;
        if (row.cases < min_error_band_cases || row.level < 0 || row.level >= error_regime_levels) continue;
        if ((!best || row.level < best->level) && matches(row, keys[row.level])) best = &row;
    }
    if (best) return {best->low, best->high, best->median, best->cases, best->regime};
    static_assert(min_error_band_cases == 5, "the message below names the minimum");
    none.regime = measured ? "no band: fewer than 5 comparable held-out cases, even at one node vs several"
                           : "no band: no held-out measurement of this figure";
    return none;
}

ErrorBand error_band(const ErrorRegime& regime, ErrorFigure figure) {
    // The table's rows from each figure's first to its last, found once: a band reads only those.
    struct Range {
        std::size_t first = 0, end = 0;
    };
    static const auto ranges = [] {
        std::array<Range, error_figure_count> r{};
        const auto rows = measured_error_bands();
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto f = std::size_t(rows[i].figure);
            if (f >= r.size()) continue;
            if (r[f].end == 0) r[f].first = i;
            r[f].end = i + 1;
        }
        return r;
    }();
    const auto f = std::size_t(figure);
    if (f >= ranges.size()) return error_band(regime, figure, {});
    return error_band(regime, figure, measured_error_bands().subspan(ranges[f].first, ranges[f].end - ranges[f].first));
}

std::span<const BandedOutput> banded_outputs() {
    using F = ErrorFigure;
    // Time to train and cost: step time × a constant (compute.seconds = steps × step_seconds).
    static constexpr BandedOutput table[] = {
        {"performance.step_seconds", F::step_time, F::none},
        {"performance.tokens_per_second", F::tokens_per_second, F::none},
        {"compute.seconds", F::step_time, F::none},
        {"compute.cost", F::step_time, F::none},
        {"memory_per_gpu_bytes.peak_allocated", F::peak_allocated, F::none},
        {"memory_per_gpu_bytes.peak_reserved", F::peak_reserved, F::none},
        {"memory_per_gpu_bytes.total", F::device_total, F::serving_device_total},
        {"memory_per_gpu_bytes.weights", F::none, F::serving_weights},
        {"inference.kv_pool_tokens", F::none, F::kv_pool_tokens},
        {"performance.decode_tokens_per_second", F::none, F::decode_tokens_per_second},
        {"performance.prefill_tokens_per_second", F::none, F::prefill_tokens_per_second},
        {"performance.time_to_first_token_seconds", F::none, F::time_to_first_token},
    };
    return table;
}

const BandedOutput* find_banded_output(std::string_view path) {
    for (const auto& banded : banded_outputs())
        if (path == banded.path) return &banded;
    return nullptr;
}

ErrorBand output_error_band(const BandedOutput* banded, const Estimate& e) {
    ErrorFigure figure = !banded ? ErrorFigure::none : e.workload == Workload::inference ? banded->inference : banded->training;
    if (figure != ErrorFigure::none) return error_band(e.error_regime, figure);
    return {0, 0, 0, 0, "no band for this output", false};
}

ErrorBand output_error_band(std::string_view path, const Estimate& e) { return output_error_band(find_banded_output(path), e); }

}  // namespace vramcalc
