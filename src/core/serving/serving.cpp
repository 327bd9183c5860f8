#include "core/serving/serving.hpp"

#include <algorithm>
#include <cmath>

#include "core/results.hpp"
#include "core/serving/engines.hpp"
#include "core/serving/kv_cache.hpp"
#include "core/serving/serving_speed.hpp"
#include "core/serving/weight_formats.hpp"

namespace vramcalc {
namespace {

using namespace serving;

// What every engine's accounting reads.
struct Inputs {
    const Scenario& sc;
    const Layout& r;
    const EngineProfile& engine;
    WeightBytes w;
    double capacity = 0;     // bytes of one GPU
    double context = 0;      // CUDA context bytes (hardware.cuda_context_gib)
    double t = 1, p = 1, gpus = 1;
    double batched = 0;      // max_batched_tokens or the default
    double context_len = 0, concurrency = 1;
};

// Largest integer x in [0, hi] with ok(x) (ok is monotone: true up to some x).
template <class Ok>
double largest(double hi, Ok ok) {
    double lo = 0;
    if (!ok(1.0)) return 0;
    lo = 1;
    while (lo < hi) {
        double mid = std::floor((lo + hi + 1) / 2);
        if (ok(mid)) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

// largest() inside a bracket the caller derives (lo fits, hi does not): a few steps instead of 40. A
// bracket that does not hold falls back to the whole range, so the answer is always largest()'s.
template <class Ok>
double largest_between(double lo, double hi, double limit, Ok ok) {
    lo = std::max(1.0, std::floor(lo));
    hi = std::min(limit, std::ceil(hi));
    if (!(lo <= hi) || !ok(lo)) return largest(limit, ok);
    if (ok(hi)) return hi == limit ? limit : largest(limit, ok);
    while (hi - lo > 1) {
        const double mid = std::floor((lo + hi) / 2);
        if (ok(mid)) lo = mid;
        else hi = mid;
    }
    return lo;
}

// Bracket of the longest context whose n sequences fit `pool`: the full layers grow by
// n·L_full·bytes per token, rounded up to `block`; window layers hold at most `window_max` tokens.
struct Bracket {
    double lo = 1, hi = 0;  // hi < lo: no bracket (no full layers), search everything
};
Bracket context_bracket(const KvShape& k, double pool, double n, double block, double window_max) {
    const double per_token = n * k.full_layers * k.bytes_per_token_layer;
    if (!(per_token > 0)) return {};
    const double fixed = n * k.state_bytes_per_sequence;
    const double window = k.window > 0 ? n * k.window_layers * k.bytes_per_token_layer * window_max : 0.0;
    return {(pool - fixed - window) / per_token - block, (pool - fixed) / per_token + 1};
}

// Weights on one GPU of a TP × PP engine: the rank's shard of ceil(L/p) layers, the
// vocabulary-parallel embedding and LM head (both on one stage when p = 1, else the larger),
// norms and small tensors replicated.
double tp_weight_bytes(const Inputs& in) {
    const double layers = double(in.sc.model.layers);
    const double stage = std::ceil(layers / in.p) / layers;
    const double ends = in.p == 1 ? in.w.embedding + in.w.lm_head : std::max(in.w.embedding, in.w.lm_head);
    return in.w.layers_tp_rank * stage + ends / in.t + in.w.remainder * stage;
}

// vLLM's Marlin MXFP4 MoE kernels (Ampere, Hopper) pad each rank's expert width to 128 and the hidden
// size to 256 (vllm/model_executor/layers/quantization/mxfp4.py create_weights): the bytes grow by
// round_up(f_e/t, 128)·round_up(h, 256) / ((f_e/t)·h) — gpt-oss-120b 2880 → 2944 × 3072 at t = 1.
double vllm_mxfp4_padding(const Inputs& in) {
    if (in.engine.id != Engine::vllm || in.sc.inference.weight_format != WeightFormat::mxfp4) return 0.0;
    const double width = std::ceil(double(in.r.moe_ffn_hidden_size) / in.t);
    const double h = double(in.sc.model.hidden_size);
    const double factor = std::ceil(width / 128) * 128 * std::ceil(h / 256) * 256 / (width * h);
    const double stage = std::ceil(double(in.sc.model.layers) / in.p) / double(in.sc.model.layers);
    return in.w.routed_experts_tp_rank * stage * (factor - 1.0);
}

// vLLM's KV pool in tokens and the sequences of context_len it serves [VLLM kv_cache_utils.py].
void vllm_capacity(const Inputs& in, const KvShape& k, double window_tokens, InferenceEstimate& e) {
    const double block = in.engine.block_tokens;
    const VllmGroups g = vllm_groups(k);
    const double page = k.bytes_per_token_layer * block;  // one layer, one block
    const double blocks = page > 0 ? std::floor(std::max(0.0, e.kv_pool_bytes) / (page * g.group_size)) : 0.0;
    const double groups = std::max(1.0, g.full_groups + g.window_groups);
    e.kv_pool_tokens = std::floor(blocks / groups) * block;
    const double per_request = g.full_groups * std::ceil(in.context_len / block) + g.window_groups * window_tokens / block;
    e.max_concurrency = per_request > 0 ? blocks / per_request : 0.0;
}

// Pool engines (vLLM, SGLang, TRT-LLM): a budget, the KV pool inside it, its capacity.
void pool_engine(const Inputs& in, InferenceEstimate& e, KvShape& k, double& window_tokens) {
    const auto& inf = in.sc.inference;
    const double stage = std::ceil(double(in.sc.model.layers) / in.p) / double(in.sc.model.layers);
    k = kv_shape(in.sc, in.r, in.engine.mla, stage, in.t);
    const double block = in.engine.block_tokens;
    const bool vllm = in.engine.id == Engine::vllm;
    window_tokens = vllm ? vllm_window_tokens(k.window, in.context_len, in.batched, block)
                         : std::ceil(std::min(k.window, in.context_len) / block) * block;
    auto& mem = e.memory;
    mem.weights = tp_weight_bytes(in) + vllm_mxfp4_padding(in);
    // the sampler warm-up's rows: min(max_num_seqs, max_num_batched_tokens) dummy requests (V0: 256 sequences)
    const bool v0 = vllm && vllm_runs_v0(in.sc.hardware);
    const double rows = std::min(vllm && !v0 ? vllm_default_max_num_seqs(in.sc) : vllm_max_num_seqs, in.batched);
    mem.activations = v0     ? vllm_v0_profile_bytes(in.sc, in.r, in.batched, rows)
                      : vllm ? vllm_v1_profile_bytes(in.sc, in.r, in.batched, rows)
                             : forward_activation_bytes(in.sc, in.r, in.batched, rows);
    const double nccl = in.t > 1 ? in.engine.nccl_bytes : 0.0;
    // vLLM's non-torch term (fitted) holds the CUDA context; the other engines add the context given
    const double non_torch = in.engine.non_torch_bytes > 0 ? in.engine.non_torch_bytes : in.context;
    mem.overhead = non_torch + nccl + in.engine.cuda_graph_bytes;
    e.memory_fraction = inf.gpu_memory_utilization > 0 ? inf.gpu_memory_utilization
                                                        : default_memory_fraction(in.engine, in.sc.parallel.tensor);
    const double f = e.memory_fraction;
    switch (in.engine.pool) {
        case PoolRule::utilisation_of_total:  // KV = f·total − weights − torch peak − non-torch increase
            e.memory_budget_bytes = f * in.capacity;
            e.kv_pool_bytes = e.memory_budget_bytes - mem.weights - mem.activations - non_torch - nccl;
            break;
        case PoolRule::static_fraction:  // rest = (free after weights) − total·(1 − f)
            e.memory_budget_bytes = f * in.capacity;
            e.kv_pool_bytes = e.memory_budget_bytes - mem.weights - in.context - nccl;
            break;
        default: {  // fraction_of_free
            const double free = in.capacity - in.context - nccl - mem.weights - mem.activations;
            e.kv_pool_bytes = f * free;
            e.memory_budget_bytes = in.capacity - (1.0 - f) * std::max(0.0, free);
            break;
        }
    }
    const double per_seq = sequence_kv_bytes(k, in.context_len, block, window_tokens);
    if (vllm && k.linear_layers == 0) {
        vllm_capacity(in, k, window_tokens, e);
    } else {
        const double softmax_token = k.bytes_per_token_layer * (k.full_layers + k.window_layers);
        e.kv_pool_tokens = softmax_token > 0 ? std::floor(std::max(0.0, e.kv_pool_bytes) / softmax_token / block) * block : 0.0;
        e.max_concurrency = per_seq > 0 ? std::max(0.0, e.kv_pool_bytes) / per_seq : 0.0;
    }
    mem.kv_cache = per_seq * in.concurrency;
    // vLLM refuses to start unless the GPU has the budget free (init free memory ≥ requested).
    const bool budget_ok = !vllm || in.context + e.memory_budget_bytes <= in.capacity;
    e.starts = budget_ok && e.kv_pool_bytes > 0 && e.max_concurrency >= 1.0;
    e.fits = e.starts && e.max_concurrency >= in.concurrency;
    const double pool = e.kv_pool_bytes, n = in.concurrency;
    const double window_max = vllm ? k.window - 1 + in.batched + 2 * block : k.window + block;
    const Bracket b = context_bracket(k, pool, n, block, window_max);
    e.max_context_len = largest_between(b.lo, b.hi, 1e12, [&](double c) {
        double w = vllm ? vllm_window_tokens(k.window, c, in.batched, block) : std::ceil(std::min(k.window, c) / block) * block;
        return n * sequence_kv_bytes(k, c, block, w) <= pool;
    });
}

// llama.cpp: -ngl layers (and the output layer when ngl > L) on the GPUs, split by layers; the
// token embedding always on the host [LLAMA].
// llama.cpp's split: the share of the layers on the GPUs and whether the output layer is there
// (n_gpu_layers > L); tied models duplicate token_embd as the output tensor on its device.
struct LlamacppSplit {
    double on_gpu = 1;           // layers on the GPUs / L
    bool output_on_gpu = true;
    double output = 0;           // bytes of the output tensor
    double host_weights = 0;     // layer and output weights left on the host (not the token embedding)
};
LlamacppSplit llamacpp_split(const Inputs& in) {
    const double layers = double(in.sc.model.layers);
    const auto ngl_given = in.sc.inference.gpu_layers;
    const double ngl = ngl_given < 0 ? layers + 1 : std::min(double(ngl_given), layers + 1);
    LlamacppSplit s;
    s.on_gpu = std::min(ngl, layers) / layers;
    s.output_on_gpu = ngl > layers;
    s.output = in.sc.model.tied_embeddings ? in.w.embedding : in.w.lm_head;
    s.host_weights = (in.w.layers + in.w.remainder) * (1.0 - s.on_gpu) + (s.output_on_gpu ? 0.0 : s.output);
    return s;
}

void llamacpp_engine(const Inputs& in, InferenceEstimate& e, KvShape& k) {
    const LlamacppSplit split = llamacpp_split(in);
    const double on_gpu = split.on_gpu, output = split.output;
    const bool output_on_gpu = split.output_on_gpu;
    const double layer_bytes = in.w.layers + in.w.remainder;
    auto& mem = e.memory;
    mem.weights = layer_bytes * on_gpu / in.gpus + (output_on_gpu ? output : 0.0);
    k = kv_shape(in.sc, in.r, in.engine.mla, on_gpu / in.gpus, 1.0);
    // flash attention: llama-server's default (flash_attn = auto, on where the backend supports it)
    const double cells = std::ceil(in.context_len / 256.0) * 256.0;
    const double staged_output = output_on_gpu ? 0.0 : output;  // the host's output weight, copied for the GPU matmul
    mem.activations = on_gpu > 0 || output_on_gpu
                          ? llamacpp_compute_bytes(in.sc.model, in.r, in.batched, cells, true, output_on_gpu) + staged_output
                          : 0.0;
    mem.overhead = in.context;
    mem.kv_cache = llamacpp_kv_bytes(k, in.context_len, in.concurrency, in.batched);
    KvShape host_kv = kv_shape(in.sc, in.r, in.engine.mla, 1.0 - on_gpu, 1.0);
    e.host_bytes = in.w.embedding + split.host_weights + llamacpp_kv_bytes(host_kv, in.context_len, in.concurrency, in.batched) +
                   llamacpp_output_bytes(in.sc.model, in.concurrency);
    e.kv_pool_bytes = in.capacity - mem.weights - mem.activations - mem.overhead;
    e.memory_budget_bytes = in.capacity;
    e.memory_fraction = 1.0;
    e.kv_pool_tokens = std::ceil(in.context_len * in.concurrency / 256.0) * 256.0;  // n_ctx as llama.cpp logs it
    const double pool = e.kv_pool_bytes;
    // the cache is `sequences` × one slot's, so pool / one slot brackets the count
    const double slot = llamacpp_kv_bytes(k, in.context_len, 1, in.batched);
    const double slots = slot > 0 ? pool / slot : 0.0;
    e.max_concurrency = largest_between(slots - 1, slots + 1, 1e9,
                                        [&](double n) { return llamacpp_kv_bytes(k, in.context_len, n, in.batched) <= pool; });
    const Bracket b = context_bracket(k, pool, in.concurrency, 256, std::ceil((k.window + in.batched) / 256) * 256);
    e.max_context_len = largest_between(b.lo, b.hi, 1e12,
                                        [&](double c) { return llamacpp_kv_bytes(k, c, in.concurrency, in.batched) <= pool; });
    e.starts = llamacpp_kv_bytes(k, in.context_len, 1, in.batched) <= pool;
    e.fits = mem.kv_cache <= pool;
}

// HF generate: weights split over the GPUs (device_map="auto"), a cache that grows with the
// sequence (full K/V per layer, window layers their window), one prefill of the whole batch with
// logits for the last token only (logits_to_keep = 1), the caching allocator's reserve [HF].
void hf_engine(const Inputs& in, InferenceEstimate& e, KvShape& k) {
    const auto& hw = in.sc.hardware;
    auto& mem = e.memory;
    mem.weights = in.w.total / in.gpus;
    k = kv_shape(in.sc, in.r, in.engine.mla, 1.0 / in.gpus, 1.0);
    const double per_seq = sequence_kv_bytes(k, in.context_len, 1, std::min(k.window, in.context_len));
    mem.kv_cache = per_seq * in.concurrency;
    mem.activations = forward_activation_bytes(in.sc, in.r, in.batched, in.concurrency);
    const double allocated = mem.weights + mem.kv_cache + mem.activations;
    mem.overhead = in.context + hw.allocator_overhead * allocated;
    e.memory_budget_bytes = in.capacity;
    e.memory_fraction = 1.0;
    e.kv_pool_bytes = (in.capacity - in.context) / (1.0 + hw.allocator_overhead) - mem.weights - mem.activations;
    e.kv_pool_tokens = k.bytes_per_token_layer > 0
                           ? std::floor(std::max(0.0, e.kv_pool_bytes) / (k.bytes_per_token_layer * (k.full_layers + k.window_layers)))
                           : 0.0;
    e.max_concurrency = per_seq > 0 ? std::floor(std::max(0.0, e.kv_pool_bytes) / per_seq) : 0.0;
    const double pool = e.kv_pool_bytes, n = in.concurrency;
    const Bracket b = context_bracket(k, pool, n, 1, k.window);
    e.max_context_len = largest_between(b.lo, b.hi, 1e12,
                                        [&](double c) { return n * sequence_kv_bytes(k, c, 1, std::min(k.window, c)) <= pool; });
    e.starts = per_seq <= pool;
    e.fits = mem.kv_cache <= pool;
}

SpeedInputs speed_inputs(const Inputs& in, const InferenceEstimate& e, const KvShape& k, const ParameterCounts& P) {
    const auto& inf = in.sc.inference;
    SpeedInputs s;
    s.active_parameters = P.active;
    s.head_parameters = double(in.sc.model.vocab_size) * double(in.sc.model.hidden_size);
    s.layer_parameters = std::max(0.0, P.active - P.embedding - P.lm_head - P.final_norm);
    s.weight_bytes_gpu = e.memory.weights;
    const double layer_share = e.weights_total_bytes > 0 ? e.memory.weights / e.weights_total_bytes : 0.0;
    s.expert_bytes_gpu = in.w.routed_experts * std::min(1.0, layer_share * in.gpus) / in.gpus;
    const double layers = double(in.sc.model.layers);
    s.gpu_layers = std::ceil(layers / in.p);
    // an untied embedding is a row lookup; llama.cpp keeps it on the host (not in memory.weights)
    const bool embedding_on_gpu = !in.sc.model.tied_embeddings && in.engine.id != Engine::llamacpp;
    s.embedding_bytes_gpu = embedding_on_gpu ? (in.engine.id == Engine::hf ? in.w.embedding / in.gpus
                                                : in.p == 1 ? in.w.embedding / in.t : 0.0)
                                             : 0.0;
    if (in.engine.id == Engine::llamacpp) {
        const LlamacppSplit split = llamacpp_split(in);
        s.host_weight_bytes = split.host_weights;
        s.gpu_layers = layers * split.on_gpu;
    }
    s.batched_tokens = in.batched;
    const double mean_context = double(inf.prompt_tokens) + double(inf.output_tokens) / 2.0;
    s.kv_bytes_per_sequence = sequence_kv_bytes(k, mean_context, 1, std::min(k.window, mean_context));
    s.gpus = in.gpus;
    return s;
}

}  // namespace

InferenceEstimate estimate_inference(const Scenario& sc, const Layout& r, const ParameterCounts& P) {
    const auto& inf = sc.inference;
    const EngineProfile& engine = engine_profile(inf.engine);
    Inputs in{sc, r, engine, weight_bytes(sc, r, P.total)};
    in.capacity = sc.hardware.memory_gib * bytes_per_gib;
    in.context = sc.hardware.cuda_context_gib * bytes_per_gib;
    in.t = double(sc.parallel.tensor);
    in.p = double(sc.parallel.pipeline);
    in.gpus = in.t * in.p;
    in.batched = inf.max_batched_tokens > 0 ? double(inf.max_batched_tokens) : default_batched_tokens(engine, sc);
    in.context_len = double(inf.context_len);
    in.concurrency = double(inf.concurrency);

    InferenceEstimate e;
    e.gpus = in.gpus;
    e.batched_tokens = in.batched;
    e.weights_total_bytes = in.w.total;
    KvShape k;
    double window_tokens = 0;
    switch (engine.pool) {
        case PoolRule::exact_buffers: llamacpp_engine(in, e, k); break;
        case PoolRule::grows_with_sequence: hf_engine(in, e, k); break;
        default: pool_engine(in, e, k, window_tokens); break;
    }
    auto& mem = e.memory;
    mem.total = mem.weights + mem.kv_cache + mem.activations + mem.overhead;
    e.kv_bytes_per_token = in.concurrency > 0 ? mem.kv_cache / in.concurrency / in.context_len : 0.0;
    e.tm101_bytes = 1.2 * mem.weights;  // Transformer Math 101: total inference memory ≈ 1.2 × model memory
    e.speed = predict_serving_speed(sc, r, speed_inputs(in, e, k, P));
    return e;
}

}  // namespace vramcalc
