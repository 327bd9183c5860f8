// JS API bench (Node): time per estimate() call and calls per second, for a few scenarios. Each
// figure is the median of `rounds` rounds of `calls` calls. All timed cases first run together,
// interleaved, for `warm-up` rounds (the JIT and the wasm tiers settle, and no case pays for
// compiling code another case shares); then their timed rounds are interleaved too, so a change in
// the machine's load falls on every case alike. Time is the process's CPU time (user + system),
// which a busy shared machine disturbs far less than wall-clock time; wall-clock medians are
// printed next to it.
// Usage: node bench/js/api-bench.mjs [calls per round] [rounds] [warm-up rounds]
//   env VRAMCALC_DIST: folder with vramcalc.mjs + vramcalc-wasm.{mjs,wasm} (default build-web/dist)
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.resolve(process.env.VRAMCALC_DIST || path.join(root, 'build-web', 'dist'));
const calls = Number(process.argv[2] || 2000);
const rounds = Number(process.argv[3] || 9);
const warmupRounds = Number(process.argv[4] || 5);

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

// µs per call of each case: {cpu, wall} medians over the rounds (CPU time and wall-clock time).
function timeAll(cases) {
  const names = Object.keys(cases);
  for (let r = 0; r < warmupRounds; r++) {
    for (const name of names) for (let i = 0; i < calls; i++) cases[name]();
  }
  const cpu = Object.fromEntries(names.map((n) => [n, []]));
  const wall = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const name of names) {
      const fn = cases[name];
      const c = process.cpuUsage();
      const t = performance.now();
      for (let i = 0; i < calls; i++) fn();
      wall[name].push(((performance.now() - t) * 1000) / calls);
      const d = process.cpuUsage(c);
      cpu[name].push((d.user + d.system) / calls);
    }
  }
  return Object.fromEntries(names.map((n) => [n, { cpu: median(cpu[n]), wall: median(wall[n]) }]));
}

console.log(`vramcalc ${api.version} JS API, node ${process.version}; module start ${startMs.toFixed(0)} ms; ` +
  `${warmupRounds} warm-up rounds, then ${rounds} rounds × ${calls} calls, interleaved; medians`);
const invalid = { training: { micro_batch_size: 0 } };
const preset = scenarios['llama-3-8b preset, 8 GPUs ZeRO-3'];
const link = api.encodeLink(preset);
const cases = {};
for (const [name, scenario] of Object.entries(scenarios)) {
  api.estimate(scenario);  // throws here if the scenario is invalid: the bench must time real estimates
  cases[name] = () => api.estimate(scenario);
}
// Every call a different scenario than the last: nothing the wrapper and module keep from the
// previous call (its keys, its texts) helps.
const alternate = [scenarios.default, preset];
let turn = 0;
cases.alternating = () => api.estimate(alternate[turn ^= 1]);
cases.invalid = () => { try { api.estimate(invalid); } catch { /* ScenarioError expected */ } };
cases.validate = () => api.validate(scenarios.default);
cases.encodeLink = () => api.encodeLink(preset);
cases.decodeLink = () => api.decodeLink(link);
const t = timeAll(cases);
for (const name of Object.keys(scenarios)) {
  const { cpu, wall } = t[name];
  console.log(`  estimate(${name}): ${cpu.toFixed(1)} µs/call, ${Math.round(1e6 / cpu).toLocaleString('en')} calls/s ` +
    `(wall clock ${wall.toFixed(1)} µs)`);
}
console.log(`  estimate(default and the preset, alternating): ${t.alternating.cpu.toFixed(1)} µs/call`);
console.log(`  estimate(invalid → ScenarioError): ${t.invalid.cpu.toFixed(1)} µs/call`);
console.log(`  validate(default): ${t.validate.cpu.toFixed(1)} µs/call`);
console.log(`  encodeLink: ${t.encodeLink.cpu.toFixed(1)} µs/call, decodeLink: ${t.decodeLink.cpu.toFixed(1)} µs/call`);
const first = t.default.cpu;
console.log(`  a docs page computing 1,000 scenarios waits ${first.toFixed(0)} ms (at the default scenario's cost)`);
console.log(`BENCH js_api_estimate_us=${first.toFixed(1)} js_api_calls_per_s=${Math.round(1e6 / first)}`);
