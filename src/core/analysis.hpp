// What-if analysis on top of estimate(): sweeps along one axis, a 2-D fit grid, and the largest
// value of an axis that still fits. Sweeps start from a valid Scenario and change one or two
// integer fields; each point is checked by every rule of validate() (is_valid: no messages, no
// allocation), so a grid of a few hundred × a few hundred cells stays well inside one frame (bench/).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "estimate.hpp"

namespace vramcalc {

enum class SweepAxis { micro_batch_size, seq_len, num_gpus, tensor, pipeline, zero_stage, layers };

inline constexpr SweepAxis all_sweep_axes[] = {SweepAxis::micro_batch_size, SweepAxis::seq_len,
                                               SweepAxis::num_gpus,         SweepAxis::tensor,
                                               SweepAxis::pipeline,         SweepAxis::zero_stage,
                                               SweepAxis::layers};

const char* sweep_axis_id(SweepAxis axis);     // "micro_batch_size"
const char* sweep_axis_label(SweepAxis axis);  // "Micro-batch b"
std::int64_t sweep_axis_value(const Scenario& scenario, SweepAxis axis);

// Sets one axis. The number of micro-batches per step (grad accumulation) is held fixed, so the
// global batch follows b and DP, as it does when one edits a launch script.
void set_sweep_axis(Scenario& scenario, SweepAxis axis, std::int64_t value);

// Whether a point of a sweep or grid is a valid scenario: is_valid(), i.e. validate() is empty.
bool sweep_point_valid(const Scenario& scenario);

// Axis values worth plotting: powers of two for b, N, t, p (and divisors for t, p), a linear
// ladder for s and L, 0–3 for ZeRO. At most `max_points` values, always including the current.
std::vector<std::int64_t> sweep_axis_values(const Scenario& scenario, SweepAxis axis, int max_points);

struct SweepPoint {
    std::int64_t value = 0;
    bool valid = false;
    MemoryBreakdown memory;  // per GPU, bytes
    bool fits = false;
};

// Fills `out` (same length as `values`). No allocation.
void sweep_into(const Scenario& base, SweepAxis axis, std::span<const std::int64_t> values, std::span<SweepPoint> out);
std::vector<SweepPoint> sweep(const Scenario& base, SweepAxis axis, std::span<const std::int64_t> values);

// Per-GPU total / capacity for every (x, y) cell, row-major with x fastest: out[y * xs.size() + x].
// Invalid cells get `invalid_cell`. No allocation.
inline constexpr float invalid_cell = -1.0f;
void fit_grid_into(const Scenario& base, SweepAxis x_axis, std::span<const std::int64_t> xs, SweepAxis y_axis,
                   std::span<const std::int64_t> ys, std::span<float> out);

// Largest value in [1, upper] of a monotone axis (micro_batch_size or seq_len) whose scenario
// fits; 0 when even 1 does not fit. Binary search: ~log2(upper) estimates.
std::int64_t largest_fitting(const Scenario& base, SweepAxis axis, std::int64_t upper);

}  // namespace vramcalc
