// Vision-language config.json files (Llama 4, Gemma 3, Mistral Small 3.1, Qwen2.5-VL): the text
// model (text_config, or the top level beside vision_config) is imported; the vision tower and its
// projector are counted from vision_config and reported in a note (they are not served as text
// weights here). Text families without an import mapping of their own (gemma3_text, llama4_text)
// are matched to the model preset of the same shape. docs/imports.md.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "codec/import_hf.hpp"

namespace vramcalc::codec {

// True when `config` is a vision-language config this importer unwraps (text_config or vision_config).
bool is_hf_multimodal(const nlohmann::json& config);
ImportResult import_hf_multimodal(const nlohmann::json& config, const Scenario& base);

// Parameters of the vision tower plus the projector into a text model of width text_hidden, from
// the config's vision_config; nullopt when its kind is not one of SigLIP (Gemma 3), Llama 4's,
// Qwen2.5-VL's or Pixtral (Mistral 3).
std::optional<double> hf_vision_parameters(const nlohmann::json& config, std::int64_t text_hidden);

// gemma3_text / llama4_text: the preset whose shape the config describes (with the config class's
// defaults for omitted keys); false when the model_type is not one of them (r untouched).
bool import_hf_by_preset_shape(const nlohmann::json& config, ImportResult& r);

}  // namespace vramcalc::codec
