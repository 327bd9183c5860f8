// One table that describes every Scenario field: its path (JSON/JS), its short URL key, its
// symbol, unit and help text (tooltips, CLI --help), its kind and UI range. The codecs, the CLI
// and the UI all read this table, so a field is named the same everywhere.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "scenario.hpp"

namespace vramcalc {

enum class FieldKind { integer, number, boolean, choice, text };

struct FieldSpec {
    const char* path;     // "model.hidden_size": JSON path, JS field, CLI --model.hidden_size
    const char* url_key;  // short key in the link fragment ("h")
    const char* label;    // UI label
    const char* symbol;   // formula symbol ("h"), or "" if none
    const char* unit;     // "tokens", "GiB", ... or ""
    const char* help;     // one sentence: meaning and effect
    FieldKind kind;
    std::span<const char* const> choices;  // names of a choice field, in enum order
    double ui_min, ui_max;                 // slider/drag range in the UI (validation has its own rules)
    // Numeric view of the field (integers, numbers, booleans as 0/1, choices as their index).
    double (*get)(const Scenario&);
    void (*set)(Scenario&, double);
    // Text fields only.
    std::string (*get_text)(const Scenario&);
    void (*set_text)(Scenario&, std::string);
    // What the value 0 means where it is not a quantity but a choice ("auto" = derived from other
    // fields, "not counted", …); nullptr when 0 is just zero. The UI shows it instead of the unit.
    const char* zero_means = nullptr;
};

std::span<const FieldSpec> scenario_fields();
const FieldSpec* find_field_by_path(std::string_view path);
const FieldSpec* find_field_by_url_key(std::string_view key);

// Fields in the groups a form shows them in: every field of the table is in exactly one group
// (tests/test_fields.cpp). Groups follow the table's sections (model, training, parallel,
// hardware); `picker` groups are drawn as pickers at the top of a form, next to the presets
// (e.g. the framework profile), not as rows.
struct FieldGroup {
    const char* id;       // "training.batch"
    const char* title;    // "Batch and data"
    const char* hint;     // one short phrase shown next to the title
    std::span<const char* const> paths;
    bool picker = false;
};
std::span<const FieldGroup> field_groups();
const FieldGroup* group_of_field(std::string_view path);
// Whether a workload's estimate reads the field (the page hides the others): training reads every
// field but inference.*; inference reads the model, the GPU, its link and overheads, parallel.tensor
// / pipeline and inference.* (docs/serving.md). `workload` itself belongs to both.
bool field_used_by(std::string_view path, Workload workload);

// Choice names for enums (the JSON/URL spelling).
std::span<const char* const> mlp_names();
std::span<const char* const> norm_names();
std::span<const char* const> position_names();
std::span<const char* const> precision_names();
std::span<const char* const> grad_dtype_names();
std::span<const char* const> optimizer_names();
std::span<const char* const> recompute_names();
std::span<const char* const> framework_names();
std::span<const char* const> kernels_names();
std::span<const char* const> loss_names();
std::span<const char* const> throughput_model_names();
std::span<const char* const> linear_attention_names();
std::span<const char* const> workload_names();
std::span<const char* const> engine_names();
std::span<const char* const> weight_format_names();
std::span<const char* const> kv_cache_dtype_names();
std::span<const char* const> sampler_names();
std::span<const char* const> fp8_names();

// Whether two scenarios agree on a field (text by value, numbers exactly).
bool field_equal(const FieldSpec& field, const Scenario& a, const Scenario& b);
// Whether two models agree on every model.* field (does a scenario still hold a preset's model?).
bool same_model(const ModelConfig& a, const ModelConfig& b);
// The first field (in table order) on which two scenarios differ; nullptr when they agree on all.
const FieldSpec* first_difference(const Scenario& a, const Scenario& b);

}  // namespace vramcalc
