// Step-time model: compute at measured efficiencies + communication + bubble + optimizer + overhead.
// Sources (docs/formulas.md "Throughput model" has every term with its derivation and limits):
//   [MEGA-21]  Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters
//              Using Megatron-LM", arXiv 2104.04473 (TP all-reduces, 1F1B bubble, interleaving, scatter-gather)
//   [MEGA-ACT] Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
//              Models", arXiv 2205.05198 (sequence parallelism, selective recomputation)
//   [ZERO]     Rajbhandari et al. 2019, "ZeRO: Memory Optimizations Toward Training Trillion Parameter
//              Models", arXiv 1910.02054 §7 (communication volume per stage)
//   [FA2]      Dao 2023, "FlashAttention-2", arXiv 2307.08691 (backward = 2.5× forward FLOPs)
//   [LORA]     Hu et al. 2021, "LoRA: Low-Rank Adaptation of Large Language Models", arXiv 2106.09685
//   [HF]       Hugging Face transformers 5.x modeling code: models/llama/modeling_llama.py (LlamaRMSNorm,
//              LlamaMLP, apply_rotary_pos_emb), loss/loss_utils.py (ForCausalLMLoss), activations.py (gelu_new)
//   [H200-K]   tests/data/throughput/h200_kernels.json: bf16 GEMM, SDPA and copy throughput measured on
//              one H200 (PyTorch 2.11, CUDA 13), the data the curves below are fitted on
#include "core/training/performance.hpp"

#include <algorithm>
#include <cmath>

#include "core/training/context_parallel.hpp"
#include "core/training/kernel_times.hpp"
#include "core/training/finetune.hpp"
#include "core/training/fp8.hpp"
#include "core/model/presets.hpp"

namespace vramcalc {
namespace {

// ── The constants, one table. Fits: tests/throughput_fit.cpp (prints docs/accuracy.md's table). ──
// gemm_*: least squares in log time on the 26 H200 GEMMs with M ≥ 8192 [H200-K] (shorter kernels run
//   at boost clocks that sustained training does not keep: docs/formulas.md).
// flash_*: least squares on the 6 H200 causal SDPA forward+backward runs [H200-K].
// memory_bandwidth_fraction: 1 GiB device copy 4.24 TB/s of 4.8 TB/s nominal [H200-K].
// intra_node_efficiency: NCCL all_reduce bus bandwidth ≈ 200 GB/s of 300 GB/s on 8 NVLink A100-80GB
//   (github.com/NVIDIA/nccl-tests/issues/149); the same fraction is assumed for NVLink 4.
// inter_node_efficiency, compute_factor (ampere), overlap_fraction, step_overhead_seconds: fitted on
//   the "fit" cases of tests/data/throughput/ (A100: Narayanan et al. 2021 Table 1 and the 175B rows
//   of the PTD-P/ZeRO-3 comparison); the overlap and overhead describe software, so every family uses them.
//   inter_node_efficiency is bounded to [0.5, 1] (the fit sits on 0.5); deepspeed_zero3_efficiency is
//   fitted on the three 175B ZeRO-3 rows (held out: the 530B rows).
constexpr double gemm_peak_fraction = 0.7175;
constexpr double gemm_operand_bandwidth_factor = 8.75 / 4.8;
constexpr double gemm_latency_seconds = 9e-6;
constexpr double flash_peak_fraction = 0.60;
constexpr double flash_bytes_per_element = 17.5;
constexpr double flash_latency_seconds = 1.8e-4;
constexpr double memory_bandwidth_fraction = 4.2397 / 4.8;
constexpr double nvlink_allreduce_efficiency = 200.0 / 300.0;
constexpr double fitted_inter_node_efficiency = 0.5000;
constexpr double fitted_ampere_compute_factor = 1.0662;
constexpr double fitted_overlap_fraction = 0.6680;
constexpr double fitted_step_overhead_seconds = 0.0;
constexpr double fitted_deepspeed_zero3_efficiency = 0.1729;

constexpr ThroughputConstants hopper_constants = {
    gemm_peak_fraction,          gemm_operand_bandwidth_factor, gemm_latency_seconds,
    flash_peak_fraction,         flash_bytes_per_element,       flash_latency_seconds,
    memory_bandwidth_fraction,   nvlink_allreduce_efficiency,   fitted_inter_node_efficiency,
    1.0,                         fitted_overlap_fraction,       fitted_step_overhead_seconds,
    true,                        fitted_deepspeed_zero3_efficiency,
};
constexpr ThroughputConstants ampere_constants = {
    gemm_peak_fraction,          gemm_operand_bandwidth_factor, gemm_latency_seconds,
    flash_peak_fraction,         flash_bytes_per_element,       flash_latency_seconds,
    memory_bandwidth_fraction,   nvlink_allreduce_efficiency,   fitted_inter_node_efficiency,
    fitted_ampere_compute_factor, fitted_overlap_fraction,      fitted_step_overhead_seconds,
    true,                        fitted_deepspeed_zero3_efficiency,
};
// Families without published runs use the H200-measured curves as they are (uncalibrated).
constexpr ThroughputConstants generic_constants = [] {
    ThroughputConstants c = hopper_constants;
    c.calibrated = false;
    return c;
}();

// Offloaded optimizer (ZeRO-Offload): not validated; assumed PCIe 4.0 x16 and host-DRAM share per GPU.
constexpr double host_link_bytes_per_second = 25e9;
constexpr double host_memory_bytes_per_second = 25e9;

// Memory-bound traffic of one transformer layer, forward, per token, in activation elements
// (Megatron fused kernels [MEGA-ACT §4]): two norms read+write h (2·2h), two residual adds read 2h
// write h (2·3h) → 10h outside the TP region; 1-byte dropout masks 2h; the MLP activation reads
// and writes f (GELU 2f; SwiGLU reads gate and up, writes f: 3f) inside it; RoPE rotates q and k.
constexpr double replicated_elements_per_h = 10.0;
constexpr double dropout_mask_bytes_per_h = 2.0;
// Backward of the same ops reads the saved input and the incoming gradient and writes one gradient:
// ~1.5× the forward traffic (docs/formulas.md).
constexpr double backward_memory_factor = 1.5;
// Attention scores without FlashAttention, bytes per a·s²·b element: fused scale-mask-softmax
// reads and writes 2 B (4), dropout reads 2, writes 2 and a 1-byte mask (5); backward 6 (+5).
constexpr double scores_forward_bytes = 4.0, scores_backward_bytes = 6.0, scores_dropout_bytes = 5.0;
// Vocabulary-parallel cross-entropy, bytes per logit: fp16 logits read twice + fp32 softmax written
// (8) forward, softmax read + gradient written (6) backward.
constexpr double loss_bytes_per_logit = 14.0;
// Eager PyTorch modules (kernels: eager, the HF Transformers profile) run each elementwise op as its
// own kernel; bytes moved per element, forward, counted op by op in transformers' modeling code [HF]:
// LlamaRMSNorm on 16-bit input: to(fp32) r2 w4, pow(2) r4 w4, mean r4, x·rsqrt r4 w4, to(16-bit)
// r4 w2, weight· r2 w2 = 36 (fp32 input, AMP's residual stream: the casts vanish, 28); nn.LayerNorm
// is one native kernel (read + write). SwiGLU act_fn(gate)·up: silu r1 w1 + mul r2 w1 = 5 elements;
// GPT-2's gelu_new tanh formula: 8 kernels, 18 elements; apply_rotary_pos_emb per q/k element:
// neg + cat (rotate_half) 3, two muls 4, add 3 = 10 elements. Cross-entropy on the fp32-upcast
// logits (ForCausalLMLoss): .float() r2 w4, log_softmax r4 w4, backward r8 w4, cast back r4 w2 = 32
// bytes per logit plus the nll gradient's w4: 36.
constexpr double eager_rmsnorm_bytes_16bit = 36.0, eager_rmsnorm_bytes_fp32 = 28.0;
constexpr double eager_swiglu_elements_per_f = 5.0, eager_gelu_new_elements_per_f = 18.0;
constexpr double eager_rope_elements = 10.0;
constexpr double eager_loss_bytes_per_logit = 36.0;
// Without TF32 (PyTorch's default for fp32 matmuls, which HF Trainer keeps unless --tf32), fp32 GEMMs
// run on the CUDA cores: A100 19.5 of 312 TFLOP/s, H100 SXM 67 of 989 (datasheets): 1/16 of the
// dense 16-bit peak.
constexpr double fp32_no_tf32_fraction = 1.0 / 16.0;
// Fixed time of one memory-bound kernel (launch ramp-up and tail), seconds: the 16 MiB device copy
// took 12.61 µs where the 1 GiB copy's bandwidth (4.24 TB/s) moves its 32 MiB in 7.91 µs. [H200-K]
constexpr double memory_kernel_fixed_seconds = 4.7e-6;
// Autograd writes one gradient per differentiable input of each elementwise op (mul: two, to(): one;
// PyTorch tools/autograd/derivatives.yaml): about two backward kernels per forward kernel.
constexpr double backward_kernels_per_forward = 2.0;

// Megatron-Core --tp-comm-overlap through Transformer Engine's userbuffers (initialize_ub,
// transformer_engine/pytorch/module/base.py): a pipelined overlap splits its GEMM in 4
// (num_splits), and pipelined and bulk overlaps run their communication kernels on 16 SMs taken
// from the GEMM (num_sm 16, set_sm_margin); ring exchanges split in t and use copy engines.
constexpr double userbuffers_pipeline_splits = 4.0;
constexpr double userbuffers_comm_sms = 16.0;
// SMs per GPU: A100 108 (NVIDIA A100 Tensor Core GPU Architecture whitepaper), H100 SXM5 / H200
// 132 (NVIDIA H100 Tensor Core GPU Architecture whitepaper; the PCIe card has 114); other
// families as Hopper.
double streaming_multiprocessors(GpuFamily family) { return family == GpuFamily::ampere ? 108.0 : 132.0; }


}  // namespace

const ThroughputConstants& throughput_constants(GpuFamily family) {
    switch (family) {
        case GpuFamily::ampere: return ampere_constants;
        case GpuFamily::hopper: return hopper_constants;
        default: return generic_constants;
    }
}



namespace {

// What the hardware delivers to this scenario: peak FLOP/s for its dtype and the bandwidths the
// constants scale.
struct Rates {
    double peak = 0;        // FLOP/s of the matmuls
    double memory_bw = 0;   // nominal memory bandwidth, B/s
    double copy_bw = 0;     // achieved copy bandwidth, B/s
    double intra_bw = 0;    // NCCL bus bandwidth inside a node, B/s
    double inter_bw = 0;    // across nodes, per GPU, B/s
    double gpus_per_node = 1;
    double act_bytes = 2;   // bytes of an activation element
    bool fp32 = false, eager = false, autocast = false;
};

Rates rates(const Scenario& sc, const ThroughputConstants& c) {
    const auto& tr = sc.training;
    const auto& hw = sc.hardware;
    Rates x;
    x.fp32 = tr.precision == Precision::fp32;
    x.eager = tr.kernels == Kernels::eager;
    x.autocast = tr.precision == Precision::amp_bf16 || tr.precision == Precision::amp_fp16;
    x.act_bytes = x.fp32 ? 4.0 : 2.0;
    // fp32 training runs matmuls as TF32 (Megatron): half the dense 16-bit peak (A100/H100
    // datasheets); eager PyTorch keeps TF32 off: the CUDA cores' fp32 rate.
    x.peak = hw.peak_tflops * 1e12 * c.compute_factor * (x.fp32 ? (x.eager ? fp32_no_tf32_fraction : 0.5) : 1.0);
    x.memory_bw = hw.memory_bandwidth_gbps * 1e9;
    x.copy_bw = x.memory_bw * c.memory_bandwidth_fraction;
    x.gpus_per_node = double(hw.gpus_per_node);
    x.intra_bw = hw.intra_node_gbps * 1e9 * c.intra_node_efficiency;
    x.inter_bw = hw.inter_node_gbps * 1e9 * c.inter_node_efficiency;
    return x;
}

// One layer, one micro-batch, on one GPU: forward and backward seconds by kind of work.
struct LayerTimes {
    double gemm_forward = 0, gemm_backward = 0;
    double attention_forward = 0, attention_backward = 0;
    double elementwise_forward = 0, elementwise_backward = 0;
    double expert_tokens = 0;  // GEMM rows an expert's MLP sees (all tokens for dense models)
    Fp8CastSeconds casts{};    // FP8 linears: their quantise kernels (fp8.hpp), memory-bound
    double linear_forward[4] = {};  // forward GEMM seconds of QKV, output projection, MLP up, MLP down
    double forward() const { return gemm_forward + attention_forward + elementwise_forward; }
    double backward() const { return gemm_backward + attention_backward + elementwise_backward; }
};

// Forward GEMMs: QKV, output projection, MLP up (gate+up) and down, each split over t (column- or
// row-parallel) [MEGA-21 §2.3]; backward: input and weight gradient, each a GEMM of the same shape.
void layer_gemms(const Scenario& sc, const Layout& r, const Rates& x, const ThroughputConstants& c, LayerTimes& l) {
    const auto& m = sc.model;
    double t = double(sc.parallel.tensor), ep = double(sc.parallel.expert);
    const auto& tr = sc.training;
    double tokens = tokens_per_gpu(tr, sc.parallel);  // b·s/cp, all-gathered under SP
    double h = double(m.hidden_size), a = double(m.num_heads), g = double(r.kv_heads), d = double(r.head_dim);
    double f = double(r.ffn_hidden_size), experts = double(m.num_experts), top_k = double(m.experts_per_token);
    // FP8 linears (fp8.hpp): the same GEMMs at the FP8 peak with 1-byte operands, plus their casts.
    const double fp8_peak = fp8_training(tr) ? x.peak * fp8_peak_ratio(sc.hardware.gpu) : 0.0;
    auto linear = [&](double mm, double kk, double nn, double count) {
        return fp8_training(tr) ? fp8_gemm_seconds(mm, kk, nn, count, fp8_peak, x.memory_bw, c)
                                : perf::gemm_seconds(mm, kk, nn, count, x.peak, x.memory_bw, c);
    };
    double local_experts = experts > 1 ? experts / ep : 1.0;
    l.expert_tokens = experts > 1 ? tokens * top_k * ep / experts : tokens;
    double up_width = (m.mlp == MlpKind::swiglu ? 2.0 : 1.0) * f / t;
    const Fp8Linear linears[] = {{tokens, h, (a * d + 2.0 * g * d) / t, 1}, {tokens, a * d / t, h, 1},
                                 {l.expert_tokens, h, up_width, local_experts}, {l.expert_tokens, f / t, h, local_experts}};
    l.gemm_forward = 0;
    for (int i = 0; i < 4; ++i) {
        l.linear_forward[i] = linear(linears[i].rows, linears[i].d_in, linears[i].d_out, linears[i].count);
        l.gemm_forward += l.linear_forward[i];
    }
    l.casts = fp8_cast_seconds(tr, linears, 4, double(r.grad_accum_steps), x.copy_bw);
    l.gemm_backward = 2.0 * l.gemm_forward;
}

// Attention core (QKᵀ, softmax, ·V) for a/t heads: FlashAttention, or batched GEMMs per (sequence,
// head) plus the s×s score tensor through memory. [FA2; MEGA-ACT §4.1]
void layer_attention(const Scenario& sc, const Layout& r, const Rates& x, const ThroughputConstants& c, LayerTimes& l) {
    const auto& tr = sc.training;
    double b = double(tr.micro_batch_size), s = double(tr.seq_len), d = double(r.head_dim);
    double heads = double(sc.model.num_heads) / double(sc.parallel.tensor);
    if (tr.flash_attention) {
        double total = context_parallel_attention_seconds(perf::flash_attention_seconds(b, heads, s, d, x.peak, x.memory_bw, c),
                                                          c.flash_latency_seconds, double(sc.parallel.context));
        l.attention_forward = total / flash_train_over_forward;
        l.attention_backward = total - l.attention_forward;
        return;
    }
    double batches = b * heads;
    double scores_gemms = perf::gemm_seconds(s, d, s, batches, x.peak, x.memory_bw, c) +
                          perf::gemm_seconds(s, s, d, batches, x.peak, x.memory_bw, c);
    double score_elements = batches * s * s;
    double dropout_bytes = tr.dropout ? scores_dropout_bytes : 0.0;
    l.attention_forward = scores_gemms + score_elements * (scores_forward_bytes + dropout_bytes) / x.copy_bw;
    l.attention_backward = 2.0 * scores_gemms + score_elements * (scores_backward_bytes + dropout_bytes) / x.copy_bw;
}

// Memory-bound elementwise ops (norms, residual adds, dropout, MLP activation, RoPE).
void layer_elementwise(const Scenario& sc, const Layout& r, const Rates& x, LayerTimes& l) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const auto& par = sc.parallel;
    double t = double(par.tensor), tokens = tokens_per_gpu(tr, par);
    double h = double(m.hidden_size), a = double(m.num_heads), g = double(r.kv_heads), d = double(r.head_dim);
    double f = double(r.ffn_hidden_size), top_k = double(m.experts_per_token), act_bytes = x.act_bytes;
    bool sp = par.sequence_parallel && par.tensor > 1;
    double replicated_bytes = replicated_elements_per_h * h * act_bytes + (tr.dropout ? dropout_mask_bytes_per_h * h : 0.0);
    double activation_elements = (m.mlp == MlpKind::swiglu ? 3.0 : 2.0) * f / t * top_k;
    double rope_elements = m.position_embedding == PositionEmbedding::rope ? 2.0 * (a + g) * d / t : 0.0;
    if (x.eager) {
        // One kernel per op [HF]: see the eager_* constants. AMP keeps the residual stream in fp32.
        double stream_bytes = x.autocast ? 4.0 : act_bytes;
        double norm_bytes = m.norm == NormKind::rmsnorm
                                ? (stream_bytes == 4.0 ? eager_rmsnorm_bytes_fp32 : eager_rmsnorm_bytes_16bit)
                                : 2.0 * stream_bytes;
        replicated_bytes = (2.0 * norm_bytes + 2.0 * 3.0 * stream_bytes + (tr.dropout ? dropout_mask_bytes_per_h : 0.0)) * h;
        double per_f = m.mlp == MlpKind::swiglu ? eager_swiglu_elements_per_f
                       : m.activation == Activation::gelu_new ? eager_gelu_new_elements_per_f
                                                              : 2.0;
        activation_elements = per_f * f / t * top_k;
        rope_elements = m.position_embedding == PositionEmbedding::rope ? eager_rope_elements * (a + g) * d / t : 0.0;
    }
    l.elementwise_forward =
        tokens * (replicated_bytes / (sp ? t : 1.0) + (activation_elements + rope_elements) * act_bytes) / x.copy_bw;
    l.elementwise_backward = backward_memory_factor * l.elementwise_forward + l.casts.backward;
    l.elementwise_forward += l.casts.forward;
}

// LoRA / QLoRA [LORA §4.1; PEFT LoraLayer.forward]: the frozen base computes input gradients
// only; each adapter adds x·A (d_in × r) and ·B (r × d_out) forward, twice that backward (fp32
// adapters as fp32 GEMMs); PEFT casts the adapter's input to the adapter dtype, drops it out,
// writes B's output, scales it and adds it to the base output. QLoRA dequantises every base
// matrix to 16 bits at each use (forward, input gradient; bitsandbytes).
void layer_adapters(const Scenario& sc, const Layout& r, const Rates& x, const ThroughputConstants& c, LayerTimes& l) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const auto& hw = sc.hardware;
    double t = double(sc.parallel.tensor), ep = double(sc.parallel.expert);
    double tokens = tokens_per_gpu(tr, sc.parallel), act_bytes = x.act_bytes;
    l.gemm_backward = l.gemm_forward;
    bool fp32_adapters = tr.adapter_dtype == AdapterDtype::fp32 && !x.fp32;
    double adapter_peak = fp32_adapters ? hw.peak_tflops * 1e12 * c.compute_factor *
                                              (x.eager ? fp32_no_tf32_fraction : 0.5)
                                        : x.peak;
    double adapter_bytes = fp32_adapters ? 4.0 : act_bytes, rank = double(tr.lora_rank);
    double adapter_gemms = 0, adapter_traffic = 0, dequantised = 0;
    const LayerLinears linears = layer_linears(m, r);  // all() views it: keep it alive
    for (const LayerLinear& lin : linears.all()) {
        double rows = lin.expert ? l.expert_tokens : tokens, count = lin.expert ? lin.copies / ep : lin.copies;
        if (tr.method == TrainingMethod::qlora)
            dequantised += count * (quantized_matrix_bytes(tr.base_weight_format, lin.d_in, lin.d_out) +
                                    lin.d_in * lin.d_out * act_bytes) / t;
        if (!(lin.modules & tr.lora_targets)) continue;
        adapter_gemms += perf::gemm_seconds(rows, lin.d_in, rank, count, adapter_peak, x.memory_bw, c) +
                         perf::gemm_seconds(rows, rank, lin.d_out, count, adapter_peak, x.memory_bw, c);
        double input_bytes = (adapter_bytes != act_bytes ? act_bytes + adapter_bytes : 0.0) +
                             (tr.lora_dropout > 0 ? 2.0 * adapter_bytes + 1.0 : 0.0);
        double output_bytes = 4.0 * adapter_bytes + 2.0 * act_bytes;
        adapter_traffic += rows * count * (lin.d_in * input_bytes + lin.d_out * output_bytes);
    }
    l.gemm_forward += adapter_gemms / t;
    l.gemm_backward += 2.0 * adapter_gemms / t;
    l.elementwise_forward += (adapter_traffic / t + dequantised) / x.copy_bw;
    l.elementwise_backward += (backward_memory_factor * adapter_traffic / t + dequantised) / x.copy_bw;
}

LayerTimes layer_times(const Scenario& sc, const Layout& r, const Rates& x, const ThroughputConstants& c) {
    const auto& tr = sc.training;
    LayerTimes l;
    layer_gemms(sc, r, x, c, l);
    layer_attention(sc, r, x, c, l);
    layer_elementwise(sc, r, x, l);
    if (is_adapter_method(tr.method)) layer_adapters(sc, r, x, c, l);
    // Each memory-bound kernel also costs its fixed launch time, forward and backward. [H200-K]
    double layer_kernels = perf::memory_kernels_per_layer(sc.model, tr.kernels, tr.dropout, x.autocast || x.fp32);
    l.elementwise_forward += layer_kernels * memory_kernel_fixed_seconds;
    l.elementwise_backward += backward_kernels_per_forward * layer_kernels * memory_kernel_fixed_seconds;
    return l;
}

// The busiest pipeline stage, one micro-batch: its layers forward and backward, what it
// recomputes and the LM head.
struct StageTimes {
    double layers_per_stage = 0;
    double recomputed_layers = 0;  // layers of the stage that recompute (training.recompute_layers)
    double backward_layers = 0;    // layers a backward pass runs through (freeze: the trained ones)
    double recompute = 0;          // seconds spent recomputing
    double compute = 0;            // seconds of all the stage's compute
};

// Full recomputation reruns the layer's forward; selective only the attention core [MEGA-ACT §5];
// op-level checkpointing the elementwise ops and the share of the forward matmuls it does not keep
// (compute.recompute_flops: every second matmul).
double layer_recompute_seconds(const Scenario& sc, const Layout& r, const ComputeEstimate& compute,
                               const LayerTimes& l, double recomputed_layers, double layers_per_stage) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    if (tr.recompute == Recompute::full) return l.forward();
    if (tr.recompute == Recompute::selective) return l.attention_forward;
    if (tr.recompute != Recompute::ops) return 0.0;
    double t = double(sc.parallel.tensor), tokens = tokens_per_gpu(tr, sc.parallel);
    double h = double(m.hidden_size), a = double(m.num_heads), g = double(r.kv_heads), d = double(r.head_dim);
    double f = double(r.ffn_hidden_size), top_k = double(m.experts_per_token);
    double gemm_flops = 2.0 * tokens *
                        (h * (a * d + 2.0 * g * d) + a * d * h + (m.mlp == MlpKind::swiglu ? 3.0 : 2.0) * h * f * top_k) / t;
    // compute.recompute_flops per recomputed layer, this micro-batch, this GPU.
    double recomputed_flops = compute.recompute_flops / tr.tokens * tokens /
                              (double(m.layers) * recomputed_layers / layers_per_stage) / t;
    return l.elementwise_forward + l.gemm_forward * std::min(1.0, recomputed_flops / gemm_flops);
}

StageTimes stage_times(const Scenario& sc, const Layout& r, const ComputeEstimate& compute, const Rates& x,
                       const ThroughputConstants& c, const LayerTimes& l) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    double t = double(sc.parallel.tensor), tokens = tokens_per_gpu(tr, sc.parallel);
    double h = double(m.hidden_size), vocab = double(m.vocab_size);
    bool full = tr.recompute == Recompute::full, ops = tr.recompute == Recompute::ops;
    // LM head (vocabulary-parallel, last stage) and the cross-entropy over its logits.
    // (A frozen LM head — LoRA, QLoRA, freeze — computes no weight gradient: 2 GEMMs.)
    bool frozen_head = is_adapter_method(tr.method) || tr.method == TrainingMethod::freeze;
    double head = (frozen_head ? 2.0 : 3.0) * perf::gemm_seconds(tokens, h, vocab / t, 1, x.peak, x.memory_bw, c) +
                  tokens * vocab / t * (x.eager ? eager_loss_bytes_per_logit : loss_bytes_per_logit) / x.copy_bw;
    StageTimes st;
    st.layers_per_stage = std::ceil(double(m.layers) / double(sc.parallel.pipeline));
    // training.recompute_layers = k: only k layers of a stage recompute (full and op-level).
    st.recomputed_layers = (full || ops) && tr.recompute_layers > 0 ? std::min(double(tr.recompute_layers), st.layers_per_stage)
                                                                    : st.layers_per_stage;
    double layer_recompute = layer_recompute_seconds(sc, r, compute, l, st.recomputed_layers, st.layers_per_stage);
    // Freeze (only the last k layers train): backward stops at the first trained layer, so the
    // frozen layers run forward only (and are never recomputed); the stage holding the trained
    // layers is the busiest.
    st.backward_layers = tr.method == TrainingMethod::freeze ? std::min(st.layers_per_stage, double(trained_layers(m, tr)))
                                                             : st.layers_per_stage;
    st.recompute = std::min(st.recomputed_layers, st.backward_layers) * layer_recompute;
    st.compute = st.layers_per_stage * l.forward() + st.backward_layers * l.backward() + st.recompute + head;
    return st;
}

// Megatron-Core --tp-comm-overlap (Transformer Engine userbuffers, initialize_ub in
// transformer_engine/pytorch/module/base.py): each of a layer's 8 sequence-parallel collectives
// (`half`: one all-gather or reduce-scatter of s·b·h) runs under a GEMM of that layer. Dense MLPs
// only: an MoE layer's expert GEMMs take no userbuffers, so its MLP collectives stay exposed.
double tp_comm_overlap_seconds(const Scenario& sc, const LayerTimes& l, const StageTimes& st, double half) {
    const double t = double(sc.parallel.tensor);
    const bool dense_mlp = sc.model.num_experts <= 1;
    const bool weights_train = !is_adapter_method(sc.training.method);  // wgrad GEMMs exist
    const double qkv = l.linear_forward[0], proj = l.linear_forward[1], fc1 = l.linear_forward[2], fc2 = l.linear_forward[3];
    auto ring = [&](double gemm) { return perf::chunked_overlap_exposed_seconds(half, gemm, t, false); };  // "ring_exchange", t chunks
    auto pipeline = [&](double gemm) {  // "pipeline", num_splits 4
        return perf::chunked_overlap_exposed_seconds(half, gemm, userbuffers_pipeline_splits, true);
    };
    auto bulk = [&](double gemm) { return perf::chunked_overlap_exposed_seconds(half, gemm, 1.0, false); };  // "bulk"
    // Forward: all-gather of the input under QKV / FC1 (qkv_fprop, fc1_fprop ring exchange),
    // reduce-scatter of the output under the projection / FC2 GEMM (proj_fprop, fc2_fprop pipeline).
    double forward = ring(qkv) + pipeline(proj) + (dense_mlp ? ring(fc1) + pipeline(fc2) : 2.0 * half);
    // Backward: all-gather of the output gradient under the projection / FC2 input-gradient GEMM
    // (proj_dgrad, fc2_dgrad ring exchange); reduce-scatter of the QKV / FC1 input gradient under
    // their weight-gradient GEMM (qkv_wgrad, fc1_wgrad bulk; frozen weights have none to hide it).
    double backward = ring(proj) + (weights_train ? bulk(qkv) : half) +
                      (dense_mlp ? ring(fc2) + (weights_train ? bulk(fc1) : half) : 2.0 * half);
    // What the overlap costs the GEMMs: the pipelined and bulk overlaps take userbuffers_comm_sms
    // of the GPU's SMs from the GEMM beside them (set_sm_margin; the ring exchange runs on copy
    // engines). The bulk ones sit beside the QKV / MLP-up input- and weight-gradient GEMMs
    // (qkv_dgrad, qkv_wgrad, fc1_dgrad, fc1_wgrad). The chunks' own GEMM launches cost nothing
    // more: TE issues them round-robin on 3 compute streams (NVTE_COMM_OVERLAP_MAX_STREAMS,
    // comm_gemm_overlap.cpp), so one chunk's fixed time overlaps the next one's.
    double sms = streaming_multiprocessors(gpu_family(sc.hardware.gpu));
    double slowdown = sms / (sms - userbuffers_comm_sms) - 1.0;
    forward += slowdown * (proj + (dense_mlp ? fc2 : 0.0));
    backward += weights_train ? slowdown * 2.0 * (qkv + (dense_mlp ? fc1 : 0.0)) : 0.0;
    bool full = sc.training.recompute == Recompute::full;
    // Full recomputation reruns the forward with its overlaps; the embedding's and the LM head's
    // collectives (outside the TE layers) stay exposed: 2 all-reduces = 4 halves.
    return st.layers_per_stage * forward + st.backward_layers * backward +
           (full ? st.recomputed_layers * forward : 0.0) + 4.0 * half;
}

// Tensor parallelism: per layer 2 all-reduces of s·b·h forward and 2 backward (with SP an
// all-gather + reduce-scatter pair each, the same time); full recompute repeats the forward 2;
// plus the embedding's forward and the LM head's input-gradient all-reduce. [MEGA-21 §2.3, MEGA-ACT §4.2.2]
// Not overlapped, unless parallel.tp_comm_overlap (tp_comm_overlap_seconds above).
double tensor_parallel_seconds(const Scenario& sc, const Rates& x, const LayerTimes& l, const StageTimes& st) {
    const auto& par = sc.parallel;
    if (par.tensor <= 1) return 0.0;
    double t = double(par.tensor), tokens = tokens_per_gpu(sc.training, par);
    double tp_bw = perf::collective_bus_bandwidth(t, std::min(t, x.gpus_per_node), x.intra_bw, x.inter_bw);
    double one = perf::all_reduce_seconds(tokens * double(sc.model.hidden_size) * x.act_bytes, t, tp_bw);
    bool full = sc.training.recompute == Recompute::full;
    if (!(par.tp_comm_overlap && par.sequence_parallel))
        return (st.layers_per_stage * 4.0 + (full ? 2.0 * st.recomputed_layers : 0.0) + 2.0) * one;
    return tp_comm_overlap_seconds(sc, l, st, one / 2.0);
}

// Pipeline point-to-point: s·b·h/t per rank (scatter-gather [MEGA-21 §4.1], or SP shards),
// forward activation and backward gradient, at each of the v chunks.
double pipeline_p2p_seconds(const Scenario& sc, const Rates& x) {
    const auto& par = sc.parallel;
    if (par.pipeline <= 1) return 0.0;
    double t = double(par.tensor), v = double(par.interleave);
    double tokens = tokens_per_gpu(sc.training, par);
    double p2p_bw = double(par.num_gpus) <= x.gpus_per_node ? x.intra_bw : x.inter_bw;
    return 2.0 * v * (tokens * double(sc.model.hidden_size) * x.act_bytes / t) / p2p_bw;
}

// Data parallelism and ZeRO [ZERO §7]: the DP group spans t·DP consecutive ranks. Sets
// br.data_parallel (ZeRO 0–2) or br.zero (ZeRO-3), the part of the traffic compute does not hide.
void data_parallel_seconds(const Scenario& sc, const Estimate& e, const Rates& x, const ThroughputConstants& c,
                           const LayerTimes& l, const StageTimes& st, double mb, PerformanceBreakdown& br) {
    const auto& par = sc.parallel;
    const ShardingGroups groups = sharding_groups(par, e.layout);  // DP·cp ranks, HSDP shard groups
    double t = double(par.tensor), dp = groups.shard;
    double params = e.params_per_gpu;
    double grad_bytes = params * e.bytes_per_parameter.gradients;
    // Parameters travel in the 16-bit compute dtype whatever they are stored in: FSDP casts its
    // shard to MixedPrecision param_dtype before the all-gather (torch/distributed/fsdp
    // _fully_shard/_fsdp_param.py), DeepSpeed ZeRO-3 keeps 16-bit partitions, Megatron's
    // distributed optimizer all-gathers the bf16 params; gradients reduce in their own dtype.
    double weight_bytes = params * (x.fp32 ? 4.0 : std::min(2.0, e.bytes_per_parameter.weights));
    // DP ranks sit t apart: gpus_per_node / t of them share a node (and its NICs). [MEGA-21 §3]
    double dp_per_node = std::min(dp, std::max(1.0, std::floor(x.gpus_per_node / t)));
    double dp_bw = perf::collective_bus_bandwidth(dp, dp_per_node, x.intra_bw, x.inter_bw);
    int stage = par.zero_stage;
    double last_backward = st.backward_layers * l.backward() + st.recompute;
    double first_forward = st.layers_per_stage * l.forward();
    double gather_weights = perf::all_gather_seconds(weight_bytes, dp, dp_bw);
    if (stage == 0) {
        // All-reduce once per step, overlappable with the last micro-batch's backward.
        br.data_parallel = perf::exposed_seconds(perf::all_reduce_seconds(grad_bytes, dp, dp_bw), last_backward,
                                                 c.overlap_fraction);
    } else if (stage <= 2) {
        // Reduce-scatter of gradients (stage 1: once, with the last backward; stage 2: after every
        // micro-batch's backward) + all-gather of the updated weights before the next forward.
        double scatters = stage == 1 ? 1.0 : mb;
        br.data_parallel =
            perf::exposed_seconds(scatters * perf::all_gather_seconds(grad_bytes, dp, dp_bw), scatters * last_backward,
                                  c.overlap_fraction) +
            perf::exposed_seconds(gather_weights, first_forward, c.overlap_fraction);
    } else {
        // ZeRO-3: per micro-batch, parameters all-gathered for forward and again for backward,
        // gradients reduce-scattered: 3 × the parameter volume (1.5× DP). [ZERO §7.2.2]
        double zero3_bw = dp_bw * (par.zero_impl == ZeroImpl::deepspeed ? c.deepspeed_zero3_efficiency : 1.0);
        double comm = mb * (2.0 * perf::all_gather_seconds(weight_bytes, dp, zero3_bw) +
                            perf::all_gather_seconds(grad_bytes, dp, zero3_bw));
        br.zero = perf::exposed_seconds(comm, br.compute, c.overlap_fraction);
    }
    // HSDP: each rank's gradient shard is all-reduced across the replicas (context_parallel.hpp),
    // once per step (ZeRO-1/2) or per micro-batch with the ZeRO-3 reduce-scatters, in the reduce
    // dtype. FSDP issues each block's all-reduce right after the block's reduce-scatter, on its own
    // stream (FSDP1 _runtime_utils.py _reduce_grad: state._all_reduce_stream; FSDP2
    // _fsdp_collectives.py foreach_reduce: all_reduce_stream), and the end of backward waits for it
    // (FSDP1 _post_backward_final_callback; FSDP2 FSDPState._root_post_backward_final_callback):
    // only the backward can hide it, not the forward.
    double replicas = (stage >= 3 ? mb : 1.0) *
                      replica_all_reduce_seconds(groups, grad_bytes / dp, t, x.gpus_per_node, x.intra_bw, x.inter_bw);
    br.data_parallel += perf::exposed_seconds(replicas, (stage >= 3 ? mb : 1.0) * last_backward, c.overlap_fraction);
}

// Optimizer step, memory-bound: read gradients, read+write master weights and states, write the
// 16-bit weights; over DP shards with ZeRO ≥ 1 (offloaded: over PCIe and host memory).
double optimizer_step_seconds(const Scenario& sc, const Estimate& e, const Rates& x) {
    const auto& par = sc.parallel;
    double optimizer_params = e.params_per_gpu / (par.zero_stage >= 1 ? sharding_groups(par, e.layout).shard : 1.0);
    const auto& bpp = e.bytes_per_parameter;
    if (par.offload_optimizer)
        return optimizer_params * (bpp.gradients + bpp.weights) / host_link_bytes_per_second +
               optimizer_params * (bpp.gradients + 2.0 * bpp.optimizer) / host_memory_bytes_per_second;
    return optimizer_params * (bpp.gradients + 2.0 * bpp.optimizer + bpp.weights) / x.copy_bw;
}

// Context parallelism: ring attention's K,V (and dK,dV) sends left exposed by each attention step
// of the stage's layers (context_parallel.hpp).
double context_parallel_seconds(const Scenario& sc, const Layout& r, const Rates& x, const LayerTimes& l,
                                const StageTimes& st) {
    const auto& par = sc.parallel;
    double t = double(par.tensor);
    const RingSeconds ring = ring_attention_seconds(par, tokens_per_gpu(sc.training, par), double(r.kv_heads) * double(r.head_dim) / t,
                                                    x.act_bytes, l.attention_forward, l.attention_backward,
                                                    context_group_in_node(par, sc.hardware.gpus_per_node) ? x.intra_bw : x.inter_bw);
    bool full = sc.training.recompute == Recompute::full;
    return st.layers_per_stage * ring.forward + st.backward_layers * ring.backward +
           (full ? st.recomputed_layers * ring.forward : 0.0);
}

// The predicted step: every term of the breakdown, from the layer times up.
void predicted_step(const Scenario& sc, const Estimate& e, const ThroughputConstants& c, PerformanceEstimate& out) {
    const double p = double(sc.parallel.pipeline), v = double(sc.parallel.interleave);
    out.calibrated = c.calibrated;
    const Rates x = rates(sc, c);
    const LayerTimes l = layer_times(sc, e.layout, x, c);
    const StageTimes st = stage_times(sc, e.layout, e.compute, x, c, l);
    double tp_seconds = tensor_parallel_seconds(sc, x, l, st);
    double p2p_seconds = pipeline_p2p_seconds(sc, x);
    double cp_seconds = context_parallel_seconds(sc, e.layout, x, l, st);
    double microbatch = st.compute + tp_seconds + p2p_seconds + cp_seconds;
    double mb = out.microbatches;
    auto& br = out.breakdown_seconds;
    br.compute = mb * st.compute;
    br.tensor_parallel = mb * tp_seconds;
    br.pipeline_p2p = mb * p2p_seconds;
    br.context_parallel = mb * cp_seconds;
    // 1F1B: (p−1) idle micro-batch slots, each 1/v as long with v interleaved chunks. [MEGA-21 §2.2]
    br.pipeline_bubble = (p - 1.0) / v * microbatch;
    out.microbatch_seconds = microbatch;
    out.recompute_seconds = mb * st.recompute;
    data_parallel_seconds(sc, e, x, c, l, st, mb, br);
    br.optimizer_step = optimizer_step_seconds(sc, e, x);
    br.overhead = c.step_overhead_seconds;
    out.step_seconds = br.compute + br.tensor_parallel + br.pipeline_bubble + br.pipeline_p2p + br.context_parallel +
                       br.data_parallel + br.zero + br.optimizer_step + br.overhead;
    out.bubble_fraction = br.pipeline_bubble / out.step_seconds;
}

}  // namespace

void predict_performance(const Scenario& sc, Estimate& e, const ThroughputConstants& c) {
    const auto& tr = sc.training;
    const auto& hw = sc.hardware;
    const auto& r = e.layout;
    PerformanceEstimate& out = e.performance;
    out = PerformanceEstimate{};
    out.predicted = hw.throughput_model == ThroughputModel::predicted;

    double n_gpus = double(sc.parallel.num_gpus);
    out.tokens_per_step = double(r.global_batch_size) * double(tr.seq_len);
    double steps = tr.tokens / out.tokens_per_step;
    double executed_flops_per_step = e.compute.total_flops / steps;
    double model_flops_per_step = e.compute.model_flops / steps;
    out.microbatches = double(r.grad_accum_steps);

    if (!out.predicted) {
        out.step_seconds = e.compute.seconds / steps;
        out.breakdown_seconds.compute = out.step_seconds;
    } else {
        predicted_step(sc, e, c, out);
        // Time and cost of the whole run follow from the step time.
        auto& cmp = e.compute;
        cmp.seconds = out.step_seconds * steps;
        cmp.cluster_flops_per_second = cmp.total_flops / cmp.seconds;
        cmp.days = cmp.seconds / 86400.0;
        cmp.gpu_hours = cmp.seconds * n_gpus / 3600.0;
        cmp.cost = cmp.gpu_hours * hw.price_per_gpu_hour;
    }

    out.tokens_per_second = out.tokens_per_step / out.step_seconds;
    out.achieved_tflops_per_gpu = executed_flops_per_step / (out.step_seconds * n_gpus) / 1e12;
    out.mfu = model_flops_per_step / (out.step_seconds * n_gpus * hw.peak_tflops * 1e12);
}

// Step time and throughput: predicted term by term, or from a fixed MFU (docs/formulas.md §6, §10).
void explain_step_time(const Scenario& sc, const Estimate& e, std::vector<ExplainTerm>& out) {
    const auto& tr = sc.training;
    const auto& par = sc.parallel;
    const auto& r = e.layout;
    const auto& c = e.compute;
    bool from_mfu = !(sc.hardware.achieved_tflops > 0);
    const auto& pf = e.performance;
    const auto& br = pf.breakdown_seconds;
    double steps = tr.tokens / pf.tokens_per_step;
    if (pf.predicted) {
        constexpr const char* perf_source =
            "docs/formulas.md §10: Narayanan et al. 2021 (arXiv 2104.04473), Korthikanti et al. 2022 (arXiv "
            "2205.05198), ZeRO (arXiv 1910.02054), efficiencies fitted on measured H200 kernels";
        out.push_back(explain_term(e, "performance.step_seconds",
                                   par.tp_comm_overlap
                                       ? "step = compute + TP (exposed part: --tp-comm-overlap hides each layer's all-gathers / "
                                         "reduce-scatters under its GEMMs) + bubble (p−1)/v·t_mb + p2p + CP + DP + ZeRO + optimizer + overhead"
                                       : "step = compute + TP + bubble (p−1)/v·t_mb + p2p + CP + DP + ZeRO + optimizer + overhead",
                                   perf_source,
                                   {{"compute", br.compute, "s"},
                                    {"of which recompute", pf.recompute_seconds, "s"},
                                    {"tensor_parallel", br.tensor_parallel, "s"},
                                    {"pipeline_bubble", br.pipeline_bubble, "s"},
                                    {"pipeline_p2p", br.pipeline_p2p, "s"},
                                    {"context_parallel", br.context_parallel, "s"},
                                    {"data_parallel", br.data_parallel, "s"},
                                    {"zero", br.zero, "s"},
                                    {"optimizer_step", br.optimizer_step, "s"},
                                    {"overhead", br.overhead, "s"},
                                    {"m (micro-batches)", pf.microbatches, ""},
                                    {"t_mb (one micro-batch, busiest stage)", pf.microbatch_seconds, "s"}}));
        out.push_back(explain_term(e, "compute.seconds", "T = D / (B · s) · step", perf_source,
                                   {{"D", tr.tokens, "tokens"}, {"B · s", pf.tokens_per_step, "tokens"}, {"step", pf.step_seconds, "s"}}));
    } else {
        out.push_back(explain_term(e, "compute.seconds", from_mfu ? "T = C / (N · peak · MFU)" : "T = C_total / (N · achieved FLOP/s)",
                                   tm101_source,
                                   {{"C", from_mfu ? c.model_flops : c.total_flops, "FLOPs"},
                                    {"N", double(par.num_gpus), "GPUs"},
                                    {"FLOP/s per GPU", r.achieved_flops_per_gpu, "FLOP/s"}}));
        out.push_back(explain_term(e, "performance.step_seconds", "step = T · B · s / D", tm101_source,
                                   {{"T", c.seconds, "s"}, {"B · s", pf.tokens_per_step, "tokens"}, {"D", tr.tokens, "tokens"}}));
    }
    out.push_back(explain_term(e, "performance.tokens_per_second", "tokens/s = B · s / step", tm101_source,
                               {{"B · s", pf.tokens_per_step, "tokens"}, {"step", pf.step_seconds, "s"}}));
    out.push_back(explain_term(e, "performance.achieved_tflops_per_gpu",
                               "achieved = C_total per step / (N · step) (executed FLOPs, with recomputation)", tm101_source,
                               {{"C_total per step", c.total_flops / steps, "FLOPs"},
                                {"N", double(par.num_gpus), "GPUs"},
                                {"step", pf.step_seconds, "s"}}));
    out.push_back(explain_term(e, "performance.mfu", "MFU = C per step / (N · peak · step)",
                               "Chowdhery et al. 2022, PaLM (arXiv:2204.02311), App. B",
                               {{"C per step", c.model_flops / steps, "FLOPs"},
                                {"N", double(par.num_gpus), "GPUs"},
                                {"peak", sc.hardware.peak_tflops, "TFLOP/s"},
                                {"step", pf.step_seconds, "s"}}));
}

}  // namespace vramcalc
