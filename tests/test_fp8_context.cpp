// FP8 linears (training.fp8), context parallelism (parallel.context) and HSDP (parallel.shard_group):
// each term against the framework code or paper it follows.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "core/training/context_parallel.hpp"
#include "core/estimate.hpp"
#include "core/training/fp8.hpp"
#include "core/training/performance.hpp"
#include "core/training/planner.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;
using Catch::Matchers::WithinRel;

namespace {

bool has_issue(const Scenario& s, const std::string& field, const std::string& words) {
    for (const auto& i : validate(s))
        if (i.field == field && i.message.find(words) != std::string::npos) return true;
    return false;
}

// Llama 3.1 8B on 8 H100s, Megatron-style (fused kernels = Transformer Engine), predicted step time.
Scenario llama8b(std::int64_t gpus = 8) {
    Scenario s;
    REQUIRE(apply_model_preset(s, "llama-3.1-8b"));
    REQUIRE(apply_gpu_preset(s, "H100-SXM"));
    s.training.seq_len = 8192;
    s.training.micro_batch_size = 1;
    s.training.global_batch_size = 128;
    s.training.flash_attention = true;
    s.training.dropout = false;
    s.parallel.num_gpus = gpus;
    s.parallel.zero_stage = 1;
    s.hardware.throughput_model = ThroughputModel::predicted;
    return s;
}

}  // namespace

TEST_CASE("FP8 peaks: twice the dense 16-bit peak on H100, H200, B200 and MI300X; none on A100 or V100 (datasheets)") {
    CHECK_THAT(fp8_peak_ratio("H100-SXM") * 989.0, WithinRel(3958.0 / 2.0, 1e-9));  // 3,958 TFLOPS with sparsity
    CHECK_THAT(fp8_peak_ratio("H200") * 989.0, WithinRel(1979.0, 1e-9));
    CHECK_THAT(fp8_peak_ratio("B200") * 2250.0, WithinRel(4500.0, 1e-9));   // DGX B200: 72 PFLOPS FP8 / 8 GPUs, sparse
    CHECK_THAT(fp8_peak_ratio("MI300X") * 1307.4, WithinRel(2614.9, 1e-9));
    CHECK_THAT(fp8_peak_ratio("l40s") * 362.0, WithinRel(733.0, 1e-9));     // labels match case-insensitively
    CHECK(fp8_peak_ratio("A100-80GB") == 0);
    CHECK(fp8_peak_ratio("V100-32GB") == 0);
    CHECK(fp8_peak_ratio("T4") == 0);
}

TEST_CASE("FP8 rules name training.fp8: no FP8 tensor cores, fp32 training, QLoRA") {
    Scenario s = llama8b();
    s.training.fp8 = Fp8Recipe::tensorwise;
    CHECK(validate(s).empty());
    REQUIRE(apply_gpu_preset(s, "A100-80GB"));
    CHECK(has_issue(s, "training.fp8", "FP8 tensor cores"));
    s = llama8b();
    s.training.fp8 = Fp8Recipe::rowwise;
    s.training.precision = Precision::fp32;
    CHECK(has_issue(s, "training.fp8", "16-bit"));
    s = llama8b();
    s.training.fp8 = Fp8Recipe::blockwise;
    s.training.method = TrainingMethod::qlora;
    CHECK(has_issue(s, "training.fp8", "QLoRA"));
    s.training.fp8 = Fp8Recipe(9);
    CHECK(has_issue(s, "training.fp8", "must be none"));
}

TEST_CASE("Transformer Engine saves linear inputs in FP8: 5 bytes per token·h fewer per layer (2h + 4h saved, h added)") {
    // GPT-3 6.7B (the default scenario, GELU f = 4h, fused kernels): the QKV and fc1 inputs (2h) and
    // fc2's input (f = 4h) go from 2 to 1 byte; the out-projection keeps a 1-byte copy (h) beside
    // FlashAttention's 16-bit output [TE pytorch/module/linear.py: inputmat saved column-wise FP8].
    Scenario s;
    REQUIRE(apply_gpu_preset(s, "H100-SXM"));
    s.training.flash_attention = true;
    Estimate bf16 = estimate(s);
    s.training.fp8 = Fp8Recipe::tensorwise;
    REQUIRE(validate(s).empty());
    Estimate fp8 = estimate(s);
    CHECK_THAT(bf16.activations.sbh_coefficient - fp8.activations.sbh_coefficient, WithinRel(5.0, 1e-9));
    // Weight copies: row-wise + column-wise, 1 byte each per linear weight: L·(12h² + 9h) for
    // GPT-3 6.7B's biased QKV, out, fc1, fc2 (Brown et al. 2020 Table 2.1 widths).
    const double h = 4096, linear = 32 * (12 * h * h + 9 * h);
    CHECK_THAT(fp8.model_states_bytes.fp8_weight_copies, WithinRel(2.0 * linear, 1e-3));
    CHECK_THAT(fp8.model_states_bytes.weights - bf16.model_states_bytes.weights, WithinRel(2.0 * linear, 1e-3));
    // Blockwise (DeepSeek-V3 §3.3): a 4-byte scale per 1×128 activation tile on every FP8 tensor kept.
    s.training.fp8 = Fp8Recipe::blockwise;
    CHECK_THAT(fp8_element_bytes(Fp8Recipe::blockwise), WithinRel(1.03125, 1e-12));
}

TEST_CASE("torchao Float8 (compiled kernels) keeps 16-bit inputs and weights: no FP8 memory") {
    // torchao/float8/float8_linear.py matmul_with_hp_or_float8_args: ctx.save_for_backward(input_hp, weight_hp_t).
    Scenario s = llama8b();
    s.training.framework = Framework::fsdp;
    s.training.kernels = Kernels::compiled;
    s.parallel.zero_stage = 3;
    s.parallel.zero_impl = ZeroImpl::fsdp;
    Estimate bf16 = estimate(s);
    s.training.fp8 = Fp8Recipe::tensorwise;
    Estimate fp8 = estimate(s);
    CHECK(fp8.model_states_bytes.fp8_weight_copies == 0);
    CHECK(fp8.activations.total_bytes == bf16.activations.total_bytes);
    CHECK(fp8.performance.step_seconds < bf16.performance.step_seconds);
}

TEST_CASE("FP8 GEMMs: half the compute time of bf16 at twice the peak; casts as torchao's roofline counts them") {
    const auto& c = throughput_constants(GpuFamily::hopper);
    const double bw = 3.35e12, peak = 989e12;
    // A large square GEMM is compute-bound: the FP8 time is about half (1-byte operands, 16-bit output).
    double bf16 = perf::gemm_seconds(16384, 16384, 16384, 1, peak, bw, c);
    double fp8 = fp8_gemm_seconds(16384, 16384, 16384, 1, 2.0 * peak, bw, c);
    CHECK(fp8 / bf16 > 0.5);
    CHECK(fp8 / bf16 < 0.53);
    // Cast traffic [torchao testing/training/roofline_utils.py]: tensorwise activation: amax read 2 B
    // + one read 2 B writing dim0 and dim1 FP8 (2 B) = 6 B per element; weight: 2 + (2+1) + (2+1) = 8 B.
    TrainingConfig tr;
    tr.kernels = Kernels::compiled;
    tr.fp8 = Fp8Recipe::tensorwise;
    const Fp8Linear one{8192, 4096, 14336, 1};
    Fp8CastSeconds s = fp8_cast_seconds(tr, &one, 1, 1, 1e12);
    CHECK_THAT(s.forward, WithinRel((6.0 * 8192 * 4096 + 8.0 * 4096 * 14336) / 1e12, 1e-9));
    CHECK_THAT(s.backward, WithinRel(6.0 * 8192 * 14336 / 1e12, 1e-9));
    // rowwise: activations 2+1+2 then 2+1 = 8 B; weights 2+1, 2·2, 2+1 = 10 B.
    tr.fp8 = Fp8Recipe::rowwise;
    s = fp8_cast_seconds(tr, &one, 1, 1, 1e12);
    CHECK_THAT(s.forward, WithinRel((8.0 * 8192 * 4096 + 10.0 * 4096 * 14336) / 1e12, 1e-9));
    // Transformer Engine: one cast-transpose (read 2, write 1 + 1), weights once per step (4 micro-batches).
    tr.kernels = Kernels::fused;
    tr.fp8 = Fp8Recipe::tensorwise;
    s = fp8_cast_seconds(tr, &one, 1, 4, 1e12);
    CHECK_THAT(s.forward, WithinRel((4.0 * 8192 * 4096 + 4.0 * 4096 * 14336 / 4) / 1e12, 1e-9));
}

TEST_CASE("FP8 speed-up of Llama 3.1 8B as torchtitan measured it: 1.28× (FSDP + compile, 8 H100)") {
    // torchtitan benchmarks/llama3_h100_202412_torchtitan.md Table 1: local batch 2, global 16, seq
    // 8192, selective (op) AC: FSDP + torch.compile 6,667 TPS/GPU, + Float8 8,532 TPS/GPU = 1.280×.
    // (Those H100s ran at 500 W, which scales both runs; the ratio is what is compared.)
    Scenario s = llama8b();
    s.training.micro_batch_size = 2;
    s.training.global_batch_size = 16;
    s.training.framework = Framework::fsdp;
    s.training.kernels = Kernels::compiled;
    s.training.recompute = Recompute::ops;
    s.parallel.zero_stage = 3;
    s.parallel.zero_impl = ZeroImpl::fsdp;
    Estimate bf16 = estimate(s);
    s.training.fp8 = Fp8Recipe::tensorwise;
    REQUIRE(validate(s).empty());
    Estimate fp8 = estimate(s);
    double speedup = bf16.performance.step_seconds / fp8.performance.step_seconds;
    CHECK_THAT(speedup, WithinRel(8532.0 / 6667.0, 0.10));
}

TEST_CASE("context parallelism: N = t·p·cp·DP, activations per GPU divided by cp (Megatron context_parallel.rst)") {
    Scenario s = llama8b(16);
    s.training.seq_len = 32768;
    s.training.global_batch_size = 32;
    s.parallel.tensor = 2;
    Estimate one = estimate(s);
    s.parallel.context = 2;
    REQUIRE(validate(s).empty());
    Estimate two = estimate(s);
    CHECK(two.layout.data_parallel == 4);
    CHECK_THAT(two.activations.per_layer_bytes, WithinRel(one.activations.per_layer_bytes / 2.0, 1e-12));
    CHECK_THAT(two.activations.logits_elements, WithinRel(one.activations.logits_elements / 2.0, 1e-12));
    // The distributed optimizer shards over DP × cp = 4 × 2 ranks, as without CP over DP = 8.
    CHECK_THAT(two.model_states_bytes.optimizer, WithinRel(one.model_states_bytes.optimizer, 1e-12));
    // Ring buffers [TE AttnFuncWithCPAndKVP2P]: K,V chunk sent + received, fp32 output accumulator.
    const double local = 32768.0 / 2, kv = 8 * 128 / 2.0, q = 32 * 128 / 2.0;
    RingBuffers ring = ring_attention_buffers(s.parallel, local, q, kv, 2.0);
    CHECK_THAT(ring.forward, WithinRel(2.0 * (2.0 * local * kv * 2.0) + 4.0 * local * q, 1e-12));
    CHECK(two.performance.breakdown_seconds.context_parallel >= 0);
}

TEST_CASE("ring attention: cp−1 K,V sends per layer forward, K,V and dK,dV backward, hidden behind attention") {
    ParallelConfig par;
    par.context = 4;
    const double local = 8192, kv = 1024, bw = 100e9;
    const double chunk = 2.0 * local * kv * 2.0 / bw;  // K and V of the local tokens, bf16
    RingSeconds bare = ring_attention_seconds(par, local, kv, 2.0, 0.0, 0.0, bw);
    CHECK_THAT(bare.forward, WithinRel(3.0 * chunk, 1e-12));
    CHECK_THAT(bare.backward, WithinRel(6.0 * chunk, 1e-12));
    RingSeconds hidden = ring_attention_seconds(par, local, kv, 2.0, 4.0 * chunk, 8.0 * chunk, bw);
    CHECK(hidden.forward == 0);
    CHECK(hidden.backward == 0);
    // Causal attention under cp: 1/cp of the work, in cp kernels.
    CHECK_THAT(context_parallel_attention_seconds(1.0, 0.01, 4), WithinRel(0.99 / 4 + 0.04, 1e-12));
}

TEST_CASE("context-parallel rules name their field") {
    Scenario s = llama8b(16);
    s.parallel.context = 3;
    CHECK(has_issue(s, "parallel.num_gpus", "tensor × pipeline × context"));
    s = llama8b();
    s.parallel.context = 2;
    s.training.flash_attention = false;
    CHECK(has_issue(s, "parallel.context", "flash_attention"));
    s = llama8b();
    s.training.seq_len = 8190;
    s.parallel.context = 2;
    CHECK(has_issue(s, "training.seq_len", "2 × parallel.context"));
    s = llama8b();
    s.parallel.context = 0;
    CHECK(has_issue(s, "parallel.context", "must be an integer"));
}

TEST_CASE("HSDP: model states divided by the shard group, not DP; the shard is all-reduced across replicas") {
    Scenario s = llama8b(16);
    s.training.framework = Framework::fsdp;
    s.parallel.zero_stage = 3;
    s.parallel.zero_impl = ZeroImpl::fsdp;
    Estimate fsdp = estimate(s);
    s.parallel.shard_group = 8;
    REQUIRE(validate(s).empty());
    Estimate hsdp = estimate(s);
    CHECK_THAT(hsdp.model_states_bytes.optimizer, WithinRel(2.0 * fsdp.model_states_bytes.optimizer, 1e-12));
    CHECK_THAT(hsdp.model_states_bytes.gradients, WithinRel(2.0 * fsdp.model_states_bytes.gradients, 1e-12));
    // Two replicas, one per node, 8 parallel all-reduces each on its own NIC: 2·(2−1)/2 · bytes / NIC bandwidth.
    ShardingGroups g = sharding_groups(s.parallel, hsdp.layout);
    CHECK(g.shard == 8);
    CHECK(g.replicas == 2);
    CHECK_THAT(replica_all_reduce_seconds(g, 1e9, 1, 8, 300e9, 25e9), WithinRel(1e9 / 25e9, 1e-12));
    s.parallel.shard_group = 5;
    CHECK(has_issue(s, "parallel.shard_group", "must divide"));
    s.parallel.shard_group = 8;
    s.parallel.zero_stage = 0;
    CHECK(has_issue(s, "parallel.shard_group", "zero_stage"));
}

TEST_CASE("HSDP: the replica all-reduce hides behind the backward only (FSDP's all-reduce stream, waited at the end of backward)") {
    // FSDP issues each block's all-reduce after its reduce-scatter, on its own stream, and the end of
    // backward waits for it: the forward cannot hide it. On a slow network (0.1 GB/s per GPU) the
    // all-reduce outlasts the whole step's compute, so exposed = AR − φ·backward, more than AR − φ·compute.
    Scenario s = llama8b(16);
    s.training.framework = Framework::fsdp;
    s.parallel.zero_stage = 3;
    s.parallel.zero_impl = ZeroImpl::fsdp;
    s.parallel.shard_group = 8;
    s.hardware.inter_node_gbps = 0.1;
    REQUIRE(validate(s).empty());
    Estimate e = estimate(s);
    const auto& br = e.performance.breakdown_seconds;
    const ThroughputConstants& c = throughput_constants(gpu_family(s.hardware.gpu));
    ShardingGroups g = sharding_groups(s.parallel, e.layout);
    double mb = e.performance.microbatches;
    double ar = mb * replica_all_reduce_seconds(g, e.params_per_gpu * e.bytes_per_parameter.gradients / g.shard, 1, 8,
                                                s.hardware.intra_node_gbps * 1e9 * c.intra_node_efficiency,
                                                s.hardware.inter_node_gbps * 1e9 * c.inter_node_efficiency);
    REQUIRE(ar > br.compute);
    CHECK(br.data_parallel > ar - c.overlap_fraction * br.compute);
    CHECK(br.data_parallel < ar - c.overlap_fraction * br.compute / 2.0);  // the backward is over half the compute
}

TEST_CASE("planner: context parallelism searched for long sequences only") {
    Scenario s = llama8b();
    s.training.framework = Framework::megatron;
    s.training.global_batch_size = 8;
    PlanOptions o;
    o.max_results = 50;
    PlanResult short_seq = plan(s, o);
    REQUIRE(!short_seq.plans.empty());
    for (const auto& p : short_seq.plans) CHECK(p.scenario.parallel.context == 1);
    // torchtitan benchmarks/llama3_h100_202412_torchtitan.md Table 2: Llama 3.1 8B at 131,072 tokens on
    // 8 H100 runs with CP 4 (FSDP 2); one sequence per GPU does not fit in 80 GB without CP.
    s.training.seq_len = 131072;
    PlanResult long_seq = plan(s, o);
    REQUIRE(!long_seq.plans.empty());
    CHECK(long_seq.plans.front().scenario.parallel.context > 1);
    CHECK(validate(long_seq.plans.front().scenario).empty());
}

TEST_CASE("CP keeps memory per GPU flat as s grows with cp, as torchtitan measured (Table 2: 83.9-84.5 GiB)") {
    // torchtitan benchmarks/llama3_h100_202412_torchtitan.md Table 2: Llama 3.1 8B, 8 GPUs, FSDP +
    // CP + compile + Float8, local batch 1, full AC: (FSDP 8, CP 1, 32k) 83.9, (4, 2, 64k) 84.2,
    // (2, 4, 128k) 84.0, (1, 8, 256k) 84.5 GiB: within 0.7 %. The activations per GPU follow s/cp.
    double lowest = 0, highest = 0;
    for (std::int64_t cp : {1, 2, 4, 8}) {
        Scenario s = llama8b();
        s.training.seq_len = 32768 * cp;
        s.training.global_batch_size = 8 / cp;
        s.training.framework = Framework::fsdp;
        s.training.kernels = Kernels::compiled;
        s.training.recompute = Recompute::full;
        s.training.fp8 = Fp8Recipe::tensorwise;
        s.parallel.context = cp;
        s.parallel.zero_stage = 3;
        s.parallel.zero_impl = ZeroImpl::fsdp;
        s.hardware.memory_gib = 96;
        INFO("cp " << cp);
        REQUIRE(validate(s).empty());
        double reserved = estimate(s).memory_per_gpu_bytes.peak_reserved;
        lowest = cp == 1 ? reserved : std::min(lowest, reserved);
        highest = std::max(highest, reserved);
    }
    CHECK(highest / lowest - 1.0 < 0.01);
}
