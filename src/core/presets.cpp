#include "presets.hpp"

#include <algorithm>
#include <array>
#include <cctype>

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

constexpr const char* gpt2_source = "Radford et al. 2019; exact count of the Hugging Face checkpoint";
constexpr const char* gpt3_source = "Brown et al. 2020, Table 2.1 (n_ctx 2048; published sizes are rounded)";
constexpr const char* pythia_source = "Biderman et al. 2023 (Pythia), Table 1 / Hugging Face config.json";
constexpr const char* llama2_source = "Touvron et al. 2023 (Llama 2); Hugging Face config.json and model card";
constexpr const char* llama3_source = "Meta Llama 3 / 3.1 (Dubey et al. 2024, Table 3); Hugging Face config.json";

const std::array<ModelPreset, 29>& model_table() {
    static const std::array<ModelPreset, 29> table = {{
        {"gpt2", gpt("GPT-2 124M", 12, 768, 12, 1024), 124439808, gpt2_source},
        {"gpt2-medium", gpt("GPT-2 355M", 24, 1024, 16, 1024), 354823168, gpt2_source},
        {"gpt2-large", gpt("GPT-2 774M", 36, 1280, 20, 1024), 774030080, gpt2_source},
        {"gpt2-xl", gpt("GPT-2 1.5B", 48, 1600, 25, 1024), 1557611200, gpt2_source},
        {"gpt3-125m", gpt("GPT-3 Small 125M", 12, 768, 12, 2048), 0, gpt3_source},
        {"gpt3-350m", gpt("GPT-3 Medium 350M", 24, 1024, 16, 2048), 0, gpt3_source},
        {"gpt3-760m", gpt("GPT-3 Large 760M", 24, 1536, 16, 2048), 0, gpt3_source},
        {"gpt3-2.7b", gpt("GPT-3 2.7B", 32, 2560, 32, 2048), 0, gpt3_source},
        {"gpt3-6.7b", gpt("GPT-3 6.7B", 32, 4096, 32, 2048), 0, gpt3_source},
        {"gpt3-175b", gpt("GPT-3 175B", 96, 12288, 96, 2048), 0, gpt3_source},
        {"gpt-neox-20b", neox("GPT-NeoX-20B", 44, 6144, 64, 50432), 20554567680,
         "Black et al. 2022 (GPT-NeoX-20B), Table 1: 20,554,567,680 parameters"},
        {"pythia-1b", neox("Pythia-1B", 16, 2048, 8, 50304), 1011781632, pythia_source},
        {"pythia-1.4b", neox("Pythia-1.4B", 24, 2048, 16, 50304), 1414647808, pythia_source},
        {"pythia-2.8b", neox("Pythia-2.8B", 32, 2560, 32, 50304), 2775208960, pythia_source},
        {"pythia-6.9b", neox("Pythia-6.9B", 32, 4096, 32, 50432), 6857302016, pythia_source},
        {"pythia-12b", neox("Pythia-12B", 36, 5120, 40, 50688), 11846072320, pythia_source},
        {"llama-65b", llama("LLaMA-65B", 80, 8192, 64, 64, 22016, 32000, 2048), 0,
         "Touvron et al. 2023 (LLaMA), Table 2; the seed's worked example (80 layers, h 8192, 64 heads)"},
        {"llama-2-7b", llama("Llama-2-7B", 32, 4096, 32, 32, 11008, 32000, 4096), 6738415616, llama2_source},
        {"llama-2-13b", llama("Llama-2-13B", 40, 5120, 40, 40, 13824, 32000, 4096), 13015864320, llama2_source},
        {"llama-2-70b", llama("Llama-2-70B", 80, 8192, 64, 8, 28672, 32000, 4096), 68976648192, llama2_source},
        {"llama-3-8b", llama("Llama-3-8B", 32, 4096, 32, 8, 14336, 128256, 8192), 8030261248, llama3_source},
        {"llama-3-70b", llama("Llama-3-70B", 80, 8192, 64, 8, 28672, 128256, 8192), 70553706496, llama3_source},
        {"llama-3.1-405b", llama("Llama-3.1-405B", 126, 16384, 128, 8, 53248, 128256, 131072), 405853388800,
         llama3_source},
        {"mistral-7b", llama("Mistral-7B", 32, 4096, 32, 8, 14336, 32000, 32768), 7241732096,
         "Jiang et al. 2023 (Mistral 7B), Table 1; Hugging Face model card"},
        {"mixtral-8x7b", with_experts(llama("Mixtral-8x7B", 32, 4096, 32, 8, 14336, 32000, 32768), 8, 2), 46702792704,
         "Jiang et al. 2024 (Mixtral of Experts): 47B total, 13B active; Hugging Face config.json"},
        {"qwen2.5-7b", qwen2("Qwen2.5-7B", 28, 3584, 28, 4, 18944), 7615616512,
         "Qwen2.5 technical report (2024), Table 1; Hugging Face model card (7.61B)"},
        {"qwen2.5-72b", qwen2("Qwen2.5-72B", 80, 8192, 64, 8, 29568), 72706203648,
         "Qwen2.5 technical report (2024), Table 1; Hugging Face model card (72.7B)"},
        {"gemma-2b", gemma("Gemma-2B", 18, 2048, 8, 1, 16384), 2506172416,
         "Gemma Team 2024, Table 1 and 2; Hugging Face config.json"},
        {"gemma-7b", gemma("Gemma-7B", 28, 3072, 16, 16, 24576), 8537680896,
         "Gemma Team 2024, Table 1 and 2; Hugging Face config.json"},
    }};
    return table;
}

// Memory: GiB as the device reports it. Peak: dense bf16/fp16 tensor-core TFLOP/s from the datasheet.
// Achieved: A100 150 TFLOP/s (GPT-NeoX, Transformer Math 101); H100 400 (Llama 3 paper, Table 4);
// V100 39 (Megatron-LM 2019, 30% of peak); others 40% of peak, marked as an assumption.
constexpr std::array<GpuPreset, 13> gpu_table = {{
    {"V100-16GB", 16, 125, 39, 0.9, "NVIDIA V100 datasheet; achieved: Shoeybi et al. 2019 (Megatron-LM), 39 TFLOP/s/GPU"},
    {"V100-32GB", 32, 125, 39, 1.0, "NVIDIA V100 datasheet; achieved: Shoeybi et al. 2019 (Megatron-LM), 39 TFLOP/s/GPU"},
    {"A100-40GB", 40, 312, 150, 1.3, "NVIDIA A100 datasheet; achieved: GPT-NeoX 150 TFLOP/s/A100 (Transformer Math 101)"},
    {"A100-80GB", 80, 312, 150, 1.8, "NVIDIA A100 datasheet; achieved: GPT-NeoX 150 TFLOP/s/A100, 180 with FlashAttention (Transformer Math 101)"},
    {"H100-SXM", 79.6, 989, 400, 3.0, "NVIDIA H100 datasheet (81559 MiB); achieved: Llama 3 paper Table 4, ~400 TFLOP/s/GPU"},
    {"H100-PCIe", 79.6, 756, 302, 2.5, "NVIDIA H100 datasheet; achieved: assumed 40% of peak"},
    {"H200", 140.4, 989, 400, 3.8, "NVIDIA H200 datasheet (141 GB, 143771 MiB); achieved: as H100 (same compute)"},
    {"B200", 179, 2250, 900, 6.0, "NVIDIA DGX B200 datasheet (1,440 GB / 8 GPUs); achieved: assumed 40% of peak"},
    {"L40S", 45, 362, 145, 1.0, "NVIDIA L40S datasheet (48 GB GDDR6, 46068 MiB); achieved: assumed 40% of peak"},
    {"RTX-3090", 24, 71, 28, 0.3, "NVIDIA Ampere GA102 whitepaper (fp16 tensor, fp32 accumulate); achieved: assumed 40%"},
    {"RTX-4090", 24, 165.2, 66, 0.4, "NVIDIA Ada AD102 whitepaper (fp16 tensor, fp32 accumulate); achieved: assumed 40%"},
    {"MI250X", 64, 191.5, 77, 1.5, "AMD MI250X datasheet, per GCD (one PyTorch device; 128 GB and 383 TFLOP/s per card); achieved: assumed 40%"},
    {"MI300X", 192, 1307.4, 523, 3.0, "AMD MI300X datasheet; achieved: assumed 40% of peak"},
}};

bool same_id(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

Scenario current_defaults() { return Scenario{}; }

}  // namespace

const PresetEdition& current_presets() {
    static const PresetEdition edition{0, current_defaults, model_table(), gpu_table, true};
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

void fit_sequence_to_model(Scenario& sc, std::vector<Note>* notes) {
    std::int64_t longest = longest_sequence(sc.model);
    if (sc.training.seq_len <= longest) return;
    if (notes)
        notes->push_back({"training.seq_len", "lowered from " + std::to_string(sc.training.seq_len) + " to " +
                                                  std::to_string(longest) + ": " + sc.model.name + " has " +
                                                  std::to_string(longest) + " learned positions"});
    sc.training.seq_len = longest;
}

// Whether a model trains with dropout: GPT-2/GPT-3 and BERT-style models (learned absolute
// positions) use 0.1; the rotary models of the presets (GPT-NeoX/Pythia, Llama, Mistral, Mixtral,
// Qwen2, Gemma) set attention and hidden dropout to 0 in their configs.
bool trains_with_dropout(const ModelConfig& m) { return m.position_embedding == PositionEmbedding::learned; }

void set_model_from_preset(Scenario& sc, const ModelPreset& preset, std::vector<Note>*) {
    sc.model = preset.model;
    sc.training.dropout = trains_with_dropout(preset.model);  // part of what the preset means
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
}

bool apply_gpu_preset(Scenario& sc, std::string_view id) {
    const GpuPreset* p = find_gpu_preset(id);
    if (!p) return false;
    apply_gpu_preset(sc.hardware, *p);
    return true;
}

}  // namespace vramcalc
