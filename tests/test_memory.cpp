// Memory terms against Transformer Math 101 (https://blog.eleuther.ai/transformer-math/), "LLM parameters,
// VRAM, TFLOPs? Training part 5" (WeChat article), Korthikanti et al. 2022 (arXiv:2205.05198) and the
// ZeRO paper (arXiv:1910.02054).
#include <catch2/catch.hpp>

#include "core/estimate.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;

namespace {

// The Llama-65B activation example of "LLM parameters, VRAM, TFLOPs? Training part 5": GPT-shaped layers (GELU, f = 4h), dropout,
// no FlashAttention, no recomputation, one GPU's worth of layers.
Scenario worked_llama65b(std::int64_t micro_batch) {
    Scenario s;
    s.model.name = "worked Llama-65B";
    s.model.layers = 80;
    s.model.hidden_size = 8192;
    s.model.num_heads = 64;
    s.model.vocab_size = 32000;
    s.model.max_position_embeddings = 2048;
    s.training.seq_len = 2048;
    s.training.micro_batch_size = micro_batch;
    s.training.global_batch_size = 0;
    s.training.grad_accum_steps = 1;
    s.parallel.num_gpus = 1;
    s.parallel.zero_stage = 0;
    return s;
}

double model_states(const Estimate& e) {
    const auto& m = e.model_states_bytes;
    return m.weights + m.gradients + m.optimizer;
}

}  // namespace

TEST_CASE("LLM parameters, VRAM, TFLOPs? part 5: Llama-65B activations are 80·(34·sbh + 5·as²b)") {
    // 80·(34·1·2048·8192 + 5·1·64·2048²) = 153,008,209,920 bytes ("≈150 G").
    Estimate e = estimate(worked_llama65b(1));
    CHECK(e.activations.sbh_coefficient == 34.0);
    CHECK(e.activations.as2b_coefficient == 5.0);
    CHECK(e.activations.transformer_layers_bytes == 153008209920.0);
    // At b = 128: "≈ 19.5 T" (the same article), exactly 128× the b = 1 figure.
    Estimate e128 = estimate(worked_llama65b(128));
    CHECK(e128.activations.transformer_layers_bytes == 128.0 * 153008209920.0);
    CHECK(e128.activations.transformer_layers_bytes / 1e12 == Approx(19.5).epsilon(0.01));
}

TEST_CASE("LLM parameters, VRAM, TFLOPs? part 5: 16 bytes per parameter for mixed-precision AdamW") {
    Scenario s = worked_llama65b(1);
    Estimate e = estimate(s);
    const auto& b = e.bytes_per_parameter;
    CHECK(b.weights + b.gradients + b.optimizer == 16.0);
    // "2 bytes per parameter = 130 G" for LLaMA-65B (65.2B parameters).
    s.model = find_model_preset("llama-65b")->model;
    CHECK(estimate(s).memory_per_gpu_bytes.weights / 1e9 == Approx(130.0).epsilon(0.01));
}

TEST_CASE("Transformer Math 101: bytes per parameter by precision and optimizer") {
    Scenario s;
    auto bpp = [&](Precision p, Optimizer o, GradDtype g = GradDtype::match) {
        s.training.precision = p;
        s.training.optimizer = o;
        s.training.grad_dtype = g;
        return estimate(s).bytes_per_parameter;
    };
    // Mixed precision: 2-byte weights, 2-byte gradients, AdamW 12 (fp32 copy 4 + momentum 4 + variance 4).
    auto mixed = bpp(Precision::mixed_bf16, Optimizer::adamw);
    CHECK(mixed.weights == 2);
    CHECK(mixed.gradients == 2);
    CHECK(mixed.optimizer == 12);
    // 8-bit Adam (bitsandbytes): 4 + 1 + 1 = 6.
    CHECK(bpp(Precision::mixed_fp16, Optimizer::adamw_8bit).optimizer == 6);
    // SGD with momentum: 4 + 4 = 8.
    CHECK(bpp(Precision::mixed_bf16, Optimizer::sgd_momentum).optimizer == 8);
    // Pure fp32: 4 weights + 4 gradients + 8 AdamW states (no master copy).
    auto fp32 = bpp(Precision::fp32, Optimizer::adamw);
    CHECK(fp32.weights == 4);
    CHECK(fp32.gradients == 4);
    CHECK(fp32.optimizer == 8);
    // Gradients kept in fp32.
    CHECK(bpp(Precision::mixed_bf16, Optimizer::adamw, GradDtype::fp32).gradients == 4);
}

TEST_CASE("ZeRO paper Figure 1: 7.5B parameters, 64-way data parallel, K = 12") {
    // Rajbhandari et al. 2019: (2 + 2 + K)·Ψ = 120 GB; P_os 31.4 GB; P_os+g 16.6 GB; P_os+g+p 1.88 GB.
    Scenario s;
    s.model.params_override = 7.5e9;
    s.training.precision = Precision::mixed_fp16;
    s.parallel.num_gpus = 64;
    s.training.global_batch_size = 64;
    s.parallel.zero3_live_params = 0;
    const double expected_gb[] = {120.0, 31.4, 16.6, 1.88};
    for (int stage = 0; stage <= 3; ++stage) {
        s.parallel.zero_stage = stage;
        INFO("ZeRO stage " << stage);
        CHECK(model_states(estimate(s)) / 1e9 == Approx(expected_gb[stage]).epsilon(0.005));
    }
}

TEST_CASE("ZeRO divides by the data-parallel degree, not the GPU count") {
    Scenario s;
    s.model.params_override = 8e9;
    s.parallel.num_gpus = 64;
    s.parallel.tensor = 4;
    s.parallel.pipeline = 2;  // DP = 64 / 8 = 8
    s.training.global_batch_size = 64;
    s.parallel.zero_stage = 1;
    Estimate e = estimate(s);
    CHECK(e.layout.data_parallel == 8);
    // Model states per GPU before ZeRO: P / (t·p) = 1e9; optimizer 12 B ÷ DP 8.
    CHECK(e.params_per_gpu == 1e9);
    CHECK(e.model_states_bytes.weights == 2e9);
    CHECK(e.model_states_bytes.gradients == 2e9);
    CHECK(e.model_states_bytes.optimizer == 12e9 / 8);
    s.parallel.zero_stage = 3;
    s.parallel.pipeline = 1;
    s.parallel.tensor = 8;
    s.parallel.zero3_live_params = 5e7;
    e = estimate(s);
    // ZeRO-3: weights ÷ DP plus the live (gathered) 16-bit parameters.
    CHECK(e.model_states_bytes.weights == 2.0 * 1e9 / 8);
    CHECK(e.model_states_bytes.live_params == 2.0 * 5e7);
    CHECK(e.memory_per_gpu_bytes.zero3_live_params == 2.0 * 5e7);
}

TEST_CASE("Korthikanti et al. 2022: activations with tensor parallelism and recomputation") {
    // GPT-3 175B layer shape, s = 2048, b = 1, t = 8.
    Scenario s;
    s.model = find_model_preset("gpt3-175b")->model;
    s.training.seq_len = 2048;
    s.training.micro_batch_size = 1;
    s.parallel.num_gpus = 8;
    s.parallel.tensor = 8;
    s.parallel.zero_stage = 0;
    s.training.global_batch_size = 8;
    double sbh = 2048.0 * 1 * 12288, a = 96, h = 12288, t = 8, seq = 2048;
    // No recomputation: sbh(10 + 24/t + 5as/(ht)) per layer (Transformer Math 101, eq. for t-way TP).
    double none = sbh * (10 + 24 / t + 5 * a * seq / (h * t));
    CHECK(estimate(s).activations.per_layer_bytes == Approx(none).epsilon(1e-12));
    // Selective recomputation: sbh(10 + 24/t).
    s.training.recompute = Recompute::selective;
    CHECK(estimate(s).activations.per_layer_bytes == Approx(sbh * (10 + 24 / t)).epsilon(1e-12));
    // Full recomputation: 2·sbh per layer.
    s.training.recompute = Recompute::full;
    CHECK(estimate(s).activations.per_layer_bytes == Approx(2 * sbh).epsilon(1e-12));
    // Sequence parallelism + selective recomputation: 34·sbh/t (Korthikanti Table 2).
    s.training.recompute = Recompute::selective;
    s.parallel.sequence_parallel = true;
    CHECK(estimate(s).activations.per_layer_bytes == Approx(34 * sbh / t).epsilon(1e-12));
    // Sequence parallelism, no recomputation: sbh(34/t + 5as/(ht)).
    s.training.recompute = Recompute::none;
    CHECK(estimate(s).activations.per_layer_bytes == Approx(sbh * (34 / t + 5 * a * seq / (h * t))).epsilon(1e-12));
}

TEST_CASE("FlashAttention and dropout change the per-layer terms") {
    Scenario s = worked_llama65b(1);
    s.training.flash_attention = true;
    Estimate e = estimate(s);
    CHECK(e.activations.as2b_coefficient == 0);
    CHECK(e.activations.sbh_coefficient == 34);
    s.training.dropout = false;  // no masks: 34 − 2 (two 1-byte masks) = 32; scores 2 without mask/output copy
    s.training.flash_attention = false;
    e = estimate(s);
    CHECK(e.activations.sbh_coefficient == 32);
    CHECK(e.activations.as2b_coefficient == 2);
}

TEST_CASE("GQA and SwiGLU generalise the 34·sbh coefficient") {
    // Llama-2-70B shape: g/a = 1/8, f/h = 3.5, SwiGLU, no dropout, fused kernels: norms 4 + QKV and
    // MLP inputs 4 + Q 2 + K,V 4/8 + out-projection input 2 + fused SwiGLU (fc1 output 2·2f/h and
    // its output 2f/h, Megatron-LM bias_swiglu_impl / Transformer Engine LayerNormMLP) 6·3.5 = 33.5.
    Scenario s;
    s.model = find_model_preset("llama-2-70b")->model;
    s.training.dropout = false;
    s.training.flash_attention = true;
    CHECK(estimate(s).activations.sbh_coefficient == 33.5);
    // Eager PyTorch modules (Hugging Face LlamaMLP: gate, SiLU output, up, product = 4 f-wide
    // tensors) keep 8f/h; RMSNorm keeps its fp32 upcast (4) and normalised copy (2) twice; SDPA keeps
    // Q, K, V, O and an fp32 log-sum-exp per head: 12 + 4 + 2 + 1/2 + 2 + 28 = 48.5 (+ 4a/h for the lse).
    s.training.kernels = Kernels::eager;
    Estimate e = estimate(s);
    double lse = 4.0 * 64 / 8192;
    CHECK(e.activations.sbh_coefficient == Approx(48.5 + lse).epsilon(1e-12));
}

TEST_CASE("pipeline parallelism: the first stage keeps p micro-batches of L/p layers") {
    Scenario s = worked_llama65b(1);
    s.parallel.num_gpus = 8;
    s.parallel.pipeline = 8;
    s.training.grad_accum_steps = 16;
    Estimate e = estimate(s);
    CHECK(e.activations.layers_on_gpu == 10);
    CHECK(e.activations.in_flight_microbatches == 8);
    // 8 micro-batches × 10 layers = the same as all 80 layers of one micro-batch (Korthikanti §4.2.3).
    CHECK(e.activations.transformer_layers_bytes == 153008209920.0);
    // Fewer micro-batches than stages: only those are in flight.
    s.training.grad_accum_steps = 2;
    CHECK(estimate(s).activations.in_flight_microbatches == 2);
}

TEST_CASE("interleaved pipeline: the first stage keeps L·(1 + (p−1)/(p·v)) layers of activations") {
    // Korthikanti et al. 2022 (arXiv:2205.05198) §4.2.3: with v model chunks per rank the first stage
    // stores activations of L·(1 + (p−1)/(p·v)) layers; 80 layers, p = 8, v = 2 → 80·(1 + 7/16) = 115.
    Scenario s = worked_llama65b(1);
    s.parallel.num_gpus = 8;
    s.parallel.pipeline = 8;
    s.parallel.interleave = 2;
    s.training.grad_accum_steps = 16;
    Estimate e = estimate(s);
    CHECK(e.activations.layers_on_gpu == 10);
    CHECK(e.activations.in_flight_microbatches == Approx(8 + 7.0 / 2));
    // One layer of one micro-batch: 153,008,209,920 B / 80 (the test above); 115 layers.
    CHECK(e.activations.transformer_layers_bytes == Approx(153008209920.0 / 80 * 115).epsilon(1e-12));
    s.parallel.interleave = 1;
    double plain = estimate(s).activations.transformer_layers_bytes;
    CHECK(e.activations.transformer_layers_bytes / plain == Approx(1 + 7.0 / 16).epsilon(1e-12));
    // All micro-batches in flight at most.
    s.parallel.interleave = 2;
    s.training.grad_accum_steps = 8;
    CHECK(estimate(s).activations.in_flight_microbatches == 8);
}

TEST_CASE("embedding and output activations are counted") {
    Scenario s = worked_llama65b(1);
    Estimate e = estimate(s);
    double sbh = 2048.0 * 8192, sbv = 2048.0 * 32000;
    CHECK(e.activations.embedding_bytes == sbh);                  // 1-byte dropout mask
    CHECK(e.activations.output_bytes == 4 * sbh);                 // final-norm and LM-head inputs
    // Megatron's vocab-parallel cross-entropy keeps the fp32 logits: 4·s·b·V/t. [Korthikanti §4.3]
    CHECK(e.activations.logits_elements == sbv);
    CHECK(e.activations.loss_per_logit.saved == 4.0);
    CHECK(e.activations.total_bytes ==
          e.activations.transformer_layers_bytes + e.activations.embedding_bytes + e.activations.output_bytes);
}

TEST_CASE("totals, capacity, fit and offload") {
    Scenario s;
    s.hardware.reserved_gib = 1.5;
    Estimate e = estimate(s);
    const auto& m = e.memory_per_gpu_bytes;
    CHECK(m.peak_allocated == m.weights + m.gradients + m.optimizer + m.activations + m.logits + m.temporaries);
    // The CUDA context (0.5 GiB), NCCL's buffers (0.5 GiB per communicator: here the one DP group)
    // and the fixed reserve sit outside the allocator.
    CHECK(m.total == m.peak_reserved + (0.5 + 0.5 + 1.5) * bytes_per_gib);
    // One communicator per process group that communicates (ProcessGroupNCCL; Megatron's
    // parallel_state): t = 2, p = 2, DP = 2 holds three; one GPU none.
    auto nccl_gib = [](Scenario x) {
        Estimate y = estimate(x);
        const auto& mm = y.memory_per_gpu_bytes;
        return (mm.total - mm.peak_reserved) / bytes_per_gib - x.hardware.cuda_context_gib - x.hardware.reserved_gib;
    };
    Scenario three_d = s;
    three_d.parallel.tensor = 2;
    three_d.parallel.pipeline = 2;
    REQUIRE(validate(three_d).empty());
    CHECK_THAT(nccl_gib(three_d), Catch::Matchers::WithinAbs(1.5, 1e-9));
    three_d.parallel.num_gpus = 4;  // DP = 1: tensor and pipeline groups only
    REQUIRE(validate(three_d).empty());
    CHECK_THAT(nccl_gib(three_d), Catch::Matchers::WithinAbs(1.0, 1e-9));
    Scenario one = s;
    one.parallel.num_gpus = 1;
    one.parallel.zero_stage = 0;
    REQUIRE(validate(one).empty());
    CHECK_THAT(nccl_gib(one), Catch::Matchers::WithinAbs(0.0, 1e-9));
    CHECK(m.overhead == m.total - m.peak_allocated);
    CHECK(e.capacity_bytes == 80 * bytes_per_gib);
    CHECK(e.headroom_bytes == e.capacity_bytes - m.total);
    CHECK(e.fits == (m.total <= e.capacity_bytes));

    double optimizer = e.model_states_bytes.optimizer;
    s.parallel.offload_optimizer = true;
    Estimate off = estimate(s);
    CHECK(off.memory_per_gpu_bytes.optimizer == 0);
    CHECK(off.model_states_bytes.optimizer == 0);
    CHECK(off.host_memory_bytes.per_gpu == optimizer);
    CHECK(off.host_memory_bytes.total == optimizer * s.parallel.num_gpus);

    s.hardware.memory_gib = 1;
    CHECK_FALSE(estimate(s).fits);
    CHECK(estimate(s).warnings.has(Warning::does_not_fit));
}

TEST_CASE("SDPA with grouped-query attention in fp32 falls back to the math path") {
    // FlashAttention needs 16-bit inputs and the memory-efficient/cuDNN kernels do not broadcast
    // K/V heads, so fp32 + enable_gqa runs PyTorch's math SDPA, which keeps the probabilities
    // (pytorch/pytorch#181528). Multi-head attention in fp32 keeps the efficient kernel.
    Scenario s;
    s.model = find_model_preset("llama-3-8b")->model;  // 8 KV heads for 32 query heads
    s.training.kernels = Kernels::eager;
    s.training.flash_attention = true;
    s.training.dropout = false;
    s.training.precision = Precision::bf16;
    CHECK(estimate(s).activations.as2b_coefficient == 0);
    s.training.precision = Precision::fp32;
    CHECK(estimate(s).activations.as2b_coefficient == 4);  // fp32 softmax output, no dropout
    s.model = find_model_preset("llama-2-7b")->model;     // 32 KV heads: no GQA
    CHECK(estimate(s).activations.as2b_coefficient == 0);
}
