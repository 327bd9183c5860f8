// Shared helpers of the browser tests and the web bench: a tiny static server that sends the
// strict Content-Security-Policy header, and a headless Debian Chromium launched by playwright-core.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
const require = createRequire(path.join(root, 'package.json'));
const { chromium } = require('playwright-core');

export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
  "img-src 'self' data:; font-src 'self'; connect-src 'self' https://huggingface.co; object-src 'none'; base-uri 'none'; " +
  "form-action 'none'; frame-ancestors 'self'";

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.ttf': 'font/ttf', '.svg': 'image/svg+xml',
  '.json': 'application/json', '.ts': 'text/plain; charset=utf-8', '.md': 'text/plain; charset=utf-8',
};

// The page the browser tests drive: the test build (dist-test/: dist/ plus the test hooks,
// window.vramcalcTest; built by .ci/test-browser.sh).
export function distDir() {
  return process.env.VRAMCALC_DIST || path.join(root, 'build-web', 'dist-test');
}

// The shipped page (dist/, no test hooks): what the size and start-up benches measure.
export function shippedDistDir() {
  return process.env.VRAMCALC_SHIPPED_DIST || path.join(root, 'build-web', 'dist');
}

// Serves `dir` on 127.0.0.1 (random port) with the strict CSP; resolves to {url, close()}.
// Extra routes: `pages` maps a path to HTML text (for iframe tests).
export function serve(dir = distDir(), pages = {}) {
  dir = path.resolve(dir);
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (pages[urlPath]) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CSP });
      res.end(pages[urlPath]);
      return;
    }
    let file = path.normalize(path.join(dir, urlPath.endsWith('/') ? urlPath + 'index.html' : urlPath));
    if (!file.startsWith(dir)) { res.writeHead(403); res.end(); return; }
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404, { 'Content-Type': 'text/plain' }); res.end('not found'); return; }
      res.writeHead(200, {
        'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
        'Content-Security-Policy': CSP,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
      res.end(data);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

export const CHROMIUM_ARGS = ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
  '--disable-quic'];

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

// A page that records console errors, page errors and CSP violations, once `ready` holds (default:
// the test build's first frame). `init`: a function run in the page before its own scripts
// (page.addInitScript). Dark unless asked (the colour checks of the older tests are the dark
// theme's). Returns the page, its context, the problems seen and the navigation's response.
export const testPageReady = () => window.vramcalcTest && window.vramcalcFirstFrameMs !== undefined;
export async function openPage(browser, url, { width = 1400, height = 900, deviceScaleFactor = 1, colorScheme = 'dark',
  hasTouch = false, isMobile = false, init, ready = testPageReady, route } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor, colorScheme, hasTouch, isMobile });
  const page = await context.newPage();
  if (init) await page.addInitScript(init);
  if (route) await page.route(route.url, route.handler);  // e.g. make a request fail
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('pageerror: ' + e.message));
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation',
      (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const response = await page.goto(url);
  await page.waitForFunction(ready, null, { timeout: 30000 });
  return { page, context, problems, response };
}

// Lets the on-demand loop settle: waits until no frame is scheduled and the frame count has
// stopped changing (robust to slow software-GL frames on a loaded machine). First two animation
// frames go by: events the browser delivers at its next rendering step (resize, a zoom change)
// have reached the page, and it has caught up with the GPU process (the page asks WebGL nothing
// that would wait for drawing, so its main thread can run ahead of slow software GL).
export async function settle(page, quietMs = 150) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  let last = -1;
  for (let i = 0; i < 200; i++) {
    const [n, busy] = await page.evaluate(() => [window.vramcalcTest.frameCount(), window.vramcalcTest.busy()]);
    if (n === last && !busy) return n;
    last = n;
    await page.waitForTimeout(quietMs);
  }
  return last;
}

export const test = (page) => ({
  scenario: async () => JSON.parse(await page.evaluate(() => window.vramcalcTest.scenarioJson())),
  estimate: async () => JSON.parse(await page.evaluate(() => window.vramcalcTest.estimateJson())),
  layout: () => page.evaluate(() => window.vramcalcTest.layout()),
  messages: () => page.evaluate(() => window.vramcalcTest.messages()),
  notes: () => page.evaluate(() => window.vramcalcTest.notes()),
  link: () => page.evaluate(() => window.vramcalcTest.link()),
  rect: (name) => page.evaluate((n) => window.vramcalcTest.itemRect(n), name),
  frames: () => page.evaluate(() => window.vramcalcTest.frameCount()),
});

// Scrolls (mouse wheel) the column that holds a named widget until it is fully visible; returns its rect.
export async function reveal(page, name) {
  const t = test(page);
  const viewport = page.viewportSize();
  for (let i = 0; i < 60; i++) {  // a phone's column with 44 px touch targets is long
    const r = await t.rect(name);
    if (!r) throw new Error(`no widget named ${name} was drawn`);
    if (r.visible) return r;
    const x = Math.min(Math.max(r.x + 5, 5), viewport.width - 5);
    await page.mouse.move(x, viewport.height * 0.5);
    await page.mouse.wheel(0, r.y > viewport.height * 0.5 ? 240 : -240);
    await settle(page, 60);
  }
  throw new Error(`could not scroll ${name} into view`);
}

// Clicks the centre of a named widget the way a person does (move, press, release, a frame apart).
export async function clickItem(page, name) {
  const r = await reveal(page, name);
  const x = r.x + r.w / 2, y = r.y + r.h / 2;
  await page.mouse.move(x, y);
  await page.waitForTimeout(50);
  await page.mouse.down();
  await page.waitForTimeout(50);
  await page.mouse.up();
  await settle(page, 60);
  return r;
}

// Saves a screenshot for a person to look at: $VRAMCALC_SHOTS, or build-web/screenshots. Returns its path.
export async function saveShot(page, name) {
  const dir = process.env.VRAMCALC_SHOTS || path.join(root, 'build-web', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

export async function noProblems(page, problems) {
  const csp = await page.evaluate(() => window.__csp || []);
  assert(csp.length === 0, `CSP violations: ${csp.join('; ')}`);
  assert(problems.length === 0, `console/page errors: ${problems.join(' | ')}`);
}
