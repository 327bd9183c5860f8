// Every rule a Scenario must satisfy. Each issue names the field path and the rule.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "estimate.hpp"
#include "core/model/architecture.hpp"
#include "core/training/context_parallel.hpp"
#include "core/training/finetune.hpp"
#include "fields.hpp"
#include "core/training/fp8.hpp"
#include "text.hpp"

namespace vramcalc {
namespace {

// Upper bounds keep every product finite and exact in a double; they are far beyond any real run.
constexpr std::int64_t max_layers = 100'000;
constexpr std::int64_t max_width = 10'000'000;      // hidden, ffn, vocab, positions
constexpr std::int64_t max_heads = 1'000'000;
constexpr std::int64_t max_seq_len = 100'000'000;
constexpr std::int64_t max_batch = 1'000'000'000;
constexpr std::int64_t max_gpus = 100'000'000;
constexpr std::int64_t max_experts = 100'000;
constexpr double max_tokens = 1e18;
constexpr double max_params = 1e16;
// A checkpoint's bytes: 1e16 parameters at 32 bits (fp32, the widest format) and no more.
constexpr double max_weight_bytes = 4 * max_params;
constexpr std::int64_t max_lora_rank = 1'000'000;
// Below these a run would take longer than a double can count (T = C / (N · rate)): 1 GFLOP/s per
// GPU and an MFU of 0.01 % are far below any real hardware, and a parameter or token is at least 1.
constexpr double min_tflops = 1e-3;
constexpr double min_mfu = 1e-4;
// Likewise no real link or memory is slower than 1 MB/s (0.001 GB/s).
constexpr double min_gbps = 1e-3;
constexpr std::int64_t max_loss_chunks = 1'000'000;

// Runs the rules. Messages are built lazily (a callable), only when they are collected: is_valid()
// checks the same rules without building a string, fast enough for every cell of a fit map.
struct Checker {
    bool collect = true;
    bool ok = true;
    std::vector<ValidationIssue> issues;

    template <class Message>
    void fail(const char* field, Message&& message) {
        ok = false;
        if (collect) issues.push_back({field, message()});
    }

    bool range(const char* field, std::int64_t value, std::int64_t lo, std::int64_t hi) {
        if (value >= lo && value <= hi) return true;
        fail(field, [&] {
            return "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + " (got " +
                   std::to_string(value) + ")";
        });
        return false;
    }

    bool real(const char* field, double value, double lo, double hi, bool lo_inclusive = true) {
        bool in_range = std::isfinite(value) && (lo_inclusive ? value >= lo : value > lo) && value <= hi;
        if (in_range) return true;
        fail(field, [&] {
            std::string shown = std::isfinite(value) ? compact(value) : std::string("not a finite number");
            return std::string("must be a number ") + (lo_inclusive ? "from " : "greater than ") + compact(lo) +
                   (lo_inclusive ? " to " : " and at most ") + compact(hi) + " (got " + shown + ")";
        });
        return false;
    }

    // 0, or a number from lo to hi; `zero_means` says what 0 stands for.
    bool zero_or_real(const char* field, double value, double lo, double hi, const char* zero_means) {
        if (value == 0 || (std::isfinite(value) && value >= lo && value <= hi)) return true;
        fail(field, [&] {
            std::string shown = std::isfinite(value) ? compact(value) : std::string("not a finite number");
            return std::string("must be 0 (") + zero_means + ") or a number from " + compact(lo) + " to " + compact(hi) +
                   " (got " + shown + ")";
        });
        return false;
    }

    static std::string compact(double v) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.6g", v);
        return buffer;
    }
};

// MLA, sliding windows and q/k norms (docs/formulas.md "Attention variants").
void check_attention_variants(const ModelConfig& m, Checker& c) {
    bool latent_ok = c.range("model.kv_lora_rank", m.kv_lora_rank, 0, max_width);
    bool q_latent_ok = c.range("model.q_lora_rank", m.q_lora_rank, 0, max_width);
    bool rope_ok = c.range("model.qk_rope_head_dim", m.qk_rope_head_dim, 0, max_width);
    bool nope_ok = c.range("model.qk_nope_head_dim", m.qk_nope_head_dim, 0, max_width);
    bool v_ok = c.range("model.v_head_dim", m.v_head_dim, 0, max_width);
    if (latent_ok && m.kv_lora_rank > 0) {
        if (rope_ok && m.qk_rope_head_dim == 0)
            c.fail("model.qk_rope_head_dim", [] { return std::string("must be at least 1 with multi-head latent attention (model.kv_lora_rank > 0): the decoupled RoPE key width (DeepSeek-V3: 64)"); });
        if (nope_ok && m.qk_nope_head_dim == 0)
            c.fail("model.qk_nope_head_dim", [] { return std::string("must be at least 1 with multi-head latent attention (model.kv_lora_rank > 0): the per-head key width without RoPE (DeepSeek-V3: 128)"); });
        if (m.qk_norm)
            c.fail("model.qk_norm", [] { return std::string("must be false with multi-head latent attention (model.kv_lora_rank > 0): MLA normalises its latents instead"); });
        if (m.attention_output_gate)
            c.fail("model.attention_output_gate", [] { return std::string("must be false with multi-head latent attention (model.kv_lora_rank > 0)"); });
    } else if (latent_ok) {
        auto mla_only = [&](const char* field, std::int64_t value, bool ok) {
            if (ok && value != 0)
                c.fail(field, [&] { return "must be 0 without multi-head latent attention (model.kv_lora_rank is 0; got " + std::to_string(value) + ")"; });
        };
        mla_only("model.q_lora_rank", m.q_lora_rank, q_latent_ok);
        mla_only("model.qk_rope_head_dim", m.qk_rope_head_dim, rope_ok);
        mla_only("model.qk_nope_head_dim", m.qk_nope_head_dim, nope_ok);
        mla_only("model.v_head_dim", m.v_head_dim, v_ok);
    }
    bool window_ok = c.range("model.sliding_window", m.sliding_window, 0, max_seq_len);
    if (c.range("model.global_attention_interval", m.global_attention_interval, 0, max_layers) && window_ok &&
        m.global_attention_interval > 0 && m.sliding_window == 0)
        c.fail("model.global_attention_interval", [] { return std::string("must be 0 without a sliding window (model.sliding_window is 0: every layer is global)"); });
}

// Hybrid stacks: Gated DeltaNet or Mamba layers between the softmax ones.
void check_hybrid_layers(const ModelConfig& m, Checker& c) {
    bool interval_ok = c.range("model.full_attention_interval", m.full_attention_interval, 0, max_layers);
    bool kind_ok = m.linear_attention == LinearAttention::gated_deltanet || m.linear_attention == LinearAttention::mamba;
    if (!kind_ok) c.fail("model.linear_attention", [] { return std::string("must be gated_deltanet or mamba"); });
    bool key_heads_ok = c.range("model.linear_num_key_heads", m.linear_num_key_heads, 0, max_heads);
    bool value_heads_ok = c.range("model.linear_num_value_heads", m.linear_num_value_heads, 0, max_heads);
    bool key_dim_ok = c.range("model.linear_key_head_dim", m.linear_key_head_dim, 0, max_width);
    bool value_dim_ok = c.range("model.linear_value_head_dim", m.linear_value_head_dim, 0, max_width);
    c.range("model.linear_conv_kernel", m.linear_conv_kernel, 1, max_width);
    bool state_ok = c.range("model.ssm_state_size", m.ssm_state_size, 0, max_width);
    c.range("model.ssm_expand", m.ssm_expand, 1, 1024);
    if (!interval_ok || !kind_ok || m.full_attention_interval == 0) return;
    if (m.linear_attention == LinearAttention::mamba) {
        if (state_ok && m.ssm_state_size == 0)
            c.fail("model.ssm_state_size", [] { return std::string("must be at least 1 for Mamba layers (model.full_attention_interval > 0, model.linear_attention = mamba; Jamba: 16)"); });
        return;
    }
    auto needed = [&](const char* field, std::int64_t value, bool ok) {
        if (ok && value == 0)
            c.fail(field, [] { return std::string("must be at least 1 for Gated DeltaNet layers (model.full_attention_interval > 0, model.linear_attention = gated_deltanet)"); });
    };
    needed("model.linear_num_key_heads", m.linear_num_key_heads, key_heads_ok);
    needed("model.linear_num_value_heads", m.linear_num_value_heads, value_heads_ok);
    needed("model.linear_key_head_dim", m.linear_key_head_dim, key_dim_ok);
    needed("model.linear_value_head_dim", m.linear_value_head_dim, value_dim_ok);
    if (key_heads_ok && value_heads_ok && m.linear_num_key_heads > 0 && m.linear_num_value_heads % m.linear_num_key_heads != 0)
        c.fail("model.linear_num_value_heads", [&] {
            return "must be a multiple of model.linear_num_key_heads (" + std::to_string(m.linear_num_value_heads) + " value heads, " +
                   std::to_string(m.linear_num_key_heads) + " key heads)";
        });
}

// Router bias and shared-expert gate exist only in MoE layers.
void check_expert_details(const ModelConfig& m, bool experts_ok, Checker& c) {
    if (!experts_ok) return;
    if (m.router_bias && m.num_experts == 1)
        c.fail("model.router_bias", [] { return std::string("must be false for a dense model (model.num_experts = 1): there is no router"); });
    if (m.shared_expert_gate && (m.num_experts == 1 || m.num_shared_experts == 0))
        c.fail("model.shared_expert_gate", [] { return std::string("must be false without shared experts (model.num_shared_experts = 0 or a dense model)"); });
}

// Serving settings (docs/serving.md). Their ranges are checked for every scenario (a link or JSON
// file stays valid when its workload is switched); the rules that involve the model or the
// engine only for inference.
void check_inference(const Scenario& sc, Checker& c) {
    const auto& inf = sc.inference;
    const auto& m = sc.model;
    if (sc.workload != Workload::training && sc.workload != Workload::inference)
        c.fail("workload", [] { return std::string("must be training or inference"); });
    if (int(inf.engine) < 0 || int(inf.engine) > int(Engine::hf))
        c.fail("inference.engine", [] { return std::string("must be vllm, sglang, trtllm, llamacpp or hf"); });
    if (int(inf.weight_format) < 0 || int(inf.weight_format) > int(WeightFormat::gguf_iq4_xs))
        c.fail("inference.weight_format", [] { return std::string("must be one of the weight formats (--list-fields)"); });
    if (int(inf.kv_cache_dtype) < 0 || int(inf.kv_cache_dtype) > int(KvCacheDtype::q4_0))
        c.fail("inference.kv_cache_dtype", [] { return std::string("must be auto, fp16, bf16, fp8, q8_0 or q4_0"); });
    if (inf.quant_group_size != -1 && (inf.quant_group_size < 1 || inf.quant_group_size > max_width))
        c.fail("inference.quant_group_size", [&] {
            return "must be -1 (one group per column) or an integer from 1 to " + std::to_string(max_width) + " (got " +
                   std::to_string(inf.quant_group_size) + ")";
        });
    bool context_ok = c.range("inference.context_len", inf.context_len, 1, max_seq_len);
    if (context_ok && sc.workload == Workload::inference && inf.context_len > longest_sequence(m))
        c.fail("inference.context_len", [&] {
            return "must be at most model.max_position_embeddings (" + std::to_string(m.max_position_embeddings) +
                   ") with learned positions";
        });
    c.range("inference.concurrency", inf.concurrency, 1, max_batch);
    if (inf.gpu_memory_utilization != 0) c.real("inference.gpu_memory_utilization", inf.gpu_memory_utilization, 0, 1, false);
    c.range("inference.max_batched_tokens", inf.max_batched_tokens, 0, max_seq_len);
    c.range("inference.gpu_layers", inf.gpu_layers, -1, max_layers);
    c.range("inference.prompt_tokens", inf.prompt_tokens, 1, max_seq_len);
    c.range("inference.output_tokens", inf.output_tokens, 1, max_seq_len);
    if (int(inf.sampler) < 0 || int(inf.sampler) > int(Sampler::pytorch))
        c.fail("inference.sampler", [] { return std::string("must be flashinfer or pytorch"); });
    c.zero_or_real("inference.weight_bytes_override", inf.weight_bytes_override, 1, max_weight_bytes, "from the format");
    if (sc.workload != Workload::inference) return;
    const bool llamacpp = inf.engine == Engine::llamacpp;
    const bool gguf = inf.weight_format >= WeightFormat::gguf_q8_0 && inf.weight_format <= WeightFormat::gguf_iq4_xs;
    const bool dense = inf.weight_format <= WeightFormat::fp32;
    if (gguf && !llamacpp)
        c.fail("inference.weight_format", [] { return std::string("GGUF formats are served by inference.engine = llamacpp"); });
    if (llamacpp && !gguf && !dense)
        c.fail("inference.weight_format", [] { return std::string("llama.cpp loads GGUF files: use a gguf-* format, or bf16 / fp16 / fp32"); });
    const bool block_kv = inf.kv_cache_dtype == KvCacheDtype::q8_0 || inf.kv_cache_dtype == KvCacheDtype::q4_0;
    if (block_kv && !llamacpp)
        c.fail("inference.kv_cache_dtype", [] { return std::string("q8_0 and q4_0 caches are llama.cpp's (inference.engine = llamacpp)"); });
    if (inf.weight_format == WeightFormat::mxfp4 && m.num_experts <= 1)
        c.fail("inference.weight_format", [] { return std::string("mxfp4 quantises the routed experts (gpt-oss): the model has none (model.num_experts = 1)"); });
    if (llamacpp && sc.parallel.tensor * sc.parallel.pipeline > 1 && inf.gpu_layers == 0)
        c.fail("inference.gpu_layers", [] { return std::string("is 0: no layer on the GPUs, so parallel.tensor × parallel.pipeline must be 1"); });
}

// The rules of one part of a Scenario each; check_rules() runs them in order (the order of the
// messages). Flags (`*_ok`) say which fields are in range, so later rules that read them can run.
struct ModelChecks {
    bool layers_ok, hidden_ok, heads_ok, kv_ok, ffn_ok, positions_ok, experts_ok, moe_ffn_ok;
};
struct BatchChecks {
    bool micro_ok, global_ok, accum_ok;
};
struct LayoutChecks {
    bool tp_ok, pp_ok, layout_ok;
};

void check_text_fields(const Scenario& sc, Checker& c) {
    // Text fields (labels): UTF-8, at most 200 characters, nothing invisible (core/text.hpp).
    for (const auto& f : scenario_fields()) {
        if (f.kind != FieldKind::text) continue;
        std::string text = f.get_text(sc);
        if (!text_field_ok(text)) c.fail(f.path, [&] { return text_field_problem(text); });
    }
}

ModelChecks check_model(const ModelConfig& m, Checker& c) {
    bool layers_ok = c.range("model.layers", m.layers, 1, max_layers);
    bool hidden_ok = c.range("model.hidden_size", m.hidden_size, 1, max_width);
    bool heads_ok = c.range("model.num_heads", m.num_heads, 1, max_heads);
    bool head_dim_ok = c.range("model.head_dim", m.head_dim, 0, max_width);
    if (hidden_ok && heads_ok && head_dim_ok && m.head_dim == 0 && m.hidden_size % m.num_heads != 0)
        c.fail("model.hidden_size", [&] {
            return "must be divisible by model.num_heads (" + std::to_string(m.hidden_size) +
                   " is not a multiple of " + std::to_string(m.num_heads) +
                   "); or set model.head_dim";
        });
    bool kv_ok = c.range("model.num_kv_heads", m.num_kv_heads, 0, max_heads);
    if (kv_ok && heads_ok && m.num_kv_heads > 0 && m.num_heads % m.num_kv_heads != 0)
        c.fail("model.num_kv_heads", [&] {
            return "must divide model.num_heads (" + std::to_string(m.num_heads) + " heads, " +
                   std::to_string(m.num_kv_heads) + " kv heads); 0 means = num_heads";
        });
    bool ffn_ok = c.range("model.ffn_hidden_size", m.ffn_hidden_size, 0, max_width);
    c.range("model.vocab_size", m.vocab_size, 1, max_width);
    bool positions_ok = c.range("model.max_position_embeddings", m.max_position_embeddings, 1, max_seq_len);
    c.range("model.norms_per_layer", m.norms_per_layer, 1, 16);
    bool experts_ok = c.range("model.num_experts", m.num_experts, 1, max_experts);
    if (c.range("model.experts_per_token", m.experts_per_token, 1, max_experts) && experts_ok &&
        m.experts_per_token > m.num_experts)
        c.fail("model.experts_per_token", [&] {
            return "must be at most model.num_experts (" + std::to_string(m.num_experts) + ")";
        });
    bool moe_ffn_ok = c.range("model.moe_ffn_hidden_size", m.moe_ffn_hidden_size, 0, max_width);
    if (c.range("model.num_shared_experts", m.num_shared_experts, 0, max_experts) && experts_ok && m.num_experts == 1 &&
        m.num_shared_experts > 0)
        c.fail("model.num_shared_experts", [&] { return std::string("must be 0 for a dense model (model.num_experts = 1)"); });
    if (c.range("model.dense_layers", m.dense_layers, 0, max_layers) && layers_ok && experts_ok) {
        if (m.num_experts == 1 && m.dense_layers > 0)
            c.fail("model.dense_layers", [&] { return std::string("must be 0 for a dense model (model.num_experts = 1): every layer is dense"); });
        else if (m.dense_layers > m.layers)
            c.fail("model.dense_layers", [&] { return std::string("must be at most model.layers (" + std::to_string(m.layers) + ")"); });
    }
    c.zero_or_real("model.params_override", m.params_override, 1, max_params, "count from the architecture");
    check_attention_variants(m, c);
    check_hybrid_layers(m, c);
    check_expert_details(m, experts_ok, c);
    return {layers_ok, hidden_ok, heads_ok, kv_ok, ffn_ok, positions_ok, experts_ok, moe_ffn_ok};
}

BatchChecks check_training(const Scenario& sc, bool positions_ok, Checker& c) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    bool seq_ok = c.range("training.seq_len", tr.seq_len, 1, max_seq_len);
    if (seq_ok && positions_ok && tr.seq_len > longest_sequence(m))
        c.fail("training.seq_len", [&] {
            return "must be at most model.max_position_embeddings (" +
                   std::to_string(m.max_position_embeddings) + ") with learned positions";
        });
    bool micro_ok = c.range("training.micro_batch_size", tr.micro_batch_size, 1, max_batch);
    bool global_ok = c.range("training.global_batch_size", tr.global_batch_size, 0, max_batch);
    bool accum_ok = c.range("training.grad_accum_steps", tr.grad_accum_steps, 0, max_batch);
    if (global_ok && accum_ok && tr.global_batch_size == 0 && tr.grad_accum_steps == 0)
        c.fail("training.global_batch_size", [] {
            return "set global_batch_size or grad_accum_steps (both are 0)";
        });
    c.real("training.tokens", tr.tokens, 1, max_tokens);
    c.range("training.loss_chunks", tr.loss_chunks, 1, max_loss_chunks);
    c.range("training.recompute_layers", tr.recompute_layers, 0, max_layers);
    return {micro_ok, global_ok, accum_ok};
}

// Fine-tuning: LoRA rank, targets and dropout, the layers freeze trains.
void check_fine_tuning(const Scenario& sc, bool layers_ok, Checker& c) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    c.range("training.lora_rank", tr.lora_rank, 1, max_lora_rank);
    if (tr.lora_targets & lora_targets_invalid)
        c.fail("training.lora_targets", [&] { return std::string("must be attention, all_linear or a comma-separated list of q, k, v, o, gate, up, down"); });
    else if ((tr.lora_targets & lora_all_linear) == 0 || (tr.lora_targets & ~lora_all_linear) != 0)
        c.fail("training.lora_targets", [&] { return std::string("must name at least one of q, k, v, o, gate, up, down"); });
    else if (is_adapter_method(tr.method) && m.mlp == MlpKind::gelu && tr.lora_targets == lora_gate)
        c.fail("training.lora_targets", [&] { return std::string("selects no linear of this model: a GELU MLP has no gate (its linears are up and down)"); });
    if (c.real("training.lora_dropout", tr.lora_dropout, 0, 1) && tr.lora_dropout >= 1)
        c.fail("training.lora_dropout", [&] { return std::string("must be less than 1 (1 drops every adapter input)"); });
    if (c.range("training.trainable_layers", tr.trainable_layers, 0, max_layers) && layers_ok &&
        tr.trainable_layers > m.layers)
        c.fail("training.trainable_layers", [&] { return std::string("must be at most model.layers (" + std::to_string(m.layers) + "); 0 = all layers"); });
}

// FP8 linears (training.fp8): a recipe the GPU and the precision support (fp8.hpp).
void check_fp8(const Scenario& sc, Checker& c) {
    check_fp8_rules(sc, [&](const char* field, auto&& message) { c.fail(field, message); });
    if (int(sc.training.fp8) < 0 || int(sc.training.fp8) > int(Fp8Recipe::blockwise))
        c.fail("training.fp8", [] { return std::string("must be none, tensorwise, rowwise or blockwise"); });
}

// GPU counts and the tensor / pipeline splits the model's widths and layers allow.
LayoutChecks check_layout(const Scenario& sc, const ModelChecks& mc, Checker& c) {
    const auto& m = sc.model;
    const auto& par = sc.parallel;
    const bool heads_ok = mc.heads_ok, kv_ok = mc.kv_ok, ffn_ok = mc.ffn_ok, hidden_ok = mc.hidden_ok;
    const bool moe_ffn_ok = mc.moe_ffn_ok, layers_ok = mc.layers_ok;
    bool gpus_ok = c.range("parallel.num_gpus", par.num_gpus, 1, max_gpus);
    bool tp_ok = c.range("parallel.tensor", par.tensor, 1, max_gpus);
    bool pp_ok = c.range("parallel.pipeline", par.pipeline, 1, max_gpus);
    bool cp_ok = c.range("parallel.context", par.context, 1, max_gpus);
    c.range("parallel.shard_group", par.shard_group, 0, max_gpus);
    bool layout_ok = gpus_ok && tp_ok && pp_ok && cp_ok;
    // Serving uses t·p GPUs per replica; num_gpus, data parallelism and batches are training's.
    const bool training = sc.workload == Workload::training;
    // t·p·cp may exceed an int64 when each is at its bound: compared in doubles first.
    const bool model_parallel_fits = double(par.tensor) * double(par.pipeline) * double(par.context) <= double(max_gpus);
    if (training && layout_ok && (!model_parallel_fits || par.num_gpus % (par.tensor * par.pipeline * par.context) != 0)) {
        c.fail("parallel.num_gpus", [&] {
            if (par.context > 1)
                return "must be divisible by tensor × pipeline × context (" + std::to_string(par.tensor) + " × " +
                       std::to_string(par.pipeline) + " × " + std::to_string(par.context) + " = " +
                       Checker::compact(double(par.tensor) * double(par.pipeline) * double(par.context)) + ")";
            return "must be divisible by tensor × pipeline (" + std::to_string(par.tensor) + " × " +
                   std::to_string(par.pipeline) + " = " +
                   std::to_string(par.tensor * par.pipeline) + ")";
        });
        layout_ok = false;
    }
    if (layout_ok) check_context_parallel_rules(sc, [&](const char* field, auto&& message) { c.fail(field, message); });
    // Megatron-LM arguments.py: "Tensor parallel communication/GEMM overlap can happen only when
    // sequence parallelism is enabled" (and sequence parallelism is turned off without TP).
    if (training && par.tp_comm_overlap && tp_ok && (par.tensor <= 1 || !par.sequence_parallel))
        c.fail("parallel.tp_comm_overlap", [] {
            return std::string("needs parallel.tensor > 1 and parallel.sequence_parallel (Megatron overlaps the sequence-parallel collectives)");
        });
    if (tp_ok && heads_ok && m.num_heads % par.tensor != 0)
        c.fail("parallel.tensor", [&] {
            return "must divide model.num_heads (" + std::to_string(m.num_heads) + ")";
        });
    std::int64_t kv_heads = m.num_kv_heads > 0 ? m.num_kv_heads : m.num_heads;
    // Serving engines replicate KV heads when t > g (vLLM QKVParallelLinear): t must divide g or be a multiple of it.
    auto kv_split_ok = [&] { return kv_heads % par.tensor == 0 || (!training && par.tensor % kv_heads == 0); };
    if (tp_ok && kv_ok && m.num_kv_heads > 0 && !kv_split_ok())
        c.fail("parallel.tensor", [&] {
            return training ? "must divide model.num_kv_heads (" + std::to_string(kv_heads) + ")"
                            : "must divide model.num_kv_heads (" + std::to_string(kv_heads) + ") or be a multiple of it";
        });
    if (tp_ok && m.full_attention_interval > 0 && m.linear_attention == LinearAttention::gated_deltanet &&
        m.linear_num_key_heads > 0 && m.linear_num_key_heads % par.tensor != 0)
        c.fail("parallel.tensor", [&] { return std::string("must divide model.linear_num_key_heads (" + std::to_string(m.linear_num_key_heads) + ")"); });
    std::int64_t ffn = m.ffn_hidden_size > 0 ? m.ffn_hidden_size : 4 * m.hidden_size;
    if (tp_ok && ffn_ok && hidden_ok && ffn % par.tensor != 0)
        c.fail("parallel.tensor", [&] {
            return "must divide model.ffn_hidden_size (" + std::to_string(ffn) + ")";
        });
    if (tp_ok && moe_ffn_ok && m.moe_ffn_hidden_size > 0 && m.moe_ffn_hidden_size % par.tensor != 0)
        c.fail("parallel.tensor", [&] { return std::string("must divide model.moe_ffn_hidden_size (" + std::to_string(m.moe_ffn_hidden_size) + ")"); });
    if (pp_ok && layers_ok && par.pipeline > m.layers)
        c.fail("parallel.pipeline", [&] {
            return "must be at most model.layers (" + std::to_string(m.layers) + ")";
        });
    return {tp_ok, pp_ok, layout_ok};
}

// ZeRO stage, optimizer offload and interleaved pipeline chunks.
void check_zero_and_interleave(const Scenario& sc, bool pp_ok, bool layers_ok, Checker& c) {
    const auto& m = sc.model;
    const auto& par = sc.parallel;
    // DeepSpeed offloads optimizer states only with ZeRO stages 1-3 (deepspeed/runtime/zero/config.py,
    // offload_optimizer: "Valid for ZeRO stage 1, 2, 3"); stage 0 has no partitioned optimizer to offload.
    const bool stage_ok = c.range("parallel.zero_stage", par.zero_stage, 0, 3);
    if (stage_ok && par.offload_optimizer && par.zero_stage == 0)
        c.fail("parallel.offload_optimizer", [] {
            return std::string("needs parallel.zero_stage 1, 2 or 3 (DeepSpeed offloads optimizer states only with ZeRO; stage is 0)");
        });
    // DeepSpeed offloads parameters only with ZeRO-3 (deepspeed/runtime/zero/offload_config.py,
    // DeepSpeedZeroOffloadParamConfig: "Valid only with stage 3"): only sharded parameters move.
    if (stage_ok && par.offload_params && par.zero_stage != 3)
        c.fail("parallel.offload_params", [&] {
            return "needs parallel.zero_stage 3 (DeepSpeed offloads parameters only with ZeRO-3; stage is " +
                   std::to_string(par.zero_stage) + ")";
        });
    c.real("parallel.zero3_live_params", par.zero3_live_params, 0, max_params);
    // Interleaved 1F1B: each GPU runs v chunks of L/(p·v) layers. [Narayanan et al. 2021 §2.2.2, arXiv 2104.04473]
    if (c.range("parallel.interleave", par.interleave, 1, max_layers) && par.interleave > 1 && pp_ok && layers_ok) {
        if (par.pipeline == 1)
            c.fail("parallel.interleave",
                   [] { return "must be 1 without pipeline parallelism (parallel.pipeline is 1)"; });
        else if (m.layers % (par.pipeline * par.interleave) != 0)
            c.fail("parallel.interleave", [&] {
                return "must divide model.layers / parallel.pipeline (" + std::to_string(m.layers) + " layers / " +
                       std::to_string(par.pipeline) + " stages = " +
                       Checker::compact(double(m.layers) / double(par.pipeline)) + " layers per stage, not a multiple of " +
                       std::to_string(par.interleave) + ")";
            });
    }
}

// Expert parallelism and the batch the data-parallel ranks make (training).
void check_experts_and_batch(const Scenario& sc, bool experts_ok, bool layout_ok, const BatchChecks& bc, Checker& c) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const auto& par = sc.parallel;
    const bool training = sc.workload == Workload::training;
    const bool micro_ok = bc.micro_ok, global_ok = bc.global_ok, accum_ok = bc.accum_ok;
    bool ep_ok = c.range("parallel.expert", par.expert, 1, max_experts);
    if (ep_ok && experts_ok && m.num_experts % par.expert != 0)
        c.fail("parallel.expert", [&] {
            return "must divide model.num_experts (" + std::to_string(m.num_experts) + ")";
        });
    if (training && ep_ok && layout_ok) {
        std::int64_t dp = par.num_gpus / (par.tensor * par.pipeline * par.context);
        if (dp % par.expert != 0)
            c.fail("parallel.expert", [&] {
                return "must divide the data-parallel degree num_gpus / (tensor × pipeline × context) = " +
                       std::to_string(dp);
            });
        // Sequences per step of all data-parallel ranks: at most 10^9 · 10^8, exact in an int64 once
        // micro_batch_size is in range (every use below needs micro_ok; an out-of-range value would overflow).
        const std::int64_t per_step = micro_ok ? tr.micro_batch_size * dp : 0;
        if (micro_ok && accum_ok && tr.global_batch_size == 0 && tr.grad_accum_steps > 0 &&
            double(tr.grad_accum_steps) * double(per_step) > double(max_batch))  // the product may not fit an int64
            c.fail("training.grad_accum_steps", [&] {
                return "gives a global batch of micro_batch_size × data-parallel degree × grad_accum_steps = " +
                       std::to_string(tr.micro_batch_size) + " × " + std::to_string(dp) + " × " +
                       std::to_string(tr.grad_accum_steps) + " sequences, more than " + std::to_string(max_batch);
            });
        if (micro_ok && global_ok && accum_ok && tr.global_batch_size > 0) {
            if (tr.global_batch_size % per_step != 0)
                c.fail("training.global_batch_size", [&] {
                    return "must be a multiple of micro_batch_size × data-parallel degree (" +
                           std::to_string(tr.micro_batch_size) + " × " + std::to_string(dp) + " = " +
                           std::to_string(per_step) + ")";
                });
            else if (tr.grad_accum_steps > 0 && tr.global_batch_size / per_step != tr.grad_accum_steps)
                c.fail("training.grad_accum_steps", [&] {
                    return "disagrees with global_batch_size: " + std::to_string(tr.global_batch_size) + " / (" +
                           std::to_string(tr.micro_batch_size) + " × " + std::to_string(dp) + ") = " +
                           std::to_string(tr.global_batch_size / per_step);
                });
        }
    }
}

void check_hardware(const Scenario& sc, Checker& c) {
    const auto& hw = sc.hardware;
    const bool training = sc.workload == Workload::training;
    bool memory_ok = c.real("hardware.memory_gib", hw.memory_gib, 0, 1e6, false);
    bool peak_ok = c.real("hardware.peak_tflops", hw.peak_tflops, min_tflops, 1e7);
    bool achieved_ok = c.zero_or_real("hardware.achieved_tflops", hw.achieved_tflops, min_tflops, 1e7, "use mfu");
    bool mfu_ok = c.zero_or_real("hardware.mfu", hw.mfu, min_mfu, 1, "use achieved_tflops");
    if (training && achieved_ok && mfu_ok && hw.throughput_model == ThroughputModel::fixed && !(hw.achieved_tflops > 0) &&
        !(hw.mfu > 0))
        c.fail("hardware.achieved_tflops", [] {
            return "set achieved_tflops or mfu (both are 0), or hardware.throughput_model = predicted";
        });
    if (achieved_ok && peak_ok && hw.achieved_tflops > hw.peak_tflops)
        c.fail("hardware.achieved_tflops", [&] {
            return "must not exceed hardware.peak_tflops (" +
                   Checker::compact(hw.peak_tflops) + ")";
        });
    c.real("hardware.price_per_gpu_hour", hw.price_per_gpu_hour, 0, 1e6);
    if (c.real("hardware.reserved_gib", hw.reserved_gib, 0, 1e6) && memory_ok && hw.reserved_gib >= hw.memory_gib)
        c.fail("hardware.reserved_gib", [] {
            return "must be less than hardware.memory_gib";
        });
    c.real("hardware.cuda_context_gib", hw.cuda_context_gib, 0, 1e6);
    c.real("hardware.allocator_overhead", hw.allocator_overhead, 0, 10);
    if (hw.throughput_model != ThroughputModel::fixed && hw.throughput_model != ThroughputModel::predicted)
        c.fail("hardware.throughput_model", [] { return "must be fixed or predicted"; });
    c.range("hardware.gpus_per_node", hw.gpus_per_node, 1, max_gpus);
    c.real("hardware.intra_node_gbps", hw.intra_node_gbps, min_gbps, 1e7);
    c.real("hardware.inter_node_gbps", hw.inter_node_gbps, min_gbps, 1e7);
    c.real("hardware.memory_bandwidth_gbps", hw.memory_bandwidth_gbps, min_gbps, 1e7);
}

void check_rules(const Scenario& sc, Checker& c) {
    check_text_fields(sc, c);
    const ModelChecks mc = check_model(sc.model, c);
    const BatchChecks bc = check_training(sc, mc.positions_ok, c);
    check_fine_tuning(sc, mc.layers_ok, c);
    const LayoutChecks lc = check_layout(sc, mc, c);
    check_fp8(sc, c);
    check_zero_and_interleave(sc, lc.pp_ok, mc.layers_ok, c);
    check_experts_and_batch(sc, mc.experts_ok, lc.layout_ok, bc, c);
    check_hardware(sc, c);
    check_inference(sc, c);
}

}  // namespace

bool layout_inputs_in_range(const Scenario& sc) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const auto& par = sc.parallel;
    auto in = [](std::int64_t v, std::int64_t lo, std::int64_t hi) { return v >= lo && v <= hi; };
    bool model_ok = in(m.layers, 1, max_layers) && in(m.hidden_size, 1, max_width) && in(m.num_heads, 1, max_heads) &&
                    in(m.num_kv_heads, 0, max_heads) && in(m.head_dim, 0, max_width) &&
                    in(m.ffn_hidden_size, 0, max_width) && in(m.moe_ffn_hidden_size, 0, max_width);
    bool layout_ok = in(par.num_gpus, 1, max_gpus) && in(par.tensor, 1, max_gpus) && in(par.pipeline, 1, max_gpus) &&
                     in(par.expert, 1, max_experts) && in(par.context, 1, max_gpus);
    bool batch_ok = in(tr.micro_batch_size, 1, max_batch) && in(tr.global_batch_size, 0, max_batch) &&
                    in(tr.grad_accum_steps, 0, max_batch);
    if (!model_ok || !layout_ok || !batch_ok) return false;
    if (tr.global_batch_size > 0) return true;
    // resolve_layout(): accumulation × micro-batch × DP, DP = N / (t·p·cp) (at least 1), in doubles.
    double dp = std::max(1.0, std::floor(double(par.num_gpus) / (double(par.tensor) * double(par.pipeline) * double(par.context))));
    return double(std::max<std::int64_t>(1, tr.grad_accum_steps)) * double(tr.micro_batch_size) * dp <= double(max_batch);
}

std::vector<ValidationIssue> validate(const Scenario& sc) {
    Checker c;
    check_rules(sc, c);
    return std::move(c.issues);
}

bool is_valid(const Scenario& sc) {
    Checker c;
    c.collect = false;
    check_rules(sc, c);
    return c.ok;
}

}  // namespace vramcalc
