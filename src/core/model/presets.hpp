// Model and GPU presets: one table each, every entry with its source; applying a preset to a
// scenario; and the frozen editions of the tables that old links decode against.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "core/results.hpp"
#include "core/training/frameworks.hpp"

namespace vramcalc {

struct ModelPreset {
    const char* id;           // stable key used in links and the CLI (--model-preset)
    ModelConfig model;        // exact architecture
    double published_params;  // the count the source publishes (0 when it gives only a rounded size)
    const char* source;
};

struct GpuPreset {
    const char* id;
    double memory_gib;        // what the device reports (nvidia-smi / rocm-smi), in GiB
    double peak_tflops;       // dense bf16/fp16 tensor throughput, no sparsity
    double achieved_tflops;   // a typical achieved training throughput
    double price_per_gpu_hour;  // indicative on-demand cloud price, USD
    const char* source;       // datasheet for memory/peak; paper or assumption for achieved
    GpuFamily family;
    int gpus_per_node;              // GPUs on the fast intra-node link in the reference system
    double intra_node_gbps;         // per GPU, one direction
    double inter_node_gbps;         // per GPU, one direction (node NIC bandwidth / GPUs per node)
    double memory_bandwidth_gbps;
    const char* interconnect_source;  // system datasheet for the four values above
};

// One edition of the defaults and the preset tables. Link version N decodes against edition N
// (codec/link.cpp), so a change of a default or a preset never changes what an old link means.
struct PresetEdition {
    int version;
    Scenario (*defaults)();
    std::span<const ModelPreset> models;
    std::span<const GpuPreset> gpus;
    bool presets_fit_sequence;  // a model preset also sets dropout and lowers seq_len to its positions (since v2)
    std::span<const FrameworkProfile> frameworks;  // what fw=… applies (none: frameworks came with v2)
};
const PresetEdition& current_presets();  // today's tables: the page, CLI, JSON and new links
const PresetEdition& presets_v1();       // frozen: link version 1 (presets_v1.cpp)
const PresetEdition& presets_v2();       // frozen: link version 2 (presets_v2.cpp)

std::span<const ModelPreset> model_presets();  // current_presets().models
std::span<const GpuPreset> gpu_presets();      // current_presets().gpus

// Case-insensitive lookup by id (models also by name); nullptr when unknown.
const ModelPreset* find_model_preset(std::string_view id);
const GpuPreset* find_gpu_preset(std::string_view id);
const ModelPreset* find_model_preset(const PresetEdition& edition, std::string_view id);
const GpuPreset* find_gpu_preset(const PresetEdition& edition, std::string_view id);

// Choosing a model preset: sets scenario.model and training.dropout as the model trains, then
// keeps the rest valid for that model (a sequence longer than its learned positions is lowered to
// them). Every value changed besides the model is appended to `notes`, for the page, CLI, JS API
// and links to show.
void apply_model_preset(Scenario& scenario, const ModelPreset& preset, std::vector<Note>* notes = nullptr);
// The model and its dropout only (readers that apply explicit fields afterwards fit the sequence last).
void set_model_from_preset(Scenario& scenario, const ModelPreset& preset, std::vector<Note>* notes = nullptr);
// By id or name in the current tables; false (scenario unchanged) when unknown.
bool apply_model_preset(Scenario& scenario, std::string_view id, std::vector<Note>* notes = nullptr);

// The family of a GPU label: its preset's, or generic for a label that is no preset.
GpuFamily gpu_family(std::string_view gpu);

// Sets hardware.gpu, memory, peak, achieved, price, node size, links and memory bandwidth from a
// preset (mfu reset to 0; throughput_model unchanged).
void apply_gpu_preset(HardwareConfig& hardware, const GpuPreset& preset);
// By id in the current tables; false (scenario unchanged) when unknown.
bool apply_gpu_preset(Scenario& scenario, std::string_view id);

// GPT-2/GPT-3/BERT-style models (learned positions) train with dropout; the rotary presets do not.
bool trains_with_dropout(const ModelConfig& model);

// Lowers training.seq_len to longest_sequence(model) when it is longer; a note when it did.
void fit_sequence_to_model(Scenario& scenario, std::vector<Note>* notes);
// When serving, lowers inference.context_len to longest_sequence(model) when it is longer, as vLLM
// derives max_model_len from the model when none is given; a note when it did.
void fit_context_to_model(Scenario& scenario, std::vector<Note>* notes);

}  // namespace vramcalc
