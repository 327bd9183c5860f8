// Sweeps, fit grid, largest fitting value and explain: values, monotonicity, boundaries.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/analysis.hpp"
#include "core/explain.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;

namespace {

Scenario llama7b_on(double memory_gib) {
    Scenario s;
    s.model = find_model_preset("llama-2-7b")->model;
    s.hardware.memory_gib = memory_gib;
    s.training.seq_len = 4096;
    s.training.flash_attention = true;
    s.training.dropout = false;
    return s;
}

}  // namespace

TEST_CASE("sweep over micro-batch: memory grows linearly in the activation term") {
    Scenario s = llama7b_on(80);
    std::vector<std::int64_t> bs = {1, 2, 4, 8};
    auto points = sweep(s, SweepAxis::micro_batch_size, bs);
    REQUIRE(points.size() == 4);
    for (const auto& p : points) CHECK(p.valid);
    // Model states do not depend on b; activations are proportional to b (b = 1 → 2 → 4 → 8).
    CHECK(points[1].memory.weights == points[0].memory.weights);
    CHECK(points[1].memory.activations == Approx(2 * points[0].memory.activations));
    CHECK(points[3].memory.activations == Approx(8 * points[0].memory.activations));
    for (std::size_t i = 1; i < points.size(); ++i) CHECK(points[i].memory.total > points[i - 1].memory.total);
}

TEST_CASE("sweep over GPUs per ZeRO stage reproduces the ZeRO paper's trend") {
    // Rajbhandari et al. 2019 Fig. 1 / Table 1: with ZeRO-3 model states fall as 1/N_d; ZeRO-0 stays flat.
    Scenario s;
    s.model.params_override = 7.5e9;
    s.training.precision = Precision::mixed_fp16;
    s.parallel.zero3_live_params = 0;
    std::vector<std::int64_t> gpus = {1, 4, 16, 64, 1024};
    for (int stage : {0, 3}) {
        s.parallel.zero_stage = stage;
        auto points = sweep(s, SweepAxis::num_gpus, gpus);
        for (std::size_t i = 0; i < points.size(); ++i) {
            auto states = points[i].memory.weights + points[i].memory.gradients + points[i].memory.optimizer;
            double expected = stage == 0 ? 16 * 7.5e9 : 16 * 7.5e9 / double(gpus[i]);
            CHECK(states == Approx(expected));
        }
    }
}

TEST_CASE("invalid sweep points are marked, not computed") {
    Scenario s;  // 32 heads, 8 GPUs
    std::vector<std::int64_t> ts = {1, 2, 3, 8, 16};
    auto points = sweep(s, SweepAxis::tensor, ts);
    CHECK(points[0].valid);
    CHECK(points[1].valid);
    CHECK_FALSE(points[2].valid);  // 8 GPUs not divisible by 3
    CHECK(points[3].valid);
    CHECK_FALSE(points[4].valid);  // 16 > 8 GPUs
}

TEST_CASE("largest micro-batch that fits is the boundary") {
    Scenario s = llama7b_on(80);
    std::int64_t best = largest_fitting(s, SweepAxis::micro_batch_size, 4096);
    REQUIRE(best >= 1);
    Scenario at = s, above = s;
    set_sweep_axis(at, SweepAxis::micro_batch_size, best);
    set_sweep_axis(above, SweepAxis::micro_batch_size, best + 1);
    CHECK(estimate(at).fits);
    CHECK_FALSE(estimate(above).fits);
    // Nothing fits on a tiny GPU.
    CHECK(largest_fitting(llama7b_on(4), SweepAxis::micro_batch_size, 4096) == 0);
}

TEST_CASE("longest sequence that fits is the boundary and respects learned positions") {
    Scenario s = llama7b_on(80);
    std::int64_t best = largest_fitting(s, SweepAxis::seq_len, 1 << 20);
    REQUIRE(best > 1);
    Scenario at = s, above = s;
    set_sweep_axis(at, SweepAxis::seq_len, best);
    set_sweep_axis(above, SweepAxis::seq_len, best + 1);
    CHECK(estimate(at).fits);
    CHECK_FALSE(estimate(above).fits);
    Scenario gpt2;
    gpt2.model = find_model_preset("gpt2")->model;
    gpt2.training.seq_len = 1024;
    CHECK(largest_fitting(gpt2, SweepAxis::seq_len, 1 << 20) == 1024);  // capped by n_positions
}

TEST_CASE("fit grid: ratio to capacity, invalid cells, crossing the boundary") {
    Scenario s = llama7b_on(80);
    std::vector<std::int64_t> bs = {1, 2, 4, 8, 16}, seqs = {512, 1024, 2048, 4096, 8192};
    std::vector<float> grid(bs.size() * seqs.size());
    fit_grid_into(s, SweepAxis::micro_batch_size, bs, SweepAxis::seq_len, seqs, grid);
    for (std::size_t y = 0; y < seqs.size(); ++y) {
        for (std::size_t x = 0; x < bs.size(); ++x) {
            Scenario cell = s;
            set_sweep_axis(cell, SweepAxis::seq_len, seqs[y]);
            set_sweep_axis(cell, SweepAxis::micro_batch_size, bs[x]);
            Estimate e = estimate(cell);
            CHECK(grid[y * bs.size() + x] == Approx(e.memory_per_gpu_bytes.total / e.capacity_bytes).epsilon(1e-6));
            if (x > 0) CHECK(grid[y * bs.size() + x] > grid[y * bs.size() + x - 1]);
        }
    }
    CHECK(grid.front() < 1.0f);  // b = 1, s = 512 fits
    CHECK(grid.back() > 1.0f);   // b = 16, s = 8192 does not
    std::vector<std::int64_t> ts = {1, 3}, ps = {1, 2};
    std::vector<float> layout(4);
    fit_grid_into(s, SweepAxis::tensor, ts, SweepAxis::pipeline, ps, layout);
    CHECK(layout[1] == invalid_cell);  // t = 3 does not divide 8 GPUs / 32 heads
    CHECK(layout[0] > 0);
}

TEST_CASE("axis values include the current value") {
    Scenario s;
    s.training.micro_batch_size = 3;
    s.training.global_batch_size = 24 * 8;
    auto values = sweep_axis_values(s, SweepAxis::micro_batch_size, 64);
    CHECK(std::find(values.begin(), values.end(), 3) != values.end());
    CHECK(std::is_sorted(values.begin(), values.end()));
    auto zero = sweep_axis_values(s, SweepAxis::zero_stage, 64);
    CHECK(zero == std::vector<std::int64_t>{0, 1, 2, 3});
}

TEST_CASE("explain: every term's inputs reproduce its value") {
    Scenario s;
    s.parallel.zero_stage = 2;
    Estimate e = estimate(s);
    auto terms = explain(s, e);
    auto find = [&](const char* id) -> const ExplainTerm& {
        for (const auto& t : terms)
            if (std::string(t.id) == id) return t;
        FAIL("no term " << id);
        return terms.front();
    };
    auto input = [](const ExplainTerm& t, const char* symbol) {
        for (const auto& i : t.inputs)
            if (std::string(i.symbol) == symbol) return i.value;
        return std::nan("");
    };
    const auto& grads = find("model_states_bytes.gradients");
    CHECK(grads.value == Approx(input(grads, "P/(t·p)") * input(grads, "bytes_g") / input(grads, "DP")));
    const auto& act = find("activations.per_layer_bytes");
    double s_ = input(act, "s"), b = input(act, "b"), h = input(act, "h"), a = input(act, "a");
    CHECK(act.value == Approx(input(act, "c_sbh") * s_ * b * h + input(act, "c_as2b") * a * s_ * s_ * b));
    const auto& peak = find("memory_per_gpu_bytes.peak_allocated");
    CHECK(peak.value == Approx(input(peak, "weights") + input(peak, "gradients") + input(peak, "optimizer") +
                               input(peak, "activations") + input(peak, "logits") + input(peak, "temporaries")));
    const auto& total = find("memory_per_gpu_bytes.total");
    CHECK(total.value == Approx(input(total, "peak_reserved") + input(total, "cuda_context") +
                                input(total, "NCCL buffers") + input(total, "reserved")));
    const auto& reserved = find("memory_per_gpu_bytes.peak_reserved");
    CHECK(reserved.value == Approx(input(reserved, "peak_allocated") * (1 + input(reserved, "allocator_overhead")) +
                                   input(reserved, "largest block")));
    const auto& time = find("compute.seconds");
    CHECK(time.value == Approx(input(time, "C") / (input(time, "N") * input(time, "FLOP/s per GPU"))));
    for (const auto& t : terms) {
        INFO(t.id);
        CHECK(std::isfinite(t.value));
        CHECK(std::string(t.source).size() > 3);
        CHECK(std::string(t.formula).find('=') != std::string::npos);
    }
}

TEST_CASE("a sweep point is valid exactly when validate() finds nothing, on every point the charts draw") {
    std::vector<Scenario> bases(1);
    Scenario llama;
    apply_model_preset(llama, "llama-2-70b");
    llama.parallel.num_gpus = 64;
    llama.parallel.tensor = 8;
    llama.parallel.pipeline = 2;
    bases.push_back(llama);
    Scenario moe;
    apply_model_preset(moe, "mixtral-8x7b");
    moe.parallel.num_gpus = 16;
    moe.parallel.expert = 8;
    bases.push_back(moe);
    Scenario gpt2;
    apply_model_preset(gpt2, "gpt2");  // learned positions: s is bounded
    bases.push_back(gpt2);
    int invalid = 0, points = 0;
    for (const auto& base : bases) {
        REQUIRE(validate(base).empty());
        for (SweepAxis x : all_sweep_axes) {
            auto xs = sweep_axis_values(base, x, 16);
            for (SweepAxis y : all_sweep_axes) {
                auto ys = sweep_axis_values(base, y, 16);
                for (auto xv : xs)
                    for (auto yv : ys) {
                        Scenario s = base;
                        set_sweep_axis(s, x, xv);
                        set_sweep_axis(s, y, yv);
                        bool valid = validate(s).empty();
                        CHECK(sweep_point_valid(s) == valid);
                        invalid += !valid;
                        ++points;
                    }
            }
        }
    }
    CHECK(invalid > 0);  // the comparison covers both outcomes
    CHECK(invalid < points);
}
