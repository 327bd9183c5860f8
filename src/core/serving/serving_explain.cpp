// Explain terms of a serving estimate: each output's formula with this scenario's values, as
// docs/serving.md states it.
#include "core/explain.hpp"

#include <algorithm>

#include "core/serving/decode_step.hpp"
#include "core/serving/engines.hpp"
#include "core/serving/weight_formats.hpp"

namespace vramcalc {

namespace {

const char* kv_formula(const ModelConfig& m, Engine engine) {
    if (m.kv_lora_rank > 0)
        return engine == Engine::hf ? "KV = n · c · L · (a·(d_nope + d_rope) + a·d_v) · e (decompressed K and V)"
                                    : "KV = n · c · L · (kv_lora_rank + qk_rope_head_dim) · e (one latent, every TP rank)";
    if (m.full_attention_interval > 0)
        return "KV = n · (c · L_attn · 2·max(1, g/t)·d·e + L_linear · state per sequence)";
    if (m.sliding_window > 0)
        return "KV = n · (c · L_full + window tokens · L_window) · 2·max(1, g/t)·d·e; window tokens by the engine";
    return "KV = n · ceil(c / block)·block · L · 2·max(1, g/t)·d·e";
}

const char* pool_formula(Engine engine) {
    switch (engine) {
        case Engine::vllm: return "pool = u·M − weights − activation peak − non-torch; tokens = floor(blocks / groups)·16";
        case Engine::sglang: return "pool = f·M − weights − CUDA context; tokens = pool / cell_size";
        case Engine::trtllm: return "pool = 0.9 · (M − context − weights − buffers); tokens = blocks · 32";
        case Engine::llamacpp: return "n_ctx = PAD(c · n, 256); KV room = M − weights − compute buffer − context";
        case Engine::hf: return "room = (M − context)/(1 + allocator reserve) − weights − activations";
    }
    return "";
}

}  // namespace

std::vector<ExplainTerm> explain_serving(const Scenario& sc, const Estimate& e) {
    const auto& m = sc.model;
    const auto& inf = sc.inference;
    const auto& i = e.inference;
    const auto& r = e.layout;
    const double t = double(sc.parallel.tensor), p = double(sc.parallel.pipeline);
    const serving::EngineProfile& engine = serving::engine_profile(inf.engine);
    const char* serving_doc = "docs/serving.md; the engine's code as cited there";
    std::vector<ExplainTerm> out;
    out.push_back(explain_term(e, "parameters.total", "P = embedding + L · per_layer + final_norm + lm_head",
                               "architecture (docs/formulas.md §1)", {{"P", e.parameters.total, "parameters"}}));
    out.push_back(explain_term(e, "memory_per_gpu_bytes.weights",
                               "weights = Σ tensors in the format's bytes (shard 1/t, K/V max(1, g/t) heads; ceil(L/p) layers)",
                               "ggml-common.h, llama-quant.cpp (GGUF); AutoAWQ / GPTQ / fp8 / MXFP4 layouts (docs/serving.md §1)",
                               {{"checkpoint", i.weights_total_bytes, "bytes"}, {"t", t, ""}, {"p", p, ""}}));
    out.push_back(explain_term(e, "memory_per_gpu_bytes.kv_cache", kv_formula(m, inf.engine), serving_doc,
                               {{"n", double(inf.concurrency), "sequences"},
                                {"c", double(inf.context_len), "tokens"},
                                {"L", double(m.layers), ""},
                                {"g", double(r.kv_heads), ""},
                                {"d", double(r.head_dim), ""},
                                {"t", t, ""},
                                {"per token", i.kv_bytes_per_token, "bytes"}}));
    if (inf.engine == Engine::vllm) {
        // vLLM's profile run: the forward, then the sampler warm-up on the kept hidden states (engines.cpp)
        const bool v0 = serving::vllm_runs_v0(sc.hardware);
        const double rows = std::min(v0 ? serving::vllm_max_num_seqs : serving::vllm_default_max_num_seqs(sc), i.batched_tokens);
        out.push_back(explain_term(e, "memory_per_gpu_bytes.activations",
                                   v0 ? "peak = max(T·2·max(3h + 3·f/t, 2h + (a + 2g)·d/t), T·h·2 + rows·V·39) (V0 sampler)"
                                      : "peak = max(T·2·max(3h + 3·f/t, 2h + (a + 2g)·d/t), T·h·2 + rows·V·B); rows = min(max_num_seqs, T)",
                                   "vLLM gpu_model_runner.py profile_run, _dummy_sampler_run; topk_topp_sampler.py (docs/serving.md §3)",
                                   {{"T", i.batched_tokens, "tokens"},
                                    {"V", double(m.vocab_size), ""},
                                    {"rows", rows, "sequences"},
                                    {"B", v0 ? 39.0 : serving::vllm_sampler_logit_bytes(inf.sampler), "bytes per logit"}}));
    } else {
        out.push_back(explain_term(e, "memory_per_gpu_bytes.activations",
                                   inf.engine == Engine::llamacpp ? "compute buffer = 4 · n_ubatch · (V + h) (flash attention)"
                                                                  : "peak = T·2·max(2h + 3·f/t, 2h + (a + 2g)·d/t) + T·h·2 + rows·V·8",
                                   serving_doc, {{"T", i.batched_tokens, "tokens"}, {"V", double(m.vocab_size), ""}}));
    }
    out.push_back(explain_term(e, "memory_per_gpu_bytes.overhead", "overhead = CUDA context + NCCL (t > 1) + CUDA graphs (seeds)",
                               serving_doc,
                               {{"CUDA context", sc.hardware.cuda_context_gib * bytes_per_gib, "bytes"},
                                {"CUDA graphs", engine.cuda_graph_bytes, "bytes"},
                                {"NCCL", t > 1 ? engine.nccl_bytes : 0.0, "bytes"}}));
    out.push_back(explain_term(e, "memory_per_gpu_bytes.total", "total = weights + KV cache + activations + overhead",
                               serving_doc, {{"capacity", e.capacity_bytes, "bytes"}}));
    out.push_back(explain_term(e, "inference.kv_pool_tokens", pool_formula(inf.engine), engine.version,
                               {{"fraction", i.memory_fraction, ""},
                                {"M", e.capacity_bytes, "bytes"},
                                {"pool", i.kv_pool_bytes, "bytes"},
                                {"block", engine.block_tokens, "tokens"},
                                {"max concurrency", i.max_concurrency, "sequences"}}));
    out.push_back(explain_term(e, "inference.tm101_bytes", "TM101 = 1.2 × weights",
                               "Transformer Math 101 (EleutherAI), Inference: total ≈ 1.2 × model memory",
                               {{"weights", e.memory_per_gpu_bytes.weights, "bytes"}}));
    out.push_back(explain_term(e, "performance.decode_tokens_per_second",
                               "decode = n / (bytes per step / (bandwidth · η) + kernels × cost + TP all-reduces + engine step)",
                               "Pope et al. 2022 (arXiv:2211.05102) §2; η and the kernel cost from the H200 copy measurement and "
                               "the fit cases (docs/serving.md §4)",
                               {{"n", double(inf.concurrency), "sequences"},
                                {"bytes per step", i.speed.decode_step_bytes, "bytes"},
                                {"bandwidth", sc.hardware.memory_bandwidth_gbps * 1e9, "bytes/s"},
                                {"η", serving::matvec_bandwidth_fraction(inf.weight_format), ""},
                                {"fixed part of the step", i.speed.decode_fixed_seconds, "seconds"}}));
    out.push_back(explain_term(e, "performance.time_to_first_token_seconds",
                               "TTFT = per chunk of the engine's batch: max(2·P_layers·tokens FLOPs at the engine's GEMM rate, the"
                               " weights streamed once) (+ llama.cpp on Volta: dequantize to f16) + causal attention + kernels + TP"
                               " + the LM head for the sampled token + the engine step + a request's path (vLLM, SGLang, TRT-LLM)",
                               "the engines' code: ggml-cuda mmq.cu ggml_cuda_should_use_mmq (MMQ on int8 tensor cores, or dequantize +"
                               " cuBLAS fp16 on Volta), vLLM gpu_model_runner.py (logits of the last token); the H200 GEMM curve for"
                               " vLLM/SGLang/TRT-LLM; the fitted rates of docs/serving.md §4 \"Prefill\"",
                               {{"prompt", double(inf.prompt_tokens), "tokens"},
                                {"batch (chunk)", i.batched_tokens, "tokens"},
                                {"P_active", e.parameters.active, "parameters"},
                                {"peak", sc.hardware.peak_tflops * 1e12, "FLOP/s"},
                                {"prefill", i.speed.prefill_tokens_per_second, "tokens/s"}}));
    out.push_back(explain_term(e, "performance.cost_per_million_output_tokens",
                               "cost = price · t·p / 3600 / decode tokens/s · 10^6", serving_doc,
                               {{"price", sc.hardware.price_per_gpu_hour, "$/GPU-h"}, {"GPUs", i.gpus, ""}}));
    return out;
}

}  // namespace vramcalc
