// Type-checked by tests/js/typings.test.mjs (tsc --strict) next to dist/vramcalc.d.mts: code a
// TypeScript user would write against the published typings. Lines marked @ts-expect-error must
// stay errors (the typings reject them); everything else must compile.
import createVramcalc, {
  createVramcalc as named,
  type Estimate,
  type FieldInfo,
  type GpuPreset,
  type Issue,
  type ModelPreset,
  type Scenario,
  type ScenarioError,
  type ScenarioInput,
  type VramcalcApi,
} from './vramcalc.mjs';

const api: VramcalcApi = await createVramcalc({ locateFile: (path, prefix) => prefix + path });
const other: VramcalcApi = await named({ wasmBinary: new Uint8Array(8) });

const input: ScenarioInput = {
  model: { preset: 'llama-3-8b', layers: 16 },
  training: { precision: 'mixed_bf16', recompute: 'selective', micro_batch_size: 4 },
  parallel: { zero_stage: 3 },
  hardware: { gpu: 'H100-SXM' },
};
const e: Estimate = api.estimate(input);
const gib: number = e.memory_per_gpu_bytes.total / 2 ** 30;
const fits: boolean = e.fits;
const warningIds: string[] = e.warnings.map((w) => w.id);
const days: number = e.compute.days;
const full: Scenario = e.scenario;
const issues: Issue[] = api.validate(JSON.parse('{"model": 1}'));
const link: string = other.encodeLink({ model: 'gpt2' });
const { scenario, issues: linkIssues } = api.decodeLink(`#${link}`);
const layers: number = scenario.model.layers;
const version: string = api.version;
try {
  api.estimate({});
} catch (error) {
  const fields: string[] = (error as ScenarioError).issues.map((i) => i.field);
  console.log(fields);
}
const models: ModelPreset[] = api.modelPresets();
const published: number | undefined = models[0].published_params;
const gpus: GpuPreset[] = api.gpuPresets();
const table: FieldInfo[] = api.fields();
const defaults: Scenario = api.defaultScenario();
const qlora: Estimate = api.estimate({
  model: 'llama-3-8b',
  training: { method: 'qlora', lora_rank: 16, lora_targets: 'all_linear', base_weight_format: 'nf4', adapter_dtype: 'fp32' },
});
const trainable: number = qlora.parameters.trainable;

// @ts-expect-error: not a precision
api.estimate({ training: { precision: 'fp8' } });
// @ts-expect-error: not a field
api.estimate({ model: { layerz: 3 } });
// @ts-expect-error: layers is a number
api.estimate({ model: { layers: '32' } });
// @ts-expect-error: the API object is read-only
api.version = '2';
// @ts-expect-error: not a training method
api.estimate({ training: { method: 'prefix' } });
// @ts-expect-error: fits is a boolean
const wrong: string = e.fits;

console.log(gib, fits, warningIds, days, full, issues, linkIssues, layers, version, published, gpus, table, defaults, trainable, wrong);
