// docs/api.md stays true: its field table matches api.fields(), every API member has a section,
// and the example at the top gives the numbers the text claims.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { loadApi, readText, root } from './_support.mjs';

const api = await loadApi();
const doc = readText(join(root, 'docs', 'api.md'));

// The row docs/api.md must have for a field (the test prints it when the doc is stale).
function expectedRow(f) {
  const type = f.kind === 'choice' ? f.choices.map((c) => `\`${c}\``).join(', ') : f.kind;
  const def = typeof f.default === 'string' ? `\`"${f.default}"\`` : `\`${f.default}\``;
  return `| \`${f.path}\` | \`${f.url_key}\` | ${type} | ${def} | ${f.help.replace(/\|/g, '\\|')} |`;
}

test('the field table of docs/api.md is api.fields()', () => {
  // a field row: path, then its link key in backticks (the output table's rows have a unit there)
  const rows = doc.split('\n').filter((line) => /^\| `(workload|(model|training|parallel|hardware|inference)\.\w+)` \| `/.test(line));
  const expected = api.fields().map(expectedRow);
  assert.deepStrictEqual(rows, expected, 'update the table in docs/api.md with the expected rows');
});

test('every API member has its section in docs/api.md', () => {
  for (const name of Object.keys(api)) {
    assert.ok(new RegExp(`^## .*\`api\\.${name}\\b`, 'm').test(doc), `docs/api.md has no "## \`api.${name}" section`);
  }
  assert.match(doc, /^## `createVramcalc\(options\?\)`/m);
});

test('the example at the top of docs/api.md says what estimate() returns', () => {
  const input = {
    model: { preset: 'llama-3-8b' },
    training: { micro_batch_size: 4, flash_attention: true },
    parallel: { num_gpus: 8, zero_stage: 3 },
    hardware: { gpu: 'H100-SXM' },
  };
  const e = api.estimate(input);
  // 64.57 since link version 3: ZeRO-3 counts DeepSpeed's 1e9 live parameters (2e9 bytes in bf16).
  assert.equal((e.memory_per_gpu_bytes.total / 2 ** 30).toFixed(2), '64.57');
  assert.ok(doc.includes('e.memory_per_gpu_bytes.total / 2 ** 30;   // 64.57'));
  assert.equal(e.fits, true);
  const link = api.encodeLink(e.scenario);
  assert.ok(doc.includes(`api.encodeLink(e.scenario);                // "${link}"`), link);
  assert.ok(doc.includes(`"total": ${e.memory_per_gpu_bytes.total} }`));
});
