#include "outputs.hpp"

#include "error_band_outputs.hpp"

namespace vramcalc {
namespace {

#define VRC_GET(expr) [](const Estimate& e) -> double { return double(expr); }
#define VRC_NOTE(text) [](const Estimate&) -> const char* { return text; }

using S = OutputSection;
using U = Unit;
using V = ValueKind;

constexpr unsigned row = show_report;
constexpr unsigned memory_row = show_report | show_markdown | show_share;
constexpr unsigned headline = show_report | show_markdown | show_tile | show_summary;

const OutputSpec output_table[] = {
    // ── parameters ──
    {"parameters.total", "Parameters", "Total", U::parameters, V::number, S::parameters, headline, "parameters.total",
     "All parameters (with every expert of an MoE).", VRC_GET(e.parameters.total),
     [](const Estimate& e) -> const char* {
         return e.parameters.active < e.parameters.total ? "{parameters.active} active per token"
                                                         : "{parameters.per_layer} per layer";
     }, nullptr, for_both},
    {"parameters.active", "Active parameters", "Active", U::parameters, V::number, S::parameters, show_none, nullptr,
     "Parameters one token passes through (MoE: k of E experts).", VRC_GET(e.parameters.active), nullptr, nullptr, for_both},
    {"parameters.embedding", "Embedding parameters", "Embedding", U::parameters, V::number, S::parameters, show_none,
     nullptr, "Token embedding V·h (+ learned positions).", VRC_GET(e.parameters.embedding), nullptr, nullptr, for_both},
    {"parameters.per_layer", "Parameters per layer", "Per layer", U::parameters, V::number, S::parameters, show_none,
     nullptr, "One transformer layer, all experts.", VRC_GET(e.parameters.per_layer), nullptr, nullptr, for_both},
    {"parameters.per_layer_active", "Active parameters per layer", "Active per layer", U::parameters, V::number,
     S::parameters, show_none, nullptr, "One transformer layer, the experts a token uses.",
     VRC_GET(e.parameters.per_layer_active), nullptr, nullptr, for_both},
    {"parameters.layers", "Parameters of all layers", "Layers", U::parameters, V::number, S::parameters, show_none,
     nullptr, "L · per_layer.", VRC_GET(e.parameters.layers), nullptr, nullptr, for_both},
    {"parameters.final_norm", "Final-norm parameters", "Final norm", U::parameters, V::number, S::parameters, show_none,
     nullptr, "The final norm's weight (and bias).", VRC_GET(e.parameters.final_norm), nullptr, nullptr, for_both},
    {"parameters.lm_head", "LM-head parameters", "LM head", U::parameters, V::number, S::parameters, show_none, nullptr,
     "V·h when embeddings are untied, else 0.", VRC_GET(e.parameters.lm_head), nullptr, nullptr, for_both},
    {"parameters.trainable", "Trainable parameters", "Trainable", U::parameters, V::number, S::parameters,
     show_report | show_markdown | show_summary, "parameters.trainable",
     "Parameters that get gradients and optimizer states: all of them in full training, the LoRA adapters, or "
     "the last `training.trainable_layers` layers (freeze).",
     VRC_GET(e.parameters.trainable),
     [](const Estimate& e) -> const char* {
         switch (e.scenario_method) {
             case TrainingMethod::full: return "every parameter";
             case TrainingMethod::lora: return "LoRA adapters on a frozen 16-bit model";
             case TrainingMethod::qlora: return "LoRA adapters on a quantised model ({parameters.quantized} quantised)";
             case TrainingMethod::freeze: return "the last {parameters.trained_layers} layers";
         }
         return "";
     }},
    {"parameters.adapter", "LoRA adapter parameters", "Adapters", U::parameters, V::number, S::parameters, show_none,
     "parameters.trainable", "r·(d_in + d_out) per adapted linear per layer, added to the model (PEFT's all params = total + adapter).",
     VRC_GET(e.parameters.adapter)},
    {"parameters.trained_layers", "Trained layers", "Trained layers", U::count, V::number, S::parameters, show_none,
     nullptr, "Layers a gradient reaches: every layer, or the last `training.trainable_layers` (freeze).",
     VRC_GET(e.parameters.trained_layers)},
    {"parameters.quantized", "Quantised base parameters", "Quantised", U::parameters, V::number, S::parameters,
     show_none, "model_states_bytes.frozen_weights", "QLoRA: the layers' linear weights stored in `training.base_weight_format`.",
     VRC_GET(e.parameters.quantized)},
    {"parameters.overridden", "Parameter count overridden", "Overridden", U::flag, V::flag, S::parameters, show_none,
     nullptr, "`model.params_override` replaced the architecture's count.", VRC_GET(e.parameters.overridden), nullptr, nullptr, for_both},

    // ── layout ──
    {"layout.data_parallel", "Data-parallel degree", "Data parallel (DP)", U::count, V::integer, S::layout, row,
     "layout.data_parallel", "DP = num_gpus / (tensor · pipeline).", VRC_GET(e.layout.data_parallel),
     VRC_NOTE("GPUs / (tensor × pipeline)")},
    {"layout.grad_accum_steps", "Gradient accumulation steps", "Gradient accumulation", U::count, V::integer,
     S::layout, row, nullptr, "Micro-batches per optimizer step on each GPU.", VRC_GET(e.layout.grad_accum_steps),
     VRC_NOTE("micro-batches per step")},
    {"layout.global_batch_size", "Global batch", "Global batch", U::sequences, V::integer, S::layout, row, nullptr,
     "Sequences per optimizer step: micro-batch × DP × gradient accumulation.", VRC_GET(e.layout.global_batch_size),
     VRC_NOTE("sequences per optimizer step")},
    {"layout.kv_heads", "Key/value heads", "KV heads", U::count, V::integer, S::layout, show_none, nullptr,
     "g: `model.num_kv_heads`, or the attention heads when it is 0.", VRC_GET(e.layout.kv_heads), nullptr, nullptr, for_both},
    {"layout.head_dim", "Head dimension", "Head dim", U::count, V::integer, S::layout, show_none, nullptr,
     "d: `model.head_dim`, or h / a when it is 0.", VRC_GET(e.layout.head_dim), nullptr, nullptr, for_both},
    {"layout.ffn_hidden_size", "FFN hidden size", "FFN size", U::count, V::integer, S::layout, show_none, nullptr,
     "f: `model.ffn_hidden_size`, or 4h when it is 0.", VRC_GET(e.layout.ffn_hidden_size), nullptr, nullptr, for_both},
    {"layout.params_per_gpu", "Parameters per GPU", "Parameters per GPU", U::parameters, V::number, S::layout, row,
     nullptr, "Model parameters held by one GPU before ZeRO sharding (P / (t·p), experts / EP).",
     VRC_GET(e.params_per_gpu), VRC_NOTE("before ZeRO sharding"), nullptr, for_both},
    {"layout.achieved_flops_per_gpu", "Achieved FLOP/s per GPU", "Per GPU", U::flops_per_second, V::number,
     S::layout, show_none, nullptr, "FLOP/s one GPU achieves: `hardware.achieved_tflops`, or peak × MFU.",
     VRC_GET(e.layout.achieved_flops_per_gpu)},

    // ── bytes per parameter ──
    {"bytes_per_parameter.weights", "Weight bytes per parameter", "Weights", U::bytes_per_parameter, V::number,
     S::detail, show_none, nullptr, "Bytes per parameter of the weights, before sharding.",
     VRC_GET(e.bytes_per_parameter.weights)},
    {"bytes_per_parameter.gradients", "Gradient bytes per parameter", "Gradients", U::bytes_per_parameter, V::number,
     S::detail, show_none, nullptr, "Bytes per parameter of the gradients, before sharding.",
     VRC_GET(e.bytes_per_parameter.gradients)},
    {"bytes_per_parameter.optimizer", "Optimizer bytes per parameter", "Optimizer", U::bytes_per_parameter,
     V::number, S::detail, show_none, nullptr, "Master copy + optimizer states per parameter, before sharding.",
     VRC_GET(e.bytes_per_parameter.optimizer)},

    // ── activations ──
    {"activations.sbh_coefficient", "Activation bytes per s·b·h element", "c_sbh", U::bytes_per_element, V::number,
     S::detail, show_none, nullptr,
     "Bytes per s·b·h element per layer on this GPU (34 for a plain GPT with t = 1).",
     VRC_GET(e.activations.sbh_coefficient)},
    {"activations.as2b_coefficient", "Activation bytes per a·s²·b element", "c_as2b", U::bytes_per_element,
     V::number, S::detail, show_none, nullptr,
     "Bytes per a·s²·b element per layer on this GPU (5 without FlashAttention).",
     VRC_GET(e.activations.as2b_coefficient)},
    {"activations.per_layer_bytes", "Activations of one layer, one micro-batch", "One layer", U::bytes, V::number,
     S::detail, show_none, "activations.per_layer_bytes", "One layer, one micro-batch.",
     VRC_GET(e.activations.per_layer_bytes)},
    {"activations.layers_on_gpu", "Layers on the busiest GPU", "Layers", U::count, V::number, S::detail, show_none,
     nullptr, "ceil(L / p).", VRC_GET(e.activations.layers_on_gpu)},
    {"activations.in_flight_microbatches", "Micro-batches in flight", "In flight", U::count, V::number, S::detail,
     show_none, nullptr, "Micro-batches whose activations the first pipeline stage holds (1F1B).",
     VRC_GET(e.activations.in_flight_microbatches)},
    {"activations.transformer_layers_bytes", "Activations of the transformer layers", "Transformer layers", U::bytes,
     V::number, S::detail, show_none, nullptr, "per_layer_bytes · layers_on_gpu · in_flight_microbatches.",
     VRC_GET(e.activations.transformer_layers_bytes)},
    {"activations.embedding_bytes", "Embedding activations", "Embedding", U::bytes, V::number, S::detail, show_none,
     nullptr, "The embedding dropout mask (first stage).", VRC_GET(e.activations.embedding_bytes)},
    {"activations.output_bytes", "Output activations", "Output", U::bytes, V::number, S::detail, show_none, nullptr,
     "Final norm and LM-head input (last stage).", VRC_GET(e.activations.output_bytes)},
    {"activations.total_bytes", "Activations of the busiest GPU", "Total", U::bytes, V::number, S::detail, show_none,
     nullptr, "The busiest pipeline stage's saved activations, without the loss.", VRC_GET(e.activations.total_bytes)},
    {"activations.recomputed_layers", "Recomputed layers", "Recomputed layers", U::count, V::number, S::detail,
     show_none, nullptr, "Layers per stage whose activations are recomputed in backward.",
     VRC_GET(e.activations.recomputed_layers)},
    {"activations.forward_working_bytes", "Forward working set of one layer", "Forward working set", U::bytes,
     V::number, S::detail, show_none, nullptr,
     "Temporaries of one layer's forward: eager attention scores before the softmax, HF's 4-D causal mask.",
     VRC_GET(e.activations.forward_working_bytes)},
    {"activations.backward_working_bytes", "Backward working set of one layer", "Backward working set", U::bytes,
     V::number, S::detail, show_none, "activations.backward_working_bytes",
     "Gradients of one layer's activations in flight during its backward.",
     VRC_GET(e.activations.backward_working_bytes)},
    {"activations.recompute_working_bytes", "Re-materialised layer", "Recompute working set", U::bytes, V::number,
     S::detail, show_none, "activations.recompute_working_bytes",
     "With full or op-level recomputation: one layer's activations re-created during its backward.",
     VRC_GET(e.activations.recompute_working_bytes)},
    {"activations.logits_elements", "Logit elements", "Logits", U::count, V::number, S::detail, show_none, nullptr,
     "s·b·V/t on the last stage.", VRC_GET(e.activations.logits_elements)},
    {"activations.loss_saved_per_logit", "Loss bytes kept per logit", "Kept per logit", U::bytes_per_element,
     V::number, S::detail, show_none, nullptr, "Bytes per logit element the loss keeps for backward.",
     VRC_GET(e.activations.loss_per_logit.saved)},
    {"activations.loss_peak_bytes", "Logits and loss at their peak", "Loss peak", U::bytes, V::number, S::detail,
     show_none, "activations.loss_peak_bytes",
     "The loss's largest working set (forward or backward), all logits included.",
     VRC_GET(e.activations.loss_peak_bytes)},
    {"activations.host_bytes", "Offloaded activations per GPU", "Offloaded activations", U::bytes, V::number,
     S::detail, show_none, nullptr, "Activations kept in host memory (`offload_activations`).",
     VRC_GET(e.activations.host_bytes)},

    // ── model states (all of them, after ZeRO sharding) ──
    {"model_states_bytes.weights", "Persistent weights per GPU", "Weights", U::bytes, V::number, S::detail, show_none,
     "model_states_bytes.weights", "Parameters each GPU keeps (ZeRO-3: its shard).",
     VRC_GET(e.model_states_bytes.weights)},
    {"model_states_bytes.gradients", "All gradients per GPU", "Gradients", U::bytes, V::number, S::detail, show_none,
     "model_states_bytes.gradients", "Gradients when all exist (ZeRO-2/3: the shard).",
     VRC_GET(e.model_states_bytes.gradients)},
    {"model_states_bytes.optimizer", "Optimizer states on the GPU", "Optimizer", U::bytes, V::number, S::detail,
     show_none, "model_states_bytes.optimizer", "Master copy + states on the GPU (ZeRO-1+: the shard).",
     VRC_GET(e.model_states_bytes.optimizer)},
    {"model_states_bytes.live_params", "Gathered parameters per GPU", "Gathered parameters", U::bytes, V::number,
     S::detail, show_none, "model_states_bytes.live_params",
     "ZeRO-3 / FSDP parameters gathered for compute during forward and backward.",
     VRC_GET(e.model_states_bytes.live_params)},
    {"model_states_bytes.autocast_copies", "Autocast weight copies", "Autocast copies", U::bytes, V::number, S::detail,
     show_none, "model_states_bytes.autocast_copies",
     "16-bit copies of the matmul weights autocast keeps from forward to backward.",
     VRC_GET(e.model_states_bytes.autocast_copies)},
    {"model_states_bytes.frozen_weights", "Frozen base weights per GPU", "Frozen weights", U::bytes, V::number,
     S::detail, show_none, "model_states_bytes.frozen_weights",
     "Fine-tuning: the part of the weights that gets no gradient, in its storage dtype (QLoRA: 4-bit codes + constants).",
     VRC_GET(e.model_states_bytes.frozen_weights)},
    {"model_states_bytes.fp8_weight_copies", "FP8 weight copies per GPU", "FP8 weight copies", U::bytes, V::number,
     S::detail, show_none, "model_states_bytes.weights",
     "training.fp8 with Transformer Engine (fused kernels): row- and column-wise FP8 copies of every linear weight, kept between micro-batches; part of the weights.",
     VRC_GET(e.model_states_bytes.fp8_weight_copies)},
    {"model_states_bytes.dequantized", "Dequantised weight copy", "Dequantised copy", U::bytes, V::number, S::detail,
     show_none, "model_states_bytes.frozen_weights",
     "QLoRA: the 16-bit copy of the largest quantised weight made for each matmul (a temporary).",
     VRC_GET(e.model_states_bytes.dequantized)},
    {"model_states_bytes.buckets", "Communication buckets", "Buckets", U::bytes, V::number, S::detail, show_none,
     nullptr, "DDP gradient buckets or DeepSpeed reduce buckets.", VRC_GET(e.model_states_bytes.buckets)},
    {"model_states_bytes.optimizer_temporaries", "Optimizer-step temporaries", "Step temporaries", U::bytes,
     V::number, S::detail, show_none, "model_states_bytes.optimizer_temporaries",
     "Extra buffers of one optimizer step (foreach AdamW: one state-sized buffer).",
     VRC_GET(e.model_states_bytes.optimizer_temporaries)},

    // ── memory per GPU ──
    {"memory_per_gpu_bytes.weights", "Weights per GPU", "Weights", U::bytes, V::number, S::memory, memory_row,
     "model_states_bytes.weights", "At the peak: persistent, gathered (ZeRO-3/FSDP) and autocast copies.",
     VRC_GET(e.memory_per_gpu_bytes.weights),
     [](const Estimate& e) -> const char* {
         if (e.workload == Workload::inference) return "{inference.weights_total_bytes} checkpoint in its format";
         if (e.scenario_method == TrainingMethod::qlora) return "quantised base + adapters";
         if (e.scenario_method == TrainingMethod::lora) return "{bytes_per_parameter.weights} frozen base + adapters";
         return e.memory_per_gpu_bytes.zero3_live_params > 0
                    ? "{bytes_per_parameter.weights} · incl. {memory_per_gpu_bytes.zero3_live_params} gathered"
                    : "{bytes_per_parameter.weights}";
     }, nullptr, for_both},
    VRC_ERROR_BAND_ROWS("memory_per_gpu_bytes.weights", "Weights per GPU", S::memory, for_inference),
    {"memory_per_gpu_bytes.kv_cache", "KV cache per GPU", "KV cache", U::bytes, V::number, S::memory, memory_row,
     "memory_per_gpu_bytes.kv_cache",
     "What `inference.concurrency` sequences of `inference.context_len` tokens hold on one GPU (the need, not the "
     "engine's preallocated pool).",
     VRC_GET(e.memory_per_gpu_bytes.kv_cache), VRC_NOTE("{inference.kv_bytes_per_token} per token"), nullptr,
     for_inference},
    {"memory_per_gpu_bytes.zero3_live_params", "Gathered parameters at the peak", "Gathered params", U::bytes,
     V::number, S::memory, show_none, nullptr, "The part of `weights` that is ZeRO-3 / FSDP gathered parameters.",
     VRC_GET(e.memory_per_gpu_bytes.zero3_live_params)},
    {"memory_per_gpu_bytes.gradients", "Gradients per GPU", "Gradients", U::bytes, V::number, S::memory, memory_row,
     "model_states_bytes.gradients", "Gradients alive at the peak.", VRC_GET(e.memory_per_gpu_bytes.gradients),
     [](const Estimate& e) -> const char* {
         return e.scenario_method == TrainingMethod::full ? "{bytes_per_parameter.gradients}"
                                                          : "of the {parameters.trainable} trainable only";
     }},
    {"memory_per_gpu_bytes.optimizer", "Optimizer states per GPU", "Optimizer states", U::bytes, V::number,
     S::memory, memory_row, "model_states_bytes.optimizer", "On the GPU (0 when offloaded).",
     VRC_GET(e.memory_per_gpu_bytes.optimizer),
     [](const Estimate& e) -> const char* {
         if (e.host_memory_bytes.per_gpu > 0) return "offloaded to host";
         return e.scenario_method == TrainingMethod::full ? "{bytes_per_parameter.optimizer}"
                                                          : "of the {parameters.trainable} trainable only";
     }},
    {"memory_per_gpu_bytes.activations", "Activations per GPU", "Activations", U::bytes, V::number, S::memory,
     memory_row, "activations.transformer_layers_bytes", "Saved activations alive at the peak.",
     VRC_GET(e.memory_per_gpu_bytes.activations),
     [](const Estimate& e) -> const char* {
         return e.workload == Workload::inference ? "profile peak (a forward over {inference.batched_tokens}, the sampler)"
                                                  : "{activations.layers_on_gpu} layers × {activations.in_flight_microbatches} in flight";
     }, nullptr, for_both},
    {"memory_per_gpu_bytes.logits", "Logits and loss per GPU", "Logits and loss", U::bytes, V::number, S::memory,
     memory_row | hide_when_zero, "activations.loss_peak_bytes", "Logits and loss tensors alive at the peak.",
     VRC_GET(e.memory_per_gpu_bytes.logits), VRC_NOTE("{activations.loss_saved_per_logit} kept per logit")},
    {"memory_per_gpu_bytes.temporaries", "Working buffers per GPU", "Temporaries", U::bytes, V::number, S::memory,
     memory_row | hide_when_zero, "activations.backward_working_bytes",
     "Working buffers at the peak: backward and recompute working sets, optimizer-step temporaries, buckets.",
     VRC_GET(e.memory_per_gpu_bytes.temporaries)},
    {"memory_per_gpu_bytes.peak_allocated", "Peak allocated per GPU", "Peak allocated", U::bytes, V::number,
     S::memory, show_report, "memory_per_gpu_bytes.peak_allocated",
     "Largest phase of the step: what torch.cuda.max_memory_allocated reports.",
     VRC_GET(e.memory_per_gpu_bytes.peak_allocated), VRC_NOTE("in the {memory_per_gpu_bytes.peak_phase}")},
    VRC_ERROR_BAND_ROWS("memory_per_gpu_bytes.peak_allocated", "Peak allocated per GPU", S::memory, for_training),
    {"memory_per_gpu_bytes.peak_reserved", "Peak reserved per GPU", "Peak reserved", U::bytes, V::number, S::memory,
     show_report, "memory_per_gpu_bytes.peak_reserved",
     "What PyTorch's caching allocator holds: torch.cuda.max_memory_reserved.",
     VRC_GET(e.memory_per_gpu_bytes.peak_reserved), VRC_NOTE("allocator reserve included")},
    VRC_ERROR_BAND_ROWS("memory_per_gpu_bytes.peak_reserved", "Peak reserved per GPU", S::memory, for_training),
    {"memory_per_gpu_bytes.peak_phase", "Phase of the peak", "Peak phase", U::text, V::text, S::memory, show_none,
     nullptr, "When the peak happens: forward, loss, backward or optimizer_step.",
     VRC_GET(static_cast<int>(e.memory_per_gpu_bytes.peak_phase)), nullptr,
     [](const Estimate& e) -> const char* { return step_phase_id(e.memory_per_gpu_bytes.peak_phase); }},
    {"memory_per_gpu_bytes.overhead", "Overhead per GPU", "Overhead", U::bytes, V::number, S::memory, memory_row,
     "memory_per_gpu_bytes.total",
     "Allocator reserve, CUDA context, NCCL buffers and `hardware.reserved_gib`: total − peak allocated.",
     VRC_GET(e.memory_per_gpu_bytes.overhead),
     [](const Estimate& e) -> const char* {
         return e.workload == Workload::inference ? "CUDA context, NCCL, CUDA graphs" : "allocator, CUDA context, NCCL";
     },
     nullptr, for_both},
    {"memory_per_gpu_bytes.total", "Total per GPU", "Total", U::bytes, V::number, S::memory,
     show_report | show_markdown | emphasise, "memory_per_gpu_bytes.total",
     "Device total as nvidia-smi shows it: peak reserved + CUDA context + NCCL + reserved; the verdict compares it "
     "with the GPU's memory.",
     VRC_GET(e.memory_per_gpu_bytes.total), VRC_NOTE("of {capacity_bytes}"), nullptr, for_both},
    VRC_ERROR_BAND_ROWS("memory_per_gpu_bytes.total", "Total per GPU", S::memory, for_both),
    {"host_memory_bytes.per_gpu", "Host memory per GPU", "Host memory per GPU", U::bytes, V::number, S::memory,
     show_report | show_markdown | hide_when_zero, "model_states_bytes.optimizer",
     "Host (CPU) memory one GPU uses for offloaded or paged optimizer states, parameters and activations.",
     VRC_GET(e.host_memory_bytes.per_gpu), VRC_NOTE("offloaded to the host"), nullptr, for_both},
    {"host_memory_bytes.total", "Host memory, all GPUs", "Host memory, all GPUs", U::bytes, V::number, S::memory,
     show_report | show_summary | hide_when_zero, "model_states_bytes.optimizer",
     "Host (CPU) memory for what all GPUs offload.", VRC_GET(e.host_memory_bytes.total), nullptr, nullptr, for_both},
    {"capacity_bytes", "GPU memory", "Capacity", U::bytes, V::number, S::memory, show_none, nullptr,
     "`hardware.memory_gib` · 2^30.", VRC_GET(e.capacity_bytes), nullptr, nullptr, for_both},
    {"headroom_bytes", "Headroom per GPU", "Headroom", U::bytes, V::number, S::memory, show_none, nullptr,
     "Capacity − total; negative when it does not fit.", VRC_GET(e.headroom_bytes), nullptr, nullptr, for_both},
    {"fits", "Fits", "Fits", U::flag, V::flag, S::memory, show_none, nullptr,
     "The per-GPU total is within the GPU's memory.", VRC_GET(e.fits), nullptr, nullptr, for_both},

    // ── compute, time and cost ──
    {"compute.flops_per_token", "FLOPs per token", "FLOPs per token", U::flops, V::number, S::compute, row, nullptr,
     "6·P_active (+ 12·L·s·h with `attention_flops`).", VRC_GET(e.compute.flops_per_token)},
    {"compute.model_flops", "Model FLOPs", "Model FLOPs", U::flops, V::number, S::compute, row, "compute.model_flops",
     "flops_per_token · D: C = 6PD (fine-tuning: forward 2PD, backward 2PD through the layers a gradient reaches "
     "+ 2·P_trainable·D).",
     VRC_GET(e.compute.model_flops),
     [](const Estimate& e) -> const char* {
         return e.scenario_method == TrainingMethod::full ? "6·P·D" : "2PD + 2PD + 2·P_trainable·D";
     }},
    {"compute.forward_flops", "Forward FLOPs", "Forward", U::flops, V::number, S::compute, show_none, nullptr,
     "2PD (+ attention): one third of the model FLOPs in full training.", VRC_GET(e.compute.forward_flops)},
    {"compute.backward_flops", "Backward FLOPs", "Backward", U::flops, V::number, S::compute, show_none, nullptr,
     "4PD (+ attention) in full training; fine-tuning computes weight gradients for trainable parameters only.",
     VRC_GET(e.compute.backward_flops)},
    {"compute.recompute_flops", "Recomputation FLOPs", "Recomputation", U::flops, V::number, S::compute,
     row | hide_when_zero, "compute.total_flops", "Extra forward work from activation recomputation.",
     VRC_GET(e.compute.recompute_flops)},
    {"compute.total_flops", "Total FLOPs", "Total FLOPs", U::flops, V::number, S::compute,
     show_report | show_markdown | show_summary,
     "compute.total_flops", "model_flops + recompute_flops: what the hardware executes.",
     VRC_GET(e.compute.total_flops),
     [](const Estimate& e) -> const char* {
         return e.compute.recompute_flops > 0 ? "incl. {compute.recompute_flops} recomputation" : "{compute.pflop_days}";
     }},
    {"compute.cluster_flops_per_second", "Cluster throughput", "Cluster throughput", U::flops_per_second, V::number,
     S::compute, row, "compute.seconds",
     "num_gpus · achieved FLOP/s (predicted model: total FLOPs / predicted time).",
     VRC_GET(e.compute.cluster_flops_per_second),
     [](const Estimate& e) -> const char* {
         return e.performance.predicted ? "{performance.achieved_tflops_per_gpu} per GPU, predicted"
                                        : "{layout.achieved_flops_per_gpu} per GPU";
     }},
    {"compute.seconds", "Training time", "Time", U::seconds, V::number, S::compute,
     show_report | show_markdown | show_tile | show_summary, "compute.seconds",
     "Total FLOPs / cluster throughput; with the predicted model, steps × the predicted step time.",
     VRC_GET(e.compute.seconds),
     [](const Estimate& e) -> const char* {
         return e.performance.predicted ? "{performance.step_seconds} per step, MFU {performance.mfu}"
                                        : "at {layout.achieved_flops_per_gpu} per GPU";
     }},
    VRC_ERROR_BAND_ROWS("compute.seconds", "Training time", S::compute, for_training),
    {"compute.days", "Training days", "Days", U::days, V::number, S::compute, show_none, "compute.seconds",
     "seconds / 86400.", VRC_GET(e.compute.days)},
    {"compute.gpu_hours", "GPU-hours", "GPU-hours", U::gpu_hours, V::number, S::compute,
     show_report | show_markdown | show_summary, "compute.gpu_hours", "seconds · num_gpus / 3600.",
     VRC_GET(e.compute.gpu_hours)},
    // The compute a run needs, in the unit people budget it in: a headline, next to memory.
    {"compute.tflop_hours", "TFLOP-hours", "TFLOP-hours", U::tflop_hours, V::number, S::compute, headline,
     "compute.tflop_hours", "total_flops / (1e12 · 3600).", VRC_GET(e.compute.tflop_hours),
     [](const Estimate& e) -> const char* {
         return e.compute.recompute_flops > 0 ? "{compute.total_flops} incl. recomputation"
                                              : "{compute.total_flops} · {compute.pflop_days}";
     }},
    {"compute.pflop_days", "PetaFLOP-days", "PetaFLOP-days", U::pflop_days, V::number, S::compute,
     show_report | show_markdown, "compute.pflop_days", "total_flops / (1e15 · 86400).",
     VRC_GET(e.compute.pflop_days)},
    {"compute.cost", "Cost", "Cost", U::money, V::number, S::compute, headline, "compute.cost",
     "gpu_hours · `hardware.price_per_gpu_hour`.", VRC_GET(e.compute.cost), VRC_NOTE("{compute.gpu_hours}")},
    VRC_ERROR_BAND_ROWS("compute.cost", "Cost", S::compute, for_training),
    {"compute.chinchilla_tokens", "Chinchilla-optimal tokens", "Chinchilla-optimal tokens", U::tokens, V::number,
     S::compute, row, "compute.chinchilla_tokens", "20 · P (Hoffmann et al. 2022, arXiv:2203.15556).",
     VRC_GET(e.compute.chinchilla_tokens), VRC_NOTE("20 tokens per parameter")},

    // ── performance (issue 12: with hardware.throughput_model = predicted, docs/formulas.md §10) ──
    {"performance.step_seconds", "Step time", "Step time", U::seconds, V::number, S::compute,
     show_report | show_markdown, "performance.step_seconds",
     "One optimizer step: predicted by the step-time model, or the time the given achieved rate implies.",
     VRC_GET(e.performance.step_seconds),
     [](const Estimate& e) -> const char* {
         if (!e.performance.predicted) return "from the achieved rate given";
         return e.performance.breakdown_seconds.pipeline_bubble > 0
                    ? "predicted: compute {performance.breakdown_seconds.compute}, TP "
                      "{performance.breakdown_seconds.tensor_parallel}, bubble {performance.breakdown_seconds.pipeline_bubble}, "
                      "DP {performance.breakdown_seconds.data_parallel}"
                    : "predicted: compute {performance.breakdown_seconds.compute}, TP "
                      "{performance.breakdown_seconds.tensor_parallel}, DP {performance.breakdown_seconds.data_parallel}, "
                      "ZeRO {performance.breakdown_seconds.zero}";
     }},
    VRC_ERROR_BAND_ROWS("performance.step_seconds", "Step time", S::compute, for_training),
    {"performance.tokens_per_step", "Tokens per step", "Tokens per step", U::tokens, V::number, S::compute, show_none,
     nullptr, "Global batch × sequence length.", VRC_GET(e.performance.tokens_per_step)},
    {"performance.tokens_per_second", "Tokens per second", "Tokens per second", U::tokens_per_second, V::number,
     S::compute, show_report | show_markdown, "performance.tokens_per_second",
     "Tokens the whole cluster trains on per second: tokens_per_step / step_seconds.",
     VRC_GET(e.performance.tokens_per_second), VRC_NOTE("whole cluster")},
    VRC_ERROR_BAND_ROWS("performance.tokens_per_second", "Tokens per second", S::compute, for_training),
    {"performance.achieved_tflops_per_gpu", "Achieved TFLOP/s per GPU", "Achieved TFLOP/s per GPU", U::tflops_per_second,
     V::number, S::compute, show_report, "performance.achieved_tflops_per_gpu",
     "Executed FLOPs (incl. recomputation) per GPU per second, in TFLOP/s.",
     VRC_GET(e.performance.achieved_tflops_per_gpu), VRC_NOTE("executed FLOPs, with recomputation")},
    {"performance.mfu", "Model FLOPs utilisation", "MFU", U::ratio, V::number, S::compute, show_report | show_markdown,
     "performance.mfu", "Model FLOPs (6·P per token) per GPU per second over the dense peak.",
     VRC_GET(e.performance.mfu), VRC_NOTE("model FLOPs / peak")},
    {"performance.microbatches", "Micro-batches per step", "Micro-batches", U::count, V::number, S::compute, show_none,
     nullptr, "Micro-batches each pipeline runs per optimizer step.", VRC_GET(e.performance.microbatches)},
    {"performance.predicted", "Throughput predicted", "Predicted", U::flag, V::flag, S::compute, show_none, nullptr,
     "`hardware.throughput_model` is `predicted`: the step time comes from the step-time model.",
     VRC_GET(e.performance.predicted)},
    {"performance.calibrated", "Throughput model calibrated", "Calibrated", U::flag, V::flag, S::compute, show_none,
     nullptr, "The GPU family has constants fitted on published runs (predicted model only).",
     VRC_GET(e.performance.calibrated)},
    {"performance.breakdown_seconds.compute", "Step time: compute", "Compute", U::seconds, V::number, S::compute,
     show_none, "performance.step_seconds", "GEMMs, attention, memory-bound ops and recomputation of all micro-batches.",
     VRC_GET(e.performance.breakdown_seconds.compute)},
    {"performance.breakdown_seconds.tensor_parallel", "Step time: tensor parallelism", "Tensor parallel", U::seconds,
     V::number, S::compute, show_none, "performance.step_seconds",
     "Tensor-parallel all-reduces (or reduce-scatter + all-gather), not overlapped.",
     VRC_GET(e.performance.breakdown_seconds.tensor_parallel)},
    {"performance.breakdown_seconds.pipeline_bubble", "Step time: pipeline bubble", "Pipeline bubble", U::seconds,
     V::number, S::compute, show_none, "performance.step_seconds", "(p − 1)/v idle micro-batch slots of 1F1B.",
     VRC_GET(e.performance.breakdown_seconds.pipeline_bubble)},
    {"performance.breakdown_seconds.pipeline_p2p", "Step time: pipeline sends", "Pipeline sends", U::seconds,
     V::number, S::compute, show_none, "performance.step_seconds", "Activations and gradients sent between stages.",
     VRC_GET(e.performance.breakdown_seconds.pipeline_p2p)},
    {"performance.breakdown_seconds.context_parallel", "Step time: context parallelism", "Context parallel", U::seconds,
     V::number, S::compute, show_none, "performance.step_seconds",
     "Ring attention's K,V (backward: K,V and dK,dV) sends between the cp GPUs of a sequence, left exposed by the attention steps.",
     VRC_GET(e.performance.breakdown_seconds.context_parallel)},
    {"performance.breakdown_seconds.data_parallel", "Step time: data parallelism", "Data parallel", U::seconds,
     V::number, S::compute, show_none, "performance.step_seconds",
     "Gradient all-reduce (or reduce-scatter + all-gather) left exposed.",
     VRC_GET(e.performance.breakdown_seconds.data_parallel)},
    {"performance.breakdown_seconds.zero", "Step time: ZeRO-3", "ZeRO-3", U::seconds, V::number, S::compute, show_none,
     "performance.step_seconds", "ZeRO-3 parameter all-gathers and gradient reduce-scatters left exposed.",
     VRC_GET(e.performance.breakdown_seconds.zero)},
    {"performance.breakdown_seconds.optimizer_step", "Step time: optimizer", "Optimizer step", U::seconds, V::number,
     S::compute, show_none, "performance.step_seconds", "The memory-bound optimizer update.",
     VRC_GET(e.performance.breakdown_seconds.optimizer_step)},
    {"performance.breakdown_seconds.overhead", "Step time: overhead", "Overhead", U::seconds, V::number, S::compute,
     show_none, "performance.step_seconds", "Fixed per-step overhead (fitted).",
     VRC_GET(e.performance.breakdown_seconds.overhead)},

    // ── serving (workload = inference; docs/serving.md) ──
    {"inference.kv_bytes_per_token", "KV cache per token", "KV per token", U::bytes, V::number, S::memory, show_none,
     "memory_per_gpu_bytes.kv_cache",
     "Per GPU: one sequence's KV at `context_len` divided by `context_len` (exact 2·g·d·bytes per layer for full "
     "attention; less for window, latent and hybrid layers).",
     VRC_GET(e.inference.kv_bytes_per_token), nullptr, nullptr, for_inference},
    {"inference.kv_pool_bytes", "KV pool per GPU", "KV pool", U::bytes, V::number, S::memory, show_report,
     "inference.kv_pool_tokens", "What the engine sets aside for KV (vLLM: \"Available KV cache memory\").",
     VRC_GET(e.inference.kv_pool_bytes), VRC_NOTE("{inference.memory_fraction} of memory for the engine"), nullptr,
     for_inference},
    {"inference.kv_pool_tokens", "KV pool in tokens", "KV pool tokens", U::tokens, V::number, S::memory,
     show_report | show_markdown | show_tile | show_summary, "inference.kv_pool_tokens",
     "The engine's KV capacity as it reports it: vLLM \"GPU KV cache size: N tokens\", SGLang max_total_num_tokens, "
     "llama.cpp n_ctx.",
     VRC_GET(e.inference.kv_pool_tokens), nullptr, nullptr, for_inference},
    VRC_ERROR_BAND_ROWS("inference.kv_pool_tokens", "KV pool in tokens", S::memory, for_inference),
    {"inference.max_concurrency", "Maximum concurrency", "Max concurrency", U::sequences, V::number, S::memory,
     show_report | show_markdown | show_tile | show_summary, "inference.kv_pool_tokens",
     "Sequences of `context_len` tokens the KV pool holds at once (vLLM \"Maximum concurrency for N tokens per "
     "request\").",
     VRC_GET(e.inference.max_concurrency), VRC_NOTE("sequences of the context length, at once"), nullptr,
     for_inference},
    {"inference.max_context_len", "Longest context", "Max context", U::tokens, V::number, S::memory,
     show_report | show_markdown | show_summary, "inference.kv_pool_tokens",
     "The longest context each of `concurrency` sequences can have in the KV memory available.",
     VRC_GET(e.inference.max_context_len), VRC_NOTE("at the given concurrency"), nullptr, for_inference},
    {"inference.starts", "Engine starts", "Starts", U::flag, V::flag, S::memory, show_none, "inference.kv_pool_tokens",
     "The engine loads the model and its KV pool holds one sequence of `context_len`.",
     VRC_GET(e.inference.starts), nullptr, nullptr, for_inference},
    {"inference.weights_total_bytes", "Checkpoint size", "Checkpoint", U::bytes, V::number, S::memory, show_report,
     "memory_per_gpu_bytes.weights", "The whole model in `inference.weight_format` (safetensors / GGUF tensor data).",
     VRC_GET(e.inference.weights_total_bytes), nullptr, nullptr, for_inference},
    {"inference.memory_budget_bytes", "Engine memory budget", "Engine budget", U::bytes, V::number, S::memory,
     show_none, "inference.kv_pool_tokens", "What the engine allows itself per GPU (vLLM: utilisation × memory).",
     VRC_GET(e.inference.memory_budget_bytes), nullptr, nullptr, for_inference},
    {"inference.memory_fraction", "Engine memory fraction", "Memory fraction", U::ratio, V::number, S::memory,
     show_none, nullptr, "`inference.gpu_memory_utilization` or the engine's default.",
     VRC_GET(e.inference.memory_fraction), nullptr, nullptr, for_inference},
    {"inference.batched_tokens", "Batched tokens", "Batched tokens", U::tokens, V::number, S::detail, show_none,
     nullptr, "`inference.max_batched_tokens` or the engine's default: the forward the activation peak is sized for.",
     VRC_GET(e.inference.batched_tokens), nullptr, nullptr, for_inference},
    {"inference.gpus", "GPUs per replica", "GPUs", U::count, V::integer, S::layout, show_report, nullptr,
     "tensor × pipeline GPUs serve one copy of the model.", VRC_GET(e.inference.gpus),
     VRC_NOTE("tensor × pipeline"), nullptr, for_inference},
    {"inference.tm101_bytes", "Transformer Math 101 estimate", "TM101 1.2 × weights", U::bytes, V::number, S::memory,
     show_report, "inference.tm101_bytes",
     "The seed's rule of thumb, total inference memory ≈ 1.2 × model memory, shown beside the engine's answer.",
     VRC_GET(e.inference.tm101_bytes), VRC_NOTE("the seed's baseline, for comparison"), nullptr, for_inference},
    {"performance.time_to_first_token_seconds", "Time to first token", "Time to first token", U::seconds, V::number,
     S::compute, headline, "performance.time_to_first_token_seconds",
     "Prefill of one prompt of `prompt_tokens` tokens, alone on the GPUs, with the engine's request path.",
     VRC_GET(e.inference.speed.time_to_first_token_seconds), VRC_NOTE("one prompt of the prompt length, alone"),
     nullptr, for_inference},
    VRC_ERROR_BAND_ROWS("performance.time_to_first_token_seconds", "Time to first token", S::compute, for_inference),
    {"performance.prefill_tokens_per_second", "Prefill throughput", "Prefill", U::tokens_per_second, V::number,
     S::compute, show_report | show_markdown | show_tile, "performance.time_to_first_token_seconds",
     "Prompt tokens per second: one prompt, or full batches of `max_batched_tokens` where vLLM, SGLang or TensorRT-LLM serve several.",
     VRC_GET(e.inference.speed.prefill_tokens_per_second), VRC_NOTE("prompt tokens per second"), nullptr, for_inference},
    VRC_ERROR_BAND_ROWS("performance.prefill_tokens_per_second", "Prefill throughput", S::compute, for_inference),
    {"performance.decode_tokens_per_second", "Decode throughput", "Decode", U::tokens_per_second, V::number,
     S::compute, headline, "performance.decode_tokens_per_second",
     "Output tokens per second of all `concurrency` sequences together (memory-bound).",
     VRC_GET(e.inference.speed.decode_tokens_per_second), VRC_NOTE("{performance.inter_token_latency_seconds} per token per sequence"),
     nullptr, for_inference},
    VRC_ERROR_BAND_ROWS("performance.decode_tokens_per_second", "Decode throughput", S::compute, for_inference),
    {"performance.inter_token_latency_seconds", "Inter-token latency", "Inter-token latency", U::seconds, V::number,
     S::compute, show_report | show_markdown | show_tile, "performance.decode_tokens_per_second",
     "One decode step: each sequence gets its next token.", VRC_GET(e.inference.speed.inter_token_latency_seconds),
     VRC_NOTE("one decode step, every sequence"), nullptr, for_inference},
    {"performance.decode_step_bytes", "Bytes read per decode step", "Bytes per step", U::bytes, V::number, S::compute,
     show_none, "performance.decode_tokens_per_second",
     "Weights the step touches (MoE: the experts the batch routes to) + every sequence's KV, on one GPU.",
     VRC_GET(e.inference.speed.decode_step_bytes), nullptr, nullptr, for_inference},
    {"performance.cost_per_million_output_tokens", "Cost per million output tokens", "Cost per 1M output tokens",
     U::money, V::number, S::compute, headline, "performance.cost_per_million_output_tokens",
     "GPU-hours of the replica per million decoded tokens × `hardware.price_per_gpu_hour`.",
     VRC_GET(e.inference.speed.cost_per_million_output_tokens), nullptr, nullptr, for_inference},
};

#undef VRC_GET
#undef VRC_NOTE

constexpr CompositeOutputSpec composite_table[] = {
    {"scenario", CompositeKind::scenario, true, "The complete scenario that was estimated (defaults filled in)."},
    {"warnings", CompositeKind::warnings, true, "Advice that does not stop the estimate: `[{id, message}]`."},
    {"notes", CompositeKind::notes, true,
     "What reading the input changed besides what it names, e.g. a sequence length lowered to the model's "
     "positions when a preset was chosen: `[{field, message}]`."},
    {"errors", CompositeKind::errors, true, "Always `[]` in an estimate (invalid input has only `errors`)."},
    {"memory_timeline", CompositeKind::memory_timeline, true,
     "Bytes by component at each phase of a step: `[{phase, weights, gradients, optimizer, activations, logits, "
     "temporaries, total}]` for forward, loss, backward and optimizer_step; the peak phase is "
     "`memory_per_gpu_bytes.peak_phase`."},
    {"fixes", CompositeKind::fixes, true,
     "When the scenario does not fit: the smallest single changes after which it fits, smallest first "
     "(at most 4): `[{id, change, fields, total_bytes, headroom_bytes}]`, `fields` the changed fields "
     "with their new values, `total_bytes` the memory per GPU with the change. `[]` when it fits."},
    {"explain", CompositeKind::explain, false,
     "Only with `--explain`: every result with its formula, this scenario's inputs and the source."},
};

}  // namespace

std::span<const OutputSpec> outputs() { return output_table; }

bool output_applies(const OutputSpec& output, Workload workload) {
    return (output.workloads & (workload == Workload::inference ? for_inference : for_training)) != 0;
}

const OutputSpec* find_output(std::string_view path) {
    for (const auto& o : output_table)
        if (path == o.path) return &o;
    return nullptr;
}

std::span<const CompositeOutputSpec> composite_outputs() { return composite_table; }

const char* unit_symbol(Unit unit) {
    switch (unit) {
        case Unit::bytes: return "bytes";
        case Unit::bytes_per_parameter: return "bytes/param";
        case Unit::bytes_per_element: return "bytes";
        case Unit::parameters: return "parameters";
        case Unit::flops: return "FLOPs";
        case Unit::flops_per_second: return "FLOP/s";
        case Unit::seconds: return "s";
        case Unit::days: return "days";
        case Unit::gpu_hours: return "GPU-h";
        case Unit::tflop_hours: return "TFLOP-h";
        case Unit::pflop_days: return "PF-days";
        case Unit::money: return "$";
        case Unit::tokens: return "tokens";
        case Unit::tokens_per_second: return "tokens/s";
        case Unit::tflops_per_second: return "TFLOP/s";
        case Unit::sequences: return "sequences";
        case Unit::count: return "";
        case Unit::ratio: return "";
        case Unit::flag: return "";
        case Unit::text: return "";
    }
    return "";
}

}  // namespace vramcalc
