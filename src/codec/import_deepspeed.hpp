// Import of a DeepSpeed config JSON (ds_config.json) into a Scenario's training and parallel
// settings (see docs/imports.md). Never throws: problems are ValidationIssues whose `field` is the
// DeepSpeed key path ("zero_optimization.stage").
#pragma once

#include "import_hf.hpp"  // ImportResult

namespace vramcalc::codec {

// Maps ZeRO stage, offload, stage-3 live parameters, batch sizes, bf16/fp16 and a few more onto
// `base`; the model and hardware are kept. Values "auto" (filled by the Hugging Face Trainer at
// run time) keep base's value and add a note. The batch settings follow DeepSpeed's own rules
// (any two of train_batch_size, train_micro_batch_size_per_gpu, gradient_accumulation_steps
// determine the third; one alone means gradient_accumulation_steps = 1), with base's
// data-parallel degree num_gpus / (tensor × pipeline) as DeepSpeed's world size.
// Cross-field rules with base's layout are left to validate(), as for any scenario.
ImportResult import_deepspeed_config(std::string_view json_text, const Scenario& base = {});
ImportResult import_deepspeed_json(const nlohmann::json& config, const Scenario& base = {});

}  // namespace vramcalc::codec
