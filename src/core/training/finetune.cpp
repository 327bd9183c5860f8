#include "core/training/finetune.hpp"

#include <algorithm>
#include <bit>
#include <cctype>

namespace vramcalc {
namespace {

constexpr std::array<const char*, 7> module_names = {"q", "k", "v", "o", "gate", "up", "down"};

bool equal_lower(std::string_view text, std::string_view word) {
    return text.size() == word.size() && std::equal(text.begin(), text.end(), word.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == b;
           });
}

bool separator(char c) { return c == ',' || c == ' ' || c == '+' || c == '\t'; }

}  // namespace

std::span<const char* const> lora_module_names() { return module_names; }

std::string format_lora_targets(std::uint32_t mask) {
    if (mask == lora_attention) return "attention";
    if (mask == lora_all_linear) return "all_linear";
    std::string out;
    for (std::size_t i = 0; i < module_names.size(); ++i) {
        if (!(mask & (1u << i))) continue;
        if (!out.empty()) out += ',';
        out += module_names[i];
    }
    return out;
}

std::uint32_t parse_lora_targets(std::string_view text) {
    std::uint32_t mask = 0;
    std::size_t words = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        if (separator(text[i])) {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && !separator(text[end])) ++end;
        std::string_view word = text.substr(i, end - i);
        i = end;
        ++words;
        if (equal_lower(word, "attention")) {
            mask |= lora_attention;
            continue;
        }
        // PEFT spells the shorthand "all-linear".
        if (equal_lower(word, "all_linear") || equal_lower(word, "all-linear")) {
            mask |= lora_all_linear;
            continue;
        }
        if (word.size() > 5 && equal_lower(word.substr(word.size() - 5), "_proj")) word.remove_suffix(5);
        bool known = false;
        for (std::size_t bit = 0; bit < module_names.size(); ++bit) {
            if (equal_lower(word, module_names[bit])) {
                mask |= 1u << bit;
                known = true;
            }
        }
        if (!known) return lora_targets_invalid;
    }
    return words == 0 ? lora_targets_invalid : mask;
}

double quantized_matrix_bytes(BaseWeightFormat format, double d_in, double d_out) {
    double elements = d_in * d_out;
    switch (format) {
        case BaseWeightFormat::nf4:  // 4-bit codes + 8-bit absmax per 64 + fp32 per 256 absmax [QLORA §3]
            return elements * (0.5 + 1.0 / nf4_block_size + 4.0 / (nf4_block_size * nf4_double_quant_block_size));
        case BaseWeightFormat::nf4_no_dq:  // 4-bit codes + fp32 absmax per 64 [QLORA §3]
            return elements * (0.5 + 4.0 / nf4_block_size);
        case BaseWeightFormat::int8:  // int8 codes + fp32 scale per output row [INT8]
            return elements + 4.0 * d_out;
    }
    return elements * 2.0;
}

LayerLinears layer_linears(const ModelConfig& m, const Layout& r, bool dense_layer) {
    LayerLinears out;
    auto add = [&](std::uint32_t modules, double d_in, double d_out, double copies, bool expert, LinearInput input) {
        out.items[std::size_t(out.count++)] = {modules, d_in, d_out, copies, expert, input};
    };
    const double h = double(m.hidden_size);
    const double q = double(m.num_heads) * double(r.head_dim);
    const double kv = double(r.kv_heads) * double(r.head_dim);
    const bool moe = m.num_experts > 1 && !dense_layer;
    const double f = double(moe ? r.moe_ffn_hidden_size : r.ffn_hidden_size);
    const double experts = moe ? double(m.num_experts) : 1.0;
    if (m.kv_lora_rank > 0) {
        // MLA [HF DeepseekV3Attention]: q = q_a_proj + q_b_proj (or q_proj), k = kv_a_proj_with_mqa,
        // v = kv_b_proj, o = o_proj. The up-projections read the latents, counted as the attention input.
        const double a = double(m.num_heads), qk = double(m.qk_nope_head_dim + m.qk_rope_head_dim);
        const double v_dim = double(m.v_head_dim > 0 ? m.v_head_dim : r.head_dim);
        const double q_lora = double(m.q_lora_rank), kv_lora = double(m.kv_lora_rank);
        if (m.q_lora_rank > 0) {
            add(lora_q, h, q_lora, 1, false, LinearInput::attention_input);
            add(lora_q, q_lora, a * qk, 1, false, LinearInput::attention_input);
        } else {
            add(lora_q, h, a * qk, 1, false, LinearInput::attention_input);
        }
        add(lora_k, h, kv_lora + double(m.qk_rope_head_dim), 1, false, LinearInput::attention_input);
        add(lora_v, kv_lora, a * (double(m.qk_nope_head_dim) + v_dim), 1, false, LinearInput::attention_input);
        add(lora_o, a * v_dim, h, 1, false, LinearInput::attention_output);
    } else if (fused_qkv(m)) {
        add(lora_q | lora_k | lora_v, h, q + 2.0 * kv, 1, false, LinearInput::attention_input);
    } else {
        add(lora_q, h, q, 1, false, LinearInput::attention_input);
        add(lora_k, h, kv, 1, false, LinearInput::attention_input);
        add(lora_v, h, kv, 1, false, LinearInput::attention_input);
    }
    if (m.kv_lora_rank == 0) add(lora_o, q, h, 1, false, LinearInput::attention_output);
    if (m.mlp == MlpKind::swiglu) add(lora_gate, h, f, experts, moe, LinearInput::mlp_input);
    add(lora_up, h, f, experts, moe, LinearInput::mlp_input);
    add(lora_down, f, h, experts, moe, LinearInput::mlp_inner);
    if (moe && m.num_shared_experts > 0) {
        const double shared = double(m.num_shared_experts) * f;
        if (m.mlp == MlpKind::swiglu) add(lora_gate, h, shared, 1, false, LinearInput::mlp_input);
        add(lora_up, h, shared, 1, false, LinearInput::mlp_input);
        add(lora_down, shared, h, 1, false, LinearInput::mlp_inner);
    }
    if (moe) add(0, h, experts, 1, false, LinearInput::mlp_input);  // router
    return out;
}

AdapterCounts adapter_params_per_layer(const ModelConfig& m, const Layout& r, std::int64_t rank,
                                       std::uint32_t targets, bool dense_layer) {
    AdapterCounts c;
    const LayerLinears linears = layer_linears(m, r, dense_layer);  // all() views it: keep it alive
    for (const LayerLinear& l : linears.all()) {
        if (!(l.modules & targets)) continue;
        // A: r × d_in, B: d_out × r, no biases (PEFT bias="none"). [LORA §4.1]
        double params = double(rank) * (l.d_in + l.d_out) * l.copies;
        (l.expert ? c.expert : c.dense) += params;
    }
    return c;
}

std::int64_t trained_layers(const ModelConfig& m, const TrainingConfig& tr) {
    if (tr.method != TrainingMethod::freeze || tr.trainable_layers <= 0) return m.layers;
    return std::min(tr.trainable_layers, m.layers);
}

std::string describe_method(const TrainingConfig& tr) {
    static constexpr const char* formats[] = {"nf4", "nf4_no_dq", "int8"};
    std::string lora = "r " + std::to_string(tr.lora_rank) + " on " + format_lora_targets(tr.lora_targets);
    switch (tr.method) {
        case TrainingMethod::full: return "full training";
        case TrainingMethod::lora: return "LoRA " + lora;
        case TrainingMethod::qlora:
            return std::string("QLoRA (") + formats[static_cast<int>(tr.base_weight_format)] + ") " + lora;
        case TrainingMethod::freeze:
            return tr.trainable_layers > 0 ? "freeze: the last " + std::to_string(tr.trainable_layers) + " layers train"
                                           : "freeze: every layer trains, embeddings and head frozen";
    }
    return "";
}

void count_fine_tuning(const Scenario& sc, const Layout& r, ParameterCounts& c) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const double layers = double(m.layers);
    c.trained_layers = double(trained_layers(m, tr));
    c.adapter = c.adapter_expert = c.adapter_active = 0;
    c.quantized = c.quantized_bytes = c.quantization_constants = c.largest_quantized_matrix = 0;
    switch (tr.method) {
        case TrainingMethod::full: c.trainable = c.total; break;
        case TrainingMethod::freeze: {
            // The last k layers train; embeddings, final norm and LM head stay frozen. [LLAMAFACTORY]
            double architecture_total = c.embedding + c.layers + c.final_norm + c.lm_head;
            double scale = c.overridden && architecture_total > 0 ? c.total / architecture_total : 1.0;
            c.trainable = c.trained_layers * c.per_layer * scale;
            break;
        }
        case TrainingMethod::lora:
        case TrainingMethod::qlora: {
            AdapterCounts per_layer = adapter_params_per_layer(m, r, tr.lora_rank, tr.lora_targets);
            AdapterCounts per_dense = adapter_params_per_layer(m, r, tr.lora_rank, tr.lora_targets, true);
            const double moe_layers = layers - c.dense_layers;
            c.adapter = moe_layers * per_layer.total() + c.dense_layers * per_dense.total();
            c.adapter_expert = moe_layers * per_layer.expert;
            double active_share = m.num_experts > 1 ? double(m.experts_per_token) / double(m.num_experts) : 1.0;
            c.adapter_active = moe_layers * (per_layer.dense + per_layer.expert * active_share) + c.dense_layers * per_dense.dense;
            c.trainable = c.adapter;
            break;
        }
    }
    if (tr.method != TrainingMethod::qlora) return;
    // QLoRA stores every linear weight of the layers quantised; embeddings, norms, biases and the LM
    // head stay 16-bit: bitsandbytes (transformers' BitsAndBytesConfig) skips only the LM head,
    // torchtune quantises adapted and plain linears alike (LoRALinear / FrozenNF4Linear since
    // pytorch/torchtune#1119, 2024-07).
    const double code_bytes = tr.base_weight_format == BaseWeightFormat::int8 ? 1.0 : 0.5;
    for (bool dense : {false, true}) {
        const double count = dense ? c.dense_layers : layers - c.dense_layers;
        if (count <= 0) continue;
        const LayerLinears linears = layer_linears(m, r, dense);  // all() views it: keep it alive
        for (const LayerLinear& l : linears.all()) {
            double bytes = quantized_matrix_bytes(tr.base_weight_format, l.d_in, l.d_out);
            c.quantized += count * l.d_in * l.d_out * l.copies;
            c.quantized_bytes += count * l.copies * bytes;
            c.quantization_constants += count * l.copies * (bytes - code_bytes * l.d_in * l.d_out);
            c.largest_quantized_matrix = std::max(c.largest_quantized_matrix, l.d_in * l.d_out);
        }
    }
}

// parameters.trainable and the frozen base (docs/formulas.md "Fine-tuning").
void explain_fine_tuning(const Scenario& sc, const Estimate& e, std::vector<ExplainTerm>& out) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const auto& p = e.parameters;
    const char* peft = "Hu et al. 2021, LoRA (arXiv:2106.09685) §4.1; PEFT LoraLayer.update_layer (r·d_in + d_out·r, no "
                       "biases); LLaMA-Factory _setup_freeze_tuning (last k layers)";
    switch (tr.method) {
        case TrainingMethod::full:
            out.push_back(explain_term(e, "parameters.trainable", "P_trainable = P (full training)", peft, {{"P", p.total, "parameters"}}));
            break;
        case TrainingMethod::freeze:
            out.push_back(explain_term(e, "parameters.trainable",
                                       "P_trainable = k · per_layer (the last k layers; embeddings, final norm, LM head frozen)", peft,
                                       {{"k", p.trained_layers, "layers"}, {"per_layer", p.per_layer, "parameters"}}));
            break;
        case TrainingMethod::lora:
        case TrainingMethod::qlora:
            out.push_back(explain_term(e, "parameters.trainable",
                                       "P_trainable = L · Σ_targeted r · (d_in + d_out) (× E for expert linears)", peft,
                                       {{"L", double(m.layers), ""},
                                        {"r", double(tr.lora_rank), ""},
                                        {"targeted modules (q,k,v,o,gate,up,down)", double(std::popcount(tr.lora_targets & lora_all_linear)), ""},
                                        {"P_adapter", p.adapter, "parameters"}}));
            break;
    }
    {
        const char* formula =
            tr.method == TrainingMethod::full ? "frozen = 0 (every parameter trains)"
            : tr.method == TrainingMethod::qlora
                ? "frozen = (P − P_quantized) · bytes_w + Σ quantised matrices (NF4: 0.5 + 1/64 + 4/(64·256) bytes per "
                  "weight with double quantisation; int8: 1 byte + 4 per row); one 16-bit copy of the largest is made per matmul"
                : "frozen = (P − P_trainable) · bytes_w (no gradient, no optimizer state)";
        out.push_back(explain_term(e, "model_states_bytes.frozen_weights", formula,
                                   "Dettmers et al. 2023, QLoRA (arXiv:2305.14314) §3; Dettmers et al. 2022, LLM.int8() "
                                   "(arXiv:2208.07339); bitsandbytes MatMul4Bit, torchao linear_nf4 (dequantise per use)",
                                   {{"P", p.total, "parameters"},
                                    {"P_quantized", p.quantized, "parameters"},
                                    {"bytes_w", e.bytes_per_parameter.weights, "bytes/param"},
                                    {"quantised bytes", p.quantized_bytes, "bytes"},
                                    {"dequantised copy", e.model_states_bytes.dequantized, "bytes"}}));
    }
}

}  // namespace vramcalc
