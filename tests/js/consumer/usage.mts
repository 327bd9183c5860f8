// TypeScript resolves the package's "exports" → "types" (module node16): the default and named
// imports are typed (tests/js/package.test.mjs also checks that a misspelt call does not compile).
import createVramcalc, { type Estimate, type ScenarioInput } from 'vramcalc';

const api = await createVramcalc();
const input: ScenarioInput = { model: { preset: 'llama-3-8b' }, parallel: { num_gpus: 8, zero_stage: 3 } };
const e: Estimate = api.estimate(input);
const gib: number = e.memory_per_gpu_bytes.total / 2 ** 30;
const fits: boolean = e.fits;
console.log(gib, fits, api.version);
