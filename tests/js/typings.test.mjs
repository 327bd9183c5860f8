// The typings are valid TypeScript and say what users need: tests/js/typings-usage.mts is
// type-checked with tsc --strict against dist/vramcalc.d.mts (the name TypeScript looks up for
// vramcalc.mjs). tsc comes from Debian's node-typescript (bash .ci/install-deps.sh js).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { distFile, root } from './_support.mjs';

const tsc = process.env.TSC || '/usr/bin/tsc';

test('dist ships the typings under both names, identical to src/bindings/vramcalc.d.ts', () => {
  const source = readFileSync(join(root, 'src', 'bindings', 'vramcalc.d.ts'), 'utf8');
  assert.equal(readFileSync(distFile('vramcalc.d.ts'), 'utf8'), source);
  assert.equal(readFileSync(distFile('vramcalc.d.mts'), 'utf8'), source);
});

test('typical TypeScript code compiles against the typings (tsc --strict), and misuse does not', () => {
  assert.ok(existsSync(tsc), `${tsc} is missing: bash .ci/install-deps.sh js installs node-typescript`);
  const dir = mkdtempSync(join(tmpdir(), 'vramcalc-tsc-'));
  try {
    copyFileSync(distFile('vramcalc.d.mts'), join(dir, 'vramcalc.d.mts'));
    copyFileSync(join(root, 'tests', 'js', 'typings-usage.mts'), join(dir, 'usage.mts'));
    const r = spawnSync(tsc, ['--noEmit', '--strict', '--target', 'es2022', '--module', 'es2022',
      '--moduleResolution', 'node16', '--lib', 'es2022,dom', join(dir, 'usage.mts')],
    { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, `tsc failed:\n${r.stdout}${r.stderr}${r.error || ''}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
