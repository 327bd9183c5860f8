// KV cache by layer kind, as each engine stores it (docs/serving.md §2). Sources:
//   [VLLM-SPEC] vllm-project/vllm vllm/v1/kv_cache_interface.py (FullAttentionSpec.page_size_bytes =
//               block·2·kv_heads·head_size·dtype; MLAAttentionSpec: one latent of kv_lora_rank +
//               qk_rope_head_dim; SlidingWindowSpec.max_memory_usage_bytes), vllm/config (get_num_kv_heads:
//               max(1, g // t)).
//   [SGL]       sgl-project/sglang model_runner.py profile_max_num_token (cell_size per token).
//   [LLAMA-KV]  ggml-org/llama.cpp src/llama-context.cpp (n_ctx padded to 256), src/llama-kv-cache-iswa.cpp
//               (SWA cells = min(n_ctx, PAD(n_swa·n_seq + n_ubatch, 256))), src/llama-model.cpp (MLA: K of
//               kv_lora_rank + n_rot, V of kv_lora_rank).
//   [HF-CACHE]  huggingface/transformers cache_utils.py (DynamicCache keeps full K and V per layer;
//               sliding layers keep the window).
#pragma once

#include <cstdint>

#include "core/scenario.hpp"
#include "core/serving/tensors.hpp"

namespace vramcalc::serving {

// Bytes per cached element: auto = the model's 16-bit dtype (4 for fp32 weights); q8_0 34/32, q4_0 18/32 [GGML].
double kv_element_bytes(KvCacheDtype dtype, WeightFormat weights);

// How an engine stores a latent (MLA) cache.
enum class MlaStorage { latent, latent_k_and_v, full };

// The cache of one GPU: layers by kind, bytes per token of one softmax layer and the fixed state
// of the linear layers.
struct KvShape {
    double full_layers = 0, window_layers = 0, linear_layers = 0;  // on this GPU
    double window = 0;                   // W, tokens
    double bytes_per_token_layer = 0;    // one softmax layer, one token, this GPU
    double state_bytes_per_sequence = 0; // all linear layers of this GPU, one sequence
};
// `layer_share`: the fraction of the layers on this GPU (1/p, or the GPU's share of llama.cpp's split);
// `tensor`: tensor-parallel degree (1 for llama.cpp and HF).
KvShape kv_shape(const Scenario& sc, const Layout& r, MlaStorage mla, double layer_share, double tensor);

// Tokens a window layer holds for one sequence of `context` tokens under vLLM:
// (cdiv(min(W − 1 + batched, context), 16) + 1) blocks of 16 [VLLM-SPEC SlidingWindowSpec].
double vllm_window_tokens(double window, double context, double batched_tokens, double block);

// One sequence of `context` tokens: full layers hold ceil(context / block)·block tokens, window
// layers `window_tokens`, linear layers their state.
double sequence_kv_bytes(const KvShape& k, double context, double block, double window_tokens);

// llama.cpp's cache for `sequences` slots of `context`, one stream per slot (kv_unified = false, the
// default; 330 CPU runs and ollama#16480 print `streams` = slots): PAD(context, 256) cells per stream,
// SWA layers min(that, PAD(W + n_ubatch, 256)), recurrent state per slot [LLAMA-KV].
double llamacpp_kv_bytes(const KvShape& k, double context, double sequences, double ubatch);

}  // namespace vramcalc::serving
