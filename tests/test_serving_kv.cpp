// KV cache per token against each engine's own formula, for published architectures. The model
// values are written inline from each model's config.json (URL given); the expected numbers are the
// engines' formulas written out here by hand, never read from vramcalc:
//   vLLM   vllm/v1/kv_cache_interface.py  FullAttentionSpec.page_size_bytes = block_size · num_kv_heads ·
//          head_size · 2 · dtype_size, num_kv_heads = max(1, total_kv_heads // tp) (ModelConfig.get_num_kv_heads);
//          MLAAttentionSpec: num_kv_heads = 1, head_size = kv_lora_rank + qk_rope_head_dim, no factor 2;
//          SlidingWindowSpec.max_memory_usage_bytes = (cdiv(min(W − 1 + max_num_batched_tokens, max_model_len), block) + 1) pages.
//   SGLang model_runner.py profile_max_num_token: cell_size = kv_heads/tp · head_dim · layers · 2 · element size
//          (MLA: (kv_lora_rank + qk_rope_head_dim) · layers · element size).
//   llama.cpp llama-kv-cache.cpp: K and V of n_embd_k_gqa / n_embd_v_gqa per cell per layer; n_ctx padded to 256.
//   HF     transformers DynamicCache: key and value states [b, g, s, d] per layer (DeepSeek-V3: the
//          decompressed K of a·(nope+rope) and V of a·v_head_dim).
#include <catch2/catch.hpp>

#include "core/estimate.hpp"

using namespace vramcalc;

namespace {

Scenario serving(ModelConfig m, Engine engine, std::int64_t context, std::int64_t tensor = 1) {
    Scenario s;
    s.workload = Workload::inference;
    s.model = std::move(m);
    s.model.position_embedding = PositionEmbedding::rope;
    s.model.norm = NormKind::rmsnorm;
    s.model.bias = false;
    s.hardware.memory_gib = 1000;  // room for any model: these tests check the cache, not the verdict
    s.parallel.tensor = tensor;
    s.parallel.num_gpus = tensor;
    s.inference.engine = engine;
    s.inference.context_len = context;
    return s;
}

Estimate run(const Scenario& s) {
    Evaluation ev = evaluate(s);
    INFO((ev.errors.empty() ? std::string() : ev.errors.front().field + ": " + ev.errors.front().message));
    REQUIRE(ev.ok());
    return ev.estimate;
}

// Equal up to the rounding of kv_bytes_per_token · context (one division and one product).
Approx exact(double expected) { return Approx(expected).epsilon(1e-12); }

// KV bytes one sequence of `context` tokens holds on one GPU.
double sequence_kv(const Scenario& s) {
    Estimate e = run(s);
    return e.inference.kv_bytes_per_token * double(s.inference.context_len);
}

ModelConfig llama(std::int64_t layers, std::int64_t h, std::int64_t heads, std::int64_t kv, std::int64_t f, std::int64_t vocab) {
    ModelConfig m;
    m.layers = layers;
    m.hidden_size = h;
    m.num_heads = heads;
    m.num_kv_heads = kv;
    m.ffn_hidden_size = f;
    m.vocab_size = vocab;
    m.mlp = MlpKind::swiglu;
    m.tied_embeddings = false;
    m.max_position_embeddings = 131072;
    return m;
}

// https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json
ModelConfig llama31_8b() { return llama(32, 4096, 32, 8, 14336, 128256); }
// https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json
ModelConfig llama31_70b() { return llama(80, 8192, 64, 8, 28672, 128256); }
// https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json (MHA: 32 KV heads)
ModelConfig llama2_7b() {
    ModelConfig m = llama(32, 4096, 32, 32, 11008, 32000);
    m.max_position_embeddings = 4096;
    return m;
}
// https://huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json
ModelConfig qwen25_7b() {
    ModelConfig m = llama(28, 3584, 28, 4, 18944, 152064);
    m.qkv_bias = true;
    return m;
}
// https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json (sliding_window 4096 on every layer)
ModelConfig mistral_7b_v01() {
    ModelConfig m = llama(32, 4096, 32, 8, 14336, 32000);
    m.sliding_window = 4096;
    m.max_position_embeddings = 32768;
    return m;
}
// https://huggingface.co/google/gemma-2-9b/blob/main/config.json (head_dim 256, sliding_window 4096 on every other layer)
ModelConfig gemma2_9b() {
    ModelConfig m = llama(42, 3584, 16, 8, 14336, 256000);
    m.head_dim = 256;
    m.tied_embeddings = true;
    m.sliding_window = 4096;
    m.global_attention_interval = 2;
    m.norms_per_layer = 4;
    return m;
}
// https://huggingface.co/google/gemma-3-27b-it/blob/main/config.json (text_config: sliding_window 1024, pattern 6)
ModelConfig gemma3_27b() {
    ModelConfig m = llama(62, 5376, 32, 16, 21504, 262208);
    m.head_dim = 128;
    m.tied_embeddings = true;
    m.sliding_window = 1024;
    m.global_attention_interval = 6;
    m.qk_norm = true;
    m.norms_per_layer = 4;
    return m;
}
// https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json
ModelConfig deepseek_v3() {
    ModelConfig m = llama(61, 7168, 128, 128, 18432, 129280);
    m.kv_lora_rank = 512;
    m.q_lora_rank = 1536;
    m.qk_rope_head_dim = 64;
    m.qk_nope_head_dim = 128;
    m.v_head_dim = 128;
    m.head_dim = 192;
    m.num_experts = 256;
    m.experts_per_token = 8;
    m.moe_ffn_hidden_size = 2048;
    m.num_shared_experts = 1;
    m.dense_layers = 3;
    m.max_position_embeddings = 163840;
    return m;
}
// https://huggingface.co/openai/gpt-oss-20b/blob/main/config.json (sliding_window 128, alternating layer_types)
ModelConfig gpt_oss_20b() {
    ModelConfig m = llama(24, 2880, 64, 8, 2880, 201088);
    m.head_dim = 64;
    m.sliding_window = 128;
    m.global_attention_interval = 2;
    m.num_experts = 32;
    m.experts_per_token = 4;
    m.qkv_bias = true;
    return m;
}
// https://huggingface.co/Qwen/Qwen3-30B-A3B/blob/main/config.json (head_dim 128, qk-norm)
ModelConfig qwen3_30b_a3b() {
    ModelConfig m = llama(48, 2048, 32, 4, 6144, 151936);
    m.head_dim = 128;
    m.num_experts = 128;
    m.experts_per_token = 8;
    m.moe_ffn_hidden_size = 768;
    m.qk_norm = true;
    return m;
}
// https://huggingface.co/Qwen/Qwen3-Next-80B-A3B-Instruct/blob/main/config.json (full_attention_interval 4, Gated DeltaNet)
ModelConfig qwen3_next_80b() {
    ModelConfig m = llama(48, 2048, 16, 2, 5120, 151936);
    m.head_dim = 256;
    m.num_experts = 512;
    m.experts_per_token = 10;
    m.moe_ffn_hidden_size = 512;
    m.num_shared_experts = 1;
    m.qk_norm = true;
    m.full_attention_interval = 4;
    m.linear_num_key_heads = 16;
    m.linear_num_value_heads = 32;
    m.linear_key_head_dim = 128;
    m.linear_value_head_dim = 128;
    m.linear_conv_kernel = 4;
    return m;
}

// vLLM's page of one full-attention layer over one token (page_size_bytes / block_size).
double vllm_full_token(double kv_heads, double head_dim, double tp, double dtype = 2) {
    return std::max(1.0, std::floor(kv_heads / tp)) * head_dim * 2 * dtype;
}

}  // namespace

TEST_CASE("KV per token: dense GQA and MHA models as vLLM stores them", "[serving][kv]") {
    // Llama-3.1-8B: 32 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 131,072 B per token (128 KiB).
    CHECK(sequence_kv(serving(llama31_8b(), Engine::vllm, 8192)) == exact(8192 * 32 * vllm_full_token(8, 128, 1)));
    CHECK(32 * vllm_full_token(8, 128, 1) == 131072);
    // Llama-3.1-70B on t = 8: one KV head per rank.
    CHECK(sequence_kv(serving(llama31_70b(), Engine::vllm, 4096, 8)) == exact(4096 * 80 * vllm_full_token(8, 128, 8)));
    // ... and on t = 16 the 8 heads are replicated: still one per rank (get_num_kv_heads: max(1, 8 // 16)).
    Scenario t16 = serving(llama31_70b(), Engine::vllm, 4096, 16);
    CHECK(sequence_kv(t16) == exact(4096 * 80 * vllm_full_token(8, 128, 16)));
    // Llama-2-7B, multi-head attention: 0.5 MiB per token.
    CHECK(sequence_kv(serving(llama2_7b(), Engine::vllm, 4096)) == exact(4096.0 * 524288));
    // Qwen2.5-7B: 4 KV heads; on t = 4 each rank holds one.
    CHECK(sequence_kv(serving(qwen25_7b(), Engine::vllm, 32768)) == exact(32768 * 28 * vllm_full_token(4, 128, 1)));
    CHECK(sequence_kv(serving(qwen25_7b(), Engine::vllm, 32768, 4)) == exact(32768 * 28 * vllm_full_token(4, 128, 4)));
    // Qwen3-30B-A3B (MoE, explicit head_dim 128 ≠ h/a = 64): 48 · 4 · 128 · 2 · 2 = 98,304 B per token.
    CHECK(sequence_kv(serving(qwen3_30b_a3b(), Engine::vllm, 16384)) == exact(16384.0 * 98304));
}

TEST_CASE("KV per token: the context is rounded to the engine's block", "[serving][kv]") {
    // vLLM: blocks of 16 tokens; 1000 tokens take 63 blocks = 1008 tokens.
    CHECK(sequence_kv(serving(llama31_8b(), Engine::vllm, 1000)) == exact(1008.0 * 131072));
    // llama.cpp pads n_ctx to 256 (llama-context.cpp): 1000 → 1024 cells.
    CHECK(sequence_kv(serving(llama31_8b(), Engine::llamacpp, 1000)) == exact(1024.0 * 131072));
    // TRT-LLM: tokens_per_block 32 → 1024.
    CHECK(sequence_kv(serving(llama31_8b(), Engine::trtllm, 1000)) == exact(1024.0 * 131072));
    // SGLang and HF: token granularity.
    CHECK(sequence_kv(serving(llama31_8b(), Engine::sglang, 1000)) == exact(1000.0 * 131072));
    CHECK(sequence_kv(serving(llama31_8b(), Engine::hf, 1000)) == exact(1000.0 * 131072));
}

TEST_CASE("KV per token: the cache dtype", "[serving][kv]") {
    Scenario s = serving(llama31_8b(), Engine::vllm, 8192);
    s.inference.kv_cache_dtype = KvCacheDtype::fp8;  // fp8 e4m3: 1 byte
    CHECK(sequence_kv(s) == exact(8192.0 * 65536));
    Scenario q = serving(llama31_8b(), Engine::llamacpp, 8192);
    q.inference.weight_format = WeightFormat::gguf_q4_k_m;
    q.inference.kv_cache_dtype = KvCacheDtype::q8_0;  // block_q8_0: 34 bytes per 32 elements
    CHECK(sequence_kv(q) == exact(8192.0 * 32 * 8 * 128 * 2 * 34 / 32));
    q.inference.kv_cache_dtype = KvCacheDtype::q4_0;  // block_q4_0: 18 bytes per 32
    CHECK(sequence_kv(q) == exact(8192.0 * 32 * 8 * 128 * 2 * 18 / 32));
}

TEST_CASE("KV per token: multi-head latent attention (DeepSeek-V3)", "[serving][kv]") {
    // vLLM / SGLang: one latent of kv_lora_rank + qk_rope_head_dim = 576 elements per layer, 2 B,
    // the same on every TP rank: 61 · 576 · 2 = 70,272 B per token.
    CHECK(sequence_kv(serving(deepseek_v3(), Engine::vllm, 8192)) == exact(8192.0 * 61 * 576 * 2));
    CHECK(sequence_kv(serving(deepseek_v3(), Engine::vllm, 8192, 8)) == exact(8192.0 * 61 * 576 * 2));
    CHECK(sequence_kv(serving(deepseek_v3(), Engine::sglang, 8192, 8)) == exact(8192.0 * 61 * 576 * 2));
    // HF: decompressed K (128 heads · 192) and V (128 · 128) per layer: 61 · 40,960 · 2 B.
    CHECK(sequence_kv(serving(deepseek_v3(), Engine::hf, 8192)) == exact(8192.0 * 61 * (128 * 192 + 128 * 128) * 2));
    // llama.cpp: K cells of kv_lora_rank + n_rot = 576 and V cells of kv_lora_rank = 512.
    Scenario l = serving(deepseek_v3(), Engine::llamacpp, 8192);
    l.inference.weight_format = WeightFormat::gguf_q4_k_m;
    CHECK(sequence_kv(l) == exact(8192.0 * 61 * (576 + 512) * 2));
}

TEST_CASE("KV per token: sliding-window layers hold their window", "[serving][kv]") {
    // Mistral-7B-v0.1, every layer windowed (W = 4096), vLLM on an 80 GiB H100: max_num_batched_tokens
    // 8192 (not on an A100: arg_utils.py), so each layer needs (cdiv(min(4095 + 8192, 32768), 16) + 1) = 769
    // blocks = 12,304 tokens.
    Scenario m = serving(mistral_7b_v01(), Engine::vllm, 32768);
    m.hardware.gpu = "H100-SXM";
    m.hardware.memory_gib = 80;
    CHECK(sequence_kv(m) == exact(12304.0 * 32 * vllm_full_token(8, 128, 1)));
    // HF keeps the window: 4096 tokens per layer.
    Scenario hf = serving(mistral_7b_v01(), Engine::hf, 32768);
    CHECK(sequence_kv(hf) == exact(4096.0 * 32 * vllm_full_token(8, 128, 1)));
    // Gemma-2-9B: 21 global + 21 windowed layers of 8 · 256 · 2 · 2 = 8,192 B per token; HF at 8,192 tokens.
    Scenario g2 = serving(gemma2_9b(), Engine::hf, 8192);
    CHECK(sequence_kv(g2) == exact((21.0 * 8192 + 21.0 * 4096) * 8192));
    // Gemma-3-27B: pattern 6 → 10 global, 52 windowed (W = 1024) layers of 16 · 128 · 2 · 2 = 8,192 B.
    Scenario g3 = serving(gemma3_27b(), Engine::hf, 32768);
    CHECK(sequence_kv(g3) == exact((10.0 * 32768 + 52.0 * 1024) * 8192));
    // gpt-oss-20b: 12 full + 12 windowed (W = 128) layers of 8 · 64 · 2 · 2 = 2,048 B; SGLang/HF granularity.
    Scenario go = serving(gpt_oss_20b(), Engine::hf, 131072);
    CHECK(sequence_kv(go) == exact((12.0 * 131072 + 12.0 * 128) * 2048));
    // llama.cpp: SWA cells = min(n_ctx, PAD(W·n_seq + n_ubatch, 256)) = PAD(128 + 512, 256) = 768.
    Scenario gl = serving(gpt_oss_20b(), Engine::llamacpp, 131072);
    CHECK(sequence_kv(gl) == exact((12.0 * 131072 + 12.0 * 768) * 2048));
}

TEST_CASE("KV per token: hybrid linear-attention layers keep a fixed state", "[serving][kv]") {
    // Qwen3-Next-80B-A3B: 12 of 48 layers are softmax attention (2 KV heads × 256), 36 are Gated
    // DeltaNet with a conv state of (4 − 1) · (2·16·128 + 32·128) and a recurrent state of 32·128·128
    // per sequence (vLLM MambaStateShapeCalculator.gated_delta_net_state_shape), bf16.
    const double attention_token = 12.0 * 2 * 2 * 256 * 2;
    const double state = 36.0 * ((4 - 1) * (2 * 16 * 128 + 32 * 128) + 32.0 * 128 * 128) * 2;
    CHECK(sequence_kv(serving(qwen3_next_80b(), Engine::sglang, 65536)) == exact(65536 * attention_token + state));
    // t = 2: one KV head per rank and half of every linear state.
    CHECK(sequence_kv(serving(qwen3_next_80b(), Engine::sglang, 65536, 2)) == exact(65536 * attention_token / 2 + state / 2));
}

TEST_CASE("SGLang's token pool as its log reports it (vLLM issue 21348)", "[serving][kv]") {
    // Qwen3-235B-A22B-FP8 on 4 × H100, SGLang: "KV Cache is allocated. #tokens: 367404, K size: 8.23 GB"
    // (https://github.com/vllm-project/vllm/issues/21348). SGLang prints GiB: K = tokens · 94 layers ·
    // (4 KV heads / t = 4) · 128 · 2 B. Config: https://huggingface.co/Qwen/Qwen3-235B-A22B/blob/main/config.json
    ModelConfig m = llama(94, 4096, 64, 4, 12288, 151936);
    m.head_dim = 128;
    m.num_experts = 128;
    m.experts_per_token = 8;
    m.moe_ffn_hidden_size = 1536;
    Scenario s = serving(m, Engine::sglang, 32768, 4);
    const double per_token = sequence_kv(s) / 32768;
    CHECK(367404.0 * per_token / 2 / bytes_per_gib == Approx(8.23).epsilon(0.001));
}
