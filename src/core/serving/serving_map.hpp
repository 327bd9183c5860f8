// The serving fit map's grid: context length × concurrency, each cell the KV cache the
// sequences need over the KV memory the engine has (≤ 1: fits), as estimate_inference says.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/scenario.hpp"

namespace vramcalc {

inline constexpr float serving_invalid_cell = -1.0f;  // the scenario is not valid at this cell
inline constexpr float serving_ratio_cap = 64.0f;     // cells far over are stored as this

// Fills `out` (row-major, contexts across, concurrencies up, row 0 = first concurrency) with
// KV need / KV pool per cell; a cell fits exactly when its estimate's `fits` is true (≤ 1).
// `out.size()` must be contexts.size() · concurrencies.size(). No allocation.
void serving_fit_grid_into(const Scenario& base, std::span<const std::int64_t> contexts,
                           std::span<const std::int64_t> concurrencies, std::span<float> out);

// Axis values for the map: up to `count` distinct integers from lo to hi, evenly spaced on a
// log scale (tokens and sequences both span orders of magnitude), `current` always included.
std::vector<std::int64_t> serving_axis_values(std::int64_t lo, std::int64_t hi, std::int64_t current, int count);

// The ranges the page uses: context 256 … max(4·c, 32 Ki) (capped by learned positions),
// concurrency 1 … max(4·n, 2·max_concurrency, 16) (at most 4096).
std::vector<std::int64_t> serving_context_axis(const Scenario& s, int count);
std::vector<std::int64_t> serving_concurrency_axis(const Scenario& s, double max_concurrency, int count);

}  // namespace vramcalc
