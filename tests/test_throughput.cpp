// The throughput model against published measured runs (tests/data/throughput/*.json), the
// layout rankings the papers report, measured H200 kernels, and each time term against its source.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "core/estimate.hpp"
#include "core/training/performance.hpp"
#include "core/training/planner.hpp"
#include "core/model/presets.hpp"
#include "codec/codec.hpp"
#include "throughput_fit.hpp"

using namespace vramcalc;
using Catch::Matchers::WithinRel;

namespace {

const std::filesystem::path data_dir = VRAMCALC_SOURCE_DIR "/tests/data/throughput";

std::vector<throughput_cases::Case> all_cases() {
    std::vector<std::string> problems;
    auto cases = throughput_cases::load(data_dir, problems);
    for (const auto& p : problems) FAIL(p);
    return cases;
}

const throughput_cases::Case& find_case(const std::vector<throughput_cases::Case>& cases, const std::string& id) {
    for (const auto& c : cases)
        if (c.id == id) return c;
    FAIL("no case " << id);
    return cases.front();
}

// Executed teraFLOP/s per GPU as the source counts it (eq. 3 of arXiv 2104.04473).
double predicted_source_tflops(const throughput_cases::Case& c) {
    Estimate e = estimate(c.scenario);
    return throughput_cases::source_flops("narayanan2021_eq3", c.scenario) /
           (double(c.scenario.parallel.num_gpus) * e.performance.step_seconds) / 1e12;
}

Scenario megatron_gpt(std::int64_t layers, std::int64_t hidden, std::int64_t heads) {
    Scenario s;
    s.model.name = "GPT";
    s.model.layers = layers;
    s.model.hidden_size = hidden;
    s.model.num_heads = heads;
    s.model.vocab_size = 51200;
    s.training.seq_len = 2048;
    s.training.micro_batch_size = 1;
    s.training.precision = Precision::mixed_fp16;
    s.training.recompute = Recompute::full;
    s.parallel.zero_stage = 0;
    s.hardware.throughput_model = ThroughputModel::predicted;
    return s;
}

}  // namespace

TEST_CASE("every published run is predicted within ±25 %; medians within 10 %") {
    auto cases = all_cases();
    REQUIRE(cases.size() >= 30);
    std::vector<double> fully_specified;
    for (const auto& c : cases) {
        Estimate e = estimate(c.scenario);
        REQUIRE(validate(c.scenario).empty());
        REQUIRE(e.performance.predicted);
        REQUIRE(e.performance.calibrated);
        double err = throughput_cases::relative_error(c, e);
        INFO(c.id << ": measured " << c.measured_step_seconds << " s, predicted " << e.performance.step_seconds
                  << " s, error " << 100 * err << " %");
        if (!c.partly_specified) {
            CHECK(std::fabs(err) <= 0.25);
            fully_specified.push_back(std::fabs(err));
        } else if (c.scenario.parallel.tensor == 1) {
            // Without tensor parallelism the TP-communication overlap does not matter.
            CHECK(std::fabs(err) <= 0.25);
        } else {
            // Megatron-Core's --tp-comm-overlap (parallel.tp_comm_overlap) is priced, but its
            // --overlap-grad-reduce / --overlap-param-gather hide more DP traffic than the one
            // fitted overlap fraction, and the micro-batch is unpublished: the prediction must not
            // be faster than the measurement.
            CHECK(err > -0.05);
        }
    }
    CHECK(throughput_fit::median(fully_specified) <= 0.10);
    auto summary = throughput_fit::summarize(cases);
    CHECK(summary.fit_count >= 10);
    CHECK(summary.held_out_count >= 15);
    CHECK(summary.fit_median <= 0.10);
}

TEST_CASE("the shipped constants are the least-squares fit on the fit set") {
    auto cases = all_cases();
    const auto& shipped = throughput_constants(GpuFamily::ampere);
    auto refit = throughput_fit::fit(cases, shipped);
    double shipped_objective = throughput_fit::objective(cases, shipped);
    double best = throughput_fit::objective(cases, refit);
    CHECK(shipped_objective <= best * 1.01 + 1e-6);
    // The measured-kernel constants are shared; only the fitted ones differ between families.
    const auto& hopper = throughput_constants(GpuFamily::hopper);
    CHECK(hopper.compute_factor == 1.0);
    CHECK(hopper.gemm_peak_fraction == shipped.gemm_peak_fraction);
    CHECK(hopper.overlap_fraction == shipped.overlap_fraction);
}

TEST_CASE("ranking: PTD-P beats ZeRO-3, and the gap grows with the GPU count (arXiv 2104.04473 Table 2)") {
    auto cases = all_cases();
    struct Pair {
        const char* ptdp;
        const char* zero3;
    };
    const Pair pairs[] = {
        {"narayanan2021-table2-ptdp-174.6B-384", "narayanan2021-table2-zero3-174.6B-384"},
        {"narayanan2021-table2-ptdp-174.6B-768", "narayanan2021-table2-zero3-174.6B-768"},
        {"narayanan2021-table2-ptdp-174.6B-1536", "narayanan2021-table2-zero3-174.6B-1536"},
        {"narayanan2021-table2-ptdp-529.6B-560", "narayanan2021-table2-zero3-529.6B-640"},
        {"narayanan2021-table2-ptdp-529.6B-1120", "narayanan2021-table2-zero3-529.6B-1120"},
        {"narayanan2021-table2-ptdp-529.6B-2240", "narayanan2021-table2-zero3-529.6B-2240"},
    };
    double previous_ratio[2] = {0, 0};
    int i = 0;
    for (const auto& p : pairs) {
        double ptdp = predicted_source_tflops(find_case(cases, p.ptdp));
        double zero3 = predicted_source_tflops(find_case(cases, p.zero3));
        INFO(p.ptdp << ": " << ptdp << " vs ZeRO-3 " << zero3 << " teraFLOP/s per GPU");
        CHECK(ptdp > zero3);
        double ratio = ptdp / zero3;
        int model = i / 3;
        CHECK(ratio > previous_ratio[model]);  // the measured ratios grow: 1.06, 1.69, 3.20 and 1.24, 1.70, 3.31
        previous_ratio[model] = ratio;
        ++i;
    }
}

TEST_CASE("ranking: t = 8 inside a node beats t = 16 and 32 across nodes (arXiv 2104.04473 Fig. 13)") {
    // 162.2B GPT (32 layers, h = 20480, 128 heads) on 64 A100s, t·p = 64: examples/sc21/run_figure_13.sh.
    // The paper's takeaway: use tensor parallelism up to the GPUs of a node, pipeline across nodes.
    for (std::int64_t batch : {32, 128}) {
        double best_seconds = 0;
        std::int64_t best_t = 0;
        double seconds_t8 = 0, seconds_t16 = 0;
        for (std::int64_t t : {2, 4, 8, 16, 32}) {
            Scenario s = megatron_gpt(32, 20480, 128);
            s.parallel.num_gpus = 64;
            s.parallel.tensor = t;
            s.parallel.pipeline = 64 / t;
            s.training.global_batch_size = batch;
            REQUIRE(validate(s).empty());
            double step = estimate(s).performance.step_seconds;
            if (best_t == 0 || step < best_seconds) best_seconds = step, best_t = t;
            if (t == 8) seconds_t8 = step;
            if (t == 16) seconds_t16 = step;
        }
        INFO("batch " << batch);
        CHECK(best_t == 8);
        CHECK(seconds_t8 < seconds_t16);
    }
}

TEST_CASE("ranking: the interleaved schedule beats 1F1B, by less as the batch grows (arXiv 2104.04473 Fig. 12)") {
    // GPT-3 175B on 96 A100s, t = 8, p = 12, b = 1, v = 4 (2 layers per virtual stage):
    // examples/sc21/run_figure_12.sh. §5.3.2: the interleaved schedule is faster and "this gap
    // closes as the batch size increases" (smaller bubble, more point-to-point communication).
    double previous_gain = 1e9;
    for (std::int64_t batch : {12, 24, 36, 48, 60}) {
        Scenario s = megatron_gpt(96, 12288, 96);
        s.parallel.num_gpus = 96;
        s.parallel.tensor = 8;
        s.parallel.pipeline = 12;
        s.training.global_batch_size = batch;
        REQUIRE(validate(s).empty());
        double plain = estimate(s).performance.step_seconds;
        s.parallel.interleave = 4;
        REQUIRE(validate(s).empty());
        double interleaved = estimate(s).performance.step_seconds;
        double gain = plain / interleaved;
        INFO("batch " << batch << ": interleaved " << gain << "× faster");
        CHECK(gain > 1.0);
        CHECK(gain < previous_gain);
        previous_gain = gain;
    }
}

TEST_CASE("GEMM and FlashAttention times reproduce the measured H200 kernels they were fitted on") {
    auto doc = nlohmann::json::parse(throughput_cases::read_text(data_dir / "h200_kernels.json"));
    const auto& c = throughput_constants(GpuFamily::hopper);
    const double peak = 989e12, bandwidth = 4.8e12;  // H200 datasheet: dense bf16, HBM3e
    std::vector<double> errors;
    for (const auto& g : doc["gemm_bf16"]) {
        if (g["M"].get<double>() < 8192) continue;  // the fit set: sustained-clock kernels
        double predicted = perf::gemm_seconds(g["M"], g["K"], g["N"], 1, peak, bandwidth, c);
        double err = predicted / g["seconds"].get<double>() - 1;
        INFO("GEMM " << g["M"] << "×" << g["K"] << "×" << g["N"] << ": " << 100 * err << " %");
        CHECK(std::fabs(err) < 0.15);
        errors.push_back(std::fabs(err));
    }
    CHECK(errors.size() == 26);
    CHECK(throughput_fit::median(errors) < 0.05);
    for (const auto& a : doc["sdpa_bf16"]) {
        double predicted = perf::flash_attention_seconds(a["batch"], a["heads"], a["seq"], a["head_dim"], peak, bandwidth, c);
        double err = predicted / a["fwd_bwd_seconds"].get<double>() - 1;
        INFO("SDPA seq " << a["seq"] << ": " << 100 * err << " %");
        CHECK(std::fabs(err) < 0.15);
    }
    // The copy fraction is the 1 GiB copy's read+write bandwidth over the 4.8 TB/s datasheet value.
    CHECK_THAT(c.memory_bandwidth_fraction * 4.8e12,
               WithinRel(doc["copy"][2]["gbps_read_plus_write"].get<double>() * 1e9, 1e-3));
}

TEST_CASE("collectives: ring all-reduce 2(n−1)/n and all-gather (n−1)/n of the bytes (NCCL performance docs)") {
    // Korthikanti et al. 2022's 22B layer: one all-reduce of s·b·h = 2048·4·6144 fp16 values over 8 GPUs.
    double bytes = 2048.0 * 4 * 6144 * 2;
    CHECK_THAT(perf::all_reduce_seconds(bytes, 8, 200e9), WithinRel(2.0 * 7 / 8 * 100663296 / 200e9, 1e-12));
    CHECK_THAT(perf::all_gather_seconds(bytes, 8, 200e9), WithinRel(7.0 / 8 * 100663296 / 200e9, 1e-12));
    CHECK(perf::all_reduce_seconds(bytes, 1, 200e9) == 0);
    // Overlap hides φ of what fits in the window, never more than the communication itself.
    CHECK(perf::exposed_seconds(2.0, 10.0, 0.75) == 0.5);
    CHECK(perf::exposed_seconds(2.0, 1.0, 0.75) == 1.25);
    CHECK(perf::exposed_seconds(2.0, 1.0, 0.0) == 2.0);
}

TEST_CASE("collectives across nodes use every NIC of the group's GPUs in a node (NCCL rings, one per NIC)") {
    const double nvlink = 200e9, nic = 25e9;  // bus bandwidths: NVLink inside a node, one GPU's NIC
    CHECK(perf::collective_bus_bandwidth(8, 8, nvlink, nic) == nvlink);        // one node: NVLink
    CHECK(perf::collective_bus_bandwidth(64, 1, nvlink, nic) == nic);          // one rank per node: its NIC
    CHECK(perf::collective_bus_bandwidth(64, 8, nvlink, nic) == 8 * nic);      // 8 rings, 8 NICs
    CHECK(perf::collective_bus_bandwidth(64, 4, nvlink, nic) == 4 * nic);
    // 8 NICs of 50 GB/s would outrun NVLink's share: (k−1)/k of the ring's traffic stays in the node.
    CHECK_THAT(perf::collective_bus_bandwidth(64, 8, nvlink, 50e9), WithinRel(nvlink * 8 / 7, 1e-12));
    // DP ranks sit t apart: with t = 8 one DP rank per node, so the all-reduce gets one NIC per GPU.
    Scenario s = megatron_gpt(32, 4096, 32);
    s.parallel.num_gpus = 64;
    s.training.global_batch_size = 64;
    ThroughputConstants no_overlap = throughput_constants(GpuFamily::ampere);
    no_overlap.overlap_fraction = 0;
    auto dp_seconds = [&](std::int64_t t) {
        Scenario x = s;
        x.parallel.tensor = t;
        REQUIRE(validate(x).empty());
        Estimate e = estimate(x);
        predict_performance(x, e, no_overlap);
        return std::pair{e.performance.breakdown_seconds.data_parallel, e.params_per_gpu};
    };
    auto [t8, p8] = dp_seconds(8);
    CHECK_THAT(t8, WithinRel(2.0 * 7 / 8 * 2.0 * p8 / (25e9 * no_overlap.inter_node_efficiency), 1e-9));
    auto [t2, p2] = dp_seconds(2);  // 4 DP ranks per node: 4 NICs
    CHECK_THAT(t2, WithinRel(2.0 * 31 / 32 * 2.0 * p2 / (4 * 25e9 * no_overlap.inter_node_efficiency), 1e-9));
}

TEST_CASE("memory-bound kernels per layer, counted from the modeling code; each costs a fixed 4.7 µs") {
    Scenario llama;
    apply_model_preset(llama, *find_model_preset("llama-3.2-1b"));
    // HF Llama: 2 RMSNorms × 8, 2 residual adds, SwiGLU 2, RoPE 5 per q and k, 1 transpose copy.
    CHECK(perf::memory_kernels_per_layer(llama.model, Kernels::eager, false, false) == 31);
    CHECK(perf::memory_kernels_per_layer(llama.model, Kernels::eager, false, true) == 27);  // fp32 stream: no casts
    CHECK(perf::memory_kernels_per_layer(llama.model, Kernels::fused, true, false) == 7);
    CHECK(perf::memory_kernels_per_layer(llama.model, Kernels::compiled, false, false) == 5);
    Scenario gpt2;  // LayerNorm (one kernel), gelu_new (8), learned positions, 2 dropouts
    gpt2.model.activation = Activation::gelu_new;
    CHECK(perf::memory_kernels_per_layer(gpt2.model, Kernels::eager, true, false) == 15);
    // At 8 tokens a micro-batch's bytes are negligible: one more layer costs eager 24 kernels more
    // than fused, each 4.7 µs forward and twice in backward.
    llama.training.seq_len = 8;
    llama.training.global_batch_size = 8;
    llama.training.micro_batch_size = 1;
    llama.training.dropout = false;
    llama.training.flash_attention = true;
    llama.parallel.num_gpus = 1;
    llama.parallel.zero_stage = 0;
    llama.hardware.throughput_model = ThroughputModel::predicted;
    auto per_layer = [&](Kernels kernels) {
        Scenario x = llama;
        x.training.kernels = kernels;
        auto compute = [&](std::int64_t layers) {
            x.model.layers = layers;
            REQUIRE(validate(x).empty());
            Estimate e = estimate(x);
            return e.performance.breakdown_seconds.compute / e.performance.microbatches;
        };
        return compute(3) - compute(2);
    };
    CHECK_THAT(per_layer(Kernels::eager) - per_layer(Kernels::fused), WithinRel(3 * 24 * 4.7e-6, 0.02));
}

TEST_CASE("pipeline bubble is (p−1)/(v·m) of the micro-batch work (arXiv 2104.04473 §2.2)") {
    Scenario s = megatron_gpt(96, 12288, 96);  // GPT-3 175B, t = 8, p = 12 as in Table 2
    s.parallel.num_gpus = 96 * 4;
    s.parallel.tensor = 8;
    s.parallel.pipeline = 12;
    s.training.global_batch_size = 1536;
    for (std::int64_t v : {1, 2, 4}) {
        s.parallel.interleave = v;
        REQUIRE(validate(s).empty());
        Estimate e = estimate(s);
        const auto& b = e.performance.breakdown_seconds;
        double m = 1536.0 / 4;  // micro-batches per pipeline (b = 1, DP = 4)
        CHECK(e.performance.microbatches == m);
        double work = b.compute + b.tensor_parallel + b.pipeline_p2p;  // m micro-batches
        CHECK_THAT(b.pipeline_bubble / work, WithinRel(11.0 / (double(v) * m), 1e-9));
        // Interleaving sends v times as many activations between stages. [§2.2.2]
        Scenario one = s;
        one.parallel.interleave = 1;
        CHECK_THAT(b.pipeline_p2p, WithinRel(double(v) * estimate(one).performance.breakdown_seconds.pipeline_p2p, 1e-9));
    }
}

TEST_CASE("tensor parallelism: 4 all-reduces of s·b·h per layer, 6 with full recomputation (arXiv 2104.04473 §2.3)") {
    // (and the recomputation terms that follow training.recompute and recompute_layers)
    Scenario s = megatron_gpt(48, 6144, 64);  // Korthikanti et al. 2022 Table 3: 22B on one DGX A100
    s.parallel.num_gpus = 8;
    s.parallel.tensor = 8;
    s.training.micro_batch_size = 4;
    s.training.global_batch_size = 4;
    const auto& c = throughput_constants(GpuFamily::ampere);
    double one = perf::all_reduce_seconds(2048.0 * 4 * 6144 * 2, 8, 300e9 * c.intra_node_efficiency);
    // 48 layers + the embedding's forward and the LM head's input-gradient all-reduce.
    CHECK_THAT(estimate(s).performance.breakdown_seconds.tensor_parallel, WithinRel((48 * 6 + 2) * one, 1e-9));
    // recompute_layers = 12: only 12 of the 48 layers rerun their forward (and its 2 all-reduces).
    Estimate all_layers = estimate(s);
    s.training.recompute_layers = 12;
    Estimate some = estimate(s);
    CHECK_THAT(some.performance.breakdown_seconds.tensor_parallel, WithinRel((48 * 4 + 12 * 2 + 2) * one, 1e-9));
    CHECK_THAT(some.performance.recompute_seconds, WithinRel(all_layers.performance.recompute_seconds / 4, 1e-9));
    s.training.recompute_layers = 0;
    // Op-level checkpointing recomputes less than a full forward, more than nothing.
    s.training.recompute = Recompute::ops;
    Estimate ops = estimate(s);
    CHECK(ops.performance.recompute_seconds > 0);
    CHECK(ops.performance.recompute_seconds < all_layers.performance.recompute_seconds);
    CHECK_THAT(ops.performance.breakdown_seconds.tensor_parallel, WithinRel((48 * 4 + 2) * one, 1e-9));
    s.training.recompute = Recompute::selective;
    CHECK_THAT(estimate(s).performance.breakdown_seconds.tensor_parallel, WithinRel((48 * 4 + 2) * one, 1e-9));
    // Sequence parallelism: reduce-scatter + all-gather instead of each all-reduce, the same time. [arXiv 2205.05198 §4.2.2]
    s.parallel.sequence_parallel = true;
    CHECK_THAT(estimate(s).performance.breakdown_seconds.tensor_parallel, WithinRel((48 * 4 + 2) * one, 1e-9));
    // t = 16 spans two nodes: NCCL's rings leave each node through all 8 of its NICs.
    s.parallel.num_gpus = 16;
    s.parallel.tensor = 16;
    s.training.global_batch_size = 4;
    double across = perf::all_reduce_seconds(2048.0 * 4 * 6144 * 2, 16, 8 * 25e9 * c.inter_node_efficiency);
    CHECK_THAT(estimate(s).performance.breakdown_seconds.tensor_parallel, WithinRel((48 * 4 + 2) * across, 1e-9));
}

TEST_CASE("--tp-comm-overlap: each SP collective under its GEMM (Transformer Engine userbuffers)") {
    Scenario s = megatron_gpt(48, 6144, 64);
    s.parallel.num_gpus = 8;
    s.parallel.tensor = 8;
    s.parallel.sequence_parallel = true;
    s.training.micro_batch_size = 4;
    s.training.global_batch_size = 4;
    const auto& c = throughput_constants(GpuFamily::ampere);
    double one = perf::all_reduce_seconds(2048.0 * 4 * 6144 * 2, 8, 300e9 * c.intra_node_efficiency);
    Estimate exposed = estimate(s);
    s.parallel.tp_comm_overlap = true;
    Estimate overlapped = estimate(s);
    const auto& a = exposed.performance.breakdown_seconds;
    const auto& b = overlapped.performance.breakdown_seconds;
    // Less than in full, at least the embedding's and the LM head's all-reduces (outside TE's layers);
    // nothing else of the step moves.
    CHECK(b.tensor_parallel < a.tensor_parallel);
    CHECK(b.tensor_parallel >= 2 * one);
    CHECK(b.compute == a.compute);
    CHECK(b.data_parallel == a.data_parallel);
    // The pieces: a pipelined reduce-scatter leaves its last of 4 chunks exposed; a ring exchange
    // hides behind (t−1)/t of its GEMM; a bulk overlap behind all of it.
    CHECK_THAT(perf::chunked_overlap_exposed_seconds(1.0, 10.0, 4.0, true), WithinRel(0.25, 1e-12));
    CHECK_THAT(perf::chunked_overlap_exposed_seconds(1.0, 0.4, 4.0, true), WithinRel(0.7, 1e-12));
    CHECK(perf::chunked_overlap_exposed_seconds(1.0, 10.0, 8.0, false) == 0.0);
    CHECK_THAT(perf::chunked_overlap_exposed_seconds(1.0, 0.8, 8.0, false), WithinRel(0.3, 1e-12));
    CHECK_THAT(perf::chunked_overlap_exposed_seconds(1.0, 0.6, 1.0, false), WithinRel(0.4, 1e-12));
    // The planner keeps the overlap only where the layout allows it (t > 1 with SP).
    PlanOptions options;
    PlanResult r = plan(s, options);
    REQUIRE(!r.plans.empty());
    for (const auto& p : r.plans) {
        CHECK(validate(p.scenario).empty());
        CHECK(p.scenario.parallel.tp_comm_overlap == (p.scenario.parallel.tensor > 1 && p.scenario.parallel.sequence_parallel));
    }
}

TEST_CASE("ZeRO-3 moves 1.5× the data-parallel all-reduce volume per micro-batch (arXiv 1910.02054 §7.2)") {
    Scenario s = megatron_gpt(96, 12288, 96);
    s.parallel.num_gpus = 384;
    s.training.micro_batch_size = 4;
    s.training.global_batch_size = 1536;  // one micro-batch per GPU
    ThroughputConstants no_overlap = throughput_constants(GpuFamily::ampere);
    no_overlap.overlap_fraction = 0;
    Estimate e = estimate(s);
    predict_performance(s, e, no_overlap);
    double all_reduce = e.performance.breakdown_seconds.data_parallel;
    s.parallel.zero_stage = 3;
    Estimate z = estimate(s);
    predict_performance(s, z, no_overlap);
    CHECK(z.performance.breakdown_seconds.data_parallel == 0);
    // DeepSpeed ZeRO-3 reaches the fitted share of the bus bandwidth; FSDP all of it.
    CHECK_THAT(z.performance.breakdown_seconds.zero, WithinRel(1.5 * all_reduce / no_overlap.deepspeed_zero3_efficiency, 1e-9));
    s.parallel.zero_impl = ZeroImpl::fsdp;
    Estimate fsdp = estimate(s);
    predict_performance(s, fsdp, no_overlap);
    CHECK_THAT(fsdp.performance.breakdown_seconds.zero, WithinRel(1.5 * all_reduce, 1e-9));
    // Across nodes through the 8 NICs of each node (25 GB/s per GPU): 2(n−1)/n · 2 B · P / (8 · 25 GB/s · η).
    CHECK_THAT(all_reduce, WithinRel(2.0 * 383 / 384 * 2.0 * e.params_per_gpu / (8 * 25e9 * no_overlap.inter_node_efficiency), 1e-9));
    // FSDP with autocast over fp32 parameters all-gathers them in bf16 (MixedPrecisionPolicy param_dtype):
    // the same gather time as 16-bit weights, the fp32 gradients reduce-scattered at 4 B.
    Scenario amp = s;
    amp.training.precision = Precision::amp_bf16;
    Estimate a = estimate(amp);
    predict_performance(amp, a, no_overlap);
    double bw = 8 * 25e9 * no_overlap.inter_node_efficiency;
    CHECK_THAT(a.performance.breakdown_seconds.zero,
               WithinRel(383.0 / 384 * a.params_per_gpu * (2 * 2.0 + 4.0) / bw, 1e-9));
}

TEST_CASE("optimizer step reads and writes 28 bytes per parameter (mixed AdamW), ZeRO-sharded") {
    Scenario s = megatron_gpt(96, 12288, 96);
    s.parallel.num_gpus = 64;
    s.parallel.tensor = 8;
    s.parallel.pipeline = 8;
    s.parallel.zero_stage = 1;
    s.training.precision = Precision::mixed_bf16;
    s.training.global_batch_size = 64;
    Estimate e = estimate(s);  // DP = 1: nothing to shard
    const auto& c = throughput_constants(GpuFamily::ampere);
    // gradients 2 + (master 4 + m 4 + v 4) read and written + bf16 weights 2 = 28 B. [Transformer Math 101]
    CHECK_THAT(e.performance.breakdown_seconds.optimizer_step,
               WithinRel(e.params_per_gpu * 28.0 / (2039e9 * c.memory_bandwidth_fraction), 1e-9));
}

TEST_CASE("freeze: frozen layers run forward only, each trained layer adds one layer's backward (LLaMA-Factory freeze)") {
    Scenario s = megatron_gpt(32, 4096, 32);
    s.hardware.throughput_model = ThroughputModel::predicted;
    s.training.method = TrainingMethod::freeze;
    auto compute = [&](std::int64_t trained) {
        Scenario f = s;
        f.training.trainable_layers = trained;
        REQUIRE(validate(f).empty());
        return estimate(f).performance.breakdown_seconds.compute;
    };
    double one = compute(1), two = compute(2), three = compute(3), all = compute(32);
    CHECK(two - one > 0);
    CHECK_THAT(three - two, WithinRel(two - one, 1e-9));      // linear in the trained layers
    CHECK_THAT(all - one, WithinRel(31.0 * (two - one), 1e-9));
    Scenario full = s;
    full.training.method = TrainingMethod::full;
    CHECK(estimate(full).performance.breakdown_seconds.compute > all);  // the frozen head: no weight gradient
}

TEST_CASE("fixed model keeps the old time; predicted drives time, GPU-hours and cost from the step time") {
    Scenario s;  // defaults: GPT-3 6.7B, 8 A100s, 150 TFLOP/s given
    Estimate fixed = estimate(s);
    CHECK_FALSE(fixed.performance.predicted);
    double steps = s.training.tokens / (double(fixed.layout.global_batch_size) * double(s.training.seq_len));
    CHECK_THAT(fixed.performance.step_seconds * steps, WithinRel(fixed.compute.seconds, 1e-12));
    CHECK_THAT(fixed.performance.achieved_tflops_per_gpu, WithinRel(150.0, 1e-9));
    CHECK(fixed.performance.breakdown_seconds.compute == fixed.performance.step_seconds);

    s.hardware.throughput_model = ThroughputModel::predicted;
    s.hardware.achieved_tflops = 0;  // not needed by the predicted model
    REQUIRE(validate(s).empty());
    Estimate p = estimate(s);
    CHECK(p.performance.predicted);
    CHECK_THAT(p.compute.seconds, WithinRel(p.performance.step_seconds * steps, 1e-12));
    CHECK_THAT(p.compute.gpu_hours, WithinRel(p.compute.seconds * 8 / 3600, 1e-12));
    CHECK_THAT(p.compute.cost, WithinRel(p.compute.gpu_hours * s.hardware.price_per_gpu_hour, 1e-12));
    CHECK_THAT(p.performance.tokens_per_second * p.performance.step_seconds,
               WithinRel(double(p.layout.global_batch_size) * 2048, 1e-12));
    // MFU counts model FLOPs (6·P per token), achieved TFLOP/s executed ones (+ recomputation).
    CHECK_THAT(p.performance.mfu * 312.0,
               WithinRel(p.performance.achieved_tflops_per_gpu * p.compute.model_flops / p.compute.total_flops, 1e-9));
    const auto& b = p.performance.breakdown_seconds;
    CHECK_THAT(b.compute + b.tensor_parallel + b.pipeline_bubble + b.pipeline_p2p + b.data_parallel + b.zero +
                   b.optimizer_step + b.overhead,
               WithinRel(p.performance.step_seconds, 1e-12));
}

TEST_CASE("GPU families without published runs are flagged uncalibrated") {
    Scenario s;
    s.hardware.throughput_model = ThroughputModel::predicted;
    apply_gpu_preset(s.hardware, *find_gpu_preset("MI300X"));
    Estimate e = estimate(s);
    CHECK_FALSE(e.performance.calibrated);
    CHECK(e.warnings.has(Warning::throughput_uncalibrated));
    apply_gpu_preset(s.hardware, *find_gpu_preset("H100-SXM"));
    Estimate h = estimate(s);
    CHECK(h.performance.calibrated);
    CHECK_FALSE(h.warnings.has(Warning::throughput_uncalibrated));
    CHECK(s.hardware.intra_node_gbps == 450);  // DGX H100: NVLink 4, 900 GB/s both directions
    CHECK(s.hardware.inter_node_gbps == 50);   // 8 × 400 Gb/s per 8 GPUs
}

// Held-out: Hugging Face training steps measured on one H200 (tests/data/throughput/h200_hf_steps.json,
// from bench/memory/gpu_measure.py), eager kernels, one GPU; no constant was fitted on them. The
// eager-kernel traffic and LoRA terms are counted from transformers'/PEFT's code, so this pins what
// that gives: median within 15 %, every case within ±45 % (AMP's fp32 stream is the weakest part).
TEST_CASE("held out: HF steps measured on an H200 (eager kernels, LoRA, AMP, fp32)") {
    std::ifstream in(std::string(VRAMCALC_SOURCE_DIR) + "/tests/data/throughput/h200_hf_steps.json");
    REQUIRE(in.good());
    auto data = nlohmann::json::parse(in);
    std::vector<double> errors;
    for (const auto& c : data.at("cases")) {
        INFO(c.at("id").get<std::string>());
        auto decoded = codec::scenario_from_json(c.at("scenario"));
        REQUIRE(decoded.ok());
        REQUIRE(decoded.scenario.training.kernels == Kernels::eager);
        Estimate e = estimate(decoded.scenario);
        double measured = c.at("measured_step_seconds");
        double error = e.performance.step_seconds / measured - 1.0;
        INFO("measured " << measured << " s, predicted " << e.performance.step_seconds << " s");
        CHECK(std::fabs(error) <= 0.45);
        errors.push_back(std::fabs(error));
    }
    CHECK(errors.size() == 14);
    std::sort(errors.begin(), errors.end());
    CHECK(0.5 * (errors[6] + errors[7]) <= 0.15);
}

// The reported-only cases (tests/data/throughput/README.md, "Reported-only cases"): loaded and
// decoded like the asserted ones, split by the fixed rule, not yet asserted against a band.
TEST_CASE("reported-only published runs load, validate and keep their split") {
    std::vector<std::string> problems;
    auto cases = throughput_cases::load(data_dir, problems, true);
    for (const auto& p : problems) FAIL(p);
    int reported = 0, several_nodes = 0;
    std::map<std::string, std::pair<int, int>> per_file;  // file -> (cases, fit cases)
    for (const auto& c : cases) {
        if (!c.reported_only) continue;
        INFO(c.id);
        CHECK(validate(c.scenario).empty());
        CHECK(c.measured_step_seconds > 0);
        auto& [count, fit] = per_file[c.file];
        CHECK(c.fit == (count % 3 == 0));  // the fixed rule: every third case of a file, from the first
        ++count;
        if (c.fit) ++fit;
        ++reported;
        if (c.scenario.parallel.num_gpus > c.scenario.hardware.gpus_per_node) ++several_nodes;
    }
    CHECK(reported >= 100);
    CHECK(several_nodes >= 30);
}
