// Import of a Hugging Face `config.json` into a Scenario's model (see docs/imports.md).
// Families: Llama, Mistral, Mixtral, Qwen2, GPT-2, GPT-NeoX (and Pythia), Gemma.
// Offline and pure: the text is parsed here, nothing is fetched. Never throws, never crashes:
// every problem is a ValidationIssue whose `field` is the config's own key ("hidden_size").
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/estimate.hpp"

namespace vramcalc::codec {

// The result of importing a foreign config (HF config.json or DeepSpeed JSON).
struct ImportResult {
    Scenario scenario;                      // `base` with the imported fields replaced
    std::vector<ValidationIssue> issues;    // errors; `field` names the key in the imported file
    std::vector<std::string> unmapped_keys; // keys present in the file that set no scenario field
    std::vector<std::string> ignored_keys;  // pure metadata keys ("ignored (metadata)")
    std::vector<std::string> notes;         // one line each: defaults assumed, "auto" values, reasons
    std::string family;                     // "llama", "gpt2", ... ("deepspeed" for DeepSpeed configs)
    bool ok() const { return issues.empty(); }
};

// What every import of a JSON config text does around its importer: parses `text` as one JSON
// object, then `import_json(config, base)`; a text that is not one gives `base` back with the
// parse problem and `family` set. The issues are tidied under the field name "json".
using ImportJson = ImportResult (*)(const nlohmann::json& config, const Scenario& base);
ImportResult import_json_text(std::string_view text, const Scenario& base, std::string_view family, ImportJson import_json);

// Maps the model fields of a HF config onto `base` (training/parallel/hardware are kept, except
// that training.seq_len is lowered to max_position_embeddings for learned-position models).
// When the imported architecture equals a model preset, the preset itself is used (so links stay short).
// `issues` covers the config itself (JSON syntax, types, missing keys, impossible shapes); the
// combination with base's parallel layout is checked by validate() as for any scenario.
ImportResult import_hf_config(std::string_view json_text, const Scenario& base = {});
// The same from an already parsed JSON value (a distinct name: JSON converts from text implicitly).
ImportResult import_hf_json(const nlohmann::json& config, const Scenario& base = {});

// The families import_hf_config understands: {model_type, display name}.
struct HfFamilyName {
    const char* model_type;
    const char* display;
};
std::vector<HfFamilyName> hf_families();

namespace detail {
// A key as shown to the user: control characters replaced, long keys shortened (text.hpp).
std::string printable_key(std::string_view key);
inline constexpr std::size_t max_listed_keys = 200;
}  // namespace detail

}  // namespace vramcalc::codec
