// Model and GPU presets: one table each, every entry with its source.
#pragma once

#include <span>
#include <string_view>

#include "scenario.hpp"

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
};

std::span<const ModelPreset> model_presets();
std::span<const GpuPreset> gpu_presets();

// Case-insensitive lookup by id; nullptr when unknown.
const ModelPreset* find_model_preset(std::string_view id);
const GpuPreset* find_gpu_preset(std::string_view id);

// Sets hardware.gpu, memory, peak, achieved and price from a preset (mfu reset to 0).
void apply_gpu_preset(HardwareConfig& hardware, const GpuPreset& preset);

}  // namespace vramcalc
