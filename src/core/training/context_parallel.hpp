// Context parallelism (parallel.context = cp) and HSDP (parallel.shard_group): how the sequence and
// the data-parallel ranks are split, what that keeps in memory and what it sends.
//   [MEGA-CP]  Megatron-LM docs/source/api-guide/context_parallel.rst and megatron/core/utils.py
//              get_batch_on_this_cp_rank: each rank holds 2 of 2·cp sequence chunks (i and 2cp−1−i),
//              so causal attention work is balanced; activations per GPU divide by cp; the
//              gradient and distributed-optimizer group spans DP × cp ranks.
//   [TE-CP]    Transformer Engine pytorch/attention/dot_product_attention/context_parallel.py
//              AttnFuncWithCPAndKVP2P: cp steps of FlashAttention on the local queries and one K,V
//              chunk; cp−1 point-to-point K,V sends in forward, K,V and dK,dV in backward, each
//              overlapped with the step's attention kernel.
//   [TITAN-CP] torchtitan docs/composability.md / torch.distributed.tensor.experimental.context_parallel:
//              ring attention over SDPA, FSDP shards over dp_shard × cp.
//   [HSDP]     PyTorch FSDP2 fully_shard(mesh=(replicate, shard)) / torchtitan dp_replicate × dp_shard:
//              reduce-scatter and all-gather inside the shard group, all-reduce of each shard across
//              the replicas.
#pragma once

#include <string>

#include "core/scenario.hpp"

namespace vramcalc {

// The data-parallel ranks of one model replica's parameters: DP·cp of them (cp ranks share a
// sequence, their gradients are reduced together), split into shard groups.
struct ShardingGroups {
    double ranks = 1;     // DP · cp: ranks a gradient is reduced over
    double shard = 1;     // ranks ZeRO / FSDP states are sharded over (parallel.shard_group, else all)
    double replicas = 1;  // shard groups holding the same shard (HSDP), ranks / shard
};
ShardingGroups sharding_groups(const ParallelConfig& par, const Layout& layout);

// Tokens of one micro-batch on one GPU: b·s/cp.
double tokens_per_gpu(const TrainingConfig& tr, const ParallelConfig& par);

// Ring-attention buffers of one layer on one GPU, bytes: forward holds the K,V chunk being sent and
// the one being received and an fp32 output accumulator; backward the K,V and dK,dV chunks in
// flight and an fp32 dQ accumulator [TE-CP]. 0 when cp = 1.
struct RingBuffers {
    double forward = 0, backward = 0;
};
RingBuffers ring_attention_buffers(const ParallelConfig& par, double local_tokens, double q_width, double kv_width,
                                   double element_bytes);

// One layer's causal attention on one GPU under cp (FlashAttention time of the whole sequence `total`,
// with its fixed latency `latency`): 1/cp of the work in cp kernels. [MEGA-CP, TE-CP]
double context_parallel_attention_seconds(double total, double latency, double cp);

// Exposed ring communication of one layer, one micro-batch: cp−1 steps each sending a K,V chunk of
// 2·local_tokens·kv_width elements (backward: K,V and dK,dV), hidden behind that step's attention.
struct RingSeconds {
    double forward = 0, backward = 0;
};
RingSeconds ring_attention_seconds(const ParallelConfig& par, double local_tokens, double kv_width, double element_bytes,
                                   double attention_forward, double attention_backward, double bytes_per_second);

// Ranks one context-parallel group spans inside a node: the t·cp consecutive ranks [MEGA-CP rank order tp-cp-dp-pp].
bool context_group_in_node(const ParallelConfig& par, std::int64_t gpus_per_node);

// HSDP: the all-reduce of each rank's gradient shard across the replicas, seconds (0 without HSDP).
double replica_all_reduce_seconds(const ShardingGroups& groups, double shard_gradient_bytes, double tensor,
                                  double gpus_per_node, double intra_bytes_per_second, double inter_bytes_per_second);

// Context-parallel degrees the planner tries for `gpus` GPUs: powers of two up to 64 that divide the
// GPUs and keep 2·cp | s, from 32k tokens with FlashAttention (shorter sequences: the scenario's cp).
inline constexpr std::int64_t context_search_min_seq_len = 32768;
int context_candidates(const Scenario& sc, std::int64_t gpus, bool search, std::int64_t (&out)[7]);

// validate()'s rules for parallel.context and parallel.shard_group; `fail(field, message)` per broken rule.
template <class Fail>
void check_context_parallel_rules(const Scenario& sc, Fail&& fail) {
    const auto& par = sc.parallel;
    const auto& tr = sc.training;
    if (sc.workload != Workload::training) return;
    if (par.context > 1) {
        if (!tr.flash_attention)
            fail("parallel.context", [] { return std::string("needs training.flash_attention: ring attention runs FlashAttention-style kernels on each K,V chunk (Megatron/Transformer Engine, torchtitan SDPA)"); });
        if (tr.precision == Precision::fp32)
            fail("parallel.context", [] { return std::string("needs 16-bit training (training.precision is fp32): the FlashAttention kernels of ring attention take bf16/fp16"); });
        if (tr.seq_len % (2 * par.context) != 0)
            fail("training.seq_len", [&] {
                return "must be divisible by 2 × parallel.context (" + std::to_string(2 * par.context) +
                       "): each rank holds two of 2·cp equal chunks to balance causal attention (Megatron get_batch_on_this_cp_rank)";
            });
    }
    if (par.shard_group > 0) {
        if (par.zero_stage == 0)
            fail("parallel.shard_group", [] { return std::string("needs parallel.zero_stage 1, 2 or 3: HSDP shards the ZeRO / FSDP states inside each group (stage 0 shards nothing)"); });
        std::int64_t mp = par.tensor * par.pipeline * par.context;
        std::int64_t ranks = mp > 0 && par.num_gpus % mp == 0 ? par.num_gpus / mp * par.context : 0;
        if (ranks > 0 && ranks % par.shard_group != 0)
            fail("parallel.shard_group", [&] {
                return "must divide the data-parallel ranks DP × cp = " + std::to_string(ranks) +
                       " (each replica is a whole shard group); 0 = shard over all of them";
            });
    }
}

}  // namespace vramcalc
