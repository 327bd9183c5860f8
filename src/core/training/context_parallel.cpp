#include "core/training/context_parallel.hpp"

#include <algorithm>
#include <cmath>

#include "core/training/kernel_times.hpp"

namespace vramcalc {

ShardingGroups sharding_groups(const ParallelConfig& par, const Layout& r) {
    ShardingGroups g;
    g.ranks = double(r.data_parallel) * double(std::max<std::int64_t>(1, par.context));
    g.shard = par.shard_group > 0 ? std::min(double(par.shard_group), g.ranks) : g.ranks;
    g.replicas = g.ranks / g.shard;
    return g;
}

double tokens_per_gpu(const TrainingConfig& tr, const ParallelConfig& par) {
    return double(tr.seq_len) * double(tr.micro_batch_size) / double(std::max<std::int64_t>(1, par.context));
}

RingBuffers ring_attention_buffers(const ParallelConfig& par, double local_tokens, double q_width, double kv_width,
                                   double e) {
    RingBuffers out;
    if (par.context <= 1) return out;
    const double kv_chunk = 2.0 * local_tokens * kv_width * e;  // K and V of the local s/cp tokens
    const double fp32_q = 4.0 * local_tokens * q_width;
    out.forward = 2.0 * kv_chunk + fp32_q;          // send + receive buffers, fp32 output accumulator
    out.backward = 2.0 * 2.0 * kv_chunk + fp32_q;   // K,V and dK,dV, each sent and received; fp32 dQ
    return out;
}

double context_parallel_attention_seconds(double total, double latency, double cp) {
    if (cp <= 1) return total;
    return std::max(0.0, total - latency) / cp + cp * latency;
}

RingSeconds ring_attention_seconds(const ParallelConfig& par, double local_tokens, double kv_width, double e,
                                   double attention_forward, double attention_backward, double bytes_per_second) {
    RingSeconds out;
    const double cp = double(par.context);
    if (cp <= 1) return out;
    const double step_forward = 2.0 * local_tokens * kv_width * e / bytes_per_second;  // one K,V chunk
    const double step_backward = 2.0 * step_forward;                                    // K,V and dK,dV
    // Each of the cp−1 transfers runs beside one of the cp attention steps.
    out.forward = (cp - 1.0) * std::max(0.0, step_forward - attention_forward / cp);
    out.backward = (cp - 1.0) * std::max(0.0, step_backward - attention_backward / cp);
    return out;
}

int context_candidates(const Scenario& sc, std::int64_t gpus, bool search, std::int64_t (&out)[7]) {
    const auto& tr = sc.training;
    if (!search || !tr.flash_attention || tr.seq_len < context_search_min_seq_len || tr.precision == Precision::fp32) {
        out[0] = sc.parallel.context;
        return 1;
    }
    int n = 0;
    for (std::int64_t cp = 1; cp <= 64; cp *= 2)
        if (gpus % cp == 0 && tr.seq_len % (2 * cp) == 0) out[n++] = cp;
    return n;
}

bool context_group_in_node(const ParallelConfig& par, std::int64_t gpus_per_node) {
    return par.tensor * par.context <= gpus_per_node;
}

double replica_all_reduce_seconds(const ShardingGroups& g, double shard_gradient_bytes, double t, double gpus_per_node,
                                  double intra_bw, double inter_bw) {
    if (g.replicas <= 1) return 0;
    // Ranks t apart; a node holds gpus_per_node / t of them, i.e. that many / shard replicas (at least 1).
    const double replicas_per_node = std::max(1.0, std::floor(gpus_per_node / t / g.shard));
    const double bw = perf::collective_bus_bandwidth(g.replicas, replicas_per_node, intra_bw, inter_bw);
    return perf::all_reduce_seconds(shard_gradient_bytes, g.replicas, bw);
}

}  // namespace vramcalc
