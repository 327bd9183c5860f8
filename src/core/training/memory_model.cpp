// Peak memory of a training step (docs/formulas.md §4–5). Sources:
//   [MEGA-ACT] Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
//              Models", arXiv:2205.05198 — per-layer activations of fused (Megatron) kernels.
//   [TM101]    EleutherAI, "Transformer Math 101", https://blog.eleuther.ai/transformer-math/
//   [ZERO]     Rajbhandari et al. 2019, "ZeRO", arXiv:1910.02054.
//   [HF]       Hugging Face Transformers modeling_llama.py / modeling_gpt2.py (eager modules, SDPA).
//   [TORCH]    PyTorch autograd saved tensors, torch.amp autocast op lists, torch.optim AdamW
//              (foreach keeps one state-sized temporary: torch._foreach_sqrt), CUDA caching allocator.
//   [FA2]      Dao 2023, "FlashAttention-2", arXiv:2307.08691 — saves Q, K, V, O and the fp32 log-sum-exp.
//   [FSDP]     Zhao et al. 2023, "PyTorch FSDP", arXiv:2304.11277; torchtitan FSDP2.
//   [PEFT]     huggingface/peft src/peft/tuners/lora/layer.py and bnb.py (LoRA Linear.forward);
//              bitsandbytes MatMul4Bit (dequantises the 4-bit weight in forward and backward).
// Measured cross-checks: tests/data/memory/ (CPU harness, bench/memory/) and the measured cases.
#include "core/training/memory_model.hpp"

#include <algorithm>
#include <cmath>

#include "core/formulas.hpp"
#include "core/training/context_parallel.hpp"
#include "core/training/finetune.hpp"
#include "core/training/fp8.hpp"

namespace vramcalc {
namespace f = formulas;

namespace {

double ceil_div(std::int64_t a, std::int64_t b) { return double((a + b - 1) / b); }

// Copies of the largest transient tensor the caching allocator holds at its peak on top of the
// fractional overhead (docs/accuracy.md "Allocator").
constexpr double fragmentation_blocks = 1.0;
// NCCL buffers of one communicator, outside PyTorch's allocator: per channel and peer the Simple
// (NCCL_BUFFSIZE 4 MiB), LL128 (4.69 MiB) and LL (0.5 MiB) buffers (NCCL init.cc DEFAULT_*BUFFSIZE);
// ≈ 0.54–0.69 GB measured per process group on A100. [docs/accuracy.md]
constexpr double nccl_buffers_gib_per_communicator = 0.5;

// NCCL communicators a rank holds: PyTorch's ProcessGroupNCCL creates one per process group that
// communicates (torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp); Megatron-LM builds a group per
// parallel dimension (megatron/core/parallel_state.py): data, tensor, pipeline, expert.
double nccl_communicators(const ParallelConfig& par, const Layout& r) {
    if (par.num_gpus <= 1) return 0.0;
    double groups = (r.data_parallel > 1) + (par.tensor > 1) + (par.pipeline > 1) + (par.expert > 1) + (par.context > 1);
    return std::max(1.0, groups);
}

// Which dtypes the activations of this scenario have.
struct ActivationDtypes {
    double matmul = 2;    // outputs of matmuls, bytes
    double residual = 2;  // the residual stream between layers
    bool autocast = false;  // PyTorch autocast: fp32 islands and one 16-bit cast per consuming matmul
    bool fp32 = false;
};

bool fsdp_sharded(const ParallelConfig& par) { return par.zero_impl == ZeroImpl::fsdp && par.zero_stage >= 1; }

ActivationDtypes activation_dtypes(const Scenario& sc) {
    ActivationDtypes d;
    const auto p = sc.training.precision;
    d.fp32 = p == Precision::fp32;
    d.matmul = f::activation_bytes(p);
    // FSDP's mixed precision casts the parameters (param_dtype) instead of autocasting: the
    // activations are then plain 16-bit tensors. [FSDP]
    d.autocast = f::is_amp(p) && !fsdp_sharded(sc.parallel) && sc.training.kernels != Kernels::fused;
    d.residual = d.fp32 || d.autocast ? 4.0 : d.matmul;
    return d;
}

bool gated_mlp(const ModelConfig& m) { return m.mlp == MlpKind::swiglu; }

// Whether attention runs a fused kernel that never materialises the scores. PyTorch's SDPA with
// grouped-query attention in fp32 has no fused backend (FlashAttention needs 16-bit inputs, the
// memory-efficient and cuDNN kernels do not broadcast K/V heads) and falls back to the math path,
// which keeps the probabilities like eager attention. [TORCH sdp_utils; pytorch/pytorch#181528]
bool fused_attention(const Scenario& sc, const ActivationDtypes& dt) {
    if (!sc.training.flash_attention) return false;
    const auto& m = sc.model;
    bool gqa = m.num_kv_heads > 0 && m.num_kv_heads < m.num_heads;
    return !(dt.fp32 && gqa && sc.training.kernels != Kernels::fused);
}

// Norms per layer; each keeps what the two pre-norms keep (Gemma 2's post-norms: the same inputs
// and, eager, the same fp32 copies).
double norms(const ModelConfig& m) { return double(m.norms_per_layer); }

// HF's Llama-family eager attention upcasts the softmax to fp32 and casts back; GPT-2-style
// (LayerNorm) models run the softmax in the activation dtype. [HF]
bool upcast_softmax(const ModelConfig& m) { return m.norm == NormKind::rmsnorm; }

// Llama-family models project Q, K, V (and gate, up) with separate linears; GPT-2/NeoX fuse QKV.
bool separate_qkv(const ModelConfig& m) { return !fused_qkv(m); }

struct Widths {
    double h, q, kv, f, k, a, s;  // hidden, query width a·d, key/value width g·d, MLP inner, MLPs/token, heads, seq
    double routed;                // experts a token is dispatched to (MoE), 1 for dense models
    double o = 0;                 // out-projection input a·d (MLA: a·d_v)
    double latent = 0;            // MLA: latent elements kept per token outside the TP region
};

// Multi-head latent attention [DeepSeek-V2, arXiv:2405.04434 §2.1; HF DeepseekV3Attention; Megatron
// MLASelfAttention]: the attention core sees Q and K of a·(d_n + d_R) and V of a·d_v (the widths
// kept as Q, K, V, so kv = (a·(d_n + d_R) + a·d_v)/2), the out-projection reads a·d_v; each latent
// keeps its RMSNorm input and the normalised copy its up-projection reads, 2·(d_c' + d_c) per
// token (the down-projections are not split by tensor parallelism).
void apply_latent_attention(const ModelConfig& m, Widths& w) {
    if (m.kv_lora_rank == 0) return;
    double a = double(m.num_heads), qk = double(m.qk_nope_head_dim + m.qk_rope_head_dim);
    double v = double(m.v_head_dim > 0 ? m.v_head_dim : m.qk_nope_head_dim);
    w.q = a * qk;
    w.kv = (a * qk + a * v) / 2.0;
    w.o = a * v;
    w.latent = 2.0 * double(m.q_lora_rank + m.kv_lora_rank);
}

// MoE: every token passes k routed and S shared experts of width f_e. A model's leading dense
// layers (DeepSeekMoE's first layer) are counted as MoE layers here: (k + S)·f_e ≈ f there
// (DeepSeekMoE-16B: 8 × 1408 = 11264 against 10944).
Widths widths(const Scenario& sc, const Layout& r) {
    const auto& m = sc.model;
    const bool moe = m.num_experts > 1;
    Widths w{double(m.hidden_size),
            double(m.num_heads) * double(r.head_dim),
            double(r.kv_heads) * double(r.head_dim),
            double(moe ? r.moe_ffn_hidden_size : r.ffn_hidden_size),
            double(m.experts_per_token + (moe ? m.num_shared_experts : 0)),
            double(m.num_heads),
            double(sc.training.seq_len),
            double(m.experts_per_token)};
    w.o = w.q;
    apply_latent_attention(m, w);
    return w;
}

// Fused kernels (Megatron / Transformer Engine) [MEGA-ACT §4.1, eq. 1–2]: two norm inputs, the
// QKV and MLP inputs, 1-byte dropout masks, Q, K, V, the out-projection input and the MLP inner
// tensors (GELU input + output = 2f; fused SwiGLU keeps fc1's output 2f and its own output f).
LayerActivationBytes fused_layer(const Scenario& sc, const Widths& w, const ActivationDtypes& dt) {
    const bool dropout = sc.training.dropout;
    const double e = dt.matmul;
    LayerActivationBytes l;
    l.norms = norms(sc.model) * e * w.h;
    l.linear_inputs = 2.0 * e * w.h;
    l.dropout_masks = dropout ? 2.0 * w.h : 0.0;
    l.qkv = e * (w.q + 2.0 * w.kv);
    l.attention = e * w.o;
    l.linear_inputs += e * w.latent;
    l.mlp = (gated_mlp(sc.model) ? 3.0 : 2.0) * e * w.f * w.k;
    if (sc.model.num_experts > 1) l.mlp += w.routed * e * w.h;  // tokens dispatched to their k experts
    // Softmax output 2 + dropout mask 1 + dropout output 2 = 5 per a·s (16-bit). [MEGA-ACT eq. 1]
    l.scores_per_as = e + (dropout ? 1.0 + e : 0.0);
    return l;
}

// Eager PyTorch modules as Hugging Face Transformers writes them [HF, TORCH]: RMSNorm keeps its
// fp32 upcast and the normalised 16-bit tensor; under autocast every matmul keeps its own 16-bit
// copy of its input and the residual stream is fp32; SwiGLU keeps gate, SiLU output, up and their
// product; GPT-2's "gelu_new" keeps five f-wide tensors; SDPA keeps Q, K, V, O and the fp32 lse.
LayerActivationBytes eager_layer(const Scenario& sc, const Widths& w, const ActivationDtypes& dt) {
    const auto& m = sc.model;
    const bool dropout = sc.training.dropout;
    const bool flash = fused_attention(sc, dt);
    const double e = dt.matmul;
    LayerActivationBytes l;
    // Norms (×2). RMSNorm: 16-bit input → fp32 copy 4h + normalised 16-bit 2h; fp32 input (fp32
    // training or autocast): the input itself 4h + normalised fp32 4h. LayerNorm keeps its input.
    double norm = m.norm == NormKind::rmsnorm ? (dt.residual == 4.0 ? 8.0 : 6.0) * w.h : dt.residual * w.h;
    l.norms = norms(m) * norm;
    // Inputs of the QKV and MLP-in projections: one shared tensor, or one 16-bit cast per matmul
    // under autocast (Q, K, V separate in Llama-family models; gate and up in gated MLPs).
    if (dt.autocast) {
        double attention_casts = separate_qkv(m) ? 3.0 : 1.0;
        double mlp_casts = gated_mlp(m) ? 2.0 : 1.0;
        l.linear_inputs = 2.0 * w.h * (attention_casts + mlp_casts);
    } else {
        l.linear_inputs = 2.0 * e * w.h;
    }
    l.linear_inputs += e * w.latent;
    l.dropout_masks = dropout ? 2.0 * w.h : 0.0;
    if (flash) {
        // SDPA FlashAttention: Q, K, V (GQA native), O, log-sum-exp fp32 per head. [FA2]
        l.qkv = e * (w.q + 2.0 * w.kv);
        l.attention = e * w.o + 4.0 * w.a;
        l.scores_per_as = 0;
    } else {
        // Eager attention: Q and K, V repeated to all heads (repeat_kv copies when g < a).
        double kv_kept = w.kv < w.q ? w.q : w.kv;
        l.qkv = e * (w.q + 2.0 * kv_kept);
        l.attention = e * w.o;  // the contiguous copy the out-projection keeps
        bool fp32_softmax = dt.fp32 || dt.autocast || upcast_softmax(m);
        double probs = fp32_softmax ? 4.0 : e;  // softmax output
        // The matmul with V keeps a 16-bit copy when the softmax ran in fp32 (or the dropout output).
        double to_value = dt.fp32 ? 0.0 : (fp32_softmax ? 2.0 : 0.0);
        l.scores_per_as = probs + (dropout ? 1.0 + (dt.fp32 ? 4.0 : 2.0) : to_value);
    }
    double mlp;
    if (gated_mlp(m)) {
        mlp = 4.0 * e * w.f;  // gate (SiLU input), SiLU output, up, product (down-projection input)
    } else if (m.activation == Activation::gelu_new) {
        // 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))): pow input, tanh output, 0.5·x, (1 + tanh),
        // product; under autocast pow runs in fp32 (fp32 copy), the tanh chain stays fp32.
        mlp = dt.autocast ? (4.0 + 4.0 + 2.0 + 4.0 + 2.0) * w.f : 5.0 * e * w.f;
    } else {
        mlp = 2.0 * e * w.f;  // activation input + output (down-projection input)
    }
    l.mlp = mlp * w.k;
    if (m.num_experts > 1) l.mlp += w.routed * 2.0 * e * w.h;  // gathered tokens and weighted outputs per expert
    return l;
}

// torch.compile (Inductor's min-cut partitioner) recomputes pointwise work in backward but keeps
// every tensor a backward matmul reads (ban_recompute_materialized_backward): each norm's input and
// output, SDPA's inputs and outputs, and the MLP tensors the weight gradients read (SwiGLU: fc1's
// gate and up and their product; GELU: fc1 output and activation output) — Korthikanti's fused set
// without the separate fp32 upcasts, with an fp32 residual stream under autocast. [TORCH: functorch partitioners]
LayerActivationBytes compiled_layer(const Scenario& sc, const Widths& w, const ActivationDtypes& dt) {
    const bool dropout = sc.training.dropout;
    const double e = dt.matmul;
    LayerActivationBytes l;
    l.norms = norms(sc.model) * dt.residual * w.h;
    l.linear_inputs = 2.0 * e * w.h;
    l.dropout_masks = dropout ? 2.0 * w.h : 0.0;
    l.qkv = e * (w.q + 2.0 * w.kv);
    l.attention = e * w.o + (fused_attention(sc, dt) ? 4.0 * w.a : 0.0);
    l.linear_inputs += e * w.latent;
    l.mlp = (gated_mlp(sc.model) ? 3.0 : 2.0) * e * w.f * w.k;
    if (sc.model.num_experts > 1) l.mlp += w.routed * e * w.h;
    l.scores_per_as = fused_attention(sc, dt) ? 0.0 : e + (dropout ? 1.0 + e : 0.0);
    return l;
}

// Bytes per token a linear-attention / Mamba layer keeps for its backward, approximated as the
// outputs of its projections and of its convolution (not a measured set). Gated DeltaNet [HF
// Qwen3NextGatedDeltaNet]: q,k,v,z (2k + 2v), b and a (2·n_v), the convolved q,k,v (2k + v), the
// core output and the gated norm's output (2v). Mamba [HF JambaMambaMixer]: x and z (2·d_i), the
// convolved x (d_i), x_proj's output (R + 2N), Δ (d_i), y and the gated output (2·d_i).
double linear_layer_bytes(const ModelConfig& m, double e) {
    if (m.linear_attention == LinearAttention::mamba) {
        double inner = double(m.ssm_expand) * double(m.hidden_size);
        double rank = double((m.hidden_size + 15) / 16);
        return e * (6.0 * inner + rank + 2.0 * double(m.ssm_state_size));
    }
    double k = double(m.linear_num_key_heads) * double(m.linear_key_head_dim);
    double v = double(m.linear_num_value_heads) * double(m.linear_value_head_dim);
    return e * ((2.0 * k + 2.0 * v) + 2.0 * double(m.linear_num_value_heads) + (2.0 * k + v) + 2.0 * v);
}

// Hybrid stacks: the per-layer figure is the mean over the stack, the linear layers keeping their
// projections in place of Q, K, V, O and no attention scores (formulas.hpp linear_layer_count).
void mix_linear_layers(const ModelConfig& m, double e, LayerActivationBytes& l) {
    const double linear = double(f::linear_layer_count(m));
    if (linear == 0) return;
    const double share = linear / double(m.layers);
    l.qkv = (1.0 - share) * l.qkv + share * linear_layer_bytes(m, e);
    l.attention *= 1.0 - share;
    l.scores_per_as *= 1.0 - share;
}

// What one layer keeps when nothing is recomputed.
LayerActivationBytes full_layer(const Scenario& sc, const Widths& w, const ActivationDtypes& dt) {
    LayerActivationBytes l;
    switch (sc.training.kernels) {
        case Kernels::fused: l = fused_layer(sc, w, dt); break;
        case Kernels::eager: l = eager_layer(sc, w, dt); break;
        case Kernels::compiled: l = compiled_layer(sc, w, dt); break;
    }
    if (fused_attention(sc, dt)) l.scores_per_as = 0;  // scores never materialised [FA2]
    apply_fp8_saved_inputs(sc.training, dt.matmul, w.h, w.f * w.k, w.o, l);  // Transformer Engine FP8 (fp8.hpp)
    mix_linear_layers(sc.model, dt.matmul, l);
    return l;
}

// What one checkpointed layer keeps between its forward and its backward.
LayerActivationBytes checkpointed_layer(const Scenario& sc, const Widths& w, const ActivationDtypes& dt,
                                        const LayerActivationBytes& full) {
    LayerActivationBytes l;
    switch (sc.training.recompute) {
        case Recompute::none: return full;
        case Recompute::selective:
            // Korthikanti's selective recomputation: the attention core (scores, softmax, dropout)
            // is recomputed, everything else kept: sbh·(10 + 24/t). [MEGA-ACT §5, TM101]
            l = full;
            l.scores_per_as = 0;
            return l;
        case Recompute::full:
            // Only the layer's input: 2·s·b·h in 16 bits (4 when the residual stream is fp32). [TM101]
            l.checkpoint = dt.residual * w.h;
            return l;
        case Recompute::ops: {
            // Op-level selective checkpointing (torchtitan "selective op", PyTorch SAC): the layer
            // input, the attention output and log-sum-exp, and every second matmul's output in
            // forward order (Q, V, gate, down for Llama-family layers; QKV, fc1 for fused QKV).
            const double e = dt.matmul;
            l.checkpoint = dt.residual * w.h;
            l.attention = e * w.o + 4.0 * w.a;
            if (separate_qkv(sc.model)) {
                l.qkv = e * (w.q + w.kv);
                l.mlp = (gated_mlp(sc.model) ? e * w.f : 0.0) * w.k;
                l.linear_inputs = gated_mlp(sc.model) ? e * w.h : 0.0;  // down-projection output
            } else {
                l.qkv = e * (w.q + 2.0 * w.kv);
                l.mlp = e * w.f * w.k;
            }
            l.scores_per_as = fused_attention(sc, dt) ? 0.0 : e;  // attention probabilities
            return l;
        }
    }
    return full;
}

// LoRA / QLoRA on a frozen base [PEFT; TORCH]. Autograd keeps a tensor only for a gradient that
// is needed: a frozen linear keeps no input (mm saves its input only for the weight's gradient), a
// frozen RMSNorm only its fp32 upcast (the normalised tensor is kept for the weight's gradient), the
// out-projection's input only as FlashAttention's output, the down-projection's input (and an MoE
// expert's gathered tokens) not at all. Each adapter keeps its input — shared with the other
// adapters reading the same tensor when nothing casts it, else its own copy: PEFT casts the input to
// the adapter's dtype and autocast casts it back, and with lora_dropout > 0 a 1-byte mask and the
// dropped copy — and its r-wide intermediate (lora_B's input).
LayerActivationBytes adapter_layer(const Scenario& sc, const Layout& r, const Widths& w,
                                   const ActivationDtypes& dt, LayerActivationBytes l) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const double e = dt.matmul;
    const bool eager = tr.kernels == Kernels::eager;
    const bool flash = fused_attention(sc, dt);  // FlashAttention keeps O (the o input); the math path does not
    if (eager && m.norm == NormKind::rmsnorm) l.norms = norms(m) * 4.0 * w.h;
    l.linear_inputs = 0;
    if (!flash) l.attention = std::max(0.0, l.attention - e * w.o);
    const bool gelu_new_autocast = eager && dt.autocast && m.mlp == MlpKind::gelu && m.activation == Activation::gelu_new;
    const double inner_bytes = gelu_new_autocast ? 2.0 : e;  // the down-projection's input
    l.mlp -= inner_bytes * w.f * w.k;
    if (m.num_experts > 1) l.mlp -= w.routed * e * w.h;  // gathered tokens read only by the experts' weight gradients

    // Adapters. Matmul dtype: 16-bit under autocast, else the adapter's own dtype — under FSDP's mixed
    // precision its param_dtype, to which FSDP casts every parameter (fp32 adapters too) for forward and
    // backward [torch.distributed.fsdp MixedPrecision / FSDP2 MixedPrecisionPolicy param_dtype]; PEFT
    // then casts the input to lora_A.weight.dtype, a no-op for a 16-bit input, so it stays shared
    // [peft/tuners/lora/layer.py Linear.forward, _cast_input_dtype; lora/bnb.py Linear4bit.forward].
    const bool fsdp_mixed = f::is_amp(tr.precision) && fsdp_sharded(sc.parallel);
    const double adapter_bytes = fsdp_mixed ? e
                                 : tr.adapter_dtype == AdapterDtype::fp32 ? 4.0 : f::weight_bytes_per_param(tr.precision);
    const double ac = dt.autocast ? 2.0 : adapter_bytes;
    const bool dropout = tr.lora_dropout > 0;
    // The four tensors adapters read (attention input, attention output, MLP input, MLP inner), their
    // bytes, whether the frozen base keeps them anyway, how many adapters read them and their width
    // per token (an MoE token reaches k experts: k rows of d_in).
    const double norm_out = eager && dt.autocast ? 4.0 : e;
    struct Input {
        double bytes;
        bool kept;
        double adapters = 0, width = 0;
    };
    // Expert linears read gathered copies (k rows per token): groups 4..7.
    std::array<Input, 8> inputs = {{{norm_out, false}, {e, flash}, {norm_out, false}, {inner_bytes, false},
                                    {e, false}, {e, false}, {e, false}, {inner_bytes, false}}};
    double kept = 0;
    const LayerLinears linears = layer_linears(m, r);  // all() views it: keep it alive
    for (const LayerLinear& lin : linears.all()) {
        if (!(lin.modules & tr.lora_targets)) continue;
        double routed = lin.expert ? w.routed : 1.0;
        Input& in = inputs[std::size_t(lin.input) + (lin.expert ? 4 : 0)];
        in.adapters += 1;
        in.width = lin.d_in * routed;
        kept += routed * double(tr.lora_rank) * ac;  // lora_A's output, kept by lora_B
    }
    for (const Input& in : inputs) {
        if (in.adapters == 0) continue;
        // bitsandbytes' LoRA path skips PEFT's cast under autocast, so a 16-bit input stays shared.
        bool no_cast = dt.autocast ? (tr.method == TrainingMethod::qlora && in.bytes == 2.0) : adapter_bytes == in.bytes;
        if (!dropout && no_cast)
            kept += in.kept ? 0.0 : in.bytes * in.width;
        else
            kept += in.adapters * (ac + (dropout ? 1.0 : 0.0)) * in.width;
    }
    l.adapters = kept;
    return l;
}

// Bytes of one layer's activations for one micro-batch on one GPU.
struct LayerSplit {
    double t = 1, sequence_split = 1, zero_r = 1;
};

double layer_bytes(const LayerActivationBytes& l, const Widths& w, double tokens, const LayerSplit& sp) {
    double per_token = l.replicated() / sp.sequence_split + l.tensor_parallel() / sp.t;
    double scores = l.scores_per_as * w.a * w.s / sp.t;
    return tokens * (per_token + scores) / sp.zero_r;
}

// Bytes per logit element the loss holds. [TORCH: cross_entropy = log_softmax + nll_loss; MEGA-ACT §4.3]
LossBytesPerLogit loss_bytes_per_logit(const TrainingConfig& tr, double logit_bytes) {
    LossBytesPerLogit b;
    const double upcast = logit_bytes < 4.0 ? 4.0 : 0.0;  // logits.float() when the logits are 16-bit
    switch (tr.loss) {
        case Loss::standard:
            if (tr.kernels == Kernels::fused) {
                // Megatron's vocab-parallel cross-entropy: fp32 softmax kept (4·s·b·V/t), the
                // gradient written in place; the 16-bit logits live only while being upcast. [MEGA-ACT §4.3]
                b.saved = 4.0;
                b.forward_peak = logit_bytes + upcast;
                b.backward_peak = 4.0 + logit_bytes;
            } else if (tr.kernels == Kernels::compiled) {
                // Compiled blocks, logits upcast outside them (torchtune, torchtitan): the fused
                // cross-entropy keeps the fp32 logits and writes one fp32 gradient.
                b.saved = 4.0;
                b.forward_peak = logit_bytes + upcast;
                b.backward_peak = 8.0;
            } else {
                // F.cross_entropy(logits.float()): forward holds the logits, their fp32 copy and the
                // fp32 log-probabilities (kept); backward the log-probabilities, the NLL gradient and
                // the log-softmax gradient, all fp32.
                b.saved = 4.0;
                b.forward_peak = logit_bytes + upcast + 4.0;
                b.backward_peak = 12.0;
            }
            break;
        case Loss::chunked: {
            // torchtune CEWithChunkedOutputLoss: all chunks' logits are computed first; each chunk
            // is upcast and its log-probabilities kept; backward works one chunk at a time. Compiled
            // (compute_cross_entropy under torch.compile), the upcast fuses into the loss kernel,
            // which keeps the 16-bit chunk logits instead of fp32 log-probabilities.
            double n = double(std::max<std::int64_t>(1, tr.loss_chunks));
            if (tr.kernels == Kernels::compiled) {
                b.saved = logit_bytes;
                b.forward_peak = logit_bytes;
                b.backward_peak = logit_bytes + (logit_bytes + 4.0) / n;
            } else {
                b.saved = 4.0;
                b.forward_peak = logit_bytes + 4.0 + upcast / n;
                b.backward_peak = 4.0 + (8.0 + logit_bytes) / n;
            }
            break;
        }
        case Loss::fused:
            // Fused linear cross-entropy (Liger, Cut Cross-Entropy): logits exist one chunk at a
            // time and never reach the timeline as a full tensor (see loss_token_bytes).
            b.saved = 0;
            b.forward_peak = 0;
            b.backward_peak = 0;
            break;
    }
    return b;
}

// A stage's largest phase (its timeline is written where the caller keeps it).
struct StagePeak {
    double peak = -1;
    StepPhase phase = StepPhase::forward;
};

StagePeak largest_phase(const MemoryTimeline& timeline) {
    StagePeak largest;
    for (StepPhase p : all_step_phases) {
        double total = timeline.at(p).total();
        if (total > largest.peak) {
            largest.peak = total;
            largest.phase = p;
        }
    }
    return largest;
}

PhaseMemory larger(const PhaseMemory& a, const PhaseMemory& b) { return a.total() >= b.total() ? a : b; }

}  // namespace

const char* step_phase_id(StepPhase phase) {
    switch (phase) {
        case StepPhase::forward: return "forward";
        case StepPhase::loss: return "loss";
        case StepPhase::backward: return "backward";
        case StepPhase::optimizer_step: return "optimizer_step";
    }
    return "";
}

const char* step_phase_label(StepPhase phase) {
    switch (phase) {
        case StepPhase::forward: return "Forward";
        case StepPhase::loss: return "Loss";
        case StepPhase::backward: return "Backward";
        case StepPhase::optimizer_step: return "Optimizer step";
    }
    return "";
}

namespace {

// ── Stage 0: what one GPU holds of the parameters, and what of them trains ──
// [TM101 "3D parallelism"; ZERO §5; docs/formulas.md "Fine-tuning"]
struct ParameterShards {
    double t = 1, pp = 1, dp = 1, ep = 1, model_parallel = 1, expert_dp = 1;
    double dense_per_gpu = 0, expert_per_gpu = 0, params_per_gpu = 0;  // before ZeRO (P/(t·p), experts /ep)
    double trainable_dense = 0, trainable_expert = 0;  // on the stage holding most of them
    double layers_per_stage = 0;
    double trained = 0, trained_last = 0, trained_first = 0;  // trained layers: all, last stage, first stage
    int stage = 0;  // ZeRO stage
    bool fsdp = false, full_training = true, adapters = false, fp32_adapters = false;
    double compute_param_bytes = 2;  // dtype parameters are gathered/cast to
    BytesPerParameter trainable_bytes;
    double trainable_state_bytes = 0, trainable_master_bytes = 0;
    double base_bytes_per_param = 0;  // the frozen base in its storage, averaged over the base
    // Parameters on this GPU, ZeRO-sharded over DP (experts over DP/ep) when `shard`.
    double sharded(bool shard) const { return shard ? dense_per_gpu / dp + expert_per_gpu / expert_dp : params_per_gpu; }
    double sharded_trainable(bool shard) const {
        return shard ? trainable_dense / dp + trainable_expert / expert_dp : trainable_dense + trainable_expert;
    }
};

ParameterShards parameter_shards(const Scenario& sc, const Layout& r, const ParameterCounts& P,
                                 const BytesPerParameter& bpp, const ActivationDtypes& dt) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const auto& par = sc.parallel;
    ParameterShards S;
    S.t = double(par.tensor), S.pp = double(par.pipeline), S.dp = sharding_groups(par, r).shard;  // DP·cp, or the HSDP shard group
    S.model_parallel = S.t * S.pp;
    const double expert_params = P.overridden ? 0.0 : (double(m.layers) - P.dense_layers) * P.expert_per_layer;
    S.ep = double(par.expert);
    S.dense_per_gpu = (P.total - expert_params) / S.model_parallel;
    S.expert_per_gpu = expert_params / (S.model_parallel * S.ep);
    S.params_per_gpu = S.dense_per_gpu + S.expert_per_gpu;
    S.expert_dp = std::max(1.0, S.dp / S.ep);
    S.stage = par.zero_stage;
    S.fsdp = fsdp_sharded(par);
    S.compute_param_bytes = dt.fp32 ? 4.0 : 2.0;
    S.full_training = tr.method == TrainingMethod::full;
    S.adapters = is_adapter_method(tr.method);
    S.layers_per_stage = ceil_div(m.layers, par.pipeline);
    // Trained layers on the first and on the last pipeline stage (freeze trains the last k layers).
    S.trained = P.trained_layers;
    S.trained_last = std::min(S.trained, S.layers_per_stage);
    S.trained_first = std::min(S.layers_per_stage, std::max(0.0, S.trained - (double(m.layers) - S.layers_per_stage)));
    // Trainable parameters on this GPU before ZeRO, dense and expert, on the stage holding most of them.
    S.trainable_dense = S.dense_per_gpu, S.trainable_expert = S.expert_per_gpu;
    if (S.adapters) {
        S.trainable_dense = (P.adapter - P.adapter_expert) / S.model_parallel;
        S.trainable_expert = P.adapter_expert / (S.model_parallel * S.ep);
    } else if (!S.full_training) {
        double scale = P.per_layer > 0 ? P.trainable / (S.trained * P.per_layer) : 0.0;  // params_override
        S.trainable_dense = S.trained_last * (P.per_layer - P.expert_per_layer) * scale / S.t;
        S.trainable_expert = S.trained_last * P.expert_per_layer * scale / (S.t * S.ep);
    }
    // Bytes per trainable parameter: LoRA adapters in fp32 (PEFT) have fp32 gradients and AdamW
    // states and no master copy; everything else follows the precision.
    S.fp32_adapters = S.adapters && tr.adapter_dtype == AdapterDtype::fp32;
    S.trainable_bytes =
        S.fp32_adapters ? BytesPerParameter{4.0, 4.0, f::optimizer_bytes_per_param(Precision::fp32, tr.optimizer)} : bpp;
    S.trainable_state_bytes = S.fp32_adapters ? 4.0 : f::optimizer_state_bytes(tr.precision);
    S.trainable_master_bytes = !S.fp32_adapters && f::is_mixed(tr.precision) ? 4.0 : 0.0;
    // The frozen base in its storage: 16-bit (or the precision's weight dtype), QLoRA's quantised
    // linears with their constants. Per parameter, averaged over the base.
    const double quantized_share = P.total > 0 ? P.quantized / P.total : 0.0;
    S.base_bytes_per_param = (1.0 - quantized_share) * bpp.weights + (P.total > 0 ? P.quantized_bytes / P.total : 0.0);
    return S;
}

// ── Stage 1: model states (parameters, gradients, optimizer states) on one GPU ──

// FSDP with mixed precision keeps the fp32 master as the sharded parameter and casts a 16-bit
// copy only for the layers being computed. [FSDP]
bool no_persistent_16bit(const Scenario& sc, const ParameterShards& S) {
    return S.fsdp && S.stage >= 3 && f::is_mixed(sc.training.precision);
}

// Weights, gradients and optimizer states (all on the GPU, before any offload), ZeRO-sharded.
ModelStates sharded_states(const Scenario& sc, const ParameterCounts& P, const BytesPerParameter& bpp,
                           const ParameterShards& S) {
    ModelStates ms;
    const int stage = S.stage;
    if (S.full_training) {
        ms.weights = no_persistent_16bit(sc, S) ? 0.0 : S.sharded(stage >= 3) * bpp.weights;
        ms.gradients = S.sharded(stage >= 2) * bpp.gradients;
        ms.optimizer = S.sharded(stage >= 1) * bpp.optimizer;
        return ms;
    }
    // Frozen base weights in their storage dtype, trainable ones (adapters, trained layers) with
    // gradients and optimizer states. [LORA §4.2; QLORA §3]
    double shard_base = stage >= 3 && S.params_per_gpu > 0 ? S.sharded(true) / S.params_per_gpu : 1.0;
    double trainable_in_base = S.adapters ? 0.0 : S.sharded_trainable(false);
    // QLoRA's quantisation constants live beside the packed codes (bitsandbytes QuantState, torchao
    // NF4Tensor scalers) and stay whole on every GPU when FSDP / ZeRO-3 shards the codes.
    double constants = P.quantization_constants / S.model_parallel;
    ms.frozen_weights = (S.params_per_gpu - trainable_in_base) * S.base_bytes_per_param * shard_base + constants * (1.0 - shard_base);
    double trainable_weights = no_persistent_16bit(sc, S) && !S.fp32_adapters ? 0.0 : S.sharded_trainable(stage >= 3) * S.trainable_bytes.weights;
    ms.weights = ms.frozen_weights + trainable_weights;
    ms.gradients = S.sharded_trainable(stage >= 2) * S.trainable_bytes.gradients;
    ms.optimizer = S.sharded_trainable(stage >= 1) * S.trainable_bytes.optimizer;
    return ms;
}

// One layer's parameters on this GPU (upper bound).
double layer_params_on_gpu(const ModelConfig& m, const ParameterCounts& P, const ParameterShards& S) {
    return P.per_layer / S.t / (m.num_experts > 1 ? S.ep : 1.0);
}

// ZeRO-3 / FSDP parameters gathered for compute, bytes. Gathered layer parameters are in the
// compute dtype, or QLoRA's quantised storage (FSDP gathers the packed codes).
double live_params(const Scenario& sc, const ParameterCounts& P, const ParameterShards& S) {
    const auto& m = sc.model;
    if (S.stage < 3) return 0.0;
    const double compute_param_bytes = S.compute_param_bytes;
    double gathered_bytes_per_param = compute_param_bytes;
    if (sc.training.method == TrainingMethod::qlora && P.per_layer > 0) {
        double layer_quantized = P.quantized / double(m.layers);
        double layer_quantized_bytes = P.quantized_bytes / double(m.layers);
        gathered_bytes_per_param = ((P.per_layer - layer_quantized) * compute_param_bytes + layer_quantized_bytes) / P.per_layer;
    }
    if (S.fsdp) {
        // FSDP2 unshards the current and the prefetched block; the root module (embeddings,
        // LM head) stays gathered; with pipeline stages the whole stage stays unsharded.
        double layer_params = layer_params_on_gpu(m, P, S);
        double root_params = (P.embedding + P.lm_head + P.final_norm) / S.t;
        double gathered = S.pp > 1 ? S.params_per_gpu : std::min(S.params_per_gpu, 2.0 * layer_params + root_params);
        double gathered_layers = std::max(0.0, gathered - root_params);
        return S.full_training ? gathered * compute_param_bytes
                               : gathered_layers * gathered_bytes_per_param + (gathered - gathered_layers) * compute_param_bytes;
    }
    // DeepSpeed stage3_max_live_parameters bounds the gathered parameters. [TM101 "ZeRO-3"]
    return std::min(sc.parallel.zero3_live_params, S.params_per_gpu) * (S.full_training ? compute_param_bytes : gathered_bytes_per_param);
}

// Optimizer states kept off the GPU's allocator: offloaded to the host (ZeRO-Offload), or
// bitsandbytes paged optimizers, whose states live in CUDA unified memory, paged to the host under
// pressure: they never cause an out-of-memory error.
double host_optimizer_states(const Scenario& sc, const BytesPerParameter& bpp, const ParameterShards& S,
                             double optimizer_bytes) {
    const auto& tr = sc.training;
    double host_states = (sc.parallel.offload_optimizer || sc.parallel.offload_params) ? optimizer_bytes : 0.0;
    if (host_states == 0 && tr.paged_optimizer) {
        if (S.full_training) {
            double master = f::is_mixed(tr.precision) ? 4.0 : 0.0;
            host_states = S.sharded(S.stage >= 1) * (bpp.optimizer - master);
        } else {
            host_states = S.sharded_trainable(S.stage >= 1) * (S.trainable_bytes.optimizer - S.trainable_master_bytes);
        }
    }
    return host_states;
}

// The matmul weights of one GPU that autocast casts (and FP8 recipes copy): every layer's (norms
// excluded) and the LM head; fine-tuning: only those that require grad. [TORCH autocast]
double cast_matmul_params(const Scenario& sc, const ParameterCounts& P, const ParameterShards& S) {
    const auto& m = sc.model;
    // Matmul weights: every layer's (norms excluded) and the LM head, which a tied model casts from
    // the embedding table.
    double head_params = double(m.vocab_size) * double(m.hidden_size);
    double matmul_params = std::max(0.0, S.params_per_gpu - (P.embedding + P.final_norm + P.lm_head) / S.model_parallel -
                                             double(m.layers) * double(m.norms_per_layer) * f::norm_params(m) / S.model_parallel) +
                           head_params / S.model_parallel;
    if (!S.full_training) {
        // Autocast caches only weights that require grad; a frozen weight's cast is kept by its matmul
        // when the matmul's input needs a gradient (every layer from the first trained one), and
        // QLoRA's quantised weights are dequantised per use instead. [TORCH autocast_mode.cpp]
        double head_matmul = head_params / S.model_parallel;
        double layer_matmul = std::max(0.0, matmul_params - head_matmul);
        double quantized_per_gpu = P.quantized / S.model_parallel;  // experts are rarely split for QLoRA
        matmul_params = std::max(0.0, layer_matmul * S.trained / std::max(1.0, double(m.layers)) - quantized_per_gpu) +
                        head_matmul + (S.fp32_adapters ? S.sharded_trainable(false) : 0.0);
    }
    return matmul_params;
}

// Communication buckets: PyTorch DDP copies gradients into flat buckets (gradient_as_bucket_view
// off by default); DeepSpeed ZeRO-1/2 double-buffers a reduce bucket. [TORCH DDP; DeepSpeed config docs]
double communication_buckets(const Scenario& sc, const BytesPerParameter& bpp, const ParameterShards& S) {
    const auto& tr = sc.training;
    const int stage = S.stage;
    const double dp = S.dp, h = double(sc.model.hidden_size);
    double buckets = 0;
    bool ddp = stage == 0 && dp > 1 &&
               (tr.framework == Framework::hf || tr.framework == Framework::torchtune || tr.framework == Framework::fsdp);
    if (ddp) buckets = S.full_training ? S.params_per_gpu * bpp.gradients : S.sharded_trainable(false) * S.trainable_bytes.gradients;
    if (tr.framework == Framework::deepspeed && (stage == 1 || stage == 2) && dp > 1)
        buckets = 2.0 * h * h * 2.0;  // reduce_bucket_size "auto" = h² elements, 16-bit
    return buckets;
}

// Optimizer-step temporaries: foreach AdamW allocates sqrt(v) for every parameter it updates;
// DeepSpeed ZeRO-1/2 upcasts its gradient partition to fp32. [TORCH optim; DeepSpeed stage_1_and_2.py]
double optimizer_temporaries(const Scenario& sc, const ParameterShards& S, double host_states) {
    const auto& tr = sc.training;
    const int stage = S.stage;
    double temporaries = 0;
    bool adam = tr.optimizer == Optimizer::adamw;
    if (!tr.optimizer_in_backward && host_states == 0 && !tr.paged_optimizer) {
        double stepped = S.full_training ? S.sharded(stage >= 1) : S.sharded_trainable(stage >= 1);
        if (tr.optimizer_impl == OptimizerImpl::foreach && adam)
            temporaries = stepped * (S.full_training ? f::optimizer_state_bytes(tr.precision) : S.trainable_state_bytes);
        if (tr.framework == Framework::deepspeed && (stage == 1 || stage == 2) && S.trainable_master_bytes > 0)
            temporaries = std::max(temporaries, (S.full_training ? S.sharded(true) : S.sharded_trainable(true)) * 4.0);
    }
    return temporaries;
}

// Model states on the GPU, and what offloading moved to the host.
struct GpuModelStates {
    ModelStates bytes;
    double host_states = 0;           // optimizer states on the host (offloaded or paged)
    double host_params = 0;           // parameters and gradients on the host (offload_params with ZeRO-3)
    double layer_trainable = 0;       // trainable parameters of one layer on this GPU
    double layer_gradient_bytes = 0;  // and their gradient bytes
};

GpuModelStates model_states(const Scenario& sc, const ParameterCounts& P, const BytesPerParameter& bpp,
                            const ParameterShards& S, const ActivationDtypes& dt) {
    const auto& m = sc.model;
    GpuModelStates out;
    ModelStates& ms = out.bytes;
    ms = sharded_states(sc, P, bpp, S);
    const double optimizer_bytes = ms.optimizer;
    ms.live_params = live_params(sc, P, S);
    out.host_states = host_optimizer_states(sc, bpp, S, optimizer_bytes);
    ms.optimizer = optimizer_bytes - out.host_states;
    // Trainable parameters of one layer on this GPU and their gradient bytes.
    out.layer_trainable = S.adapters && m.layers > 0 ? P.adapter / double(m.layers) / S.t : layer_params_on_gpu(m, P, S);
    out.layer_gradient_bytes = out.layer_trainable * S.trainable_bytes.gradients;
    if (sc.parallel.offload_params && S.stage >= 3) {
        out.host_params = ms.weights + ms.gradients;
        ms.weights = 0;
        ms.frozen_weights = 0;
        ms.gradients = out.layer_gradient_bytes;  // one layer's gradients on their way to the host
    }
    // Autocast caches a 16-bit copy of every matmul weight during forward; each is kept by its
    // matmul until that layer's backward. [TORCH autocast]
    const double matmul_params = cast_matmul_params(sc, P, S);
    if (dt.autocast) ms.autocast_copies = 2.0 * matmul_params;
    // Transformer Engine's FP8 weight copies of every linear (the LM head stays 16-bit) (fp8.hpp).
    const double head_params = double(m.vocab_size) * double(m.hidden_size) / S.model_parallel;
    ms.fp8_weight_copies = fp8_weight_copy_bytes(sc.training, std::max(0.0, matmul_params - head_params));
    ms.weights += ms.fp8_weight_copies;
    ms.buckets = communication_buckets(sc, bpp, S);
    ms.optimizer_temporaries = optimizer_temporaries(sc, S, out.host_states);
    // QLoRA: a quantised weight is dequantised to 16 bits for its matmul in forward and again for the
    // input gradient in backward (bitsandbytes MatMul4Bit, torchao linear_nf4), one at a time.
    ms.dequantized = P.largest_quantized_matrix * S.compute_param_bytes / S.t;
    return out;
}

// ── Stage 2: activations [MEGA-ACT, HF, TORCH] ──

// The activations of one step (in the caller's ActivationBreakdown) and the figures the timeline
// needs besides them.
struct StepActivations {
    ActivationBreakdown& a;
    double full_bytes = 0, kept_bytes = 0;  // one layer, one micro-batch: as computed / as checkpointed
    double embedding_in_flight = 0;         // micro-batches whose embedding output the first stage keeps
    double last_stage_bytes = 0;            // one micro-batch's layer activations on the last stage
    double gpu_layer_bytes = 0;             // layer activations left on the GPU (activation offloading)
    double loss_saved = 0;                  // what the loss keeps from forward to backward, bytes
    double logit_bytes = 2;                 // bytes of one logit element
    bool scores_materialised = false;       // attention scores exist as a tensor (no fused kernel)
};

LayerSplit layer_split(const ParallelConfig& par) {
    const bool sp_on = par.sequence_parallel && par.tensor > 1;
    LayerSplit split;
    split.t = double(par.tensor);
    split.sequence_split = sp_on ? split.t : 1.0;
    split.zero_r = (par.partition_activations && !sp_on) ? split.t : 1.0;  // ZeRO-R partition_activations [TM101]
    return split;
}

// What each layer keeps, the layers recomputed and the micro-batches in flight on the first stage.
void layer_activations(const Scenario& sc, const Layout& r, const Widths& w, const ActivationDtypes& dt,
                       const ParameterShards& S, StepActivations& out) {
    const auto& tr = sc.training;
    const auto& par = sc.parallel;
    auto& a = out.a;
    const double t = S.t, h = w.h, tokens = tokens_per_gpu(tr, par);  // b·s/cp
    const LayerSplit split = layer_split(par);
    const LayerActivationBytes full =
        S.adapters ? adapter_layer(sc, r, w, dt, full_layer(sc, w, dt)) : full_layer(sc, w, dt);
    const LayerActivationBytes kept = checkpointed_layer(sc, w, dt, full);
    const double full_bytes = out.full_bytes = layer_bytes(full, w, tokens, split);
    const double kept_bytes = out.kept_bytes = layer_bytes(kept, w, tokens, split);

    a.layers_on_gpu = S.layers_per_stage;
    bool layer_recompute = tr.recompute == Recompute::full || tr.recompute == Recompute::ops;
    a.recomputed_layers = !layer_recompute ? (tr.recompute == Recompute::selective ? a.layers_on_gpu : 0.0)
                          : tr.recompute_layers > 0 ? std::min(double(tr.recompute_layers), a.layers_on_gpu)
                                                    : a.layers_on_gpu;
    double all_recomputed = a.recomputed_layers >= a.layers_on_gpu;
    a.layer = all_recomputed ? kept : full;
    a.per_layer_bytes = all_recomputed ? kept_bytes : full_bytes;
    a.sbh_coefficient = (a.layer.replicated() / split.sequence_split + a.layer.tensor_parallel() / t) / h / split.zero_r;
    a.as2b_coefficient = a.layer.scores_per_as / t / split.zero_r;
    // 1F1B: the first stage keeps p micro-batches in flight (fewer if the step has fewer). Interleaved
    // 1F1B with v chunks per rank keeps L·(1 + (p−1)/(p·v)) layers, i.e. p + (p−1)/v stages' worth,
    // at most all m micro-batches. [MEGA-ACT §4.2.3; Narayanan et al. 2021, arXiv:2104.04473, §2.2.2]
    const double pp_stages = double(par.pipeline), accum = double(r.grad_accum_steps);
    const bool interleaved = par.pipeline > 1 && par.interleave > 1;
    a.in_flight_microbatches = interleaved ? std::min(pp_stages + (pp_stages - 1) / double(par.interleave), accum)
                                           : std::min(pp_stages, accum);
    // The embedding lives in rank 0's first chunk, which holds up to 2p − 1 micro-batches when interleaved.
    out.embedding_in_flight = interleaved ? std::min(2 * pp_stages - 1, accum) : a.in_flight_microbatches;
    // One micro-batch's activations of `n` layers that keep any (layers below the first trained one
    // build no autograd graph and keep nothing).
    auto stage_layer_bytes = [&](double n) {
        if (tr.recompute == Recompute::selective) return n * kept_bytes;
        double recomputed = std::min(a.recomputed_layers, n);
        return recomputed * kept_bytes + (n - recomputed) * full_bytes;
    };
    double stage_bytes = stage_layer_bytes(S.full_training ? a.layers_on_gpu : S.trained_first);
    out.last_stage_bytes = S.full_training ? stage_bytes : stage_layer_bytes(S.trained_last);
    a.transformer_layers_bytes = stage_bytes * a.in_flight_microbatches;
}

// Last stage: the final norm's input (and what an eager norm saves) and the LM head's input, bytes. [MEGA-ACT §4.3]
double output_activation_bytes(const Scenario& sc, const ActivationDtypes& dt, double tokens, double seq_split,
                               bool full_training) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const double h = double(m.hidden_size);
    double final_norm_per_token = 0, head_input_per_token = 0;
    switch (tr.kernels) {
        case Kernels::fused: final_norm_per_token = dt.matmul * h; head_input_per_token = dt.matmul * h; break;
        case Kernels::eager:
            final_norm_per_token = m.norm == NormKind::rmsnorm ? (dt.residual == 4.0 ? 8.0 : 6.0) * h : dt.residual * h;
            head_input_per_token = dt.autocast ? 2.0 * h : dt.matmul * h;
            break;
        case Kernels::compiled: final_norm_per_token = dt.residual * h; break;
    }
    if (!full_training) {
        // Frozen final norm and LM head: the head keeps no input, an eager RMSNorm only its fp32 upcast.
        head_input_per_token = 0;
        if (tr.kernels == Kernels::eager && m.norm == NormKind::rmsnorm) final_norm_per_token = 4.0 * h;
    }
    return tokens * (final_norm_per_token + head_input_per_token) / seq_split;
}

// The loss: logits s·b·V/t elements (vocab-parallel under TP). [MEGA-ACT §4.3]
void loss_activations(const Scenario& sc, const ActivationDtypes& dt, double tokens, double t, StepActivations& out) {
    const auto& tr = sc.training;
    auto& a = out.a;
    const double h = double(sc.model.hidden_size);
    const double logit_bytes = out.logit_bytes = dt.fp32 ? 4.0 : 2.0;
    a.logits_elements = tokens * double(sc.model.vocab_size) / t;
    a.loss_per_logit = loss_bytes_per_logit(tr, logit_bytes);
    double loss_saved = a.loss_per_logit.saved * a.logits_elements;
    double loss_peak = std::max(a.loss_per_logit.forward_peak, a.loss_per_logit.backward_peak) * a.logits_elements;
    if (tr.loss == Loss::fused) {
        // Fused linear cross-entropy computes the hidden-state gradient in forward (kept) and one
        // chunk of ≈ s·b·h/V rows of logits at a time (16-bit logits, fp32 softmax and gradient). [Liger-Kernel]
        loss_saved = tokens * dt.matmul * h;
        loss_peak = loss_saved + tokens * (logit_bytes + 8.0) * h;
    }
    out.loss_saved = loss_saved;
    a.loss_peak_bytes = loss_peak;
}

// Working sets: one layer's forward temporaries (eager attention scores before the softmax and
// the fp32 upcast; HF's 4-D causal mask), its backward (activation gradients in flight) and,
// under full/ops recomputation, the re-materialised layer. [TORCH]
void working_sets(const Scenario& sc, const Widths& w, const ActivationDtypes& dt, double t, StepActivations& out) {
    const auto& tr = sc.training;
    auto& a = out.a;
    const double s = double(tr.seq_len), b = double(tr.micro_batch_size), h = w.h;
    const double tokens = tokens_per_gpu(tr, sc.parallel);  // b·s/cp: context parallelism splits the sequence
    const double seq_split = layer_split(sc.parallel).sequence_split;
    const bool flash = fused_attention(sc, dt);
    out.scores_materialised = !flash && tr.recompute != Recompute::selective;
    if (out.scores_materialised) {
        double score_bytes = dt.autocast || dt.fp32 ? 4.0 : dt.matmul;
        double upcast = score_bytes == 4.0 ? 0.0 : 4.0;
        a.forward_working_bytes = (score_bytes + upcast) * w.a * s * tokens / t;
        if (tr.kernels == Kernels::eager) a.forward_working_bytes += b * s * s * (dt.autocast ? 4.0 : dt.matmul);
    }
    // Measured on the CPU harness (bench/memory, "backward working set"): the MLP's backward holds two
    // f-wide gradients, eager attention's (e + 4)·a·s (the 16-bit probabilities' gradient and the fp32
    // softmax gradient); FlashAttention-2's backward keeps an fp32 dQ accumulator and dQ, dK, dV (GQA:
    // expanded to every head, then summed). [FA2]
    double mlp_backward = 2.0 * dt.matmul * w.f * w.k / t;
    double attention_backward = flash
                                    ? (4.0 + dt.matmul) * w.q / t + 2.0 * dt.matmul * w.kv / t +
                                          (w.kv < w.q ? 2.0 * dt.matmul * w.q / t : 0.0)
                                    : (dt.matmul + 4.0) * w.a * s / t;
    a.backward_working_bytes = tokens * (2.0 * dt.residual * h / seq_split + std::max(mlp_backward, attention_backward));
    const RingBuffers ring = ring_attention_buffers(sc.parallel, tokens, w.q / t, w.kv / t, dt.matmul);  // cp > 1
    a.forward_working_bytes += ring.forward;
    a.backward_working_bytes += ring.backward;
    bool layer_recompute = tr.recompute == Recompute::full || tr.recompute == Recompute::ops;
    a.recompute_working_bytes =
        (layer_recompute && a.recomputed_layers > 0) ? std::max(0.0, out.full_bytes - out.kept_bytes) : 0.0;
}

StepActivations step_activations(const Scenario& sc, const Layout& r, const Widths& w, const ActivationDtypes& dt,
                                 const ParameterShards& S, ActivationBreakdown& a) {
    const auto& tr = sc.training;
    a = {};
    StepActivations out{a};
    const double tokens = tokens_per_gpu(tr, sc.parallel);  // b·s/cp
    const double seq_split = layer_split(sc.parallel).sequence_split;
    layer_activations(sc, r, w, dt, S, out);
    // Embedding dropout mask, 1 B per s·b·h, on the first stage for every in-flight micro-batch. [MEGA-ACT §4.3]
    // Fine-tuning: the frozen embedding's output needs no gradient, so its dropout keeps no mask.
    a.embedding_bytes = tr.dropout && S.full_training ? tokens * w.h / seq_split * out.embedding_in_flight : 0.0;
    a.output_bytes = output_activation_bytes(sc, dt, tokens, seq_split, S.full_training);
    loss_activations(sc, dt, tokens, S.t, out);
    working_sets(sc, w, dt, S.t, out);
    // Activation offloading keeps about two layers on the GPU (the one computing, one in transfer).
    out.gpu_layer_bytes = a.transformer_layers_bytes;
    if (tr.offload_activations) {
        double resident = std::min(a.transformer_layers_bytes, 2.0 * a.per_layer_bytes);
        a.host_bytes = a.transformer_layers_bytes - resident;
        out.gpu_layer_bytes = resident;
    }
    return out;
}

// ── Stage 3: the timeline of one step on the busiest stage ──

// What every phase of a stage's timeline reads besides its layer activations.
struct TimelineTerms {
    const ModelStates& ms;
    const ActivationBreakdown& a;
    double grads_present = 0;   // gradients alive before this step's backward
    double head_grads = 0;      // the LM head's and final norm's gradients at the start of backward
    double grads_end = 0;       // gradients at the end of backward
    double fsdp_unsharded_grads = 0;
    double cache_per_layer = 0;  // one layer's autocast copies
    double loss_saved = 0, logit_bytes = 2, embedding_in_flight = 1;
    bool fused_loss = false, optimizer_in_backward = false;
};

TimelineTerms timeline_terms(const Scenario& sc, const Layout& r, const ParameterCounts& P, const BytesPerParameter& bpp,
                             const ParameterShards& S, const GpuModelStates& states, const StepActivations& acts) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const double t = S.t, dp = S.dp;
    const int stage = S.stage;
    TimelineTerms x{states.bytes, acts.a};
    // Gradients alive before this step's backward: from earlier micro-batches when accumulating, or
    // always when the buffers persist between steps (Megatron main_grad, set_to_none=False).
    const bool accumulating = (r.grad_accum_steps > 1 || tr.persistent_gradients) && !tr.optimizer_in_backward;
    x.grads_present = accumulating ? x.ms.gradients : 0.0;
    const double layer_grads = states.layer_gradient_bytes / (stage >= 2 ? dp : 1.0);
    // Fine-tuning keeps the LM head and the final norm frozen: no gradients at the start of backward.
    // A tied LM head writes its gradient into the embedding's gradient buffer, which lives from the
    // start of backward to the embedding's own backward at its end.
    const double head_weight = m.tied_embeddings ? double(m.vocab_size) * double(m.hidden_size) : P.lm_head;
    x.head_grads = S.full_training ? (head_weight + P.final_norm) / t * bpp.gradients / (stage >= 2 ? dp : 1.0) : 0.0;
    x.grads_end = tr.optimizer_in_backward ? layer_grads : x.ms.gradients;
    x.fsdp_unsharded_grads =
        S.fsdp && stage >= 2 ? states.layer_trainable * (S.compute_param_bytes + S.trainable_bytes.gradients) : 0.0;
    x.cache_per_layer = x.a.layers_on_gpu > 0 ? x.ms.autocast_copies / x.a.layers_on_gpu : 0.0;
    x.loss_saved = acts.loss_saved;
    x.logit_bytes = acts.logit_bytes;
    x.embedding_in_flight = acts.embedding_in_flight;
    x.fused_loss = tr.loss == Loss::fused;
    x.optimizer_in_backward = tr.optimizer_in_backward;
    return x;
}

// Backward: its start (logits' gradient, then the last layer's working sets) or its end (one
// layer's activations left, all gradients), whichever is larger.
PhaseMemory backward_phase(const TimelineTerms& x, const PhaseMemory& base, bool first, bool last,
                           double layers_activations) {
    const auto& ms = x.ms;
    const auto& a = x.a;
    double embedding = first ? a.embedding_bytes : 0.0;
    double output = last ? a.output_bytes : 0.0;
    PhaseMemory bwd_start = base;
    bwd_start.gradients = std::max(x.grads_present, last ? x.head_grads : 0.0) + ms.buckets;
    bwd_start.activations = layers_activations + embedding + output;
    bwd_start.logits = last ? (x.fused_loss ? x.loss_saved : x.logit_bytes * a.logits_elements) : 0.0;
    // The last layer's backward starts once the loss and LM-head backward have consumed the
    // logits' gradient: its working sets and the logits do not coexist.
    PhaseMemory bwd_first_layer = bwd_start;
    bwd_first_layer.logits = 0;
    bwd_first_layer.activations = layers_activations + embedding;
    bwd_first_layer.temporaries = a.backward_working_bytes + a.recompute_working_bytes + x.fsdp_unsharded_grads + ms.dequantized;
    bwd_start = larger(bwd_start, bwd_first_layer);
    PhaseMemory bwd_end = base;
    bwd_end.weights = ms.weights + ms.live_params + x.cache_per_layer;
    bwd_end.gradients = x.grads_end + ms.buckets;
    bwd_end.activations = std::min(layers_activations, a.per_layer_bytes) + (first ? a.embedding_bytes / std::max(1.0, x.embedding_in_flight) : 0.0);
    bwd_end.temporaries = a.backward_working_bytes + a.recompute_working_bytes + x.fsdp_unsharded_grads + ms.dequantized;
    return larger(bwd_start, bwd_end);
}

// One pipeline stage's four phases, written to `timeline` (every phase whole): the first stage
// holds the embedding, the last the output and loss. Returns its largest phase.
StagePeak stage_timeline(const TimelineTerms& x, bool first, bool last, double layers_activations,
                         MemoryTimeline& timeline) {
    const auto& ms = x.ms;
    const auto& a = x.a;
    PhaseMemory base;
    base.weights = ms.weights + ms.live_params + ms.autocast_copies;
    base.optimizer = ms.optimizer;
    base.gradients = x.grads_present + ms.buckets;
    double embedding = first ? a.embedding_bytes : 0.0;
    double output = last ? a.output_bytes : 0.0;

    PhaseMemory fwd = base;
    fwd.activations = layers_activations + embedding + output;
    fwd.temporaries = std::max(a.forward_working_bytes, ms.dequantized);
    timeline.at(StepPhase::forward) = fwd;

    PhaseMemory loss = base;
    loss.activations = layers_activations + embedding + output;
    loss.logits = last ? a.loss_peak_bytes : 0.0;
    timeline.at(StepPhase::loss) = loss;

    timeline.at(StepPhase::backward) = backward_phase(x, base, first, last, layers_activations);

    PhaseMemory opt;
    opt.weights = ms.weights;
    opt.optimizer = ms.optimizer;
    opt.gradients = (x.optimizer_in_backward ? 0.0 : ms.gradients) + ms.buckets;
    opt.temporaries = ms.optimizer_temporaries;
    timeline.at(StepPhase::optimizer_step) = opt;
    return largest_phase(timeline);
}

// The busiest stage's timeline, written to `timeline`: with pipeline stages, the first holds all
// in-flight micro-batches, the last one micro-batch plus the loss (it wins only when larger).
StagePeak busiest_stage(const Scenario& sc, const TimelineTerms& x, const StepActivations& acts,
                        MemoryTimeline& timeline) {
    if (sc.parallel.pipeline == 1) return stage_timeline(x, true, true, acts.gpu_layer_bytes, timeline);
    const StagePeak first_stage = stage_timeline(x, true, false, acts.gpu_layer_bytes, timeline);
    double last_layers = sc.training.offload_activations ? std::min(acts.last_stage_bytes, 2.0 * acts.a.per_layer_bytes)
                                                         : acts.last_stage_bytes;
    MemoryTimeline last_timeline;
    const StagePeak last_stage = stage_timeline(x, false, true, last_layers, last_timeline);
    if (first_stage.peak >= last_stage.peak) return first_stage;
    timeline = last_timeline;
    return last_stage;
}

// ── Stage 4: the peak, the allocator's reserve and the device total ──

// The caching allocator holds more than the tensors need: block rounding and freed blocks it
// cannot reuse (allocator_overhead), and, because a freed large block is soon split by smaller
// tensors, one more copy of the step's largest transient tensor (typically the fp32 logits). [TORCH]
double largest_transient_block(const Scenario& sc, const Widths& w, const ActivationDtypes& dt, const ModelStates& ms,
                               const StepActivations& acts, double t) {
    const auto& tr = sc.training;
    const double s = double(tr.seq_len), tokens = tokens_per_gpu(tr, sc.parallel);
    double largest_block = 0;
    if (tr.loss != Loss::fused) {
        double n = tr.loss == Loss::chunked ? double(std::max<std::int64_t>(1, tr.loss_chunks)) : 1.0;
        largest_block = std::max(largest_block, 4.0 * acts.a.logits_elements / n);
    }
    if (acts.scores_materialised) largest_block = std::max(largest_block, 4.0 * w.a * s * tokens / t);
    largest_block = std::max(largest_block, tokens * w.f * w.k * dt.matmul / t);
    largest_block = std::max(largest_block, ms.dequantized);
    return largest_block;
}

MemoryBreakdown peak_memory(const Scenario& sc, const Layout& r, const MemoryTimeline& timeline, StagePeak busiest,
                            const ModelStates& ms, double largest_block) {
    const auto& par = sc.parallel;
    const auto& hw = sc.hardware;
    MemoryBreakdown mem;
    const PhaseMemory& peak = timeline.at(busiest.phase);
    mem.peak_phase = busiest.phase;
    mem.weights = peak.weights;
    mem.zero3_live_params = busiest.phase == StepPhase::optimizer_step ? 0.0 : ms.live_params;
    mem.gradients = peak.gradients;
    mem.optimizer = peak.optimizer;
    mem.activations = peak.activations;
    mem.logits = peak.logits;
    mem.temporaries = peak.temporaries;
    mem.peak_allocated = peak.total();
    mem.peak_reserved = mem.peak_allocated * (1.0 + hw.allocator_overhead) + fragmentation_blocks * largest_block;
    // NCCL's own buffers (outside PyTorch's allocator), one set per communicator. [NCCL docs]
    double nccl = nccl_communicators(par, r) * nccl_buffers_gib_per_communicator;
    double fixed = (hw.cuda_context_gib + hw.reserved_gib + nccl) * bytes_per_gib;
    mem.total = mem.peak_reserved + fixed;
    mem.overhead = mem.total - mem.peak_allocated;
    return mem;
}

}  // namespace

void training_memory(const Scenario& sc, const Layout& r, const ParameterCounts& P, const BytesPerParameter& bpp,
                     const TrainingMemory& out) {
    const ActivationDtypes dt = activation_dtypes(sc);
    const Widths w = widths(sc, r);
    const ParameterShards S = parameter_shards(sc, r, P, bpp, dt);
    const GpuModelStates states = model_states(sc, P, bpp, S, dt);
    StepActivations acts = step_activations(sc, r, w, dt, S, out.activations);
    const StagePeak busiest = busiest_stage(sc, timeline_terms(sc, r, P, bpp, S, states, acts), acts, out.timeline);
    out.activations.total_bytes = out.timeline.at(StepPhase::loss).activations;
    out.params_per_gpu = S.params_per_gpu;
    out.model_states = states.bytes;
    out.per_gpu = peak_memory(sc, r, out.timeline, busiest, states.bytes,
                              largest_transient_block(sc, w, dt, states.bytes, acts, S.t));
    out.host.per_gpu = states.host_states + states.host_params + acts.a.host_bytes;
    out.host.total = out.host.per_gpu * double(sc.parallel.num_gpus);
}

// The model states of one GPU (docs/formulas.md §2–3).
void explain_model_states(const Scenario& sc, const Estimate& e, std::vector<ExplainTerm>& out) {
    const auto& tr = sc.training;
    const auto& par = sc.parallel;
    int stage = par.zero_stage;
    double dp = double(e.layout.data_parallel);
    const char* zero = "Transformer Math 101; Rajbhandari et al. 2019, ZeRO (arXiv:1910.02054)";
    out.push_back(explain_term(e, "model_states_bytes.weights",
                               stage >= 3 ? "weights = P/(t·p) / DP · bytes_w (ZeRO-3; 0 for FSDP's 16-bit copy)"
                                          : "weights = P/(t·p) · bytes_w",
                               zero,
                               {{"P/(t·p)", e.params_per_gpu, "parameters"},
                                {"bytes_w", e.bytes_per_parameter.weights, "bytes/param"},
                                {"DP", stage >= 3 ? dp : 1.0, ""}}));
    out.push_back(explain_term(e, "model_states_bytes.gradients",
                               stage >= 2 ? "gradients = P/(t·p) / DP · bytes_g (ZeRO-2/3)" : "gradients = P/(t·p) · bytes_g",
                               zero,
                               {{"P/(t·p)", e.params_per_gpu, "parameters"},
                                {"bytes_g", e.bytes_per_parameter.gradients, "bytes/param"},
                                {"DP", stage >= 2 ? dp : 1.0, ""}}));
    out.push_back(explain_term(e, "model_states_bytes.optimizer",
                               (par.offload_optimizer || par.offload_params)
                                   ? "optimizer = 0 on the GPU (offloaded: P/(t·p) / DP · bytes_opt in host memory)"
                               : tr.paged_optimizer ? "optimizer = P/(t·p) / DP · master bytes (paged states on the host)"
                               : stage >= 1         ? "optimizer = P/(t·p) / DP · bytes_opt (ZeRO-1+)"
                                                    : "optimizer = P/(t·p) · bytes_opt",
                               zero,
                               {{"P/(t·p)", e.params_per_gpu, "parameters"},
                                {"bytes_opt", e.bytes_per_parameter.optimizer, "bytes/param"},
                                {"DP", stage >= 1 ? dp : 1.0, ""},
                                {"host bytes per GPU", e.host_memory_bytes.per_gpu, "bytes"}}));
    out.push_back(explain_term(e, "model_states_bytes.live_params",
                               par.zero_impl == ZeroImpl::fsdp
                                   ? "live = (2 layers + root: embeddings, LM head) · compute bytes; the whole stage with p > 1"
                                   : "live = min(zero3_live_params, P/(t·p)) · compute bytes",
                               "DeepSpeed stage3_max_live_parameters; PyTorch FSDP2 (Zhao et al. 2023, arXiv:2304.11277)",
                               {{"zero3_live_params", par.zero3_live_params, "parameters"},
                                {"P/(t·p)", e.params_per_gpu, "parameters"}}));
    out.push_back(explain_term(e, "model_states_bytes.autocast_copies",
                               "copies = 2 bytes · matmul weights (incl. the LM head); each freed at its layer's backward",
                               "PyTorch torch.autocast weight cast cache (amp_bf16 / amp_fp16)",
                               {{"P/(t·p)", e.params_per_gpu, "parameters"}}));
    out.push_back(explain_term(e, "model_states_bytes.optimizer_temporaries",
                               tr.optimizer_impl == OptimizerImpl::foreach
                                   ? "temporaries = stepped parameters · state bytes (foreach AdamW: sqrt(v) for every tensor)"
                                   : "temporaries = 0 (fused step in place), or DeepSpeed's fp32 gradient partition",
                               "torch.optim.AdamW _multi_tensor_adam (torch._foreach_sqrt); DeepSpeed stage_1_and_2.py",
                               {{"P/(t·p)", e.params_per_gpu, "parameters"}}));
}

// Activations of one GPU (docs/formulas.md §4).
void explain_activations(const Scenario& sc, const Estimate& e, std::vector<ExplainTerm>& out) {
    const auto& m = sc.model;
    const auto& tr = sc.training;
    const auto& a = e.activations;
    double t = double(sc.parallel.tensor);
    const auto& l = a.layer;
    out.push_back(explain_term(e, "activations.per_layer_bytes",
                               "per_layer = s·b·(outside_tp / sp + inside_tp / t) + scores·a·s²·b / t; GPT, fused kernels, "
                               "t = 1: 34·s·b·h + 5·a·s²·b",
                               "Korthikanti et al. 2022 (arXiv:2205.05198) eq. 1–2 for fused kernels; PyTorch's saved tensors "
                               "of Hugging Face modules for eager (bench/memory); docs/formulas.md §4",
                               {{"s", double(tr.seq_len), "tokens"},
                                {"b", double(tr.micro_batch_size), ""},
                                {"h", double(m.hidden_size), ""},
                                {"a", double(m.num_heads), ""},
                                {"t", t, ""},
                                {"norms", l.norms, "bytes/token"},
                                {"linear inputs", l.linear_inputs, "bytes/token"},
                                {"dropout masks", l.dropout_masks, "bytes/token"},
                                {"checkpoint", l.checkpoint, "bytes/token"},
                                {"Q, K, V", l.qkv, "bytes/token"},
                                {"attention output", l.attention, "bytes/token"},
                                {"MLP", l.mlp, "bytes/token"},
                                {"scores", l.scores_per_as, "bytes per a·s"},
                                {"LoRA adapters (inputs, dropout masks, r-wide)", l.adapters, "bytes/token"},
                                {"c_sbh", a.sbh_coefficient, "bytes"},
                                {"c_as2b", a.as2b_coefficient, "bytes"}}));
    out.push_back(explain_term(e, "activations.transformer_layers_bytes",
                               "layers = (recomputed · checkpointed_layer + (ceil(L/p) − recomputed) · per_layer) · in_flight",
                               "Korthikanti et al. 2022 (arXiv:2205.05198) §4.2.3: 1F1B keeps p micro-batches in flight on "
                               "the first stage",
                               {{"per_layer", a.per_layer_bytes, "bytes"},
                                {"ceil(L/p)", a.layers_on_gpu, ""},
                                {"recomputed", a.recomputed_layers, "layers"},
                                {"in_flight", a.in_flight_microbatches, "micro-batches"}}));
    out.push_back(explain_term(e, "activations.loss_peak_bytes",
                               "loss = s·b·V/t · max(forward peak, backward peak) bytes per logit",
                               "PyTorch cross_entropy (log_softmax + nll_loss on fp32-upcast logits); Korthikanti et al. 2022 "
                               "§4.3 (4·s·b·V/t fp32 logits); torchtune CEWithChunkedOutputLoss; Liger-Kernel",
                               {{"s·b·V/t", a.logits_elements, "elements"},
                                {"kept", a.loss_per_logit.saved, "bytes/logit"},
                                {"forward peak", a.loss_per_logit.forward_peak, "bytes/logit"},
                                {"backward peak", a.loss_per_logit.backward_peak, "bytes/logit"}}));
    out.push_back(explain_term(e, "activations.backward_working_bytes",
                               "working = s·b·(2·residual·h + max(MLP: 2·e·f·k/t, attention: flash (4 + e)·q/t + 2·e·kv/t, "
                               "eager (e + 4)·a·s/t))",
                               "PyTorch autograd, measured with the CPU harness (bench/memory); FlashAttention-2 backward "
                               "(arXiv:2307.08691)",
                               {{"s", double(tr.seq_len), "tokens"}, {"b", double(tr.micro_batch_size), ""}}));
    out.push_back(explain_term(e, "activations.recompute_working_bytes",
                               "recompute = per_layer (nothing recomputed) − checkpointed layer",
                               "Korthikanti et al. 2022 §5; PyTorch torch.utils.checkpoint",
                               {{"per_layer", a.per_layer_bytes, "bytes"}}));
}

// The peak of the step's timeline, the allocator's reserve and the device total (docs/formulas.md §5).
void explain_peak_memory(const Scenario& sc, const Estimate& e, std::vector<ExplainTerm>& out) {
    const auto& mem = e.memory_per_gpu_bytes;
    const auto& peak = e.memory_timeline.at(mem.peak_phase);
    out.push_back(explain_term(e, "memory_per_gpu_bytes.peak_allocated",
                               "peak = max over forward, loss, backward, optimizer step of weights + gradients + optimizer + "
                               "activations + logits + temporaries",
                               "docs/formulas.md §6 (the step as a timeline)",
                               {{"weights", peak.weights, "bytes"},
                                {"gradients", peak.gradients, "bytes"},
                                {"optimizer", peak.optimizer, "bytes"},
                                {"activations", peak.activations, "bytes"},
                                {"logits", peak.logits, "bytes"},
                                {"temporaries", peak.temporaries, "bytes"}}));
    out.push_back(explain_term(e, "memory_per_gpu_bytes.peak_reserved",
                               "reserved = peak_allocated · (1 + allocator_overhead) + largest transient block",
                               "PyTorch CUDA caching allocator (block splitting and caching); docs/accuracy.md",
                               {{"peak_allocated", mem.peak_allocated, "bytes"},
                                {"allocator_overhead", sc.hardware.allocator_overhead, ""},
                                {"largest block", mem.peak_reserved - mem.peak_allocated * (1 + sc.hardware.allocator_overhead),
                                 "bytes"}}));
    double nccl = mem.total - mem.peak_reserved - (sc.hardware.cuda_context_gib + sc.hardware.reserved_gib) * bytes_per_gib;
    out.push_back(explain_term(e, "memory_per_gpu_bytes.total",
                               "total = peak_reserved + cuda_context + NCCL buffers (0.5 GiB per communicator) + reserved",
                               "CUDA context and NCCL buffers live outside PyTorch's allocator; docs/accuracy.md",
                               {{"peak_reserved", mem.peak_reserved, "bytes"},
                                {"cuda_context", sc.hardware.cuda_context_gib * bytes_per_gib, "bytes"},
                                {"NCCL buffers", nccl, "bytes"},
                                {"reserved", sc.hardware.reserved_gib * bytes_per_gib, "bytes"},
                                {"capacity", e.capacity_bytes, "bytes"}}));
}

}  // namespace vramcalc
