// importHfConfig / importDeepSpeedConfig: real published config files give the published parameter
// counts (tests/data/hf/README.md lists each file's Hub repository and count), DeepSpeed configs set
// what DeepSpeed's documented semantics say (deepspeed.ai/docs/config-json), the result equals the
// CLI's --hf-config / --deepspeed-config number for number, and bad input throws an ImportError that
// names the config's own key.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { cliJson, loadApi, readText, root } from './_support.mjs';

const hf = (name) => readText(join(root, 'tests', 'data', 'hf', `${name}.json`));
const deepspeed = (name) => readText(join(root, 'tests', 'fuzz', 'corpus', 'fuzz_import_deepspeed', `${name}.json`));

// Published parameter counts (tests/data/hf/README.md: model cards and papers).
const published = [
  ['llama3_8b', 'llama', 8030261248],     // Meta-Llama-3-8B model card: 8.03B
  ['llama2_7b', 'llama', 6738415616],     // Llama-2-7b-hf as counted by transformers
  ['mistral_7b', 'mistral', 7241732096],  // Mistral-7B-v0.1: 7.24B
  ['qwen25_7b', 'qwen2', 7615616512],     // Qwen2.5-7B model card: 7.61B
  ['gpt2', 'gpt2', 124439808],            // GPT-2 small checkpoint
  ['mixtral_8x7b', 'mixtral', 46702792704],  // Mixtral 8x7B: 46.7B total
  ['neox_20b', 'gpt_neox', 20554567680],  // Black et al. 2022 (arXiv 2204.06745), Table 1
];

test('importHfConfig: real config.json files give the published parameter counts', async () => {
  const api = await loadApi();
  for (const [name, family, count] of published) {
    const r = api.importHfConfig(hf(name));
    assert.equal(r.family, family, name);
    assert.equal(api.estimate(r.scenario).parameters.total, count, name);
    assert.ok(Array.isArray(r.notes) && Array.isArray(r.unmapped_keys) && Array.isArray(r.ignored_keys), name);
    assert.equal('issues' in r, false, 'a successful import carries no issues key');
  }
});

test('importHfConfig keeps the base scenario\'s training, parallel and hardware settings', async () => {
  const api = await loadApi();
  const base = { training: { micro_batch_size: 2, seq_len: 4096 }, parallel: { num_gpus: 16, zero_stage: 3 },
    hardware: { gpu: 'H100-SXM' } };
  const { scenario } = api.importHfConfig(hf('llama3_8b'), base);
  // Values of the published config.json.
  assert.equal(scenario.model.hidden_size, 4096);
  assert.equal(scenario.model.layers, 32);
  assert.equal(scenario.model.num_kv_heads, 8);
  assert.equal(scenario.model.vocab_size, 128256);
  assert.equal(scenario.training.micro_batch_size, 2);
  assert.equal(scenario.training.seq_len, 4096);
  assert.equal(scenario.parallel.num_gpus, 16);
  assert.equal(scenario.parallel.zero_stage, 3);
  assert.equal(scenario.hardware.gpu, 'H100-SXM');
  // GPT-2 learns 1,024 positions: the default 2,048-token sequence is lowered to them.
  assert.equal(api.importHfConfig(hf('gpt2')).scenario.training.seq_len, 1024);
});

test('importDeepSpeedConfig sets ZeRO, offload, batch and precision as DeepSpeed defines them', async () => {
  const api = await loadApi();
  const { scenario, notes } = api.importDeepSpeedConfig(deepspeed('zero3_offload'), { model: { preset: 'llama-3-8b' } });
  assert.equal(scenario.parallel.zero_stage, 3);
  assert.equal(scenario.parallel.offload_optimizer, true);
  assert.equal(scenario.training.micro_batch_size, 4);
  assert.equal(scenario.training.precision, 'mixed_bf16');
  // train_batch_size = micro × gradient accumulation × data-parallel size (8 GPUs by default).
  assert.equal(api.estimate(scenario).layout.global_batch_size, 4 * 8 * 8);
  assert.equal(scenario.model.hidden_size, 4096, 'the model of the base stays');
  assert.ok(Array.isArray(notes));
});

test('imports equal the CLI\'s --hf-config and --deepspeed-config, number for number', async () => {
  const api = await loadApi();
  const dir = mkdtempSync(join(tmpdir(), 'vramcalc-import-'));
  try {
    const hfFile = join(dir, 'config.json');
    const dsFile = join(dir, 'ds.json');
    writeFileSync(hfFile, hf('mistral_7b'));
    writeFileSync(dsFile, deepspeed('zero3_offload'));
    const base = { parallel: { num_gpus: 16 } };
    const viaApi = api.importDeepSpeedConfig(deepspeed('zero3_offload'), api.importHfConfig(hf('mistral_7b'), base).scenario);
    const { json } = cliJson(base, ['--hf-config', hfFile, '--deepspeed-config', dsFile]);
    assert.deepEqual(api.estimate(viaApi.scenario), json);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bad input throws an ImportError naming the key and the rule', async () => {
  const api = await loadApi();
  const issuesOf = (fn) => {
    try {
      fn();
    } catch (e) {
      assert.equal(e.name, 'ImportError');
      assert.match(e.message, /^could not import the config: /);
      return e.issues;
    }
    assert.fail('no ImportError thrown');
  };
  assert.equal(issuesOf(() => api.importHfConfig(42))[0].field, 'config');
  assert.match(issuesOf(() => api.importHfConfig('{"hidden_size": 4096,'))[0].message, /JSON/i);
  const noLayers = JSON.parse(hf('llama3_8b'));
  delete noLayers.num_hidden_layers;
  assert.ok(issuesOf(() => api.importHfConfig(JSON.stringify(noLayers))).some((i) => /num_hidden_layers|n_layer/.test(i.field)));
  const badStage = JSON.stringify({ zero_optimization: { stage: 7 } });
  assert.ok(issuesOf(() => api.importDeepSpeedConfig(badStage)).some((i) => i.field === 'zero_optimization.stage'));
  assert.ok(issuesOf(() => api.importHfConfig(hf('gpt2'), { training: { micro_batch_size: 'two' } }))
    .some((i) => i.field === 'base.training.micro_batch_size'));
});

test('issue 22: nesting deeper than 64 levels and DeepSpeed stage 0 with offload are ImportErrors naming the rule', async () => {
  const api = await loadApi();
  const issuesOf = (fn) => {
    try {
      fn();
    } catch (e) {
      assert.equal(e.name, 'ImportError');
      return e.issues;
    }
    assert.fail('no ImportError thrown');
  };
  // 60,000 '[' once filled the 2 GiB wasm heap ("std::bad_alloc"); now refused before parsing.
  const deep = `{"model":${'['.repeat(60000)}`;
  for (const importer of [api.importHfConfig, api.importDeepSpeedConfig]) {
    const [issue] = issuesOf(() => importer(deep));
    assert.equal(issue.field, 'json');
    assert.equal(issue.message, 'is nested deeper than 64 levels (objects and arrays inside each other) at byte 72; not read');
  }
  const offloaded = JSON.stringify({ zero_optimization: { stage: 0, offload_optimizer: { device: 'cpu' } } });
  assert.ok(issuesOf(() => api.importDeepSpeedConfig(offloaded)).some((i) =>
    i.field === 'zero_optimization.offload_optimizer.device' && i.message.startsWith('needs zero_optimization.stage 1, 2 or 3')));
});

// importGguf: the header of bench/inference/write_gguf.py's llama (tests/data/gguf/); llama.cpp
// reported 24,680,448 bytes of tensor data and 43.85 M parameters for the full file
// (tests/data/inference/llamacpp_cpu_3.21.1.json). The CLI's --gguf gives the same scenario.
test('importGguf reads a GGUF header into a llama.cpp serving scenario', async () => {
  const api = await loadApi();
  const { readFileSync } = await import('node:fs');
  const path = join(root, 'tests', 'data', 'gguf', 'llama-gqa-Q4_0.header.gguf');
  const bytes = new Uint8Array(readFileSync(path));
  const r = api.importGguf(bytes);
  assert.equal(r.family, 'llama');
  assert.equal(r.gguf.tensor_bytes, 24680448);
  assert.equal(r.gguf.tensors, 39);
  assert.equal(r.scenario.workload, 'inference');
  assert.equal(r.scenario.inference.engine, 'llamacpp');
  assert.equal(r.scenario.inference.weight_format, 'gguf-q4_0');
  assert.equal(r.scenario.model.num_kv_heads, 2);
  assert.deepEqual(api.importGguf(bytes.buffer).scenario, r.scenario);
  const { json } = cliJson({}, ['--gguf', path]);
  assert.deepEqual(api.estimate(r.scenario), json);

  // A prefix: incomplete, so the caller reads more; 2^40 tensors: an error, not an allocation.
  assert.throws(() => api.importGguf(bytes.subarray(0, 4096)), (e) => e.name === 'ImportError' && e.incomplete === true);
  const huge = new Uint8Array(24);
  huge.set([0x47, 0x47, 0x55, 0x46, 3, 0, 0, 0, 0, 0, 0, 0, 0, 1]);  // "GGUF", v3, 2^40 tensors
  assert.throws(() => api.importGguf(huge), (e) => e.name === 'ImportError' && e.issues[0].field === 'gguf' &&
    /claims 1099511627776 tensors/.test(e.issues[0].message));
  assert.throws(() => api.importGguf('GGUF'), (e) => e.name === 'ImportError' && /Uint8Array/.test(e.issues[0].message));
});
