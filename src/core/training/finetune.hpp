// Fine-tuning: which parameters train (LoRA adapters, the last k layers), how the frozen base is
// stored (16-bit, NF4, LLM.int8) and the linear layers adapters attach to (docs/formulas.md
// "Fine-tuning"). Sources:
//   [LORA]  Hu et al. 2021, "LoRA: Low-Rank Adaptation of Large Language Models", arXiv:2106.09685.
//   [QLORA] Dettmers et al. 2023, "QLoRA: Efficient Finetuning of Quantized LLMs", arXiv:2305.14314.
//   [INT8]  Dettmers et al. 2022, "LLM.int8()", arXiv:2208.07339; bitsandbytes Int8Params.
//   [PEFT]  huggingface/peft src/peft/tuners/lora/layer.py (LoraLayer.update_layer, Linear.forward).
//   [LLAMAFACTORY] hiyouga/LLaMA-Factory src/llamafactory/model/adapter.py (_setup_freeze_tuning).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/explain_term.hpp"
#include "core/results.hpp"

namespace vramcalc {

// ───────────────────────── LoRA target modules ─────────────────────────

// Bits of training.lora_targets, named as PEFT's module names without "_proj".
enum LoraModule : std::uint32_t {
    lora_q = 1u << 0,
    lora_k = 1u << 1,
    lora_v = 1u << 2,
    lora_o = 1u << 3,
    lora_gate = 1u << 4,
    lora_up = 1u << 5,
    lora_down = 1u << 6,
};
inline constexpr std::uint32_t lora_attention = lora_q | lora_k | lora_v | lora_o;
inline constexpr std::uint32_t lora_all_linear = lora_attention | lora_gate | lora_up | lora_down;
// Set by parse_lora_targets for text that is not a target list; validate() reports it.
inline constexpr std::uint32_t lora_targets_invalid = 1u << 31;

// "q", "k", "v", "o", "gate", "up", "down": bit i of the mask.
std::span<const char* const> lora_module_names();
// "attention" (q,k,v,o), "all_linear" (all seven), or the modules joined by commas ("q,v").
std::string format_lora_targets(std::uint32_t mask);
// The inverse of format_lora_targets; also accepts spaces, "_proj" suffixes and any order.
// Unknown names or an empty list give lora_targets_invalid.
std::uint32_t parse_lora_targets(std::string_view text);

// ───────────────────────── quantised base weights ─────────────────────────

// NF4 [QLORA §3]: 4-bit codes with one absmax per block of 64 weights; double quantisation stores
// those absmax values as 8-bit codes with one fp32 constant per 256 of them:
// 4 + 8/64 + 32/(64·256) = 4.127 bits per parameter (without it, 4 + 32/64 = 4.5 bits).
inline constexpr double nf4_block_size = 64;
inline constexpr double nf4_double_quant_block_size = 256;
// LLM.int8 [INT8]: int8 weights and one fp32 scale per output row (bitsandbytes Int8Params.SCB).
// Bytes of one d_in × d_out weight matrix stored in `format`.
double quantized_matrix_bytes(BaseWeightFormat format, double d_in, double d_out);

// ───────────────────────── the linears of one layer ─────────────────────────

// Which tensor a linear reads; adapters on linears that read the same tensor can share it.
enum class LinearInput { attention_input, attention_output, mlp_input, mlp_inner };

struct LayerLinear {
    std::uint32_t modules;  // LoRA bits that select it (a fused QKV answers to q, k and v); 0 = never targeted
    double d_in, d_out;
    double copies;          // per layer: E for expert MLPs, 1 otherwise
    bool expert;            // one of the E expert MLPs (sharded by expert parallelism)
    LinearInput input;
};

struct LayerLinears {
    std::array<LayerLinear, 12> items{};
    int count = 0;
    std::span<const LayerLinear> all() const& { return {items.data(), std::size_t(count)}; }
    std::span<const LayerLinear> all() && = delete;  // a view into a temporary would dangle
};

// Llama-family layers (RMSNorm) have separate q, k, v projections; GPT-2 and GPT-NeoX (LayerNorm)
// one fused QKV linear (c_attn, query_key_value) that PEFT adapts as a whole.
inline bool fused_qkv(const ModelConfig& m) { return m.norm == NormKind::layernorm; }

// Every weight matrix of one transformer layer: q, k, v (or fused QKV), o, the MLP (gate, up, down;
// GELU MLPs have up = fc1 and down = fc2) — in MoE layers E routed experts of width f_e, the shared
// experts as one MLP of width S·f_e and the router (never a LoRA target). `dense_layer`: one of an
// MoE model's leading dense layers (MLP of width f, no router).
LayerLinears layer_linears(const ModelConfig& m, const Layout& r, bool dense_layer = false);

// LoRA parameters of one layer: r·(d_in + d_out) per targeted linear (A is r × d_in, B is d_out × r)
// [LORA §4.1; PEFT update_layer]; expert MLP adapters × E.
struct AdapterCounts {
    double dense = 0;   // adapters on attention and dense MLP linears
    double expert = 0;  // adapters on expert MLP linears (all experts)
    double total() const { return dense + expert; }
};
AdapterCounts adapter_params_per_layer(const ModelConfig& m, const Layout& r, std::int64_t rank,
                                       std::uint32_t targets, bool dense_layer = false);

// Layers that train under `freeze` (LLaMA-Factory: the last k; 0 = all) and, for every method, the
// layers gradients flow into: all of them for full, LoRA and QLoRA.
std::int64_t trained_layers(const ModelConfig& m, const TrainingConfig& tr);

inline bool is_adapter_method(TrainingMethod method) {
    return method == TrainingMethod::lora || method == TrainingMethod::qlora;
}

// One phrase for reports and summaries: "full training", "LoRA r 8 on q,v", "QLoRA (nf4) r 16 on
// attention", "freeze: the last 4 layers train".
std::string describe_method(const TrainingConfig& training);

// Fills the fine-tuning members of `counts` (adapter, trainable, trained_layers, quantized...) from
// the architecture counts already in it.
void count_fine_tuning(const Scenario& scenario, const Layout& resolved, ParameterCounts& counts);

// Explain terms: parameters.trainable and model_states_bytes.frozen_weights.
void explain_fine_tuning(const Scenario& scenario, const Estimate& estimate, std::vector<ExplainTerm>& out);

}  // namespace vramcalc
