#include "core/model/presets.hpp"

#include <algorithm>
#include <array>

#include "core/model/architecture.hpp"

namespace vramcalc {
namespace {

// GPT-2/GPT-3 style: GELU MLP (f = 4h), LayerNorm, biases, tied embeddings, learned positions.
ModelConfig gpt(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t positions) {
    ModelConfig m;
    m.name = name;
    m.layers = layers;
    m.hidden_size = hidden;
    m.num_heads = heads;
    m.vocab_size = 50257;
    m.max_position_embeddings = positions;
    return m;  // the remaining defaults are already GPT's
}

// GPT-2 as Hugging Face implements it: activation_function "gelu_new" (the Python tanh formula,
// which keeps five f-wide tensors in eager mode).
ModelConfig gpt2(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads) {
    ModelConfig m = gpt(name, layers, hidden, heads, 1024);
    m.activation = Activation::gelu_new;
    return m;
}

// GPT-NeoX / Pythia: like GPT but rotary positions and untied embeddings.
ModelConfig neox(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t vocab) {
    ModelConfig m = gpt(name, layers, hidden, heads, 2048);
    m.vocab_size = vocab;
    m.tied_embeddings = false;
    m.position_embedding = PositionEmbedding::rope;
    return m;
}

// Llama family: SwiGLU, RMSNorm, no biases, rotary positions, untied embeddings.
ModelConfig llama(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t kv_heads,
                  std::int64_t ffn, std::int64_t vocab, std::int64_t positions) {
    ModelConfig m;
    m.name = name;
    m.layers = layers;
    m.hidden_size = hidden;
    m.num_heads = heads;
    m.num_kv_heads = kv_heads;
    m.ffn_hidden_size = ffn;
    m.vocab_size = vocab;
    m.mlp = MlpKind::swiglu;
    m.norm = NormKind::rmsnorm;
    m.bias = false;
    m.tied_embeddings = false;
    m.position_embedding = PositionEmbedding::rope;
    m.max_position_embeddings = positions;
    return m;
}

ModelConfig with_experts(ModelConfig m, std::int64_t experts, std::int64_t per_token) {
    m.num_experts = experts;
    m.experts_per_token = per_token;
    return m;
}

ModelConfig qwen2(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t kv_heads,
                  std::int64_t ffn) {
    ModelConfig m = llama(name, layers, hidden, heads, kv_heads, ffn, 152064, 131072);
    m.qkv_bias = true;
    return m;
}

// Gemma: GeGLU (gated, 3 matrices: counted as `swiglu`), head_dim 256, tied embeddings.
ModelConfig gemma(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t kv_heads,
                  std::int64_t ffn) {
    ModelConfig m = llama(name, layers, hidden, heads, kv_heads, ffn, 256000, 8192);
    m.head_dim = 256;
    m.tied_embeddings = true;
    return m;
}

ModelConfig tied(ModelConfig m) {
    m.tied_embeddings = true;
    return m;
}

ModelConfig with_head_dim(ModelConfig m, std::int64_t head_dim) {
    m.head_dim = head_dim;
    return m;
}

// Qwen2.5 up to 3B: vocabulary 151,936 and tied embeddings (the larger ones untie them, 152,064).
ModelConfig qwen2_small(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads,
                        std::int64_t kv_heads, std::int64_t ffn, std::int64_t positions) {
    ModelConfig m = qwen2(name, layers, hidden, heads, kv_heads, ffn);
    m.vocab_size = 151936;
    m.max_position_embeddings = positions;
    return tied(m);
}

// Gemma 2: GeGLU, tied embeddings, four RMSNorms per layer (pre- and post-norm around attention and
// MLP), vocabulary 256,000, 8,192 positions; head_dim 256 (2B, 9B) or 128 (27B).
ModelConfig gemma2(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t kv_heads,
                   std::int64_t head_dim, std::int64_t ffn) {
    ModelConfig m = gemma(name, layers, hidden, heads, kv_heads, ffn);
    m.head_dim = head_dim;
    m.norms_per_layer = 4;
    return m;
}

// Phi-3-small: LayerNorm with biases, biases on every linear (config.json's attention_bias is a
// TGI workaround; vLLM builds them with bias=True), gated GeLU, tied embeddings, vocabulary 100,352.
ModelConfig phi3_small() {
    ModelConfig m = llama("Phi-3-small-8k", 32, 4096, 32, 8, 14336, 100352, 8192);
    m.norm = NormKind::layernorm;
    m.bias = true;
    return tied(m);
}

// DeepSeekMoE 16B: 64 routed experts (6 per token) of width 1408 plus 2 shared ones, the first layer
// dense (10,944), multi-head attention, vocabulary 102,400.
ModelConfig deepseek_moe_16b() {
    ModelConfig m = with_experts(llama("DeepSeekMoE-16B", 28, 2048, 16, 16, 10944, 102400, 4096), 64, 6);
    m.moe_ffn_hidden_size = 1408;
    m.num_shared_experts = 2;
    m.dense_layers = 1;
    return m;
}

// Qwen3 dense [Qwen3 technical report, arXiv:2505.09388, Table 1]: Llama layers with head_dim 128,
// per-head q/k RMSNorms, vocabulary 151,936, 40,960 positions; the three smallest tie embeddings.
ModelConfig qwen3(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t kv_heads,
                  std::int64_t ffn, bool tie) {
    ModelConfig m = with_head_dim(llama(name, layers, hidden, heads, kv_heads, ffn, 151936, 40960), 128);
    m.qk_norm = true;
    m.tied_embeddings = tie;
    return m;
}

// Qwen3 MoE: every layer routes to k of E experts of width f_e, no shared expert.
ModelConfig qwen3_moe(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t kv_heads,
                      std::int64_t ffn, std::int64_t experts, std::int64_t expert_ffn) {
    ModelConfig m = with_experts(qwen3(name, layers, hidden, heads, kv_heads, ffn, false), experts, 8);
    m.moe_ffn_hidden_size = expert_ffn;
    return m;
}

// Qwen3-Next-80B-A3B: 3 Gated DeltaNet layers per softmax layer; gated attention (q_proj also
// emits an output gate), head_dim 256, q/k norms; 512 experts (10 per token) of width 512 and one
// gated shared expert of the same width; 262,144 positions.
ModelConfig qwen3_next_80b() {
    ModelConfig m = qwen3_moe("Qwen3-Next-80B-A3B", 48, 2048, 16, 2, 5120, 512, 512);
    m.head_dim = 256;
    m.max_position_embeddings = 262144;
    m.experts_per_token = 10;
    m.num_shared_experts = 1;
    m.shared_expert_gate = true;
    m.attention_output_gate = true;
    m.full_attention_interval = 4;
    m.linear_attention = LinearAttention::gated_deltanet;
    m.linear_num_key_heads = 16;
    m.linear_num_value_heads = 32;
    m.linear_key_head_dim = 128;
    m.linear_value_head_dim = 128;
    m.linear_conv_kernel = 4;
    return m;
}

// DeepSeek-V3 (and R1, the same network): MLA (q_lora 1536, kv_lora 512, RoPE 64, NoPE 128, V
// 128), 128 heads; the first 3 layers dense (18,432), then 256 routed experts (8 per token) of
// width 2048 + 1 shared; router bias (e_score_correction_bias); 163,840 positions. head_dim here
// is MLA's query/key head width d_n + d_R = 192. The MTP module (14B) is not counted.
ModelConfig deepseek_v3(const char* name) {
    ModelConfig m = with_experts(llama(name, 61, 7168, 128, 128, 18432, 129280, 163840), 256, 8);
    m.head_dim = 192;
    m.moe_ffn_hidden_size = 2048;
    m.num_shared_experts = 1;
    m.dense_layers = 3;
    m.router_bias = true;
    m.kv_lora_rank = 512;
    m.q_lora_rank = 1536;
    m.qk_rope_head_dim = 64;
    m.qk_nope_head_dim = 128;
    m.v_head_dim = 128;
    return m;
}

// gpt-oss: biases on every linear (attention, experts, router), an attention sink per head, 64
// heads of 64 with 8 KV heads, layers alternating a 128-token window and global attention, top-4
// experts of width 2880, vocabulary 201,088 (o200k_harmony), 131,072 positions.
ModelConfig gpt_oss(const char* name, std::int64_t layers, std::int64_t experts) {
    ModelConfig m = with_experts(with_head_dim(llama(name, layers, 2880, 64, 8, 2880, 201088, 131072), 64), experts, 4);
    m.bias = true;
    m.router_bias = true;
    m.attention_sinks = true;
    m.sliding_window = 128;
    m.global_attention_interval = 2;
    return m;
}

// Gemma 3 text model: Gemma 2's four norms per layer plus q/k norms, five windowed layers per
// global one (sliding_window_pattern 6), tied embeddings. The 4B-27B text_configs omit what equals
// transformers' Gemma3TextConfig defaults: vocabulary 262,208, 131,072 positions, the pattern and
// (4B) 8 heads / 4 KV heads of 256; windows 512 (1B) and 1024 (4B-27B) as google-deepmind/gemma
// gm/nn/_gemma.py sliding_window_size.
ModelConfig gemma3(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t kv_heads,
                   std::int64_t head_dim, std::int64_t ffn, std::int64_t vocab, std::int64_t window, std::int64_t positions) {
    ModelConfig m = gemma2(name, layers, hidden, heads, kv_heads, head_dim, ffn);
    m.vocab_size = vocab;
    m.max_position_embeddings = positions;
    m.qk_norm = true;
    m.sliding_window = window;
    m.global_attention_interval = 6;
    return m;
}

// Llama 4 text model: 48 layers of 5120, 40 heads of 128 with 8 KV heads, vocabulary 202,048;
// every layer's MoE has one routed expert (top-1) and one shared expert of width 8192; three of
// four layers use chunked attention over 8192 tokens (counted as that window), every fourth is
// global without RoPE (transformers Llama4TextConfig: no_rope_layer_interval 4). Scout's q/k norms
// (use_qk_norm) are weightless L2 norms, Maverick has none: nothing to count either way. Maverick
// alternates dense (16,384) and MoE layers: 24 dense layers, counted as leading ones (same count).
// Positions: the -Instruct configs' 10,485,760 (Scout) and 1,048,576 (Maverick); the base
// checkpoints' config.json say 262,144.
ModelConfig llama4(const char* name, std::int64_t experts, std::int64_t dense_layers, std::int64_t positions) {
    ModelConfig m = with_experts(with_head_dim(llama(name, 48, 5120, 40, 8, 16384, 202048, positions), 128), experts, 1);
    m.moe_ffn_hidden_size = 8192;
    m.num_shared_experts = 1;
    m.dense_layers = dense_layers;
    m.sliding_window = 8192;
    m.global_attention_interval = 4;
    return m;
}

// Jamba v0.1 (AI21, arXiv:2403.19887): 32 layers of 4096, one attention layer per 8 (the others
// Mamba, d_state 16, d_conv 4, expand 2), MoE (16 experts, top-2) in every other layer: the 16
// dense layers are counted as leading ones (the same total), the attention layers as every 8th
// (Jamba: offset 4; the same count). No positional encoding (counted as rope: no parameters).
ModelConfig jamba() {
    ModelConfig m = with_experts(llama("Jamba-v0.1", 32, 4096, 32, 8, 14336, 65536, 262144), 16, 2);
    m.dense_layers = 16;
    m.full_attention_interval = 8;
    m.linear_attention = LinearAttention::mamba;
    m.ssm_state_size = 16;
    m.ssm_expand = 2;
    m.linear_conv_kernel = 4;
    return m;
}

constexpr const char* gpt2_source =
    "Radford et al. 2019, Language Models are Unsupervised Multitask Learners; exact count of the Hugging Face "
    "checkpoint (openai-community/gpt2*, config.json)";
constexpr const char* gpt3_source =
    "Brown et al. 2020, Language Models are Few-Shot Learners (arXiv:2005.14165), Table 2.1 (n_ctx 2048; published "
    "sizes are rounded)";
constexpr const char* pythia_source =
    "Biderman et al. 2023, Pythia (arXiv:2304.01373), Table 1; Hugging Face config.json (EleutherAI/pythia-*)";
constexpr const char* llama2_source =
    "Touvron et al. 2023, Llama 2 (arXiv:2307.09288); Hugging Face config.json and model card (meta-llama/Llama-2-*)";
constexpr const char* llama3_source =
    "Dubey et al. 2024, The Llama 3 Herd of Models (arXiv:2407.21783), Table 3; Hugging Face config.json "
    "(meta-llama/Meta-Llama-3*)";
constexpr const char* qwen25_source =
    "Qwen Team 2024, Qwen2.5 Technical Report (arXiv:2412.15115), Table 1; Hugging Face config.json (Qwen/Qwen2.5-*)";
constexpr const char* gemma_source =
    "Gemma Team 2024, Gemma: Open Models Based on Gemini Research and Technology (arXiv:2403.08295), Tables 1 and 2; "
    "Hugging Face config.json (google/gemma-*)";

constexpr const char* llama31_source =
    "Meta Llama 3.1 (Dubey et al. 2024, arXiv:2407.21783, Table 3); torchtune llama3_1 builders; Hugging Face "
    "safetensors total (also KerasHub llama3.1_8b metadata: 8,030,261,248)";
constexpr const char* llama32_source =
    "Meta Llama 3.2 (tied embeddings); torchtune llama3_2 builders; Hugging Face safetensors total";
constexpr const char* gemma2_source =
    "Gemma Team 2024, Gemma 2 (arXiv:2408.00118), Table 1; torchtune gemma2 builders (sa_norm, mlp_norm, sa_scale, "
    "mlp_scale); KerasHub preset metadata";
constexpr const char* phi3_source =
    "Abdin et al. 2024, Phi-3 technical report (arXiv:2404.14219); Hugging Face config.json; safetensors totals";

std::span<const ModelPreset> model_table() {
    static const auto table = std::to_array<ModelPreset>({
        {"gpt2", gpt2("GPT-2 124M", 12, 768, 12), 124439808, gpt2_source},
        {"gpt2-medium", gpt2("GPT-2 355M", 24, 1024, 16), 354823168, gpt2_source},
        {"gpt2-large", gpt2("GPT-2 774M", 36, 1280, 20), 774030080, gpt2_source},
        {"gpt2-xl", gpt2("GPT-2 1.5B", 48, 1600, 25), 1557611200, gpt2_source},
        {"gpt3-125m", gpt("GPT-3 Small 125M", 12, 768, 12, 2048), 0, gpt3_source},
        {"gpt3-350m", gpt("GPT-3 Medium 350M", 24, 1024, 16, 2048), 0, gpt3_source},
        {"gpt3-760m", gpt("GPT-3 Large 760M", 24, 1536, 16, 2048), 0, gpt3_source},
        {"gpt3-2.7b", gpt("GPT-3 2.7B", 32, 2560, 32, 2048), 0, gpt3_source},
        {"gpt3-6.7b", gpt("GPT-3 6.7B", 32, 4096, 32, 2048), 0, gpt3_source},
        {"gpt3-175b", gpt("GPT-3 175B", 96, 12288, 96, 2048), 0, gpt3_source},
        {"gpt-neox-20b", neox("GPT-NeoX-20B", 44, 6144, 64, 50432), 20554567680,
         "Black et al. 2022, GPT-NeoX-20B (arXiv:2204.06745), Table 1: 20,554,567,680 parameters"},
        {"pythia-1b", neox("Pythia-1B", 16, 2048, 8, 50304), 1011781632, pythia_source},
        {"pythia-1.4b", neox("Pythia-1.4B", 24, 2048, 16, 50304), 1414647808, pythia_source},
        {"pythia-2.8b", neox("Pythia-2.8B", 32, 2560, 32, 50304), 2775208960, pythia_source},
        {"pythia-6.9b", neox("Pythia-6.9B", 32, 4096, 32, 50432), 6857302016, pythia_source},
        {"pythia-12b", neox("Pythia-12B", 36, 5120, 40, 50688), 11846072320, pythia_source},
        // Same 80 × 8192 × 64-head shape as the Llama-65B worked example of "LLM parameters, VRAM,
        // TFLOPs? Training part 5", but with the real SwiGLU layers (f = 22016): its activations are
        // not that example's 34·sbh, which counts GPT-shaped layers (docs/formulas.md §9 reproduces it).
        {"llama-65b", llama("LLaMA-65B", 80, 8192, 64, 64, 22016, 32000, 2048), 0,
         "Touvron et al. 2023, LLaMA: Open and Efficient Foundation Language Models (arXiv:2302.13971), Table 2 "
         "(65.2B); Hugging Face config.json (intermediate_size 22016)"},
        {"llama-2-7b", llama("Llama-2-7B", 32, 4096, 32, 32, 11008, 32000, 4096), 6738415616, llama2_source},
        {"llama-2-13b", llama("Llama-2-13B", 40, 5120, 40, 40, 13824, 32000, 4096), 13015864320, llama2_source},
        {"llama-2-70b", llama("Llama-2-70B", 80, 8192, 64, 8, 28672, 32000, 4096), 68976648192, llama2_source},
        {"llama-3-8b", llama("Llama-3-8B", 32, 4096, 32, 8, 14336, 128256, 8192), 8030261248, llama3_source},
        {"llama-3-70b", llama("Llama-3-70B", 80, 8192, 64, 8, 28672, 128256, 8192), 70553706496, llama3_source},
        {"llama-3.1-405b", llama("Llama-3.1-405B", 126, 16384, 128, 8, 53248, 128256, 131072), 405853388800,
         llama3_source},
        {"mistral-7b", llama("Mistral-7B", 32, 4096, 32, 8, 14336, 32000, 32768), 7241732096,
         "Jiang et al. 2023, Mistral 7B (arXiv:2310.06825), Table 1; Hugging Face config.json (mistralai/Mistral-7B-v0.1)"},
        {"mixtral-8x7b", with_experts(llama("Mixtral-8x7B", 32, 4096, 32, 8, 14336, 32000, 32768), 8, 2), 46702792704,
         "Jiang et al. 2024, Mixtral of Experts (arXiv:2401.04088): 47B total, 13B active; Hugging Face config.json "
         "(mistralai/Mixtral-8x7B-v0.1)"},
        {"qwen2.5-7b", qwen2("Qwen2.5-7B", 28, 3584, 28, 4, 18944), 7615616512, qwen25_source},
        {"qwen2.5-72b", qwen2("Qwen2.5-72B", 80, 8192, 64, 8, 29568), 72706203648, qwen25_source},
        {"gemma-2b", gemma("Gemma-2B", 18, 2048, 8, 1, 16384), 2506172416, gemma_source},
        {"gemma-7b", gemma("Gemma-7B", 28, 3072, 16, 16, 24576), 8537680896, gemma_source},
        // Presets fine-tuners ask for (issue 11). Counts: docs/formulas.md and tests/test_parameters.cpp.
        {"llama-3.1-8b", llama("Llama-3.1-8B", 32, 4096, 32, 8, 14336, 128256, 131072), 8030261248, llama31_source},
        {"llama-3.1-70b", llama("Llama-3.1-70B", 80, 8192, 64, 8, 28672, 128256, 131072), 70553706496, llama31_source},
        {"llama-3.2-1b", tied(llama("Llama-3.2-1B", 16, 2048, 32, 8, 8192, 128256, 131072)), 1235814400, llama32_source},
        {"llama-3.2-3b", tied(llama("Llama-3.2-3B", 28, 3072, 24, 8, 8192, 128256, 131072)), 3212749824, llama32_source},
        {"llama-3.3-70b", llama("Llama-3.3-70B", 80, 8192, 64, 8, 28672, 128256, 131072), 70553706496,
         "Meta Llama 3.3 70B Instruct model card (same architecture as Llama 3.1 70B); Hugging Face safetensors total"},
        {"qwen2.5-0.5b", qwen2_small("Qwen2.5-0.5B", 24, 896, 14, 2, 4864, 32768), 494032768, qwen25_source},
        {"qwen2.5-1.5b", qwen2_small("Qwen2.5-1.5B", 28, 1536, 12, 2, 8960, 131072), 1543714304, qwen25_source},
        {"qwen2.5-3b", qwen2_small("Qwen2.5-3B", 36, 2048, 16, 2, 11008, 32768), 3085938688, qwen25_source},
        {"qwen2.5-14b", qwen2("Qwen2.5-14B", 48, 5120, 40, 8, 13824), 14770033664,
         "Qwen2.5 technical report (2024, arXiv:2412.15115), Table 1; GGUF general.parameter_count 14,770,033,664"},
        {"qwen2.5-32b", qwen2("Qwen2.5-32B", 64, 5120, 40, 8, 27648), 32763876352, qwen25_source},
        {"gemma-2-2b", gemma2("Gemma-2-2B", 26, 2304, 8, 4, 256, 9216), 2614341888, gemma2_source},
        {"gemma-2-9b", gemma2("Gemma-2-9B", 42, 3584, 16, 8, 256, 14336), 9241705984, gemma2_source},
        {"gemma-2-27b", gemma2("Gemma-2-27B", 46, 4608, 32, 16, 128, 36864), 27227128320, gemma2_source},
        {"phi-3-mini-4k", llama("Phi-3-mini-4k", 32, 3072, 32, 32, 8192, 32064, 4096), 3821079552, phi3_source},
        {"phi-3.5-mini", llama("Phi-3.5-mini", 32, 3072, 32, 32, 8192, 32064, 131072), 3821079552, phi3_source},
        {"phi-3-small-8k", phi3_small(), 0,
         "Abdin et al. 2024, Phi-3 technical report (arXiv:2404.14219): 7.392B (published rounded); vLLM phi3_small "
         "(biases on every linear, LayerNorm)"},
        {"phi-3-medium-4k", llama("Phi-3-medium-4k", 40, 5120, 40, 10, 17920, 32064, 4096), 13960238080, phi3_source},
        {"phi-4", llama("Phi-4", 40, 5120, 40, 10, 17920, 100352, 16384), 14659507200,
         "Abdin et al. 2024, Phi-4 technical report (arXiv:2412.08905); torchtune phi4 builder; Hugging Face "
         "safetensors total"},
        {"mistral-nemo-12b", with_head_dim(llama("Mistral-Nemo-12B", 40, 5120, 32, 8, 14336, 131072, 1024000), 128),
         12247782400, "Mistral NeMo 2407 model card; Hugging Face config.json (head_dim 128); safetensors total"},
        {"deepseek-moe-16b", deepseek_moe_16b(), 16375728128,
         "Dai et al. 2024, DeepSeekMoE (arXiv:2401.06066); deepseek-ai/deepseek-moe-16b-base config.json "
         "(first_k_dense_replace 1, n_shared_experts 2, moe_intermediate_size 1408); safetensors total"},
        // Architectures of today (issue 24). Exact totals: tests/test_architectures.cpp.
        {"qwen3-0.6b", qwen3("Qwen3-0.6B", 28, 1024, 16, 8, 3072, true), 0,
         "Qwen3 (arXiv:2505.09388); https://huggingface.co/Qwen/Qwen3-0.6B/blob/main/config.json; the safetensors total "
         "751,632,384 also counts the stored copy of the tied LM head"},
        {"qwen3-1.7b", qwen3("Qwen3-1.7B", 28, 2048, 16, 8, 6144, true), 0,
         "Qwen3 (arXiv:2505.09388); https://huggingface.co/Qwen/Qwen3-1.7B/blob/main/config.json; the safetensors total "
         "2,031,739,904 also counts the stored copy of the tied LM head"},
        {"qwen3-4b", qwen3("Qwen3-4B", 36, 2560, 32, 8, 9728, true), 4022468096,
         "Qwen3 (arXiv:2505.09388); https://huggingface.co/Qwen/Qwen3-4B/blob/main/config.json; safetensors total"},
        {"qwen3-8b", qwen3("Qwen3-8B", 36, 4096, 32, 8, 12288, false), 8190735360,
         "Qwen3 (arXiv:2505.09388); https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json; safetensors total"},
        {"qwen3-14b", qwen3("Qwen3-14B", 40, 5120, 40, 8, 17408, false), 14768307200,
         "Qwen3 (arXiv:2505.09388); https://huggingface.co/Qwen/Qwen3-14B/blob/main/config.json; safetensors total "
         "(KerasHub qwen3_14b_en metadata)"},
        {"qwen3-32b", qwen3("Qwen3-32B", 64, 5120, 64, 8, 25600, false), 32762123264,
         "Qwen3 (arXiv:2505.09388); https://huggingface.co/Qwen/Qwen3-32B/blob/main/config.json; safetensors total "
         "(KerasHub qwen3_32b_en metadata)"},
        {"qwen3-30b-a3b", qwen3_moe("Qwen3-30B-A3B", 48, 2048, 32, 4, 6144, 128, 768), 30532122624,
         "Qwen3 (arXiv:2505.09388); https://huggingface.co/Qwen/Qwen3-30B-A3B/blob/main/config.json; llama.cpp "
         "general.parameter_count"},
        {"qwen3-235b-a22b", qwen3_moe("Qwen3-235B-A22B", 94, 4096, 64, 4, 12288, 128, 1536), 235093634560,
         "Qwen3 (arXiv:2505.09388); https://huggingface.co/Qwen/Qwen3-235B-A22B/blob/main/config.json; safetensors total"},
        {"qwen3-next-80b-a3b", qwen3_next_80b(), 79674391296,
         "Qwen3-Next (https://huggingface.co/Qwen/Qwen3-Next-80B-A3B-Instruct/blob/main/config.json, the same network "
         "as -Thinking); transformers "
         "modeling_qwen3_next.py shapes; llama.cpp n_params of the qwen3next GGUF (MTP layer not counted)"},
        {"deepseek-v3", deepseek_v3("DeepSeek-V3"), 671026419200,
         "DeepSeek-V3 (arXiv:2412.19437); https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json; 671B "
         "main model + 14B MTP = 685B (README_WEIGHTS.md); exact main-model count of the checkpoint tensors"},
        {"deepseek-r1", deepseek_v3("DeepSeek-R1"), 671026419200,
         "DeepSeek-R1 (arXiv:2501.12948), the DeepSeek-V3 network: https://huggingface.co/deepseek-ai/DeepSeek-R1/blob/"
         "main/config.json; 671B without the MTP module"},
        {"gpt-oss-20b", gpt_oss("gpt-oss-20b", 24, 32), 20914757184,
         "gpt-oss model card (arXiv:2508.10925), Table 1: 20.91B; https://huggingface.co/openai/gpt-oss-20b/blob/main/"
         "config.json; llama.cpp general.parameter_count 20,914,757,184"},
        {"gpt-oss-120b", gpt_oss("gpt-oss-120b", 36, 128), 116829156672,
         "gpt-oss model card (arXiv:2508.10925), Table 1: 116.83B; https://huggingface.co/openai/gpt-oss-120b/blob/main/"
         "config.json; llama.cpp general.parameter_count 116,829,156,672"},
        {"gemma-3-1b", gemma3("Gemma-3-1B", 26, 1152, 4, 1, 256, 6912, 262144, 512, 32768), 999885952,
         "Gemma 3 (arXiv:2503.19786); https://huggingface.co/google/gemma-3-1b-pt/blob/main/config.json; safetensors total"},
        {"gemma-3-4b", gemma3("Gemma-3-4B", 34, 2560, 8, 4, 256, 10240, 262208, 1024, 131072), 3880263168,
         "Gemma 3 (arXiv:2503.19786); text model only (the 417M SigLIP vision encoder is not counted): text_config of "
         "https://huggingface.co/google/gemma-3-4b-pt/blob/main/config.json; llama.cpp n_params of the text GGUF"},
        {"gemma-3-12b", gemma3("Gemma-3-12B", 48, 3840, 16, 8, 256, 15360, 262208, 1024, 131072), 11766034176,
         "Gemma 3 (arXiv:2503.19786); text model only (vision encoder not counted): text_config of "
         "https://huggingface.co/google/gemma-3-12b-pt/blob/main/config.json; llama.cpp n_params of the text GGUF"},
        {"gemma-3-27b", gemma3("Gemma-3-27B", 62, 5376, 32, 16, 128, 21504, 262208, 1024, 131072), 27009346304,
         "Gemma 3 (arXiv:2503.19786); text model only (vision encoder not counted): text_config of "
         "https://huggingface.co/google/gemma-3-27b-pt/blob/main/config.json; llama.cpp n_params of the text GGUF"},
        {"mistral-small-3.1-24b", with_head_dim(llama("Mistral-Small-3.1-24B", 40, 5120, 32, 8, 32768, 131072, 131072), 128),
         23572403200,
         "Mistral Small 3.1 2503; text model only (Pixtral vision encoder not counted): text_config of "
         "https://huggingface.co/mistralai/Mistral-Small-3.1-24B-Base-2503/blob/main/config.json; the same text model "
         "as Mistral-Small-24B-Base-2501, safetensors total 23,572,403,200"},
        {"llama-4-scout", llama4("Llama-4-Scout-17B-16E", 16, 0, 10485760), 0,
         "Llama 4 Scout; text model only: text_config of https://huggingface.co/meta-llama/Llama-4-Scout-17B-16E-"
         "Instruct/blob/main/config.json (max_position_embeddings 10,485,760; the base repo's config.json says "
         "262,144); the safetensors total 108,641,793,536 adds the 871,932,416-parameter vision encoder"},
        {"llama-4-maverick", llama4("Llama-4-Maverick-17B-128E", 128, 24, 1048576), 0,
         "Llama 4 Maverick (interleave_moe_layer_step 2, use_qk_norm false); text model only: text_config of "
         "https://huggingface.co/meta-llama/Llama-4-Maverick-17B-128E-Instruct/blob/main/config.json "
         "(max_position_embeddings 1,048,576; the base repo's config.json says 262,144); the safetensors total "
         "401,583,781,376 adds the 871,932,416-parameter vision encoder"},
        {"jamba-v0.1", jamba(), 0,
         "Lieber et al. 2024, Jamba (arXiv:2403.19887): 52B total, 12B active; https://huggingface.co/ai21labs/"
         "Jamba-v0.1/blob/main/config.json; transformers JambaMambaMixer shapes; Hugging Face: 51.6B parameters (rounded)"},
    });
    return table;
}

// Memory: what the device reports, converted to GiB exactly: nvidia-smi's total in MiB / 1024
// (rocm-smi's bytes / 2^30 for AMD), as printed by the named GPU in public nvidia-smi logs. Peak:
// dense (no sparsity) bf16/fp16 tensor-core TFLOP/s from the datasheet. Achieved: A100 150 TFLOP/s
// (GPT-NeoX, Transformer Math 101); H100 400 (Dubey et al. 2024, arXiv:2407.21783, Table 4: 380–430);
// V100 39 (Shoeybi et al. 2019, Megatron-LM, arXiv:1909.08053: 30 % of peak); the others are 40 % of
// peak, an assumption each source says. Price: an indicative on-demand USD figure, not sourced —
// set your own (hardware.price_per_gpu_hour).
constexpr double MiB = 1.0 / 1024;  // GiB per MiB
using F = GpuFamily;
// Interconnect: the reference 8-GPU system of each GPU. "One direction" halves NVIDIA's
// bidirectional NVLink figures; inter-node is the node's compute-NIC bandwidth per GPU.
constexpr const char* dgx1_v100 = "NVIDIA DGX-1 with Tesla V100 system architecture whitepaper: NVLink 2 6 links x 25 GB/s per direction, 4x 100 Gb/s EDR InfiniBand per 8 GPUs; V100 SXM2 datasheet: 900 GB/s HBM2";
constexpr const char* dgx_a100 = "NVIDIA DGX A100 datasheet: 8 GPUs, NVLink 3 600 GB/s bidirectional per GPU, 8x 200 Gb/s HDR InfiniBand (one NIC per GPU); A100 datasheet: 1555 GB/s (40GB), 2039 GB/s (80GB SXM)";
constexpr const char* dgx_h100 = "NVIDIA DGX H100/H200 datasheet: 8 GPUs, NVLink 4 900 GB/s bidirectional per GPU, 8x 400 Gb/s ConnectX-7 (one NIC per GPU); H100 SXM datasheet 3.35 TB/s HBM3, H200 datasheet 4.8 TB/s HBM3e";
constexpr const char* dgx_b200 = "NVIDIA DGX B200 datasheet: 8 GPUs, NVLink 5 1.8 TB/s bidirectional per GPU, 8x 400 Gb/s ConnectX-7, 64 TB/s HBM3e per system (8 TB/s per GPU)";
constexpr const char* pcie_server = "PCIe server (assumed): 8 GPUs that talk over PCIe (Gen5 x16 64 GB/s, Gen4 x16 32 GB/s per direction; H100 PCIe NVLink bridges join pairs only), one 200 Gb/s NIC per GPU; memory bandwidth from each datasheet (H100 PCIe 2.0 TB/s, L40S 864 GB/s)";
constexpr const char* workstation = "Workstation (assumed): 4 GPUs on PCIe 4.0 x16 (32 GB/s per direction), 10 Gb/s Ethernet between machines; memory bandwidth from the GA102/AD102 whitepapers (RTX 3090 936 GB/s, RTX 4090 1008 GB/s)";
constexpr const char* frontier = "OLCF Frontier node (4 MI250X = 8 GCDs): Infinity Fabric 50 GB/s per direction between GCDs of different cards, 4x 200 Gb/s Slingshot per node; MI250X datasheet 3.2 TB/s per card (1.6 TB/s per GCD)";
constexpr const char* mi300x = "AMD Instinct MI300X datasheet: 896 GB/s aggregate bidirectional Infinity Fabric per GPU in an 8-GPU platform, 5.3 TB/s HBM3; 8x 400 Gb/s NICs (assumed, as DGX H100)";
constexpr const char* cloud_pcie = "Cloud PCIe instances (assumed): 8 GPUs on PCIe Gen4 x16 (32 GB/s per direction; T4: Gen3 x16, 16 GB/s) as in AWS g6/g5.48xlarge and g4dn.metal, 100 Gb/s network per instance (1.5625 GB/s per GPU); memory bandwidth from each datasheet (L4 300 GB/s, A10G 600 GB/s, T4 320 GB/s)";
constexpr const char* workstation_new = "Workstation (assumed): 4 GPUs on PCIe (RTX 5090 Gen5 x16 64 GB/s, RTX A6000 Gen4 x16 32 GB/s per direction; A6000 NVLink bridges join pairs only), 10 Gb/s Ethernet between machines; memory bandwidth from the datasheets (RTX 5090 1792 GB/s, RTX A6000 768 GB/s)";

constexpr const char* workstation_pro = "Workstation (assumed): 4 GPUs on PCIe (RTX 6000 Ada Gen4 x16 32 GB/s, RTX PRO 6000 Blackwell Gen5 x16 64 GB/s per direction), 10 Gb/s Ethernet between machines; memory bandwidth from the datasheets (RTX 6000 Ada 960 GB/s GDDR6, RTX PRO 6000 Blackwell 1792 GB/s GDDR7)";
constexpr const char* h100_nvl = "NVIDIA H100 NVL datasheet: 94 GB HBM3 at 3.9 TB/s; NVLink bridges (600 GB/s bidirectional) join pairs only, so larger groups talk over PCIe Gen5 x16 (64 GB/s per direction); 8-GPU PCIe server with one 200 Gb/s NIC per GPU (assumed)";
constexpr const char* hgx_h20 = "NVIDIA HGX H20 (H20 product brief): 8 GPUs, 96 GB HBM3 at 4.0 TB/s, NVLink 900 GB/s bidirectional per GPU; 8x 400 Gb/s NICs (assumed, as DGX H100)";

constexpr auto gpu_table = std::to_array<GpuPreset>({
    {"V100-16GB", 16160 * MiB, 125, 39, 0.9,
     "NVIDIA V100 SXM2 datasheet (16 GB HBM2, 125 TFLOP/s tensor); nvidia-smi: 16160 MiB; achieved: Megatron-LM "
     "(arXiv:1909.08053), 39 TFLOP/s/GPU",
     F::volta, 8, 150, 6.25, 900, dgx1_v100},
    {"V100-32GB", 32510 * MiB, 125, 39, 1.0,
     "NVIDIA V100 SXM2 datasheet (32 GB HBM2, 125 TFLOP/s tensor); nvidia-smi: 32510 MiB; achieved: Megatron-LM "
     "(arXiv:1909.08053), 39 TFLOP/s/GPU",
     F::volta, 8, 150, 6.25, 900, dgx1_v100},
    {"A100-40GB", 40960 * MiB, 312, 150, 1.3,
     "NVIDIA A100 datasheet (40 GB, 312 TFLOP/s dense bf16); nvidia-smi (A100-SXM4-40GB): 40960 MiB; achieved: "
     "GPT-NeoX 150 TFLOP/s/A100 (Transformer Math 101, https://blog.eleuther.ai/transformer-math/)",
     F::ampere, 8, 300, 25, 1555, dgx_a100},
    {"A100-80GB", 81920 * MiB, 312, 150, 1.8,
     "NVIDIA A100 datasheet (80 GB, 312 TFLOP/s dense bf16); nvidia-smi (A100-SXM4-80GB): 81920 MiB; achieved: "
     "GPT-NeoX 150 TFLOP/s/A100, 180 with FlashAttention (Transformer Math 101)",
     F::ampere, 8, 300, 25, 2039, dgx_a100},
    {"H100-SXM", 81559 * MiB, 989, 400, 3.0,
     "NVIDIA H100 datasheet (SXM: 80 GB HBM3, 989 TFLOP/s dense bf16); nvidia-smi: 81559 MiB; achieved: Llama 3 "
     "(arXiv:2407.21783), Table 4, ~400 TFLOP/s/GPU",
     F::hopper, 8, 450, 50, 3350, dgx_h100},
    {"H100-PCIe", 81559 * MiB, 756, 302, 2.5,
     "NVIDIA H100 datasheet (PCIe: 80 GB, 756 TFLOP/s dense bf16); nvidia-smi: 81559 MiB; achieved: assumed 40% of "
     "peak",
     F::hopper, 8, 64, 25, 2000, pcie_server},
    {"H200", 143771 * MiB, 989, 400, 3.8,
     "NVIDIA H200 datasheet (141 GB HBM3e, 989 TFLOP/s dense bf16); nvidia-smi: 143771 MiB; achieved: as H100 "
     "(same compute)",
     F::hopper, 8, 450, 50, 4800, dgx_h100},
    {"B200", 183359 * MiB, 2250, 900, 6.0,
     "NVIDIA DGX B200 datasheet (1,440 GB for 8 GPUs: 180 GB each; 2.25 PFLOP/s dense bf16 per GPU); nvidia-smi: "
     "183359 MiB; achieved: assumed 40% of peak",
     F::blackwell, 8, 900, 50, 8000, dgx_b200},
    {"L40S", 46068 * MiB, 362, 145, 1.0,
     "NVIDIA L40S datasheet (48 GB GDDR6, 362 TFLOP/s dense bf16); nvidia-smi: 46068 MiB; achieved: assumed 40% of "
     "peak",
     F::ada, 8, 32, 25, 864, pcie_server},
    {"RTX-3090", 24576 * MiB, 71, 28, 0.3,
     "NVIDIA Ampere GA102 whitepaper (24 GB; 71 TFLOP/s fp16 tensor with fp32 accumulate); nvidia-smi: 24576 MiB; "
     "achieved: assumed 40%",
     F::ampere_consumer, 4, 32, 1.25, 936, workstation},
    {"RTX-4090", 24564 * MiB, 165.2, 66, 0.4,
     "NVIDIA Ada AD102 whitepaper (24 GB; 165.2 TFLOP/s fp16 tensor with fp32 accumulate); nvidia-smi: 24564 MiB; "
     "achieved: assumed 40%",
     F::ada, 4, 32, 1.25, 1008, workstation},
    {"MI250X", 68702699520.0 / (1 << 30), 191.5, 77, 1.5,
     "AMD MI250X datasheet, per GCD (one PyTorch device; 128 GB and 383 TFLOP/s bf16 per card); the device reports "
     "68,702,699,520 bytes; achieved: assumed 40%",
     F::cdna2, 8, 50, 12.5, 1600, frontier},
    {"MI300X", 205822885888.0 / (1 << 30), 1307.4, 523, 3.0,
     "AMD MI300X datasheet (192 GB HBM3, 1307.4 TFLOP/s dense bf16); rocm-smi: 205,822,885,888 bytes; achieved: "
     "assumed 40% of peak",
     F::cdna3, 8, 448, 50, 5300, mi300x},
    // GPUs fine-tuners use (issue 11). GDDR parts with ECC on report 1/16 less; peak: dense 16-bit
    // tensor throughput with fp32 accumulation; achieved: assumed 40 % of peak; price: the provider named.
    {"L4", 23034 * MiB, 121, 48.4, 0.80,
     "NVIDIA L4 datasheet (242 TFLOP/s bf16 with sparsity = 121 dense); nvidia-smi 23034 MiB (modal-labs/modal-client#2797); "
     "price: AWS g6.xlarge on-demand",
     F::ada, 8, 32, 1.5625, 300, cloud_pcie},
    {"A10G", 23028 * MiB, 70, 28, 1.01,
     "AWS A10G (not the A10): measured 69.5 TFLOP/s bf16 matmul (zzc0721/torch-performance-test-data#126), 80 SMs at "
     "1.71 GHz; nvidia-smi 23028 MiB (NVIDIA/DCGM#232); price: AWS g5.xlarge on-demand",
     F::ampere_consumer, 8, 32, 1.5625, 600, cloud_pcie},
    {"T4", 15360 * MiB, 65, 26, 0.53,
     "NVIDIA T4 datasheet: 65 TFLOP/s fp16 (Turing has no bf16: use fp16/AMP); nvidia-smi 15360 MiB, torch reports "
     "14.75 GiB usable; price: AWS g4dn.xlarge on-demand",
     F::generic, 8, 16, 1.5625, 320, cloud_pcie},
    {"RTX-5090", 32607 * MiB, 209.5, 83.8, 0.69,
     "NVIDIA Blackwell GeForce whitepaper: 209.5 TFLOP/s fp16/bf16 with fp32 accumulate (419 with fp16 accumulate); "
     "nvidia-smi 32607 MiB; price: RunPod pod, March 2026",
     F::generic, 4, 64, 1.25, 1792, workstation_new},
    {"RTX-A6000", 49140 * MiB, 154.8, 61.9, 1.22,
     "NVIDIA RTX A6000 datasheet: 154.8 TFLOP/s bf16 dense; nvidia-smi 49140 MiB with ECC off (46068 with ECC on); "
     "price: RunPod A6000 tier",
     F::ampere_consumer, 4, 32, 1.25, 768, workstation_new},
    // Cards people serve on (issue 24). Peak: dense 16-bit tensor throughput with fp32 accumulation;
    // achieved: assumed 40 % of peak; price: indicative, set your own.
    {"RTX-6000-Ada", 49140 * MiB, 364.2, 145.7, 0.77,
     "NVIDIA RTX 6000 Ada datasheet (48 GB GDDR6, 960 GB/s) and Ada whitepaper: 364.2 TFLOP/s fp16/bf16 with fp32 "
     "accumulate (728.5 with sparsity); nvidia-smi 49140 MiB",
     F::ada, 4, 32, 1.25, 960, workstation_pro},
    {"RTX-PRO-6000", 97887 * MiB, 503.8, 201.5, 1.79,
     "NVIDIA RTX PRO 6000 Blackwell (Workstation / Server Edition) datasheet: 96 GB GDDR7, 1792 GB/s; Blackwell "
     "workstation whitepaper: 503.8 TFLOP/s fp16/bf16 with fp32 accumulate (1007.6 with sparsity); nvidia-smi 97887 MiB",
     F::generic, 4, 64, 1.25, 1792, workstation_pro},
    {"H100-NVL", 95830 * MiB, 835.5, 334.2, 2.8,
     "NVIDIA H100 NVL datasheet (94 GB HBM3, 3.9 TB/s, 1,671 TFLOP/s bf16 with sparsity = 835.5 dense); nvidia-smi "
     "95830 MiB",
     F::hopper, 8, 64, 25, 3900, h100_nvl},
    {"H20", 97871 * MiB, 148, 59.2, 1.5,
     "NVIDIA H20 product brief (96 GB HBM3, 4.0 TB/s, 148 TFLOP/s bf16 dense); nvidia-smi 97871 MiB",
     F::hopper, 8, 450, 50, 4000, hgx_h20},
});

// ASCII case folding (what std::tolower does in the "C" locale), inline: the throughput model
// looks the GPU family up on every estimate.
bool same_id(std::string_view a, std::string_view b) {
    auto fold = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (fold(a[i]) != fold(b[i])) return false;
    return true;
}

Scenario current_defaults() { return Scenario{}; }

}  // namespace

const PresetEdition& current_presets() {
    static const PresetEdition edition{0, current_defaults, model_table(), gpu_table, true, framework_profiles()};
    return edition;
}

std::span<const ModelPreset> model_presets() { return current_presets().models; }
std::span<const GpuPreset> gpu_presets() { return current_presets().gpus; }

const ModelPreset* find_model_preset(const PresetEdition& edition, std::string_view id) {
    for (const auto& p : edition.models)
        if (same_id(p.id, id) || same_id(p.model.name, id)) return &p;
    return nullptr;
}

const GpuPreset* find_gpu_preset(const PresetEdition& edition, std::string_view id) {
    for (const auto& p : edition.gpus)
        if (same_id(p.id, id)) return &p;
    return nullptr;
}

const ModelPreset* find_model_preset(std::string_view id) { return find_model_preset(current_presets(), id); }
const GpuPreset* find_gpu_preset(std::string_view id) { return find_gpu_preset(current_presets(), id); }

namespace {
// Lowers `length` (the field at `path`) to what the model's learned positions take; a note when it did.
void lower_to_model(const Scenario& sc, const char* path, std::int64_t& length, std::vector<Note>* notes) {
    const std::int64_t longest = longest_sequence(sc.model);
    if (length <= longest) return;
    if (notes)
        notes->push_back({path, "lowered from " + std::to_string(length) + " to " + std::to_string(longest) + ": " +
                                    sc.model.name + " has " + std::to_string(longest) + " learned positions"});
    length = longest;
}
}  // namespace

void fit_sequence_to_model(Scenario& sc, std::vector<Note>* notes) {
    lower_to_model(sc, "training.seq_len", sc.training.seq_len, notes);
}

void fit_context_to_model(Scenario& sc, std::vector<Note>* notes) {
    if (sc.workload == Workload::inference) lower_to_model(sc, "inference.context_len", sc.inference.context_len, notes);
}

// Whether a model trains with dropout: GPT-2/GPT-3 and BERT-style models (learned absolute
// positions) use 0.1; the rotary models of the presets (GPT-NeoX/Pythia, Llama, Mistral, Mixtral,
// Qwen2, Gemma) set attention and hidden dropout to 0 in their configs.
bool trains_with_dropout(const ModelConfig& m) { return m.position_embedding == PositionEmbedding::learned; }

void set_model_from_preset(Scenario& sc, const ModelPreset& preset, std::vector<Note>*) {
    sc.model = preset.model;
    sc.training.dropout = trains_with_dropout(preset.model);  // part of what the preset means
    sc.inference.weight_bytes_override = 0;  // an imported file's exact bytes belong to that file's model
}

void apply_model_preset(Scenario& sc, const ModelPreset& preset, std::vector<Note>* notes) {
    set_model_from_preset(sc, preset, notes);
    fit_sequence_to_model(sc, notes);
}

bool apply_model_preset(Scenario& sc, std::string_view id, std::vector<Note>* notes) {
    const ModelPreset* p = find_model_preset(id);
    if (!p) return false;
    apply_model_preset(sc, *p, notes);
    return true;
}

void apply_gpu_preset(HardwareConfig& hw, const GpuPreset& p) {
    hw.gpu = p.id;
    hw.memory_gib = p.memory_gib;
    hw.peak_tflops = p.peak_tflops;
    hw.achieved_tflops = p.achieved_tflops;
    hw.mfu = 0;
    hw.price_per_gpu_hour = p.price_per_gpu_hour;
    hw.gpus_per_node = p.gpus_per_node;
    hw.intra_node_gbps = p.intra_node_gbps;
    hw.inter_node_gbps = p.inter_node_gbps;
    hw.memory_bandwidth_gbps = p.memory_bandwidth_gbps;
}

GpuFamily gpu_family(std::string_view gpu) {
    const GpuPreset* p = find_gpu_preset(gpu);
    return p ? p->family : GpuFamily::generic;
}

bool apply_gpu_preset(Scenario& sc, std::string_view id) {
    const GpuPreset* p = find_gpu_preset(id);
    if (!p) return false;
    apply_gpu_preset(sc.hardware, *p);
    return true;
}

}  // namespace vramcalc
