// HTTP headers (issue 10.8): the deployable folder's _headers file (web/_headers) is what
// .ci/serve.sh's server (.ci/serve.py) sends; the page, the embed view (framed from another origin)
// and the JS API example work under those headers without one CSP violation, and frame-ancestors
// keeps the full calculator out of other origins' frames.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { once } from 'node:events';
import { root, distDir, settle, test, assert, noProblems, openPage, testPageReady } from './lib.mjs';

// The rules of web/_headers, read here independently of .ci/serve.py: {pattern: {name: value}}.
function shippedRules() {
  const rules = {};
  let current = null;
  for (const line of fs.readFileSync(path.join(root, 'web', '_headers'), 'utf8').split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) rules[current = line.trim()] = {};
    else rules[current][line.trim().split(':')[0].toLowerCase()] = line.trim().slice(line.trim().indexOf(':') + 1).trim();
  }
  return rules;
}

// .ci/serve.py on the built folder; resolves to {url, close()}.
async function servePy() {
  const child = spawn('python3', [path.join(root, '.ci', 'serve.py'), distDir(), '0', '127.0.0.1'],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  while (!/http:\/\/\S+\//.test(text)) {
    const [chunk] = await once(child.stdout, 'data');
    text += chunk;
  }
  return { url: /http:\/\/\S+\//.exec(text)[0], close: () => child.kill() };
}

// A docs page on another origin (another port) that frames `src`, with no policy of its own.
async function docsHost(src) {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><meta charset="utf-8"><title>docs</title><h1>Docs</h1>
      <iframe src="${src}" title="vramcalc" width="640" height="420"></iframe>`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

const open = (browser, url, ready) => openPage(browser, url, { width: 1200, height: 800, ready });

export const tests = [
  ['_headers: every page gets one strict CSP with frame-ancestors, and .ci/serve.py sends exactly those', async () => {
    const rules = shippedRules();
    const server = await servePy();
    try {
      for (const [pagePath, rule, ancestors] of [['', '/', "'self'"], ['index.html', '/index.html', "'self'"],
        ['embed.html', '/embed.html', '*'], ['api-example.html', '/api-example.html', "'self'"]]) {
        const csp = rules[rule]['content-security-policy'];
        assert(csp, `web/_headers has no CSP for ${rule}`);
        const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v.join(' ')]));
        assert(directives['frame-ancestors'] === ancestors, `${rule}: frame-ancestors ${directives['frame-ancestors']}`);
        assert(directives['style-src'] === "'self'" && directives['script-src'] === "'self' 'wasm-unsafe-eval'",
          `${rule}: script/style sources are not strict: ${csp}`);
        assert(directives['object-src'] === "'none'" && directives['base-uri'] === "'none'", `${rule}: ${csp}`);
        const response = await fetch(server.url + pagePath);
        assert(response.status === 200, `${pagePath}: status ${response.status}`);
        assert(response.headers.get('content-security-policy') === csp, `${pagePath}: served CSP differs from web/_headers`);
        assert(response.headers.get('x-content-type-options') === 'nosniff', `${pagePath}: no nosniff`);
        assert(response.headers.get('x-frame-options') === null, `${pagePath}: X-Frame-Options would break embedding`);
      }
      const wasm = await fetch(server.url + 'vramcalc-wasm.wasm');
      assert(wasm.headers.get('content-type') === 'application/wasm', 'wasm served without application/wasm');
      assert(wasm.headers.get('content-security-policy') === null, 'a CSP on a non-page file');
      assert((await fetch(server.url + '_headers')).status === 404, '_headers itself is served');
    } finally {
      server.close();
    }
  }],

  ['under the served headers the page and the API example run without a CSP violation', async ({ browser }) => {
    const server = await servePy();
    try {
      const { page, context, problems, response } = await open(browser, server.url + 'index.html#v=3&mp=gpt2&b=2', testPageReady);
      assert((await response.allHeaders())['content-security-policy'].includes('frame-ancestors'), 'no CSP header');
      await settle(page);
      const t = test(page);
      assert((await t.scenario()).training.micro_batch_size === 2, 'the link was not applied');
      assert((await t.estimate()).errors.length === 0, 'the estimate failed');
      await noProblems(page, problems);
      await context.close();

      const example = await open(browser, server.url + 'api-example.html#v=3&mp=llama-2-7b',
        () => document.body.dataset.state === 'ready');
      // The style sheet (a file now, no inline <style>) applied under style-src 'self'.
      const maxWidth = await example.page.evaluate(() => getComputedStyle(document.body).maxWidth);
      assert(maxWidth === `${58 * 16}px`, `api-example.css not applied (max-width ${maxWidth})`);
      assert((await example.page.evaluate(() => document.body.dataset.parameters)) === '6738415616', 'no estimate');
      await noProblems(example.page, example.problems);
      await example.context.close();
    } finally {
      server.close();
    }
  }],

  ['frame-ancestors: another origin can frame embed.html but not the calculator', async ({ browser }) => {
    const server = await servePy();
    const docs = [];
    try {
      for (const [file, allowed] of [['embed.html', true], ['index.html', false]]) {
        const host = await docsHost(`${server.url}${file}#v=3&N=32`);
        docs.push(host);
        const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
        const page = await context.newPage();
        const refused = [];
        page.on('console', (m) => { if (/frame-ancestors|Refused to frame/.test(m.text())) refused.push(m.text()); });
        await page.goto(host.url);
        const frame = await (await page.waitForSelector('iframe')).contentFrame();
        if (allowed) {
          await frame.waitForFunction(testPageReady, null, { timeout: 30000 });
          const framed = JSON.parse(await frame.evaluate(() => window.vramcalcTest.scenarioJson()));
          assert(framed.parallel.num_gpus === 32, 'the framed embed did not load its scenario');
          assert((await frame.evaluate(() => window.vramcalcTest.layout())).embed === true, 'not in embed mode');
          assert(refused.length === 0, `embed.html refused: ${refused.join(' | ')}`);
        } else {
          for (let i = 0; i < 100 && refused.length === 0; i++) await page.waitForTimeout(100);
          assert(refused.length > 0, 'index.html was framed by another origin');
          const loaded = await frame.evaluate(() => !!window.vramcalcTest).catch(() => false);
          assert(!loaded, 'the calculator ran inside another origin\'s frame');
        }
        await context.close();
      }
    } finally {
      server.close();
      for (const d of docs) d.close();
    }
  }],
];
