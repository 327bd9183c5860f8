// Serving speed (docs/serving.md §4): prefill is compute-bound, decode is bound by the bytes each
// step reads. Efficiencies come from the training model's measured H200 constants
// (performance.cpp: GEMM efficiency, copy bandwidth), so one set of measurements serves both.
#pragma once

#include "core/scenario.hpp"
#include "core/results.hpp"

namespace vramcalc::serving {

// What the speed model needs from the memory estimate.
struct SpeedInputs {
    double active_parameters = 0;       // parameters one token passes through (whole model)
    double layer_parameters = 0;        // the part of them in the transformer layers (every prompt token's GEMMs)
    double head_parameters = 0;         // the LM head V·h (tied or not): computed for the sampled token only
    double weight_bytes_gpu = 0;        // weights on one GPU
    double expert_bytes_gpu = 0;        // the routed-expert part of them
    double embedding_bytes_gpu = 0;     // the untied token embedding's part (a row lookup, not streamed)
    double gpu_layers = 0;              // layers one GPU runs per step (L/p; llama.cpp: its -ngl share)
    double host_weight_bytes = 0;       // llama.cpp: layers on the host, read from host memory each token
    double batched_tokens = 1;          // prefill chunk (vLLM max_num_batched_tokens; llama.cpp n_ubatch, the
                                        // batch host-kept weights cross PCIe for)
    double kv_bytes_per_sequence = 0;   // KV one sequence reads per step at the mean decode context (one GPU)
    double gpus = 1;                    // t · p
};

InferenceSpeed predict_serving_speed(const Scenario& sc, const Layout& r, const SpeedInputs& in);

}  // namespace vramcalc::serving
