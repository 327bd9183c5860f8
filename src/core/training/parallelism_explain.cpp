// Explain terms of FP8 linears, context parallelism and HSDP (fp8.hpp, context_parallel.hpp).
#include "core/training/context_parallel.hpp"
#include "core/explain.hpp"
#include "core/training/fp8.hpp"

namespace vramcalc {

void explain_fp8_and_context(const Scenario& sc, const Estimate& e, std::vector<ExplainTerm>& out) {
    const auto& tr = sc.training;
    const auto& par = sc.parallel;
    if (fp8_keeps_copies(tr))
        out.push_back(explain_term(e, "model_states_bytes.fp8_weight_copies",
                                   "FP8 copies = linear weights on this GPU · (1 B row-wise + 1 B column-wise [+ 128×128 block scales])",
                                   "Transformer Engine pytorch/module/linear.py (weight quantizer rowwise + columnwise, workspace cached while is_first_microbatch is False); DeepSeek-V3 arXiv:2412.19437 §3.3",
                                   {{"bytes per weight", fp8_weight_copy_bytes(tr, 1.0), "B"}}));
    if (fp8_training(tr) && e.performance.predicted)
        out.push_back(explain_term(e, "performance.breakdown_seconds.compute",
                                   "linear GEMMs at the FP8 peak (1-byte operands) + their casts (memory-bound); attention, norms and LM head 16-bit",
                                   "torchao testing/training/roofline_utils.py (cast traffic, one achievable GEMM fraction); datasheet FP8 peaks (fp8.cpp)",
                                   {{"FP8 / 16-bit peak", fp8_peak_ratio(sc.hardware.gpu), "×"},
                                    {"16-bit peak", sc.hardware.peak_tflops, "TFLOP/s"}}));
    if (par.context > 1 && e.performance.predicted)
        out.push_back(explain_term(e, "performance.breakdown_seconds.context_parallel",
                                   "CP = m · layers · (cp−1) · max(0, K,V chunk send − attention step) (backward: K,V + dK,dV)",
                                   "Megatron-LM context_parallel.rst; Transformer Engine AttnFuncWithCPAndKVP2P",
                                   {{"cp", double(par.context), "GPUs"},
                                    {"tokens per GPU", tokens_per_gpu(tr, par), "tokens"}}));
    if ((par.shard_group > 0 || par.context > 1) && e.performance.predicted) {
        const ShardingGroups g = sharding_groups(par, e.layout);
        out.push_back(explain_term(e, "performance.breakdown_seconds.data_parallel",
                                   "DP = reduce-scatter / all-gather over the shard group + all-reduce of each shard across the replicas (HSDP); states / shard group",
                                   "PyTorch FSDP2 HSDP (replicate × shard mesh); Megatron distributed optimizer over DP × cp",
                                   {{"DP · cp", g.ranks, "ranks"}, {"shard group", g.shard, "ranks"}, {"replicas", g.replicas, ""}}));
    }
}

}  // namespace vramcalc
