// Ways out of "does not fit": the smallest single changes to a scenario after which it fits, each
// estimated with estimate() itself. Tried in order of how little they change the run (throughput,
// then what trains, then hardware): FlashAttention, recomputation (selective, else full), a smaller
// micro-batch (gradient accumulation keeps the global batch), sequence parallelism under TP, a
// higher ZeRO stage, optimizer offload, more GPUs, LoRA / QLoRA. Pure; a few dozen estimates at most.
#pragma once

#include <string>
#include <vector>

#include "core/estimate.hpp"

namespace vramcalc {

enum class FixKind {
    flash_attention,
    recompute,          // selective or full (the first of them that fits)
    micro_batch,        // smaller micro-batch, more accumulation steps
    sequence_parallel,  // under tensor parallelism
    zero_stage,         // the next stage that fits
    offload_optimizer,  // ZeRO-Offload (stage 1 at least)
    more_gpus,          // data parallelism ×2, ×4, … (global batch kept)
    method,             // LoRA or QLoRA instead of full training (QLoRA instead of LoRA)
};

struct Fix {
    FixKind kind = FixKind::recompute;
    Scenario scenario;        // the input with this one change applied (valid)
    double total_bytes = 0;   // memory per GPU with it (memory_per_gpu_bytes.total)
    double headroom_bytes = 0;
};

const char* fix_id(FixKind kind);  // stable snake_case id: "recompute", "micro_batch"
// What the change is, from `from` to the fix's scenario: "full recomputation",
// "micro-batch 4 → 1 (gradient accumulation 8 → 32 keeps the global batch)", "ZeRO stage 2 → 3".
std::string describe_fix(const Fix& fix, const Scenario& from);

// Precondition: validate(scenario) is empty. Empty when it fits already; else the fixes that fit,
// smallest change first, at most `max_fixes`.
std::vector<Fix> fixes_that_fit(const Scenario& scenario, int max_fixes = 4);

}  // namespace vramcalc
