// src/bindings/api-example.html in headless Chromium, served with the strict Content-Security-Policy
// (script-src 'self' 'wasm-unsafe-eval'; style-src 'self': no eval, no inline script or style). The page must load the API,
// read the link, compute, and show the same numbers as Node; hostile link text must stay inert.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { once } from 'node:events';

import { distDir, distFile, loadApi, root } from './_support.mjs';

const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
let server;
let base;

before(async () => {
  distFile('api-example.html');
  distFile('api-example.js');
  distFile('api-example.css');
  assert.ok(existsSync(chromium), `${chromium} is missing: bash .ci/install-deps.sh js installs it`);
  server = spawn('python3', [join(root, 'tests', 'js', 'csp_server.py'), distDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = await once(server.stdout, 'data');
  base = `http://127.0.0.1:${parseInt(String(chunk), 10)}`;
});

after(() => {
  if (server) server.kill();
});

// The page's DOM after its scripts ran (Chromium's --dump-dom with a virtual time budget).
function dumpDom(fragment) {
  const profile = mkdtempSync(join(tmpdir(), 'vramcalc-chromium-'));
  try {
    const r = spawnSync(chromium, [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic', `--user-data-dir=${profile}`,
      '--virtual-time-budget=10000', '--dump-dom', `${base}/api-example.html${fragment}`,
    ], { encoding: 'utf8', timeout: 90_000, maxBuffer: 64 << 20 });
    assert.equal(r.status, 0, `chromium failed: ${r.error || r.stderr.slice(-2000)}`);
    return r.stdout;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

const attr = (dom, name) => (new RegExp(`<body[^>]*\\s${name}="([^"]*)"`).exec(dom) || [])[1];
const text = (dom, id) => (new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(dom) || [])[1];

test('the example page computes under the strict CSP, from a link, with the numbers Node gets', async () => {
  const api = await loadApi();
  const fragment = '#v=1&mp=llama-2-7b&b=2&zz=1';
  const dom = dumpDom(fragment);
  assert.equal(attr(dom, 'data-state'), 'ready', 'the page finished (the module loaded under the CSP)');
  assert.equal(attr(dom, 'data-parameters'), '6738415616');  // Llama-2-7B, model card
  const expected = api.estimate(api.decodeLink(fragment).scenario).memory_per_gpu_bytes.total;
  assert.equal(Number(attr(dom, 'data-total-bytes')), expected);
  assert.match(text(dom, 'issues'), /zz: unknown link key/);
  // Re-encoded in the current version, with what version 1 meant spelled out: dropout on, no ZeRO-3
  // live parameters, no CUDA context, no allocator reserve.
  assert.equal(text(dom, 'link'), '#v=3&amp;mp=llama-2-7b&amp;b=2&amp;drop=1&amp;live=0&amp;ctx=0&amp;alloc=0');
  assert.match(text(dom, 'verdict'), /6\.74B parameters/);
});

test('a hostile link: markup stays text, bad values are named, the page still computes', () => {
  const dom = dumpDom('#v=1&name=%3Cscript%3Ewindow.pwned%3D1%3C%2Fscript%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&L=abc');
  assert.equal(attr(dom, 'data-state'), 'ready');
  assert.match(text(dom, 'issues'), /model\.layers/);
  assert.ok(!/<script>window\.pwned/.test(dom), 'no script element was created from the link');
  assert.ok(!/<img src="?x/.test(dom), 'no img element was created from the link');
  assert.match(dom, /&lt;script&gt;window\.pwned=1&lt;\/script&gt;/, 'the name is shown as text');
});
