// Web bench of issue 12's planner: the full layout search for 8, 64 and 1,024 GPUs in WebAssembly
// through the JS API (api.plan, JSON in and out included), median of runs. Native figures:
// bench/bench_estimate.cpp (BM_Plan, the same scenario). Target: ≤ 50 ms for 1,024 GPUs.
// Usage: node bench/web/plan-bench.mjs [runs]   (VRAMCALC_DIST: folder of vramcalc.mjs, default build-web/dist)
import { loadApi } from '../../tests/js/_support.mjs';

const runs = Number(process.argv[2] || 15);
const api = await loadApi();
const scenario = {
  model: 'llama-2-70b',
  training: { seq_len: 4096, global_batch_size: 1024, flash_attention: true, dropout: false },
  hardware: { throughput_model: 'predicted' },
};
for (const gpus of [8, 64, 1024]) {
  const times = [];
  let result;
  for (let i = -2; i < runs; i++) {
    const start = performance.now();
    result = api.plan(scenario, { num_gpus: gpus });
    if (i >= 0) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`plan ${gpus} GPUs: ${median.toFixed(2)} ms median of ${runs} (${result.searched} layouts, ${result.feasible} fit)`);
  console.log(`BENCH wasm_plan_${gpus}_ms=${median.toFixed(2)}`);
}
