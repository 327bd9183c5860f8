// Browser end-to-end tests: runs every tests/browser/*.test.mjs in one headless Chromium against
// dist served with the strict CSP header. Prints "N passed, N failed"; exit code 1 on failure.
// Usage: node tests/browser/run.mjs [name filter]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve, launch, distDir } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] || '';
if (!fs.existsSync(path.join(distDir(), 'index.html'))) {
  console.error(`no page in ${distDir()}: build it first (bash .ci/build-web.sh)`);
  process.exit(2);
}
const files = fs.readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort();
// A host page for the iframe test, as docs/embedding.md shows it.
const server = await serve(distDir(), {
  '/iframe-host.html': '<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="favicon.svg"><h1>Docs page</h1>' +
    '<iframe src="embed.html#v=1&N=32" title="vramcalc" width="640" height="420" loading="lazy" ' +
    '></iframe>',
  // docs/embedding.md's snippet with the loader, on a docs page longer than the window (the CSP
  // forbids inline styles here, so the sizes are attributes).
  '/loader-host.html': '<!doctype html><meta charset="utf-8"><title>docs</title><link rel="icon" href="favicon.svg">' +
    '<h1>Docs page</h1><p>Above the calculator.</p>' +
    '<iframe data-vramcalc src="embed.html#v=3&mp=llama-3-8b&gpu=H100-SXM&z=3&b=2&sp=1" title="vramcalc" width="640" height="200" ' +
    'frameborder="0"></iframe><script src="vramcalc-embed.js" async></script>' +
    '<p>Below the calculator.</p><img src="favicon.svg" alt="" width="16" height="3000"><p>End of the docs page.</p>',
});
const browser = await launch();
let passed = 0, failed = 0;
try {
  for (const file of files) {
    const { tests } = await import(pathToFileURL(path.join(here, file)).href);
    for (const [name, fn] of tests) {
      if (filter && !name.includes(filter)) continue;
      const started = Date.now();
      try {
        await fn({ browser, server });
        passed++;
        console.log(`ok   ${file} › ${name} (${Date.now() - started} ms)`);
      } catch (e) {
        failed++;
        console.log(`FAIL ${file} › ${name} (${Date.now() - started} ms)\n     ${String(e && e.stack || e).split('\n').slice(0, 4).join('\n     ')}`);
      }
    }
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
