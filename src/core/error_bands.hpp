// Error bands: how far a predicted figure was from measurement on held-out runs of the same regime
// (docs/accuracy.md, "Error bands"). The rows are generated at build time by
// tools/gen_error_bands.cpp, which runs the estimator on every held-out case of tests/data; this
// header has the regime of a scenario and the pure lookup regime → band.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/results.hpp"

namespace vramcalc {


// The predicted figures that carry a band. Time to train and cost are step time × a constant, so
// they carry the step-time band.
enum class ErrorFigure : std::uint8_t {
    step_time,          // performance.step_seconds (and compute.seconds, compute.cost)
    tokens_per_second,  // performance.tokens_per_second
    peak_allocated,     // memory_per_gpu_bytes.peak_allocated (torch.cuda.max_memory_allocated)
    peak_reserved,      // memory_per_gpu_bytes.peak_reserved (max_memory_reserved)
    device_total,       // memory_per_gpu_bytes.total, training (nvidia-smi)
    serving_weights,    // memory_per_gpu_bytes.weights, serving (the engine's weights line)
    kv_pool_tokens,     // inference.kv_pool_tokens
    serving_device_total,  // memory_per_gpu_bytes.total, serving (llama.cpp's CUDA0 buffers)
    decode_tokens_per_second,
    prefill_tokens_per_second,
    time_to_first_token,
    none,
};
inline constexpr int error_figure_count = int(ErrorFigure::none);

// Fewer held-out cases than this in a regime: the band falls back to a coarser regime.
inline constexpr int min_error_band_cases = 5;
// The band: these percentiles of signed relative error (predicted / measured − 1), linear
// interpolation between order statistics (numpy's default).
inline constexpr double error_band_low_percentile = 0.10;
inline constexpr double error_band_high_percentile = 0.90;

// Regime levels, finest first: 0 every dimension; 1 GPU, nodes, framework/engine; 2 nodes,
// framework/engine; 3 nodes only. The band comes from the finest level with enough cases.
inline constexpr int error_regime_levels = 4;


// A row of the generated table: one regime at one level, with its band. A key field of −1 (gpu:
// nullptr) matches anything. Rows with fewer than min_error_band_cases (coarsest level only) are
// no band: they record that the figure was measured there.
struct ErrorBandRow {
    ErrorFigure figure;
    std::int8_t level;
    const char* gpu;
    std::int8_t several_nodes;
    std::int8_t stack;
    std::int8_t size;
    std::int8_t long_sequence;
    double low, high, median;
    int cases;
    const char* regime;  // "H100, one node, FSDP"
};

struct ErrorBand {
    double low = 0, high = 0, median = 0;  // signed relative errors; 0 when cases is 0
    int cases = 0;                         // held-out cases the band is made of; 0: no band
    const char* regime = "";               // the regime's name, or why there is no band
    bool applies = true;                   // false: the figure is not a prediction here (no band to show)
};

ErrorRegime error_regime_of(const Scenario& scenario, const Estimate& estimate);

// The key of a regime at a level, as a row stores it (the generator groups cases by it).
ErrorBandRow error_regime_key(const ErrorRegime& regime, int level);

// The band of a figure for a regime, from `rows`: the finest level with a row; cases = 0 with the
// reason in `regime` when none matches (never an invented band).
ErrorBand error_band(const ErrorRegime& regime, ErrorFigure figure, std::span<const ErrorBandRow> rows);
// The same from the generated table.
ErrorBand error_band(const ErrorRegime& regime, ErrorFigure figure);
// The outputs that carry a band, with the figure each carries per workload (none: no band there).
struct BandedOutput {
    const char* path;  // the figure's output path; its band is at path + "_error_band"
    ErrorFigure training, inference;
};
std::span<const BandedOutput> banded_outputs();
// The band of the output at `path` in this estimate (applies = false: the output has none).
ErrorBand output_error_band(std::string_view path, const Estimate& estimate);
// The same by the row of banded_outputs() (find_banded_output(path); nullptr: no band).
const BandedOutput* find_banded_output(std::string_view path);
ErrorBand output_error_band(const BandedOutput* banded, const Estimate& estimate);

// The generated table (build folder, or src/core/error_bands_table.cpp in the web build).
std::span<const ErrorBandRow> measured_error_bands();

}  // namespace vramcalc
