// Serving (workload = inference): can the engine load the model, how many tokens of context and
// how many sequences fit, and how fast it serves them (docs/serving.md). Pure, allocation-free.
#pragma once

#include <cstdint>

#include "core/scenario.hpp"

namespace vramcalc {

struct InferenceMemory {
    double weights = 0;      // the GPU's share of the checkpoint
    double kv_cache = 0;     // what `concurrency` sequences of `context_len` tokens hold (the need)
    double activations = 0;  // the engine's activation peak (vLLM's profiled forward, llama.cpp's compute buffer)
    double overhead = 0;     // CUDA context, NCCL, CUDA graphs, allocator reserve
    double total = 0;        // weights + kv_cache + activations + overhead
};

struct InferenceSpeed {
    double time_to_first_token_seconds = 0;  // one prompt of prompt_tokens, alone, with the engine's request path
    double prefill_tokens_per_second = 0;    // prompt tokens per second: one prompt, or full batches where a batching engine serves several
    double decode_tokens_per_second = 0;     // all `concurrency` sequences together
    double inter_token_latency_seconds = 0;  // one decode step, every sequence advances one token
    double decode_step_bytes = 0;            // bytes one decode step reads on one GPU (weights + KV)
    double decode_fixed_seconds = 0;         // the step's part that does not scale with bytes: kernels, all-reduces, engine
    double cost_per_million_output_tokens = 0;
};

struct InferenceEstimate {
    double gpus = 1;                    // t · p GPUs serve one replica
    double weights_total_bytes = 0;     // the whole checkpoint in its format
    InferenceMemory memory;             // per GPU
    double host_bytes = 0;              // llama.cpp: layers left on the host (gpu_layers < L) and the token embedding
    double kv_bytes_per_token = 0;      // per GPU: one sequence's KV at context_len / context_len
    double kv_pool_bytes = 0;           // what the engine sets aside for KV (vLLM "Available KV cache memory")
    double kv_pool_tokens = 0;          // its capacity in tokens (vLLM "GPU KV cache size: N tokens")
    double max_concurrency = 0;         // sequences of context_len that fit at once
    double max_context_len = 0;         // longest context that fits at the given concurrency
    double memory_budget_bytes = 0;     // what the engine allows itself (vLLM: utilisation × memory)
    double memory_fraction = 0;         // the fraction used (gpu_memory_utilization or its default)
    double batched_tokens = 0;          // max_batched_tokens or the engine's default
    double tm101_bytes = 0;             // Transformer Math 101: 1.2 × weights (the seed's rule, for comparison)
    bool starts = false;                // the engine loads and can hold one sequence of context_len
    bool fits = false;                  // and all `concurrency` of them at once
    InferenceSpeed speed;
};

struct Layout;
struct ParameterCounts;

// The serving estimate. Precondition: validate(scenario) is empty.
InferenceEstimate estimate_inference(const Scenario& scenario, const Layout& layout, const ParameterCounts& params);

}  // namespace vramcalc
