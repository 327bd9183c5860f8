// The scenario the estimate benchmarks time (BM_Estimate and the callgrind driver): Llama-2-70B
// on 64 GPUs, t 8, p 4, sequence parallelism, selective recomputation, global batch 512.
#pragma once

#include "core/model/presets.hpp"
#include "core/scenario.hpp"

namespace vramcalc::bench {

inline Scenario llama70b_3d() {
    Scenario s;
    s.model = find_model_preset("llama-2-70b")->model;
    s.parallel.num_gpus = 64;
    s.parallel.tensor = 8;
    s.parallel.pipeline = 4;
    s.parallel.sequence_parallel = true;
    s.training.recompute = Recompute::selective;
    s.training.global_batch_size = 512;
    return s;
}

}  // namespace vramcalc::bench
