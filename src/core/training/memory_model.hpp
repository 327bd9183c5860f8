// Peak memory of one training step as a timeline: what each GPU holds at the end of the forward
// pass, in the loss, in the backward pass and in the optimizer step, by component. The peak is the
// largest phase, not the sum of every term (docs/formulas.md §4–5).
#pragma once

#include <array>

#include "core/scenario.hpp"

namespace vramcalc {

// Saved activation bytes of one transformer layer per token (s·b = 1), before any parallel split.
// `replicated` terms sit outside the tensor-parallel region (÷ t only with sequence parallelism),
// `tensor_parallel` terms inside it (÷ t), `scores_per_as` multiplies a·s (÷ t).
struct LayerActivationBytes {
    double norms = 0;          // norm inputs and what eager norms save (fp32 upcasts)
    double linear_inputs = 0;  // inputs kept by the QKV and MLP-in projections (one per cast under autocast)
    double dropout_masks = 0;  // 1-byte masks after attention and MLP
    double checkpoint = 0;     // layer input kept by activation checkpointing
    double qkv = 0;            // Q, K, V kept for the attention core
    double attention = 0;      // attention output (out-projection input) and FlashAttention's log-sum-exp
    double mlp = 0;            // MLP inner tensors (× experts per token)
    double scores_per_as = 0;  // attention scores/probabilities kept, bytes per a·s
    double adapters = 0;       // LoRA: adapter inputs (and dropout masks) and r-wide intermediates
    double replicated() const { return norms + linear_inputs + dropout_masks + checkpoint + adapters; }
    double tensor_parallel() const { return qkv + attention + mlp; }
};

enum class StepPhase { forward, loss, backward, optimizer_step };
inline constexpr int step_phase_count = 4;
inline constexpr StepPhase all_step_phases[] = {StepPhase::forward, StepPhase::loss, StepPhase::backward,
                                                StepPhase::optimizer_step};
const char* step_phase_id(StepPhase phase);     // "forward", "loss", "backward", "optimizer_step"
const char* step_phase_label(StepPhase phase);  // "Forward", "Loss", "Backward", "Optimizer step"

// Bytes one GPU's tensors occupy at one phase, by component (what torch.cuda.memory_allocated counts).
struct PhaseMemory {
    double weights = 0;      // parameters incl. gathered ZeRO-3/FSDP and autocast 16-bit copies
    double gradients = 0;
    double optimizer = 0;    // master copy + states on the GPU
    double activations = 0;  // saved activations of the layers (and checkpoints)
    double logits = 0;       // logits and loss tensors
    double temporaries = 0;  // working buffers: backward/recompute working set, optimizer-step temporaries, buckets
    double total() const { return weights + gradients + optimizer + activations + logits + temporaries; }
};

struct MemoryTimeline {
    std::array<PhaseMemory, step_phase_count> phases{};
    const PhaseMemory& at(StepPhase p) const { return phases[static_cast<int>(p)]; }
    PhaseMemory& at(StepPhase p) { return phases[static_cast<int>(p)]; }
};

// Bytes per logit element held by the loss: `saved` from forward to backward, and the two peaks.
struct LossBytesPerLogit {
    double saved = 0;
    double forward_peak = 0;
    double backward_peak = 0;
};

struct Estimate;
struct Scenario;
// Fills the model states, activations, timeline, peak and fit of `estimate` (whose resolved
// scenario, parameter counts and bytes per parameter are already set).
void estimate_memory(const Scenario& scenario, Estimate& estimate);

}  // namespace vramcalc
