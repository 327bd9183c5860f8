// A Hugging Face config.json's `quantization_config` → inference.weight_format and
// inference.quant_group_size (docs/imports.md, "Quantised checkpoints"). Methods: awq, gptq, fp8,
// compressed-tensors (fp8 / int4 / int8, as RedHatAI / neuralmagic publish them), bitsandbytes
// (load_in_4bit nf4/fp4, load_in_8bit), mxfp4 (gpt-oss). Issues name the key inside it
// ("quantization_config.bits") and the rule; never throws.
#pragma once

#include <nlohmann/json.hpp>

#include "codec/import_hf.hpp"

namespace vramcalc::codec {

// Reads `quantization` (the value of quantization_config) into r.scenario.inference; appends
// issues and notes to r. `prefix` is how its keys are named ("quantization_config.").
void import_hf_quantization(const nlohmann::json& quantization, ImportResult& r,
                            const std::string& prefix = "quantization_config.");

}  // namespace vramcalc::codec
