// The defaults and preset tables of link version 1, frozen: a v=1 link decodes against these
// forever (codec/link.cpp), whatever later editions change. Never edit the values below.
// A field added to Scenario after v1: give it here the value that reproduces v1's behaviour (its
// member default does so when that default is "off"/"as before").
#include <array>

#include "core/model/presets.hpp"

namespace vramcalc {
namespace {

constexpr const char* v1 = "link version 1 (frozen; the current entry in presets.cpp cites the source)";

// Every ModelConfig field of version 1, in declaration order.
ModelConfig model(const char* name, std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t kv_heads,
                  std::int64_t head_dim, std::int64_t ffn, std::int64_t vocab, MlpKind mlp, NormKind norm, bool bias,
                  bool qkv_bias, bool tied, PositionEmbedding positions, std::int64_t max_positions,
                  std::int64_t experts, std::int64_t experts_per_token) {
    ModelConfig m;
    m.name = name;
    m.layers = layers;
    m.hidden_size = hidden;
    m.num_heads = heads;
    m.num_kv_heads = kv_heads;
    m.head_dim = head_dim;
    m.ffn_hidden_size = ffn;
    m.vocab_size = vocab;
    m.mlp = mlp;
    m.norm = norm;
    m.bias = bias;
    m.qkv_bias = qkv_bias;
    m.tied_embeddings = tied;
    m.position_embedding = positions;
    m.max_position_embeddings = max_positions;
    m.num_experts = experts;
    m.experts_per_token = experts_per_token;
    m.params_override = 0;
    // Added after v1: two norms per layer, every expert ffn wide, no shared experts, no dense layers.
    m.norms_per_layer = 2;
    m.moe_ffn_hidden_size = 0;
    m.num_shared_experts = 0;
    m.dense_layers = 0;
    return m;
}

// The defaults of version 1: GPT-3 6.7B on 8 × A100-80GB.
Scenario defaults_v1() {
    Scenario s;
    s.model = model("GPT-3 6.7B", 32, 4096, 32, 0, 0, 0, 50257, MlpKind::gelu, NormKind::layernorm, true, false, true,
                    PositionEmbedding::learned, 2048, 1, 1);
    auto& t = s.training;
    t.seq_len = 2048;
    t.micro_batch_size = 1;
    t.global_batch_size = 1024;
    t.grad_accum_steps = 0;
    t.tokens = 300e9;
    t.precision = Precision::mixed_bf16;
    t.grad_dtype = GradDtype::match;
    t.optimizer = Optimizer::adamw;
    t.recompute = Recompute::none;
    t.flash_attention = false;
    t.dropout = true;
    t.attention_flops = false;
    // Fields added after version 1, at the values that reproduce what a v1 link meant: the
    // idealised fused-kernel estimate with every model state resident and no allocator, context
    // or framework overheads.
    t.framework = Framework::generic;
    t.kernels = Kernels::fused;
    t.loss = Loss::standard;
    t.loss_chunks = 8;
    t.recompute_layers = 0;
    t.optimizer_in_backward = false;
    t.offload_activations = false;
    t.optimizer_impl = OptimizerImpl::fused;
    t.paged_optimizer = false;
    t.persistent_gradients = true;
    // Every parameter trained (fine-tuning came after v1).
    t.method = TrainingMethod::full;
    t.trainable_layers = 0;
    t.lora_rank = 8;
    t.lora_targets = 5;  // q,v
    t.lora_dropout = 0;
    t.adapter_dtype = AdapterDtype::fp32;
    t.base_weight_format = BaseWeightFormat::nf4;
    t.fp8 = Fp8Recipe::none;  // FP8, context parallelism and HSDP came after v1 (issue 25)
    s.model.activation = Activation::auto_;
    s.model.norms_per_layer = 2;
    s.model.moe_ffn_hidden_size = 0;
    s.model.num_shared_experts = 0;
    s.model.dense_layers = 0;
    auto& p = s.parallel;
    p.num_gpus = 8;
    p.tensor = 1;
    p.pipeline = 1;
    p.zero_stage = 1;
    p.sequence_parallel = false;
    p.partition_activations = false;
    p.zero3_live_params = 0;
    p.offload_optimizer = false;
    p.expert = 1;
    p.offload_params = false;
    p.zero_impl = ZeroImpl::deepspeed;
    p.interleave = 1;
    p.context = 1;
    p.shard_group = 0;
    auto& h = s.hardware;
    h.gpu = "A100-80GB";
    h.memory_gib = 80;
    h.peak_tflops = 312;
    h.achieved_tflops = 150;
    h.mfu = 0;
    h.price_per_gpu_hour = 1.8;
    h.reserved_gib = 0;
    h.cuda_context_gib = 0;
    h.allocator_overhead = 0;
    // v1's time and cost came from the fixed achieved rate; the node and links are the A100-80GB
    // preset's (DGX A100 datasheet: 8 GPUs, NVLink 600 GB/s both ways, one 200 Gb/s NIC per GPU; 2039 GB/s HBM2e).
    h.throughput_model = ThroughputModel::fixed;
    h.gpus_per_node = 8;
    h.intra_node_gbps = 300;
    h.inter_node_gbps = 25;
    h.memory_bandwidth_gbps = 2039;
    return s;
}

const std::array<ModelPreset, 29>& models_v1() {
    // clang-format off
    static const std::array<ModelPreset, 29> table = {{
    {"gpt2", model("GPT-2 124M", 12, 768, 12, 0, 0, 0, 50257, MlpKind::gelu, NormKind::layernorm, true, false, true, PositionEmbedding::learned, 1024, 1, 1), 124439808, v1},
    {"gpt2-medium", model("GPT-2 355M", 24, 1024, 16, 0, 0, 0, 50257, MlpKind::gelu, NormKind::layernorm, true, false, true, PositionEmbedding::learned, 1024, 1, 1), 354823168, v1},
    {"gpt2-large", model("GPT-2 774M", 36, 1280, 20, 0, 0, 0, 50257, MlpKind::gelu, NormKind::layernorm, true, false, true, PositionEmbedding::learned, 1024, 1, 1), 774030080, v1},
    {"gpt2-xl", model("GPT-2 1.5B", 48, 1600, 25, 0, 0, 0, 50257, MlpKind::gelu, NormKind::layernorm, true, false, true, PositionEmbedding::learned, 1024, 1, 1), 1557611200, v1},
    {"gpt3-125m", model("GPT-3 Small 125M", 12, 768, 12, 0, 0, 0, 50257, MlpKind::gelu, NormKind::layernorm, true, false, true, PositionEmbedding::learned, 2048, 1, 1), 0, v1},
    {"gpt3-350m", model("GPT-3 Medium 350M", 24, 1024, 16, 0, 0, 0, 50257, MlpKind::gelu, NormKind::layernorm, true, false, true, PositionEmbedding::learned, 2048, 1, 1), 0, v1},
    {"gpt3-760m", model("GPT-3 Large 760M", 24, 1536, 16, 0, 0, 0, 50257, MlpKind::gelu, NormKind::layernorm, true, false, true, PositionEmbedding::learned, 2048, 1, 1), 0, v1},
    {"gpt3-2.7b", model("GPT-3 2.7B", 32, 2560, 32, 0, 0, 0, 50257, MlpKind::gelu, NormKind::layernorm, true, false, true, PositionEmbedding::learned, 2048, 1, 1), 0, v1},
    {"gpt3-6.7b", model("GPT-3 6.7B", 32, 4096, 32, 0, 0, 0, 50257, MlpKind::gelu, NormKind::layernorm, true, false, true, PositionEmbedding::learned, 2048, 1, 1), 0, v1},
    {"gpt3-175b", model("GPT-3 175B", 96, 12288, 96, 0, 0, 0, 50257, MlpKind::gelu, NormKind::layernorm, true, false, true, PositionEmbedding::learned, 2048, 1, 1), 0, v1},
    {"gpt-neox-20b", model("GPT-NeoX-20B", 44, 6144, 64, 0, 0, 0, 50432, MlpKind::gelu, NormKind::layernorm, true, false, false, PositionEmbedding::rope, 2048, 1, 1), 20554567680, v1},
    {"pythia-1b", model("Pythia-1B", 16, 2048, 8, 0, 0, 0, 50304, MlpKind::gelu, NormKind::layernorm, true, false, false, PositionEmbedding::rope, 2048, 1, 1), 1011781632, v1},
    {"pythia-1.4b", model("Pythia-1.4B", 24, 2048, 16, 0, 0, 0, 50304, MlpKind::gelu, NormKind::layernorm, true, false, false, PositionEmbedding::rope, 2048, 1, 1), 1414647808, v1},
    {"pythia-2.8b", model("Pythia-2.8B", 32, 2560, 32, 0, 0, 0, 50304, MlpKind::gelu, NormKind::layernorm, true, false, false, PositionEmbedding::rope, 2048, 1, 1), 2775208960, v1},
    {"pythia-6.9b", model("Pythia-6.9B", 32, 4096, 32, 0, 0, 0, 50432, MlpKind::gelu, NormKind::layernorm, true, false, false, PositionEmbedding::rope, 2048, 1, 1), 6857302016, v1},
    {"pythia-12b", model("Pythia-12B", 36, 5120, 40, 0, 0, 0, 50688, MlpKind::gelu, NormKind::layernorm, true, false, false, PositionEmbedding::rope, 2048, 1, 1), 11846072320, v1},
    {"llama-65b", model("LLaMA-65B", 80, 8192, 64, 64, 0, 22016, 32000, MlpKind::swiglu, NormKind::rmsnorm, false, false, false, PositionEmbedding::rope, 2048, 1, 1), 0, v1},
    {"llama-2-7b", model("Llama-2-7B", 32, 4096, 32, 32, 0, 11008, 32000, MlpKind::swiglu, NormKind::rmsnorm, false, false, false, PositionEmbedding::rope, 4096, 1, 1), 6738415616, v1},
    {"llama-2-13b", model("Llama-2-13B", 40, 5120, 40, 40, 0, 13824, 32000, MlpKind::swiglu, NormKind::rmsnorm, false, false, false, PositionEmbedding::rope, 4096, 1, 1), 13015864320, v1},
    {"llama-2-70b", model("Llama-2-70B", 80, 8192, 64, 8, 0, 28672, 32000, MlpKind::swiglu, NormKind::rmsnorm, false, false, false, PositionEmbedding::rope, 4096, 1, 1), 68976648192, v1},
    {"llama-3-8b", model("Llama-3-8B", 32, 4096, 32, 8, 0, 14336, 128256, MlpKind::swiglu, NormKind::rmsnorm, false, false, false, PositionEmbedding::rope, 8192, 1, 1), 8030261248, v1},
    {"llama-3-70b", model("Llama-3-70B", 80, 8192, 64, 8, 0, 28672, 128256, MlpKind::swiglu, NormKind::rmsnorm, false, false, false, PositionEmbedding::rope, 8192, 1, 1), 70553706496, v1},
    {"llama-3.1-405b", model("Llama-3.1-405B", 126, 16384, 128, 8, 0, 53248, 128256, MlpKind::swiglu, NormKind::rmsnorm, false, false, false, PositionEmbedding::rope, 131072, 1, 1), 405853388800, v1},
    {"mistral-7b", model("Mistral-7B", 32, 4096, 32, 8, 0, 14336, 32000, MlpKind::swiglu, NormKind::rmsnorm, false, false, false, PositionEmbedding::rope, 32768, 1, 1), 7241732096, v1},
    {"mixtral-8x7b", model("Mixtral-8x7B", 32, 4096, 32, 8, 0, 14336, 32000, MlpKind::swiglu, NormKind::rmsnorm, false, false, false, PositionEmbedding::rope, 32768, 8, 2), 46702792704, v1},
    {"qwen2.5-7b", model("Qwen2.5-7B", 28, 3584, 28, 4, 0, 18944, 152064, MlpKind::swiglu, NormKind::rmsnorm, false, true, false, PositionEmbedding::rope, 131072, 1, 1), 7615616512, v1},
    {"qwen2.5-72b", model("Qwen2.5-72B", 80, 8192, 64, 8, 0, 29568, 152064, MlpKind::swiglu, NormKind::rmsnorm, false, true, false, PositionEmbedding::rope, 131072, 1, 1), 72706203648, v1},
    {"gemma-2b", model("Gemma-2B", 18, 2048, 8, 1, 256, 16384, 256000, MlpKind::swiglu, NormKind::rmsnorm, false, false, true, PositionEmbedding::rope, 8192, 1, 1), 2506172416, v1},
    {"gemma-7b", model("Gemma-7B", 28, 3072, 16, 16, 256, 24576, 256000, MlpKind::swiglu, NormKind::rmsnorm, false, false, true, PositionEmbedding::rope, 8192, 1, 1), 8537680896, v1},
    }};
    // clang-format on
    return table;
}

// id, memory GiB, peak TFLOP/s, achieved TFLOP/s, $/GPU-hour; then the fields added after v1
// (GPU family, GPUs per node, intra-/inter-node GB/s, memory GB/s) with today's values: they only
// feed the predicted throughput model, which v1 links cannot select, so v1's numbers stay as they were.
using F = GpuFamily;
constexpr std::array<GpuPreset, 13> gpus_v1 = {{
    {"V100-16GB", 16, 125, 39, 0.9, v1, F::volta, 8, 150, 6.25, 900, v1},
    {"V100-32GB", 32, 125, 39, 1, v1, F::volta, 8, 150, 6.25, 900, v1},
    {"A100-40GB", 40, 312, 150, 1.3, v1, F::ampere, 8, 300, 25, 1555, v1},
    {"A100-80GB", 80, 312, 150, 1.8, v1, F::ampere, 8, 300, 25, 2039, v1},
    {"H100-SXM", 79.6, 989, 400, 3, v1, F::hopper, 8, 450, 50, 3350, v1},
    {"H100-PCIe", 79.6, 756, 302, 2.5, v1, F::hopper, 8, 64, 25, 2000, v1},
    {"H200", 140.4, 989, 400, 3.8, v1, F::hopper, 8, 450, 50, 4800, v1},
    {"B200", 179, 2250, 900, 6, v1, F::blackwell, 8, 900, 50, 8000, v1},
    {"L40S", 45, 362, 145, 1, v1, F::ada, 8, 32, 25, 864, v1},
    {"RTX-3090", 24, 71, 28, 0.3, v1, F::ampere_consumer, 4, 32, 1.25, 936, v1},
    {"RTX-4090", 24, 165.2, 66, 0.4, v1, F::ada, 4, 32, 1.25, 1008, v1},
    {"MI250X", 64, 191.5, 77, 1.5, v1, F::cdna2, 8, 50, 12.5, 1600, v1},
    {"MI300X", 192, 1307.4, 523, 3, v1, F::cdna3, 8, 448, 50, 5300, v1},
}};

}  // namespace

const PresetEdition& presets_v1() {
    static const PresetEdition edition{1, defaults_v1, models_v1(), gpus_v1, false, {}};
    return edition;
}

}  // namespace vramcalc
