#include "core/training/frameworks.hpp"

#include <array>

namespace vramcalc {
namespace {

// Communication overlap is not a profile field: every framework's collectives are priced with the one
// fitted overlap fraction over the window its code gives them (DDP's buckets and Megatron's
// distributed optimizer: the last backward / first forward; FSDP and DeepSpeed ZeRO-3: the
// micro-batch's compute; HSDP's all-reduce: the backward; TP: none). docs/formulas.md §10, "What each
// framework overlaps by default", lists each framework's default and where held-out runs disagree.
constexpr auto profiles = std::to_array<FrameworkProfile>({
    {Framework::megatron, "Megatron-LM", Kernels::fused, Loss::standard, 8, OptimizerImpl::fused, Precision::mixed_bf16,
     GradDtype::fp32, ZeroImpl::deepspeed, true, 0, true, AdapterDtype::fp32,
     "Megatron-LM arguments.py: bf16 forces fp32 gradient accumulation (persistent main_grad buffers), fused Adam, flash attention; "
     "vocab-parallel cross-entropy (Korthikanti et al. 2022, arXiv:2205.05198)"},
    {Framework::deepspeed, "DeepSpeed", Kernels::eager, Loss::standard, 8, OptimizerImpl::fused, Precision::mixed_bf16,
     GradDtype::match, ZeroImpl::deepspeed, true, 1e9, false, AdapterDtype::fp32,
     "DeepSpeed config docs: bf16 keeps an fp32 master copy, FusedAdam, stage3_max_live_parameters 1e9; models "
     "from Hugging Face Transformers (eager modules, SDPA)"},
    {Framework::fsdp, "PyTorch FSDP2 (torchtitan)", Kernels::eager, Loss::standard, 8, OptimizerImpl::fused,
     Precision::amp_bf16, GradDtype::match, ZeroImpl::fsdp, true, 0, false, AdapterDtype::fp32,
     "torchtitan: MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32) over fp32 sharded parameters, "
     "fused AdamW, SDPA, F.cross_entropy on upcast logits"},
    {Framework::hf, "Hugging Face Trainer", Kernels::eager, Loss::standard, 8, OptimizerImpl::fused, Precision::amp_bf16,
     GradDtype::match, ZeroImpl::deepspeed, true, 1e9, false, AdapterDtype::fp32,
     "transformers TrainingArguments: bf16=True autocasts an fp32 model, optim adamw_torch_fused by default with "
     "PyTorch >= 2.8 (PR #37358), attn_implementation sdpa, ForCausalLMLoss upcasts logits to fp32; PEFT "
     "get_peft_model(autocast_adapter_dtype=True) keeps LoRA adapters in fp32; ZeRO through DeepSpeed "
     "(stage3_max_live_parameters 1e9, deepspeed/runtime/zero/config.py)"},
    {Framework::torchtune, "torchtune", Kernels::eager, Loss::chunked, 8, OptimizerImpl::fused, Precision::bf16,
     GradDtype::match, ZeroImpl::fsdp, true, 0, false, AdapterDtype::match,
     "torchtune recipe configs: dtype bf16 (no fp32 copy), CEWithChunkedOutputLoss with 8 chunks, "
     "torch.optim.AdamW fused: True, SDPA, FSDP2 for several GPUs; LoRA adapters built in the model dtype "
     "(torchtune/modules/peft/lora.py LoRALinear, set to bf16 with the model)"},
    {Framework::generic, "Generic (Korthikanti et al.)", Kernels::fused, Loss::standard, 8, OptimizerImpl::fused,
     Precision::mixed_bf16, GradDtype::match, ZeroImpl::deepspeed, false, 1e9, true, AdapterDtype::fp32,
     "Transformer Math 101 and Korthikanti et al. 2022: fused kernels, mixed precision with an fp32 master copy; "
     "ZeRO as DeepSpeed implements it (stage3_max_live_parameters 1e9, deepspeed/runtime/zero/config.py)"},
});

constexpr auto profile_fields = std::to_array<const char*>({
    "training.kernels",    "training.loss",       "training.loss_chunks",     "training.optimizer_impl",
    "training.precision",  "training.grad_dtype", "training.flash_attention", "parallel.zero_impl",
    "parallel.zero3_live_params", "training.persistent_gradients", "training.adapter_dtype"});

}  // namespace

std::span<const char* const> framework_profile_fields() { return profile_fields; }

std::span<const FrameworkProfile> framework_profiles() { return profiles; }

const FrameworkProfile& framework_profile(Framework framework) {
    for (const auto& p : profiles)
        if (p.id == framework) return p;
    return profiles.back();
}

std::span<const FrameworkProfile> framework_profiles_v2() {
    // Version 3 changed only zero3_live_params (0 → 1e9) of Generic and the Hugging Face Trainer;
    // tests/test_link_versions.cpp pins every v2 profile whole, so a later change of the current
    // table that is not frozen here fails there.
    static const auto v2 = [] {
        auto table = profiles;
        for (auto& p : table)
            if (p.id == Framework::generic || p.id == Framework::hf) p.zero3_live_params = 0;
        return table;
    }();
    return v2;
}

void apply_framework_profile(Scenario& sc, Framework framework) { apply_framework_profile(sc, framework_profile(framework)); }

void apply_framework_profile(Scenario& sc, const FrameworkProfile& p) {
    auto& tr = sc.training;
    tr.framework = p.id;
    tr.kernels = p.kernels;
    tr.loss = p.loss;
    tr.loss_chunks = p.loss_chunks;
    tr.optimizer_impl = p.optimizer_impl;
    tr.precision = p.precision;
    tr.grad_dtype = p.grad_dtype;
    tr.flash_attention = p.flash_attention;
    sc.parallel.zero_impl = p.zero_impl;
    sc.parallel.zero3_live_params = p.zero3_live_params;
    tr.persistent_gradients = p.persistent_gradients;
    tr.adapter_dtype = p.adapter_dtype;
}

}  // namespace vramcalc
