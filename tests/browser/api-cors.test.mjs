// A docs page on another origin imports the JS API from where vramcalc is hosted (docs/api.md,
// "From another origin"): with Access-Control-Allow-Origin on vramcalc.mjs, vramcalc-wasm.mjs and
// vramcalc-wasm.wasm it computes an estimate, under a docs-site CSP that names the vramcalc origin;
// without the header the browser refuses the import.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { assert, distDir } from './lib.mjs';

const API_FILES = new Set(['/vramcalc.mjs', '/vramcalc-wasm.mjs', '/vramcalc-wasm.wasm']);
const TYPES = { '.mjs': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm', '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8' };

function listen(handler) {
  const server = http.createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    origin: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) })));
}

// The vramcalc host: the deployable folder, with or without the documented CORS header.
function apiHost(cors) {
  const dir = path.resolve(distDir());
  return listen((req, res) => {
    const urlPath = new URL(req.url, 'http://x').pathname;
    if (!API_FILES.has(urlPath)) { res.writeHead(404); res.end(); return; }
    const headers = { 'Content-Type': TYPES[path.extname(urlPath)] };
    if (cors) headers['Access-Control-Allow-Origin'] = '*';
    res.writeHead(200, headers);
    res.end(fs.readFileSync(path.join(dir, urlPath)));
  });
}

// The docs site: one page whose module script imports the API from the vramcalc host.
function docsHost(apiOrigin) {
  const csp = `default-src 'self'; img-src 'self' data:; script-src 'self' ${apiOrigin} 'wasm-unsafe-eval'; connect-src 'self' ${apiOrigin}`;
  const page = '<!doctype html><meta charset="utf-8"><title>docs</title><link rel="icon" href="data:,">' +
    '<p id="out">computing…</p><script type="module" src="docs.js"></script>';
  const script = `import createVramcalc from '${apiOrigin}/vramcalc.mjs';
    try {
      const api = await createVramcalc();
      const e = api.estimate({ model: { preset: 'llama-3-8b' } });
      window.result = { parameters: e.parameters.total, total: e.memory_per_gpu_bytes.total };
      document.getElementById('out').textContent = (e.memory_per_gpu_bytes.total / 2 ** 30).toFixed(2) + ' GiB per GPU';
    } catch (error) { window.result = { error: String(error) }; }`;
  return listen((req, res) => {
    const urlPath = new URL(req.url, 'http://x').pathname;
    if (urlPath === '/docs.html') {
      res.writeHead(200, { 'Content-Type': TYPES['.html'], 'Content-Security-Policy': csp });
      res.end(page);
    } else if (urlPath === '/docs.js') {
      res.writeHead(200, { 'Content-Type': TYPES['.js'] });
      res.end(script);
    } else { res.writeHead(404); res.end(); }
  });
}

async function importFromDocs(browser, cors) {
  const api = await apiHost(cors);
  const docs = await docsHost(api.origin);
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  let refused;
  const refusal = new Promise((resolve) => { refused = resolve; });
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    errors.push(m.text());
    if (/CORS|Access-Control-Allow-Origin/.test(m.text())) refused();
  });
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${docs.origin}/docs.html`);
    // A refused module import never runs docs.js: wait for the result or for the console error.
    await Promise.race([refusal, page.waitForFunction(() => window.result !== undefined, null, { timeout: 15000 }).catch(() => {})]);
    return { result: await page.evaluate(() => window.result), text: await page.textContent('#out'), errors };
  } finally {
    await context.close();
    await api.close();
    await docs.close();
  }
}

export const tests = [
  ['cross-origin docs page: the API imports and computes with Access-Control-Allow-Origin, and not without', async ({ browser }) => {
    const ok = await importFromDocs(browser, true);
    assert(ok.result && ok.result.parameters === 8030261248, `with the header: ${JSON.stringify(ok)}`);  // Llama-3-8B (Meta model card)
    assert(/GiB per GPU/.test(ok.text), `docs page text: ${ok.text}`);
    assert(ok.errors.length === 0, `errors with the header: ${ok.errors.join(' | ')}`);
    const refused = await importFromDocs(browser, false);
    assert(refused.result === undefined && refused.text === 'computing…', `without the header: ${JSON.stringify(refused)}`);
    assert(refused.errors.some((e) => /CORS|Access-Control-Allow-Origin/.test(e)), `no CORS error reported: ${refused.errors.join(' | ')}`);
  }],
];
