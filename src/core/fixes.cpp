#include "fixes.hpp"

#include <algorithm>
#include <optional>

#include "finetune.hpp"

namespace vramcalc {
namespace {

using Candidates = std::vector<Scenario>;

// The first candidate that is valid and fits, estimated with the estimator itself.
std::optional<Fix> first_that_fits(FixKind kind, const Candidates& candidates) {
    for (const Scenario& s : candidates) {
        if (!is_valid(s)) continue;
        Estimate e = estimate(s);
        if (e.fits) return Fix{kind, s, e.memory_per_gpu_bytes.total, e.headroom_bytes};
    }
    return std::nullopt;
}

Candidates flash_attention(const Scenario& s) {
    if (s.training.flash_attention) return {};
    Scenario f = s;
    f.training.flash_attention = true;
    return {f};
}

// Selective first (Korthikanti et al. 2022: ~2.7 % more compute), then full (one more forward).
Candidates recompute(const Scenario& s) {
    Candidates out;
    const Recompute now = s.training.recompute;
    for (Recompute r : {Recompute::selective, Recompute::full}) {
        if (now == Recompute::full || (r == Recompute::selective && now != Recompute::none)) continue;
        Scenario f = s;
        f.training.recompute = r;
        out.push_back(f);
    }
    return out;
}

// Micro-batches that divide the current one, largest first; the accumulation steps grow by the
// same factor, so sequences per optimizer step stay the same.
Candidates micro_batch(const Scenario& s) {
    Candidates out;
    const std::int64_t b = s.training.micro_batch_size;
    for (std::int64_t nb = b / 2; nb >= 1; --nb) {
        if (b % nb != 0) continue;
        Scenario f = s;
        f.training.micro_batch_size = nb;
        if (s.training.grad_accum_steps > 0)  // else derived from the global batch
            f.training.grad_accum_steps = s.training.grad_accum_steps * (b / nb);
        out.push_back(f);
    }
    return out;
}

Candidates sequence_parallel(const Scenario& s) {
    if (s.parallel.tensor <= 1 || s.parallel.sequence_parallel) return {};
    Scenario f = s;
    f.parallel.sequence_parallel = true;
    return {f};
}

Candidates zero_stage(const Scenario& s) {
    Candidates out;
    for (int stage = s.parallel.zero_stage + 1; stage <= 3; ++stage) {
        Scenario f = s;
        f.parallel.zero_stage = stage;
        out.push_back(f);
    }
    return out;
}

// ZeRO-Offload keeps the optimizer states in host memory; it needs ZeRO stage 1 or more.
Candidates offload_optimizer(const Scenario& s) {
    if (s.parallel.offload_optimizer) return {};
    Scenario f = s;
    f.parallel.offload_optimizer = true;
    f.parallel.zero_stage = std::max(1, s.parallel.zero_stage);
    return {f};
}

// ×2 … ×64 GPUs as more data parallelism, the global batch kept (fewer accumulation steps). Only
// ZeRO shards anything across data-parallel ranks, so without it more GPUs never help.
Candidates more_gpus(const Scenario& s) {
    Candidates out;
    if (s.parallel.zero_stage == 0) return out;
    const std::int64_t accum = s.training.grad_accum_steps;
    for (std::int64_t m = 2; m <= 64; m *= 2) {
        if (accum > 0 && accum % m != 0) break;
        Scenario f = s;
        f.parallel.num_gpus = s.parallel.num_gpus * m;
        if (accum > 0) f.training.grad_accum_steps = accum / m;
        out.push_back(f);
    }
    return out;
}

// Adapters instead of full training: LoRA (Hu et al. 2021), then QLoRA (Dettmers et al. 2023).
Candidates method(const Scenario& s) {
    Candidates out;
    for (TrainingMethod m : {TrainingMethod::lora, TrainingMethod::qlora}) {
        const bool smaller = s.training.method == TrainingMethod::full ||
                             (s.training.method == TrainingMethod::lora && m == TrainingMethod::qlora);
        if (!smaller) continue;
        Scenario f = s;
        f.training.method = m;
        out.push_back(f);
    }
    return out;
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
    using Make = Candidates (*)(const Scenario&);
    static constexpr std::pair<FixKind, Make> order[] = {
        {FixKind::flash_attention, flash_attention}, {FixKind::recompute, recompute},
        {FixKind::micro_batch, micro_batch},         {FixKind::sequence_parallel, sequence_parallel},
        {FixKind::zero_stage, zero_stage},           {FixKind::offload_optimizer, offload_optimizer},
        {FixKind::more_gpus, more_gpus},             {FixKind::method, method},
    };
    for (const auto& [kind, make] : order) {
        if (int(out.size()) >= max_fixes) break;
        if (auto fix = first_that_fits(kind, make(scenario))) out.push_back(std::move(*fix));
    }
    return out;
}

}  // namespace vramcalc
