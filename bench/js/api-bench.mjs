// JS API bench (Node): time per estimate() call and calls per second, for a few scenarios. Each
// figure is the median of `rounds` rounds of `calls` calls, after a warm-up (the JIT and wasm tiers
// settle first). Time is the process's CPU time (user + system), which a busy shared machine
// disturbs far less than wall-clock time; wall-clock medians are printed next to it.
// Usage: node bench/js/api-bench.mjs [calls per round] [rounds]
//   env VRAMCALC_DIST: folder with vramcalc.mjs + vramcalc-wasm.{mjs,wasm} (default build-web/dist)
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.resolve(process.env.VRAMCALC_DIST || path.join(root, 'build-web', 'dist'));
const calls = Number(process.argv[2] || 2000);
const rounds = Number(process.argv[3] || 9);

const { createVramcalc } = await import(pathToFileURL(path.join(dist, 'vramcalc.mjs')).href);
const t0 = performance.now();
const api = await createVramcalc();
const startMs = performance.now() - t0;

const scenarios = {
  default: api.defaultScenario(),
  'llama-3-8b preset, 8 GPUs ZeRO-3': {
    model: { preset: 'llama-3-8b' },
    training: { micro_batch_size: 4, seq_len: 4096 },
    parallel: { num_gpus: 8, zero_stage: 3 },
    hardware: { gpu: 'H100-80GB' },
  },
  'small partial input': { training: { micro_batch_size: 2 } },
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

let lastWall = 0;
// µs of CPU time per call (median over rounds); the wall-clock median is left in lastWall.
function time(fn) {
  for (let i = 0; i < Math.min(calls, 500); i++) fn();  // warm-up
  const cpu = [], wall = [];
  for (let r = 0; r < rounds; r++) {
    const c = process.cpuUsage();
    const t = performance.now();
    for (let i = 0; i < calls; i++) fn();
    wall.push(((performance.now() - t) * 1000) / calls);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / calls);
  }
  lastWall = median(wall);
  return median(cpu);
}

console.log(`vramcalc ${api.version} JS API, node ${process.version}; module start ${startMs.toFixed(0)} ms; ` +
  `${rounds} rounds × ${calls} calls, medians`);
const results = [];
for (const [name, scenario] of Object.entries(scenarios)) {
  api.estimate(scenario);  // throws here if the scenario is invalid: the bench must time real estimates
  const us = time(() => api.estimate(scenario));
  results.push(us);
  console.log(`  estimate(${name}): ${us.toFixed(1)} µs/call, ${Math.round(1e6 / us).toLocaleString('en')} calls/s ` +
    `(wall clock ${lastWall.toFixed(1)} µs)`);
}
const invalid = { training: { micro_batch_size: 0 } };
const invalidUs = time(() => { try { api.estimate(invalid); } catch { /* ScenarioError expected */ } });
console.log(`  estimate(invalid → ScenarioError): ${invalidUs.toFixed(1)} µs/call`);
const validateUs = time(() => api.validate(scenarios.default));
console.log(`  validate(default): ${validateUs.toFixed(1)} µs/call`);
const link = api.encodeLink(scenarios['llama-3-8b preset, 8 GPUs ZeRO-3']);
const linkUs = time(() => api.encodeLink(scenarios['llama-3-8b preset, 8 GPUs ZeRO-3']));
const decodeUs = time(() => api.decodeLink(link));
console.log(`  encodeLink: ${linkUs.toFixed(1)} µs/call, decodeLink: ${decodeUs.toFixed(1)} µs/call`);
console.log(`  a docs page computing 1,000 scenarios waits ${results[0].toFixed(0)} ms (at the default scenario's cost)`);
console.log(`BENCH js_api_estimate_us=${results[0].toFixed(1)} js_api_calls_per_s=${Math.round(1e6 / results[0])}`);
