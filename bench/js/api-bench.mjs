// JS API bench (Node): time per estimate() call and calls per second, for a few scenarios, through
// the module's Embind interface (what vramcalc.mjs uses) and through its plain C exports (the
// previous interface, kept as an internal fallback: the CEXPORTS option key), in one run. Each
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
const apiC = await createVramcalc({ [Symbol.for('vramcalc.cExports')]: true });
const paths = { embind: api, 'C exports': apiC };

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
// Both paths give the same results (tests/js run every test through the Embind path; this checks
// the fallback agrees on the benched cases).
for (const scenario of Object.values(scenarios)) {
  if (JSON.stringify(api.estimate(scenario)) !== JSON.stringify(apiC.estimate(scenario))) {
    throw new Error('the Embind and C-export paths disagree');
  }
}
const cases = {};  // "<case> | <path>" → function
for (const [how, a] of Object.entries(paths)) {
  for (const [name, scenario] of Object.entries(scenarios)) {
    a.estimate(scenario);  // throws here if the scenario is invalid: the bench must time real estimates
    cases[`${name} | ${how}`] = () => a.estimate(scenario);
  }
  // Every call a different scenario than the last: nothing the wrapper and module keep from the
  // previous call (its keys, its texts) helps.
  const alternate = [scenarios.default, preset];
  let turn = 0;
  cases[`alternating | ${how}`] = () => a.estimate(alternate[turn ^= 1]);
  cases[`invalid | ${how}`] = () => { try { a.estimate(invalid); } catch { /* ScenarioError expected */ } };
  cases[`validate | ${how}`] = () => a.validate(scenarios.default);
  cases[`encodeLink | ${how}`] = () => a.encodeLink(preset);
  cases[`decodeLink | ${how}`] = () => a.decodeLink(link);
}
const t = timeAll(cases);
const row = (label, name) => {
  const cells = Object.keys(paths).map((how) => {
    const { cpu, wall } = t[`${name} | ${how}`];
    return `${how} ${cpu.toFixed(1)} µs (wall ${wall.toFixed(1)})`;
  });
  console.log(`  ${label}: ${cells.join(', ')}`);
};
for (const name of Object.keys(scenarios)) row(`estimate(${name})`, name);
row('estimate(default and the preset, alternating)', 'alternating');
row('estimate(invalid → ScenarioError)', 'invalid');
row('validate(default)', 'validate');
row('encodeLink', 'encodeLink');
row('decodeLink', 'decodeLink');
const first = t['default | embind'].cpu, firstC = t['default | C exports'].cpu;
console.log(`  a docs page computing 1,000 scenarios waits ${first.toFixed(0)} ms (at the default scenario's cost)`);
console.log(`BENCH js_api_estimate_us=${first.toFixed(1)} js_api_calls_per_s=${Math.round(1e6 / first)} ` +
  `js_api_estimate_cexports_us=${firstC.toFixed(1)}`);
