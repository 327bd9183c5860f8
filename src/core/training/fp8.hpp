// FP8 training of the linear layers (training.fp8): what each recipe keeps in memory and what its
// GEMMs and casts cost. Attention, norms, the embedding and the LM head stay 16-bit; master weights,
// gradients and optimizer states are unchanged. Two implementations, told apart by the kernels:
//   fused (Megatron / NeMo): Transformer Engine — saves each linear's input in FP8 (column-wise copy
//     for the weight gradient) and keeps FP8 row- and column-wise weight copies from forward to
//     backward (cached across micro-batches) [TE transformer_engine/pytorch/module/linear.py];
//   eager / compiled (torchtitan, torchtune): torchao Float8Linear — saves the 16-bit input and
//     weight and casts them again in backward [torchao/float8/float8_linear.py,
//     matmul_with_hp_or_float8_args]; cast traffic per torchao/testing/training/roofline_utils.py.
#pragma once

#include <string>
#include <string_view>

#include "core/results.hpp"
#include "core/training/kernel_times.hpp"
#include "core/scenario.hpp"

namespace vramcalc {

inline bool fp8_training(const TrainingConfig& tr) { return tr.fp8 != Fp8Recipe::none; }
// Transformer Engine (FP8 copies kept) rather than torchao (cast on the fly).
inline bool fp8_keeps_copies(const TrainingConfig& tr) { return fp8_training(tr) && tr.kernels == Kernels::fused; }

// Dense FP8 tensor-core peak over the dense 16-bit peak of a GPU label (datasheets, fp8.cpp);
// 0: no FP8 tensor cores. A label that is no preset is assumed to be an FP8 GPU (2).
double fp8_peak_ratio(std::string_view gpu);

// Bytes one saved FP8 element takes with its scales (blockwise: one fp32 scale per 1×128 tile).
double fp8_element_bytes(Fp8Recipe recipe);

// Transformer Engine saves the QKV and MLP-in inputs (two h-wide norm outputs), the out-projection
// input (beside FlashAttention's own 16-bit output) and the MLP-out input in FP8 (for the weight
// gradient: a LoRA base, which has none, keeps no input at all).
// `e`: 16-bit bytes; `mlp_out_width`: the down-projection's input width × MLPs per token.
void apply_fp8_saved_inputs(const TrainingConfig& tr, double e, double h, double mlp_out_width, double out_width,
                            LayerActivationBytes& layer);

// FP8 weight copies kept from forward to backward by Transformer Engine: row-wise (forward) and
// column-wise (input gradient), 1 byte each per matmul weight, plus blockwise scales; 0 for torchao.
double fp8_weight_copy_bytes(const TrainingConfig& tr, double matmul_params);

// One FP8 GEMM [M×K]·[K×N] `count` times: 2·M·K·N FLOPs at the FP8 peak, 1-byte A and B, 16-bit C.
// torchao's roofline uses one achievable fraction of peak for bf16 and FP8 GEMMs (roofline_utils.py
// pct_achievable_gemm_tops), so the 16-bit curve's constants are kept.
double fp8_gemm_seconds(double m, double k, double n, double count, double fp8_peak_flops,
                        double memory_bytes_per_second, const ThroughputConstants& c);

// One linear of a layer as the casts see it: rows (tokens), input and output widths on this GPU, copies.
struct Fp8Linear {
    double rows = 0, d_in = 0, d_out = 0, count = 1;
};
struct Fp8CastSeconds {
    double forward = 0, backward = 0;
};
// Quantisation kernels of the given linears for one micro-batch (memory-bound, each at least one
// kernel launch); weights cast once per step by Transformer Engine (is_first_microbatch caching).
Fp8CastSeconds fp8_cast_seconds(const TrainingConfig& tr, const Fp8Linear* linears, int count, double microbatches,
                                double copy_bytes_per_second);

// validate()'s rules for training.fp8; `fail(field, message)` once per broken rule.
template <class Fail>
void check_fp8_rules(const Scenario& sc, Fail&& fail) {
    const auto& tr = sc.training;
    if (!fp8_training(tr) || sc.workload != Workload::training) return;
    if (tr.precision == Precision::fp32)
        fail("training.fp8", [] { return std::string("needs 16-bit training (training.precision is fp32): FP8 GEMMs run inside bf16/fp16 autocast (Transformer Engine fp8_autocast, torchao Float8Linear)"); });
    if (tr.method == TrainingMethod::qlora)
        fail("training.fp8", [] { return std::string("needs training.method full, freeze or lora: QLoRA's 4-bit base weights are dequantised to 16 bits, not FP8 GEMM inputs"); });
    if (fp8_peak_ratio(sc.hardware.gpu) == 0)
        fail("training.fp8", [&] { return "needs FP8 tensor cores (Hopper, Ada, Blackwell, MI300): " + sc.hardware.gpu + " has none; use none"; });
}

}  // namespace vramcalc
