#include "analysis.hpp"

#include <algorithm>

#include "core/model/architecture.hpp"

namespace vramcalc {

const char* sweep_axis_id(SweepAxis axis) {
    switch (axis) {
        case SweepAxis::micro_batch_size: return "micro_batch_size";
        case SweepAxis::seq_len: return "seq_len";
        case SweepAxis::num_gpus: return "num_gpus";
        case SweepAxis::tensor: return "tensor";
        case SweepAxis::pipeline: return "pipeline";
        case SweepAxis::zero_stage: return "zero_stage";
        case SweepAxis::layers: return "layers";
    }
    return "";
}

const char* sweep_axis_label(SweepAxis axis) {
    switch (axis) {
        case SweepAxis::micro_batch_size: return "Micro-batch b";
        case SweepAxis::seq_len: return "Sequence length s";
        case SweepAxis::num_gpus: return "GPUs N";
        case SweepAxis::tensor: return "Tensor parallel t";
        case SweepAxis::pipeline: return "Pipeline parallel p";
        case SweepAxis::zero_stage: return "ZeRO stage";
        case SweepAxis::layers: return "Layers L";
    }
    return "";
}

std::int64_t sweep_axis_value(const Scenario& s, SweepAxis axis) {
    switch (axis) {
        case SweepAxis::micro_batch_size: return s.training.micro_batch_size;
        case SweepAxis::seq_len: return s.training.seq_len;
        case SweepAxis::num_gpus: return s.parallel.num_gpus;
        case SweepAxis::tensor: return s.parallel.tensor;
        case SweepAxis::pipeline: return s.parallel.pipeline;
        case SweepAxis::zero_stage: return s.parallel.zero_stage;
        case SweepAxis::layers: return s.model.layers;
    }
    return 0;
}

void set_sweep_axis(Scenario& s, SweepAxis axis, std::int64_t value) {
    if (s.training.global_batch_size > 0) {
        // Hold the micro-batches per step fixed; the global batch follows.
        s.training.grad_accum_steps = resolve_layout(s).grad_accum_steps;
        s.training.global_batch_size = 0;
    }
    switch (axis) {
        case SweepAxis::micro_batch_size: s.training.micro_batch_size = value; break;
        case SweepAxis::seq_len: s.training.seq_len = value; break;
        case SweepAxis::num_gpus: s.parallel.num_gpus = value; break;
        case SweepAxis::tensor: s.parallel.tensor = value; break;
        case SweepAxis::pipeline: s.parallel.pipeline = value; break;
        case SweepAxis::zero_stage: s.parallel.zero_stage = int(value); break;
        case SweepAxis::layers: s.model.layers = value; break;
    }
}

bool sweep_point_valid(const Scenario& s) { return is_valid(s); }

std::vector<std::int64_t> sweep_axis_values(const Scenario& s, SweepAxis axis, int max_points) {
    std::vector<std::int64_t> values;
    std::int64_t current = sweep_axis_value(s, axis);
    auto powers_of_two = [&](std::int64_t lo, std::int64_t hi) {
        for (std::int64_t v = lo; v <= hi && int(values.size()) < max_points; v *= 2) values.push_back(v);
    };
    auto ladder = [&](std::int64_t step, std::int64_t hi) {
        for (std::int64_t v = step; v <= hi && int(values.size()) < max_points; v += step) values.push_back(v);
    };
    switch (axis) {
        case SweepAxis::micro_batch_size: powers_of_two(1, std::max<std::int64_t>(64, current * 4)); break;
        case SweepAxis::seq_len: {
            std::int64_t hi = s.model.position_embedding == PositionEmbedding::learned
                                  ? s.model.max_position_embeddings
                                  : std::max<std::int64_t>(32768, current * 2);
            powers_of_two(128, hi);
            break;
        }
        case SweepAxis::num_gpus: {
            std::int64_t unit = s.parallel.tensor * s.parallel.pipeline;
            powers_of_two(unit, std::max<std::int64_t>(unit * 1024, current * 16));
            break;
        }
        case SweepAxis::tensor:
        case SweepAxis::pipeline:
            powers_of_two(1, axis == SweepAxis::tensor ? std::min<std::int64_t>(64, s.model.num_heads)
                                                       : std::min<std::int64_t>(128, s.model.layers));
            break;
        case SweepAxis::zero_stage: values = {0, 1, 2, 3}; break;
        case SweepAxis::layers: ladder(std::max<std::int64_t>(1, current / 8), current * 2); break;
    }
    if (std::find(values.begin(), values.end(), current) == values.end()) {
        values.push_back(current);
        std::sort(values.begin(), values.end());
    }
    return values;
}

void sweep_into(const Scenario& base, SweepAxis axis, std::span<const std::int64_t> values, std::span<SweepPoint> out) {
    std::size_t n = std::min(values.size(), out.size());
    Scenario s = base;
    for (std::size_t i = 0; i < n; ++i) {
        set_sweep_axis(s, axis, values[i]);
        SweepPoint& p = out[i];
        p.value = values[i];
        p.valid = sweep_point_valid(s);
        if (p.valid) {
            Estimate e = estimate(s);
            p.memory = e.memory_per_gpu_bytes;
            p.fits = e.fits;
        } else {
            p.memory = {};
            p.fits = false;
        }
    }
}

std::vector<SweepPoint> sweep(const Scenario& base, SweepAxis axis, std::span<const std::int64_t> values) {
    std::vector<SweepPoint> out(values.size());
    sweep_into(base, axis, values, out);
    return out;
}

void fit_grid_into(const Scenario& base, SweepAxis x_axis, std::span<const std::int64_t> xs, SweepAxis y_axis,
                   std::span<const std::int64_t> ys, std::span<float> out) {
    Scenario s = base;
    set_sweep_axis(s, x_axis, sweep_axis_value(base, x_axis));  // fixes grad accumulation once
    for (std::size_t y = 0; y < ys.size(); ++y) {
        set_sweep_axis(s, y_axis, ys[y]);
        for (std::size_t x = 0; x < xs.size(); ++x) {
            std::size_t index = y * xs.size() + x;
            if (index >= out.size()) return;
            set_sweep_axis(s, x_axis, xs[x]);
            if (!sweep_point_valid(s)) {
                out[index] = invalid_cell;
                continue;
            }
            Estimate e = estimate(s);
            out[index] = float(e.memory_per_gpu_bytes.total / e.capacity_bytes);
        }
    }
}

std::int64_t largest_fitting(const Scenario& base, SweepAxis axis, std::int64_t upper) {
    Scenario s = base;
    auto fits = [&](std::int64_t v) {
        set_sweep_axis(s, axis, v);
        return sweep_point_valid(s) && estimate(s).fits;
    };
    if (axis == SweepAxis::seq_len) upper = std::min(upper, longest_sequence(base.model));
    if (upper < 1 || !fits(1)) return 0;
    std::int64_t lo = 1, hi = upper;  // fits(lo) holds
    if (fits(hi)) return hi;
    while (hi - lo > 1) {
        std::int64_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? lo : hi) = mid;
    }
    return lo;
}

}  // namespace vramcalc
