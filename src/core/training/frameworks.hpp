// Framework profiles: how each training stack implements a step (kernels, loss, optimizer kernel,
// precision, sharding). Choosing a framework applies its profile like a preset; every field stays
// editable afterwards. Layout choices (ZeRO stage, recomputation, batch) are left to the user.
#pragma once

#include <span>
#include <string_view>

#include "core/scenario.hpp"

namespace vramcalc {

struct FrameworkProfile {
    Framework id;
    const char* label;      // "Megatron-LM"
    Kernels kernels;
    Loss loss;
    std::int64_t loss_chunks;
    OptimizerImpl optimizer_impl;
    Precision precision;
    GradDtype grad_dtype;
    ZeroImpl zero_impl;
    bool flash_attention;
    double zero3_live_params;  // DeepSpeed stage3_max_live_parameters; 0 elsewhere
    bool persistent_gradients; // gradient buffers kept between steps
    AdapterDtype adapter_dtype; // LoRA adapter weights: fp32 (PEFT) or the model's dtype (torchtune)
    const char* source;        // where each default comes from
};

std::span<const FrameworkProfile> framework_profiles();
const FrameworkProfile& framework_profile(Framework framework);

// Sets training.framework and every field the profile defines.
void apply_framework_profile(Scenario& scenario, Framework framework);
void apply_framework_profile(Scenario& scenario, const FrameworkProfile& profile);
// The profiles as link version 2 applied them (fw=…): before version 3 gave the profiles whose
// ZeRO is DeepSpeed's (Generic, Hugging Face Trainer) DeepSpeed's stage3_max_live_parameters.
std::span<const FrameworkProfile> framework_profiles_v2();
// The paths of the fields apply_framework_profile sets besides training.framework, so a form can
// show which values came from the profile (tests/test_frameworks.cpp checks the list is complete).
std::span<const char* const> framework_profile_fields();

}  // namespace vramcalc
