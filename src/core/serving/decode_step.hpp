// One decode step's time, term by term (docs/serving.md §4): the bytes it reads over the bandwidth
// its mat-vec kernels reach, a fixed cost per kernel (graph replay gap or CPU launch), the engine's
// per-step host work, tensor-parallel all-reduce latency, host-kept layers at host bandwidth, and
// the compute roofline when the batch is large. Constants are named in decode_step.cpp with sources.
#pragma once

#include "core/scenario.hpp"

namespace vramcalc::serving {

// Fraction of the nominal memory bandwidth a decode (mat-vec) kernel of this weight format reaches.
double matvec_bandwidth_fraction(WeightFormat format);

// Kernels one layer launches in a decode step under this engine (attention block + MLP block; the
// TP all-reduces are counted apart), by layer kind: MLA / linear-attention / MoE layers launch more.
double kernels_per_step(const ModelConfig& m, Engine engine, double layers);

// Seconds of fixed cost per kernel: graph replay gap, or the CPU's launch where the engine runs
// without CUDA graphs (llama.cpp below Ampere, HF generate in eager mode).
double seconds_per_kernel(Engine engine, GpuFamily family);

// Host work an engine does every step, whatever the model (scheduler, input prep, sampler).
double engine_step_seconds(Engine engine);

struct DecodeStepTerms {
    double weights = 0;      // weight bytes / (bandwidth · mat-vec fraction), or the FLOPs roofline if larger
    double kv = 0;           // KV bytes / (bandwidth · copy fraction)
    double kernels = 0;      // kernels × seconds per kernel
    double all_reduce = 0;   // TP: 2 all-reduces per layer
    double host = 0;         // llama.cpp layers kept on the host, at host bandwidth
    double engine = 0;       // the engine's per-step host work
    double total() const { return weights + kv + kernels + all_reduce + host + engine; }
};

}  // namespace vramcalc::serving
