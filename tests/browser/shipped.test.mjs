// The shipped page (dist/) carries no test hooks: the browser tests drive dist-test/ (the same page
// with src/app/test_hooks.cpp linked in), and dist/ is what a host serves. Checks the exports
// (no _vramcalc_test_*), a cold load of dist/ (it shows its numbers and draws, with no
// window.vramcalcTest and no errors) and the size of that load (issue 13: ≤ 250 KB gzip).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, assert, noProblems, openPage, shippedDistDir, distDir } from './lib.mjs';

// The page-size ceiling in KB gzip -9 (see the size test below: the 250 KB target is not met).
const pageBudgetKb = 309;

// The C functions the app's JS glue exports to web/main.js (Module["_name"]: the wasm's own
// export names are minified).
const glueExports = (js) => [...new Set(js.match(/_vramcalc_\w+/g) || [])];

const appFiles = (dir) => {
  const files = fs.readdirSync(dir);
  const wasm = files.find((f) => /^vramcalc-app\.[0-9a-f]{10}\.wasm$/.test(f));
  const js = files.find((f) => /^vramcalc-app\.[0-9a-f]{10}\.js$/.test(f));
  assert(wasm && js, `${dir} has no content-hashed vramcalc-app.{js,wasm}: ${files.join(' ')}`);
  return { js: fs.readFileSync(path.join(dir, js), 'utf8') };
};

export const tests = [
  ['shipped page: dist/ exports no test hooks; dist-test/ exports them and everything dist/ does', async () => {
    const shipped = glueExports(appFiles(shippedDistDir()).js);
    assert(shipped.includes('_vramcalc_frame'), `dist/ vramcalc-app.js exports look wrong: ${shipped.join(' ')}`);
    const hooks = shipped.filter((name) => name.startsWith('_vramcalc_test'));
    assert(hooks.length === 0, `dist/ vramcalc-app.js exports test hooks: ${hooks.join(' ')}`);
    // The test build is the same page plus the hooks (what every other browser test drives).
    const tested = glueExports(appFiles(distDir()).js);
    for (const hook of ['_vramcalc_test_scenario_json', '_vramcalc_test_frame_count', '_vramcalc_test_item_rect']) {
      assert(tested.includes(hook), `dist-test/ vramcalc-app.js does not export ${hook}`);
    }
    for (const name of shipped) assert(tested.includes(name), `dist-test/ lacks the shipped export ${name}`);
  }],

  ['shipped page: a cold load of dist/ shows the numbers and draws, without window.vramcalcTest', async ({ browser }) => {
    const server = await serve(shippedDistDir());
    let context;
    try {
      const opened = await openPage(browser, server.url + 'index.html#v=3&mp=llama-3-8b&gpu=H100-SXM',
        { ready: () => window.vramcalcFirstFrameMs !== undefined });
      context = opened.context;
      const { page, problems } = opened;
      const summary = await page.textContent('#summary');
      assert(/Llama/i.test(summary) && /GiB|GB/.test(summary) && /\d/.test(summary), `summary: ${summary}`);
      assert(await page.evaluate(() => window.vramcalcTest === undefined), 'dist/ exposes window.vramcalcTest');
      await noProblems(page, problems);
    } finally {
      await context?.close();
      await server.close();
    }
  }],

  // Every response body of a cold load of dist/index.html, each gzip'd at level 9 (as
  // bench/web/bench.mjs measures the page), summed (KB = 1,024 bytes). The target is 250 KB
  // (issues 13, 24); with the serving workload the page measured 284.5 KB on main and 285.0 KB after
  // the app refactor of issue 23 (docs/performance.md, fourth round), and 304.3 KB with this round's
  // merges (inference planner, .gguf import, error-band table, FP8 / context parallelism, link v3),
  // and 307.7 KB after the 2026-12-07 merges (vLLM's sampler and a GGUF's exact bytes as fields,
  // the prefill / TTFT model, TP communication overlap, the app's long functions split), so the
  // target is NOT met. This ceiling only stops further growth until the serving code and the long
  // texts are loaded on demand (docs/performance.md).
  ['shipped page: a cold load of dist/ downloads at most 309 KB gzip (target 250 KB, not met)', async ({ browser }) => {
    const server = await serve(shippedDistDir());
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const bodies = [];
      page.on('response', (r) => bodies.push(r.finished().then(() => r.body()).then((b) => [new URL(r.url()).pathname, b])));
      await page.goto(server.url + 'index.html#v=3&mp=llama-3-8b');
      await page.waitForFunction(() => window.vramcalcFirstFrameMs !== undefined, null, { timeout: 30000 });
      const files = await Promise.all(bodies);
      const gzipped = files.map(([name, body]) => [name, zlib.gzipSync(body, { level: 9 }).length]);
      const total = gzipped.reduce((sum, [, n]) => sum + n, 0);
      const names = gzipped.map(([name]) => name).join(' ');
      assert(gzipped.some(([name]) => /\.wasm$/.test(name)) && gzipped.some(([name]) => /\.ttf$/.test(name)), `responses: ${names}`);
      assert(total <= pageBudgetKb * 1024, `the page downloads ${(total / 1024).toFixed(1)} KB gzip (> ${pageBudgetKb} KB): ${gzipped.map(([n, b]) => `${n} ${b}`).join(', ')}`);
    } finally {
      await context.close();
      await server.close();
    }
  }],
];
