#include "core/training/fp8.hpp"

#include <algorithm>
#include <cctype>

namespace vramcalc {
namespace {

// Dense (no sparsity) FP8 tensor TFLOP/s beside the dense 16-bit peak of each GPU preset
// (presets.cpp). Datasheets quote FP8 "with sparsity": halved here. 0: no FP8 tensor cores.
struct Fp8Peak {
    const char* gpu;
    double fp8_tflops, bf16_tflops;
};
constexpr Fp8Peak fp8_peaks[] = {
    {"V100-16GB", 0, 125}, {"V100-32GB", 0, 125}, {"A100-40GB", 0, 312}, {"A100-80GB", 0, 312},
    {"RTX-3090", 0, 71},   {"RTX-A6000", 0, 154.8}, {"A10G", 0, 70},    {"T4", 0, 65},
    {"MI250X", 0, 191.5},  // CDNA 2: no FP8 (AMD CDNA 3 whitepaper introduces it)
    {"H100-SXM", 1979, 989},    // H100 datasheet: FP8 3,958 TFLOPS with sparsity
    {"H100-PCIe", 1513, 756},   // H100 datasheet (PCIe): 3,026 with sparsity
    {"H100-NVL", 1670.5, 835.5},  // H100 NVL datasheet: 3,341 with sparsity
    {"H200", 1979, 989},        // H200 datasheet: 3,958 with sparsity
    {"H20", 296, 148},          // HGX H20 product brief: FP8 296, BF16 148
    {"B200", 4500, 2250},       // DGX B200 datasheet: 72 PFLOPS FP8 training for 8 GPUs (sparse) → 4.5 dense each
    {"L40S", 733, 362},         // L40S datasheet: 1,466 with sparsity
    {"L4", 242.5, 121},         // L4 datasheet: 485 with sparsity
    {"RTX-4090", 330.3, 165.2}, // Ada whitepaper (AD102): FP8 with FP32 accumulate 330.3 dense
    {"RTX-6000-Ada", 728.5, 364.2},  // RTX 6000 Ada datasheet: 1,457 with sparsity
    {"RTX-5090", 419, 209.5},   // RTX Blackwell whitepaper (torchao roofline_utils.py: fp8 419e12)
    {"RTX-PRO-6000", 1007.6, 503.8},  // RTX PRO 6000 Blackwell: 2× the dense bf16 rate (RTX Blackwell whitepaper)
    {"MI300X", 2614.9, 1307.4}, // MI300X datasheet: 2,614.9 FP8 dense
};
// A GPU that is no preset: FP8 at twice the 16-bit rate, as every FP8 GPU above.
constexpr double unknown_gpu_fp8_ratio = 2.0;

bool same_label(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower((unsigned char)x) == std::tolower((unsigned char)y);
           });
}

// Bytes read and written per element by the casts of one tensor over forward and backward, and the
// kernels they take [torchao roofline_utils.py get_tensor_memory_traffic_ovhd_s, not fused with the
// previous op]: tensorwise: an amax pass (2) then one 16-bit read and FP8 writes (dim0 and dim1:
// activations 2 + 2·1 in one kernel, weights 2 + 1 twice); rowwise: activations 2 + 1 + 2 then
// 2 + 1, weights 2 + 1, 2·2 (transpose), 2 + 1. Transformer Engine's cast-transpose reads the
// 16-bit tensor once and writes both FP8 layouts (2 + 1 + 1), its amax from the delayed-scaling
// history or fused into the cast [TE transformer_engine/common/transpose/cast_transpose.cu].
struct CastTraffic {
    double bytes = 0;
    int kernels = 0;
};
CastTraffic activation_casts(const TrainingConfig& tr) {
    if (fp8_keeps_copies(tr)) return {4.0, 1};
    if (tr.fp8 == Fp8Recipe::tensorwise) return {2.0 + 4.0, 2};
    return {5.0 + 3.0, 2};  // rowwise and blockwise (1×128 tiles, a dim0 and a dim1 pass)
}
CastTraffic weight_casts(const TrainingConfig& tr) {
    if (fp8_keeps_copies(tr)) return {4.0, 1};
    if (tr.fp8 == Fp8Recipe::tensorwise) return {2.0 + 3.0 + 3.0, 3};
    return {3.0 + 4.0 + 3.0, 3};
}
// torchao's floor for one kernel: a Triton kernel reading one element took 2 µs on an H100
// (roofline_utils.py KERNEL_LAUNCH_OVERHEAD_SEC).
constexpr double cast_kernel_seconds = 2e-6;

double cast_seconds(double elements, const CastTraffic& traffic, double copy_bytes_per_second) {
    if (elements <= 0) return 0;
    double per_kernel = elements * traffic.bytes / traffic.kernels / copy_bytes_per_second;
    return traffic.kernels * std::max(per_kernel, cast_kernel_seconds);
}

}  // namespace

double fp8_peak_ratio(std::string_view gpu) {
    for (const Fp8Peak& p : fp8_peaks)
        if (same_label(gpu, p.gpu)) return p.fp8_tflops / p.bf16_tflops;
    return unknown_gpu_fp8_ratio;
}

double fp8_element_bytes(Fp8Recipe recipe) {
    // DeepSeek-V3 §3.3.1: one scale per 1×128 activation tile (fp32, 4 B per 128 elements).
    return recipe == Fp8Recipe::blockwise ? 1.0 + 4.0 / 128.0 : 1.0;
}

void apply_fp8_saved_inputs(const TrainingConfig& tr, double e, double h, double mlp_out_width, double out_width,
                            LayerActivationBytes& l) {
    if (!fp8_keeps_copies(tr) || tr.method == TrainingMethod::lora || tr.method == TrainingMethod::qlora) return;
    const double q = fp8_element_bytes(tr.fp8);
    l.linear_inputs -= 2.0 * (e - q) * h;       // QKV and MLP-in inputs (LayerNormLinear's ln_out) in FP8
    l.mlp -= (e - q) * mlp_out_width;           // the down-projection keeps its input in FP8, not 16-bit
    l.attention += q * out_width;               // the out-projection's FP8 copy beside FlashAttention's output
}

double fp8_weight_copy_bytes(const TrainingConfig& tr, double matmul_params) {
    if (!fp8_keeps_copies(tr)) return 0;
    // Blockwise: one fp32 scale per 128×128 weight block in each layout (DeepSeek-V3 §3.3.1).
    const double scales = tr.fp8 == Fp8Recipe::blockwise ? 2.0 * 4.0 / (128.0 * 128.0) : 0.0;
    return matmul_params * (2.0 + scales);
}

double fp8_gemm_seconds(double m, double k, double n, double count, double fp8_peak_flops,
                        double memory_bytes_per_second, const ThroughputConstants& c) {
    if (count <= 0 || m <= 0 || k <= 0 || n <= 0) return 0;
    double flops = 2.0 * m * k * n;
    double operand_bytes = m * k + k * n + 2.0 * m * n;  // FP8 A and B, 16-bit C
    double one = flops / (c.gemm_peak_fraction * fp8_peak_flops) +
                 operand_bytes / (c.gemm_operand_bandwidth_factor * memory_bytes_per_second) + c.gemm_latency_seconds;
    return count * one;
}

Fp8CastSeconds fp8_cast_seconds(const TrainingConfig& tr, const Fp8Linear* linears, int count, double microbatches,
                                double copy_bytes_per_second) {
    Fp8CastSeconds out;
    if (!fp8_training(tr)) return out;
    const CastTraffic act = activation_casts(tr), weight = weight_casts(tr);
    // Transformer Engine casts each weight once per step; torchao at every use.
    const double weight_share = fp8_keeps_copies(tr) ? 1.0 / std::max(1.0, microbatches) : 1.0;
    for (int i = 0; i < count; ++i) {
        const Fp8Linear& l = linears[i];
        double input = cast_seconds(l.rows * l.d_in, act, copy_bytes_per_second);
        double grad = cast_seconds(l.rows * l.d_out, act, copy_bytes_per_second);
        double w = cast_seconds(l.d_in * l.d_out, weight, copy_bytes_per_second) * weight_share;
        // The input and weight are cast before the forward GEMM, the output gradient in backward;
        // the share of the two-layout casts used by backward is counted with forward (one kernel).
        out.forward += l.count * (input + w);
        out.backward += l.count * grad;
    }
    return out;
}

}  // namespace vramcalc
