#include "estimate.hpp"
#include "core/model/presets.hpp"

#include <algorithm>
#include <cmath>

#include "core/training/finetune.hpp"
#include "core/formulas.hpp"
#include "outputs.hpp"

namespace vramcalc {
namespace f = formulas;

namespace {

double ceil_div(std::int64_t a, std::int64_t b) { return double((a + b - 1) / b); }

// One softmax-attention layer's attention: MLA when kv_lora_rank > 0, else Q/K/V/O with GQA; plus
// q/k norms, sinks and an output gate.
double softmax_attention_params(const ModelConfig& m, const Layout& r) {
    double core = m.kv_lora_rank > 0 ? f::mla_attention_params(m, m.v_head_dim > 0 ? m.v_head_dim : r.head_dim)
                                     : f::attention_params(m, r.kv_heads, r.head_dim);
    return core + f::attention_extra_params(m, r.head_dim);
}

// The token mixers of all L layers: n_softmax attention layers and L − n_softmax linear ones.
double token_mixer_params(const ModelConfig& m, const Layout& r) {
    double linear_layers = double(f::linear_layer_count(m));
    double linear = m.linear_attention == LinearAttention::mamba ? f::mamba_params(m) : f::gated_deltanet_params(m);
    double softmax = (double(m.layers) - linear_layers) * softmax_attention_params(m, r);
    return softmax + (linear_layers > 0 ? linear_layers * linear : 0.0);
}

ParameterCounts count_parameters(const ModelConfig& m, const Layout& r) {
    ParameterCounts c;
    const bool moe = m.num_experts > 1;
    const double layers = double(m.layers), experts = double(m.num_experts);
    // Attention (or linear mixer) and norms, summed over the stack; per_layer holds its mean (exact
    // when every layer has the same mixer).
    const double mixers = token_mixer_params(m, r);
    const double norms = double(m.norms_per_layer) * f::norm_params(m);
    const double mixer_mean = f::linear_layer_count(m) > 0 ? mixers / layers : softmax_attention_params(m, r);
    const double attention_norms = mixer_mean + norms;
    // MoE layers: router, S shared experts (DeepSeekMoE stores them as one MLP of width S·f_e, same
    // count) and E routed experts of width f_e; the first `dense_layers` layers have a dense MLP of
    // width f. [DeepSeekMoE, Dai et al. 2024, arXiv:2401.06066 §3]
    double expert_mlp = f::mlp_params(m, moe ? r.moe_ffn_hidden_size : r.ffn_hidden_size);
    double shared_mlp = moe && m.num_shared_experts > 0 ? f::mlp_params(m, m.num_shared_experts * r.moe_ffn_hidden_size) : 0.0;
    double moe_shared = f::router_params(m) + shared_mlp;
    c.embedding = f::embedding_params(m);
    c.expert_per_layer = moe ? experts * expert_mlp : 0.0;
    c.per_layer = attention_norms + moe_shared + experts * expert_mlp;
    c.per_layer_active = attention_norms + moe_shared + double(m.experts_per_token) * expert_mlp;
    c.dense_layers = moe ? double(std::min(m.dense_layers, m.layers)) : 0.0;
    double dense_mlp = f::mlp_params(m, r.ffn_hidden_size);
    c.per_dense_layer = moe ? attention_norms + dense_mlp : c.per_layer;
    double moe_layers = layers - c.dense_layers;
    // Summed, not per_layer × L, so that a hybrid stack's total stays exact.
    c.layers = mixers + layers * norms + moe_layers * (moe_shared + experts * expert_mlp) + c.dense_layers * dense_mlp;
    c.final_norm = f::norm_params(m);
    c.lm_head = m.tied_embeddings ? 0.0 : double(m.vocab_size) * double(m.hidden_size);
    c.total = c.embedding + c.layers + c.final_norm + c.lm_head;
    c.active = c.total - moe_layers * (experts - double(m.experts_per_token)) * expert_mlp;
    if (m.params_override > 0) {
        // A given count replaces the architecture's; active scales in the same proportion.
        double ratio = c.active / c.total;
        c.total = m.params_override;
        c.active = m.params_override * ratio;
        c.overridden = true;
    }
    return c;
}

ComputeEstimate compute_cost(const Scenario& sc, const Layout& r, const ParameterCounts& params) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    ComputeEstimate c;
    double tokens = tr.tokens;
    double attention_fwd = f::attention_forward_flops_per_token(m, tr.seq_len);
    // Layers whose activations are kept (and recomputed): the trained ones under freeze.
    double trained_fraction = params.trained_layers / double(m.layers);
    if (tr.method == TrainingMethod::full) {
        double dense = f::dense_flops_per_token(params.active);
        double attention_train = tr.attention_flops ? 3.0 * attention_fwd : 0.0;
        c.flops_per_token = dense + attention_train;
        c.model_flops = c.flops_per_token * tokens;
        c.forward_flops = c.model_flops / 3.0;  // forward is 1/3 of forward + backward (2PD of 6PD)
    } else {
        // Fine-tuning: forward 2·(P + P_adapter) over every weight; backward 2·P_through for the
        // activation gradients of every layer a gradient reaches and 2·P_trainable for weight
        // gradients of the trainable parameters only (frozen ones get none). [TM101; LORA §4.2]
        double layers_frozen = double(m.layers) - params.trained_layers;
        double through = params.active + params.adapter_active - layers_frozen * params.per_layer_active;
        double trained_weights = is_adapter_method(tr.method) ? params.adapter_active
                                                              : params.trained_layers * params.per_layer_active;
        double forward = 2.0 * (params.active + params.adapter_active) + (tr.attention_flops ? attention_fwd : 0.0);
        double backward = 2.0 * through + 2.0 * trained_weights +
                          (tr.attention_flops ? 2.0 * attention_fwd * trained_fraction : 0.0);
        c.flops_per_token = forward + backward;
        c.model_flops = c.flops_per_token * tokens;
        c.forward_flops = forward * tokens;
    }
    c.backward_flops = c.model_flops - c.forward_flops;
    // With recompute_layers = k only k of the ceil(L/p) layers of a stage are recomputed.
    double stage_layers = ceil_div(m.layers, sc.parallel.pipeline);
    double recomputed_fraction =
        tr.recompute_layers > 0 ? std::min(double(tr.recompute_layers), stage_layers) / stage_layers : 1.0;
    switch (tr.recompute) {
        case Recompute::none: c.recompute_flops = 0; break;
        // Full: one more forward pass, C_forward ≤ 4PD. [TM101]
        case Recompute::full:
            c.recompute_flops = (c.forward_flops + (tr.attention_flops ? 0.0 : attention_fwd * tokens)) * recomputed_fraction;
            break;
        // Selective: the attention core (QKᵀ, softmax, ·V) forward again. [MEGA-ACT §5]
        case Recompute::selective: c.recompute_flops = attention_fwd * tokens; break;
        // Op-level: every second matmul forward again (K, O, up for Llama-family layers; O and
        // fc2 with fused QKV), 2 FLOPs per multiply-add; attention outputs are kept.
        case Recompute::ops: {
            double h = double(m.hidden_size), q = double(m.num_heads) * double(r.head_dim);
            double kv = double(r.kv_heads) * double(r.head_dim);
            double ffn = double(m.num_experts > 1 ? r.moe_ffn_hidden_size : r.ffn_hidden_size);
            double k = double(m.experts_per_token + (m.num_experts > 1 ? m.num_shared_experts : 0));
            double per_token_layer = m.norm == NormKind::rmsnorm ? 2.0 * (h * kv + q * h + (m.mlp == MlpKind::swiglu ? h * ffn * k : 0.0))
                                                                 : 2.0 * (q * h + ffn * h * k);
            c.recompute_flops = per_token_layer * double(m.layers) * tokens * recomputed_fraction;
            break;
        }
    }
    // Frozen layers below the first trained one build no autograd graph: nothing to recompute.
    if (tr.method == TrainingMethod::freeze) c.recompute_flops *= trained_fraction;
    c.total_flops = c.model_flops + c.recompute_flops;
    c.cluster_flops_per_second = double(sc.parallel.num_gpus) * r.achieved_flops_per_gpu;
    // T = C / tau. An achieved rate counts executed FLOPs (incl. recomputation); an MFU counts
    // model FLOPs only (Chowdhery et al. 2022, App. B). [TM101]
    bool from_mfu = !(sc.hardware.achieved_tflops > 0);
    double counted = from_mfu ? c.model_flops : c.total_flops;
    c.seconds = counted / c.cluster_flops_per_second;
    c.days = c.seconds / 86400.0;
    c.gpu_hours = c.seconds * double(sc.parallel.num_gpus) / 3600.0;
    c.tflop_hours = c.total_flops / f::flops_per_tflop_hour;
    c.pflop_days = c.total_flops / f::flops_per_pflop_day;
    c.cost = c.gpu_hours * sc.hardware.price_per_gpu_hour;
    c.chinchilla_tokens = f::chinchilla_tokens_per_param * params.total;
    return c;
}

bool is_a100_class(const HardwareConfig& hw) {
    return hw.gpu.rfind("A100", 0) == 0 || std::fabs(hw.peak_tflops - 312.0) < 1.0;
}

}  // namespace

Layout resolve_layout(const Scenario& sc) {
    Layout r{};
    r.kv_heads = sc.model.num_kv_heads > 0 ? sc.model.num_kv_heads : sc.model.num_heads;
    r.head_dim = sc.model.head_dim > 0 ? sc.model.head_dim : sc.model.hidden_size / std::max<std::int64_t>(1, sc.model.num_heads);
    r.ffn_hidden_size = sc.model.ffn_hidden_size > 0 ? sc.model.ffn_hidden_size : 4 * sc.model.hidden_size;
    r.moe_ffn_hidden_size = sc.model.moe_ffn_hidden_size > 0 ? sc.model.moe_ffn_hidden_size : r.ffn_hidden_size;
    // Context parallelism splits each sequence over cp GPUs: N = t·p·cp·DP (Megatron parallel_state.py).
    // (In doubles: t·p·cp of unvalidated input may exceed an int64; DP is at most num_gpus.)
    const double model_parallel = std::max(1.0, double(sc.parallel.tensor) * double(sc.parallel.pipeline) *
                                                    double(std::max<std::int64_t>(1, sc.parallel.context)));
    r.data_parallel = std::max<std::int64_t>(1, std::int64_t(std::floor(double(sc.parallel.num_gpus) / model_parallel)));
    std::int64_t per_step = std::max<std::int64_t>(1, sc.training.micro_batch_size * r.data_parallel);
    if (sc.training.global_batch_size > 0) {
        r.global_batch_size = sc.training.global_batch_size;
        r.grad_accum_steps = std::max<std::int64_t>(1, sc.training.global_batch_size / per_step);
    } else {
        r.grad_accum_steps = std::max<std::int64_t>(1, sc.training.grad_accum_steps);
        r.global_batch_size = r.grad_accum_steps * per_step;
    }
    const auto& hw = sc.hardware;
    r.achieved_flops_per_gpu = (hw.achieved_tflops > 0 ? hw.achieved_tflops : hw.peak_tflops * hw.mfu) * 1e12;
    return r;
}

ParameterCounts count_model_parameters(const ModelConfig& model, const Layout& layout) {
    return count_parameters(model, layout);
}

namespace {

// Serving (docs/serving.md): the shared rows of the estimate come from the serving estimate.
Estimate estimate_serving(const Scenario& sc) {
    Estimate e;
    e.workload = Workload::inference;
    e.layout = resolve_layout(sc);
    e.parameters = count_parameters(sc.model, e.layout);
    e.parameters.trainable = 0;
    e.params_per_gpu = e.parameters.total / double(sc.parallel.tensor * sc.parallel.pipeline);
    e.inference = estimate_inference(sc, e.layout, e.parameters);
    const auto& m = e.inference.memory;
    auto& mem = e.memory_per_gpu_bytes;
    mem.weights = m.weights;
    mem.kv_cache = m.kv_cache;
    mem.activations = m.activations;
    mem.overhead = m.overhead;
    mem.total = m.total;
    mem.peak_allocated = m.weights + m.kv_cache + m.activations;
    mem.peak_reserved = mem.peak_allocated;
    e.host_memory_bytes.per_gpu = e.inference.host_bytes;
    e.host_memory_bytes.total = e.inference.host_bytes;
    e.capacity_bytes = sc.hardware.memory_gib * bytes_per_gib;
    e.headroom_bytes = e.inference.kv_pool_bytes - m.kv_cache;
    e.fits = e.inference.fits;
    if (!e.inference.starts) e.warnings.add(Warning::engine_does_not_start);
    if (!e.fits) e.warnings.add(Warning::does_not_fit);
    return e;
}

}  // namespace

Estimate estimate(const Scenario& sc) {
    if (sc.workload == Workload::inference) {
        Estimate served = estimate_serving(sc);
        served.error_regime = error_regime_of(sc, served);
        return served;
    }
    Estimate e;
    const auto& par = sc.parallel;
    const auto& tr = sc.training;
    e.layout = resolve_layout(sc);
    const auto& r = e.layout;
    e.parameters = count_parameters(sc.model, r);
    count_fine_tuning(sc, r, e.parameters);
    e.scenario_method = tr.method;
    const auto& P = e.parameters;

    e.bytes_per_parameter.weights = f::weight_bytes_per_param(tr.precision);
    e.bytes_per_parameter.gradients = f::gradient_bytes_per_param(tr.precision, tr.grad_dtype);
    e.bytes_per_parameter.optimizer = f::optimizer_bytes_per_param(tr.precision, tr.optimizer);

    estimate_memory(sc, e);

    e.compute = compute_cost(sc, r, P);
    bool predicted = sc.hardware.throughput_model == ThroughputModel::predicted;
    predict_performance(sc, e, throughput_constants(predicted ? gpu_family(sc.hardware.gpu) : GpuFamily::generic));

    auto& w = e.warnings;
    // Token-count advice is about pre-training; fine-tuning runs use few tokens by design.
    if (tr.method == TrainingMethod::full) {
        if (tr.tokens < f::min_recommended_tokens) w.add(Warning::few_tokens);
        if (tr.tokens < e.compute.chinchilla_tokens) w.add(Warning::below_chinchilla);
    }
    double achieved = e.performance.predicted ? e.performance.achieved_tflops_per_gpu * 1e12 : r.achieved_flops_per_gpu;
    if (is_a100_class(sc.hardware) && achieved < f::a100_min_healthy_tflops * 1e12) w.add(Warning::low_throughput);
    if (e.performance.predicted && !e.performance.calibrated) w.add(Warning::throughput_uncalibrated);
    const int stage = par.zero_stage;
    if (par.pipeline > 1 && stage >= 2) w.add(Warning::pipeline_with_zero23);
    if (!e.fits) w.add(Warning::does_not_fit);
    if (stage > 0 && r.data_parallel == 1) w.add(Warning::zero_without_data_parallel);
    if (par.sequence_parallel && par.tensor == 1) w.add(Warning::sequence_parallel_without_tp);
    if (par.partition_activations && par.tensor == 1) w.add(Warning::partition_activations_without_tp);
    if (sc.model.layers % par.pipeline != 0) w.add(Warning::uneven_pipeline_stages);
    if (par.pipeline > 1 && r.grad_accum_steps < par.pipeline) w.add(Warning::pipeline_bubble_large);
    if (stage >= 3 && par.zero3_live_params <= 0) w.add(Warning::zero3_live_params_not_counted);
    if (tr.seq_len > sc.model.max_position_embeddings) w.add(Warning::sequence_beyond_positions);
    e.error_regime = error_regime_of(sc, e);
    return e;
}

const char* warning_id(Warning w) {
    switch (w) {
        case Warning::few_tokens: return "few_tokens";
        case Warning::below_chinchilla: return "below_chinchilla";
        case Warning::low_throughput: return "low_throughput";
        case Warning::pipeline_with_zero23: return "pipeline_with_zero23";
        case Warning::does_not_fit: return "does_not_fit";
        case Warning::zero_without_data_parallel: return "zero_without_data_parallel";
        case Warning::sequence_parallel_without_tp: return "sequence_parallel_without_tp";
        case Warning::partition_activations_without_tp: return "partition_activations_without_tp";
        case Warning::uneven_pipeline_stages: return "uneven_pipeline_stages";
        case Warning::pipeline_bubble_large: return "pipeline_bubble_large";
        case Warning::zero3_live_params_not_counted: return "zero3_live_params_not_counted";
        case Warning::throughput_uncalibrated: return "throughput_uncalibrated";
        case Warning::sequence_beyond_positions: return "sequence_beyond_positions";
        case Warning::engine_does_not_start: return "engine_does_not_start";
    }
    return "unknown";
}

const char* warning_message(Warning w) {
    switch (w) {
        case Warning::few_tokens:
            return "Fewer than 200B training tokens: EleutherAI advises against training an LLM on fewer (Transformer Math 101).";
        case Warning::below_chinchilla:
            return "Fewer tokens than the Chinchilla compute-optimal D = 20·P (Hoffmann et al. 2022).";
        case Warning::low_throughput:
            return "Achieved throughput below 115 TFLOP/s per A100: the model or hardware setup is likely misconfigured (Transformer Math 101 expects ~120+).";
        case Warning::pipeline_with_zero23:
            return "Pipeline parallelism with ZeRO-2/3 is disallowed by DeepSpeed (gradient sharding conflicts with pipeline gradient accumulation).";
        case Warning::does_not_fit:
            return "Does not fit: the per-GPU total exceeds the GPU's memory.";
        case Warning::zero_without_data_parallel:
            return "ZeRO shards over the data-parallel degree, which is 1 here: nothing is sharded.";
        case Warning::sequence_parallel_without_tp:
            return "Sequence parallelism needs tensor parallelism (t > 1): it has no effect at t = 1.";
        case Warning::partition_activations_without_tp:
            return "ZeRO-R partition_activations divides activations by t, which is 1: no effect.";
        case Warning::uneven_pipeline_stages:
            return "Layers are not divisible by the pipeline degree: the busiest stage holds ceil(L/p) layers.";
        case Warning::pipeline_bubble_large:
            return "Fewer micro-batches per step than pipeline stages: the pipeline bubble dominates step time.";
        case Warning::zero3_live_params_not_counted:
            return "ZeRO-3 live parameters are not counted (zero3_live_params = 0); set DeepSpeed's stage3_max_live_parameters (its default is 1e9) to include them.";
        case Warning::throughput_uncalibrated:
            return "Predicted throughput for a GPU without published measured runs: it uses efficiency curves measured on an H200, uncalibrated for this GPU (docs/accuracy.md).";
        case Warning::sequence_beyond_positions:
            return "Sequence longer than the model's max_position_embeddings: it was trained on shorter contexts; beyond them RoPE "
                   "needs position scaling (e.g. YaRN, arXiv:2309.00071) or quality drops. Memory is estimated as set.";
        case Warning::engine_does_not_start:
            return "The engine would not start: after the weights, activations and overheads its KV pool cannot hold one sequence of inference.context_len (vLLM: \"max_model_len … is larger than the maximum number of tokens that can be stored in KV cache\").";
    }
    return "";
}

Evaluation evaluate(const Scenario& scenario) {
    Evaluation result;
    result.errors = validate(scenario);
    if (!result.errors.empty()) return result;
    result.estimate = estimate(scenario);
    // A last guard: the rules keep every output finite (the fuzz targets check it on every input
    // they make); should one not be, the input is rejected instead of showing "inf" or "—".
    for (const auto& o : outputs()) {
        if (std::isfinite(o.value(result.estimate))) continue;
        result.errors.push_back({"scenario", std::string("gives a non-finite ") + o.label + " (" + o.path +
                                                 "): some input is outside the range the estimate covers"});
        break;
    }
    return result;
}

}  // namespace vramcalc
