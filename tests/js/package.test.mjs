// The npm package (build-web/npm, assembled by src/bindings/CMakeLists.txt) as a user gets it:
// `npm pack` makes the tarball; a scratch project (tests/js/consumer: its own lockfile pins
// esbuild) installs it, then
//  - Node imports it by name and computes an estimate,
//  - an esbuild bundle (the wasm inlined with --loader:.wasm=binary) computes it from a folder
//    with nothing else in it,
//  - TypeScript (module node16) resolves its "exports" → "types",
// and each gives the numbers the built module gives.
// Needs npm and the npm registry (for esbuild) the first time; tsc from Debian's node-typescript.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { loadApi, npmDir, root } from './_support.mjs';

const tsc = process.env.TSC || '/usr/bin/tsc';
const scenario = { model: { preset: 'llama-3-8b' }, training: { micro_batch_size: 2 }, parallel: { num_gpus: 8, zero_stage: 3 } };
let work, project, tarball;

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 300_000, ...options });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} failed (${r.error || r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

before(() => {
  assert.ok(existsSync(join(npmDir, 'package.json')), `${npmDir}/package.json is missing: build the target vramcalc_api (bash .ci/test-js.sh)`);
  work = mkdtempSync(join(tmpdir(), 'vramcalc-npm-'));
  const packed = JSON.parse(run('npm', ['pack', npmDir, '--pack-destination', work, '--json', '--loglevel=error']));
  tarball = join(work, packed[0].filename);
  project = join(work, 'project');
  cpSync(join(root, 'tests', 'js', 'consumer'), project, { recursive: true });
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project });
  run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: project });
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

async function expected() {
  const api = await loadApi();
  const e = api.estimate(scenario);
  return { version: api.version, total: e.memory_per_gpu_bytes.total, fits: e.fits, parameters: e.parameters.total,
    link: api.encodeLink(e.scenario) };
}

test('the tarball holds package.json (exports, types), the module, its wasm and typings, nothing else', () => {
  const files = JSON.parse(run('npm', ['pack', npmDir, '--dry-run', '--json', '--loglevel=error']))[0].files.map((f) => f.path).sort();
  assert.deepStrictEqual(files, ['README.md', 'package.json', 'vramcalc-wasm.mjs', 'vramcalc-wasm.wasm', 'vramcalc.d.ts', 'vramcalc.mjs']);
  const pkg = JSON.parse(readFileSync(join(project, 'node_modules', 'vramcalc', 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'vramcalc');
  assert.equal(pkg.type, 'module');
  assert.equal(pkg.types, './vramcalc.d.ts');
  assert.deepStrictEqual(pkg.exports['.'], { types: './vramcalc.d.ts', default: './vramcalc.mjs' });
  assert.equal(readFileSync(join(project, 'node_modules', 'vramcalc', 'vramcalc.d.ts'), 'utf8'),
    readFileSync(join(root, 'src', 'bindings', 'vramcalc.d.ts'), 'utf8'));
});

test('Node: the installed package, imported by name, computes the estimate', async () => {
  const out = JSON.parse(run(process.execPath, ['node.mjs', JSON.stringify(scenario)], { cwd: project }));
  assert.deepStrictEqual(out, await expected());
  assert.equal(out.parameters, 8030261248);  // Llama-3-8B (Meta model card)
});

test('bundler: an esbuild bundle with the wasm inlined computes the estimate from an empty folder', async () => {
  const esbuild = join(project, 'node_modules', '.bin', 'esbuild');
  run(esbuild, ['bundle-entry.mjs', '--bundle', '--format=esm', '--platform=browser', '--loader:.wasm=binary',
    '--outfile=out/bundle.mjs', '--log-level=warning'], { cwd: project });
  const alone = mkdtempSync(join(work, 'alone-'));
  copyFileSync(join(project, 'out', 'bundle.mjs'), join(alone, 'bundle.mjs'));
  assert.deepStrictEqual(readdirSync(alone), ['bundle.mjs']);
  const out = JSON.parse(run(process.execPath, ['bundle.mjs', JSON.stringify(scenario)], { cwd: alone }));
  assert.deepStrictEqual(out, await expected());
});

test('TypeScript resolves the package\'s types through "exports" (module node16); a misspelt call fails', () => {
  assert.ok(existsSync(tsc), `${tsc} is missing: bash .ci/install-deps.sh web installs node-typescript`);
  const args = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'node16', '--moduleResolution', 'node16',
    '--lib', 'es2022,dom'];
  run(tsc, [...args, 'usage.mts'], { cwd: project });
  writeFileSync(join(project, 'misuse.mts'), readFileSync(join(project, 'usage.mts'), 'utf8').replace('api.estimate(', 'api.estimat('));
  const r = spawnSync(tsc, [...args, 'misuse.mts'], { cwd: project, encoding: 'utf8', timeout: 120_000 });
  assert.notEqual(r.status, 0, 'tsc accepted a call to a function the package does not have');
  assert.match(r.stdout, /estimat/);
});
