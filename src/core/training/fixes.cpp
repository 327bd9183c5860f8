#include "core/training/fixes.hpp"

#include <algorithm>
#include <optional>

#include "core/training/finetune.hpp"

namespace vramcalc {
namespace {

// A fix kind turns `out`, a copy of `from`, into its i-th candidate (false: no more), smallest change first.
using Candidate = bool (*)(const Scenario& from, int i, Scenario& out);

// The first candidate that is valid and fits, estimated with the estimator itself.
std::optional<Fix> first_that_fits(FixKind kind, Candidate make, const Scenario& from) {
    Scenario s;
    for (int i = 0; i < 64 && (s = from, make(from, i, s)); ++i) {
        if (!is_valid(s)) continue;
        Estimate e = estimate(s);
        if (e.fits) return Fix{kind, s, e.memory_per_gpu_bytes.total, e.headroom_bytes};
    }
    return std::nullopt;
}

bool flash_attention(const Scenario& from, int i, Scenario& out) {
    if (i > 0 || from.training.flash_attention) return false;
    out.training.flash_attention = true;
    return true;
}

// Selective first (Korthikanti et al. 2022: ~2.7 % more compute), then full (one more forward).
bool recompute(const Scenario& from, int i, Scenario& out) {
    const Recompute now = from.training.recompute;
    if (now == Recompute::full) return false;
    const bool selective_too = now == Recompute::none;
    if (i > (selective_too ? 1 : 0)) return false;
    out.training.recompute = selective_too && i == 0 ? Recompute::selective : Recompute::full;
    return true;
}

// Micro-batches that divide the current one, largest first; the accumulation steps grow by the
// same factor, so sequences per optimizer step stay the same.
bool micro_batch(const Scenario& from, int i, Scenario& out) {
    const std::int64_t b = from.training.micro_batch_size;
    int seen = -1;
    for (std::int64_t nb = b / 2; nb >= 1; --nb) {
        if (b % nb != 0 || ++seen < i) continue;
            out.training.micro_batch_size = nb;
        if (from.training.grad_accum_steps > 0) out.training.grad_accum_steps = from.training.grad_accum_steps * (b / nb);
        return true;  // else derived from the global batch
    }
    return false;
}

bool sequence_parallel(const Scenario& from, int i, Scenario& out) {
    if (i > 0 || from.parallel.tensor <= 1 || from.parallel.sequence_parallel) return false;
    out.parallel.sequence_parallel = true;
    return true;
}

bool zero_stage(const Scenario& from, int i, Scenario& out) {
    const int stage = from.parallel.zero_stage + 1 + i;
    if (stage > 3) return false;
    out.parallel.zero_stage = stage;
    return true;
}

// ZeRO-Offload keeps the optimizer states in host memory; it needs ZeRO stage 1 or more.
bool offload_optimizer(const Scenario& from, int i, Scenario& out) {
    if (i > 0 || from.parallel.offload_optimizer) return false;
    out.parallel.offload_optimizer = true;
    out.parallel.zero_stage = std::max(1, from.parallel.zero_stage);
    return true;
}

// ×2 … ×64 GPUs as more data parallelism, the global batch kept (fewer accumulation steps). Only
// ZeRO shards anything across data-parallel ranks, so without it more GPUs never help.
bool more_gpus(const Scenario& from, int i, Scenario& out) {
    const std::int64_t m = std::int64_t(2) << i, accum = from.training.grad_accum_steps;
    if (from.parallel.zero_stage == 0 || m > 64 || (accum > 0 && accum % m != 0)) return false;
    out.parallel.num_gpus = from.parallel.num_gpus * m;
    if (accum > 0) out.training.grad_accum_steps = accum / m;
    return true;
}

// Adapters instead of full training: LoRA (Hu et al. 2021), then QLoRA (Dettmers et al. 2023).
bool method(const Scenario& from, int i, Scenario& out) {
    const TrainingMethod now = from.training.method;
    const int first = now == TrainingMethod::full ? 0 : now == TrainingMethod::lora ? 1 : 2;
    if (first + i > 1) return false;
    out.training.method = first + i == 0 ? TrainingMethod::lora : TrainingMethod::qlora;
    return true;
}

std::string arrow(long long from, long long to) { return std::to_string(from) + " \xE2\x86\x92 " + std::to_string(to); }

}  // namespace

const char* fix_id(FixKind kind) {
    switch (kind) {
        case FixKind::flash_attention: return "flash_attention";
        case FixKind::recompute: return "recompute";
        case FixKind::micro_batch: return "micro_batch";
        case FixKind::sequence_parallel: return "sequence_parallel";
        case FixKind::zero_stage: return "zero_stage";
        case FixKind::offload_optimizer: return "offload_optimizer";
        case FixKind::more_gpus: return "more_gpus";
        case FixKind::method: return "method";
    }
    return "";
}

std::string describe_fix(const Fix& fix, const Scenario& from) {
    const Scenario& to = fix.scenario;
    switch (fix.kind) {
        case FixKind::flash_attention: return "FlashAttention on";
        case FixKind::recompute: return to.training.recompute == Recompute::full ? "full recomputation" : "selective recomputation";
        case FixKind::micro_batch:
            return "micro-batch " + arrow(from.training.micro_batch_size, to.training.micro_batch_size) +
                   " (gradient accumulation " + arrow(resolve_layout(from).grad_accum_steps, resolve_layout(to).grad_accum_steps) +
                   " keeps the global batch)";
        case FixKind::sequence_parallel: return "sequence parallelism on (tensor " + std::to_string(to.parallel.tensor) + ")";
        case FixKind::zero_stage: return "ZeRO stage " + arrow(from.parallel.zero_stage, to.parallel.zero_stage);
        case FixKind::offload_optimizer:
            return std::string("optimizer states in host memory (ZeRO-Offload") +
                   (to.parallel.zero_stage != from.parallel.zero_stage ? ", ZeRO stage 1)" : ")");
        case FixKind::more_gpus:
            return "GPUs " + arrow(from.parallel.num_gpus, to.parallel.num_gpus) + " (data-parallel " +
                   arrow(resolve_layout(from).data_parallel, resolve_layout(to).data_parallel) + ", same global batch)";
        case FixKind::method: return describe_method(to.training) + " instead of " + describe_method(from.training);
    }
    return "";
}

std::vector<Fix> fixes_that_fit(const Scenario& scenario, int max_fixes) {
    std::vector<Fix> out;
    if (estimate(scenario).fits) return out;
    static constexpr std::pair<FixKind, Candidate> order[] = {
        {FixKind::flash_attention, flash_attention}, {FixKind::recompute, recompute},
        {FixKind::micro_batch, micro_batch},         {FixKind::sequence_parallel, sequence_parallel},
        {FixKind::zero_stage, zero_stage},           {FixKind::offload_optimizer, offload_optimizer},
        {FixKind::more_gpus, more_gpus},             {FixKind::method, method},
    };
    for (const auto& [kind, make] : order) {
        if (int(out.size()) >= max_fixes) break;
        if (auto fix = first_that_fits(kind, make, scenario)) out.push_back(std::move(*fix));
    }
    return out;
}

}  // namespace vramcalc
