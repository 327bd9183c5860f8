// Start-up order and the GL work behind it (src/app/main.cpp, gl_state.*, web/main.js): the verdict
// and headline numbers reach the DOM before any WebGL context exists and before the canvas draws,
// they are the link's scenario, and the state the page caches instead of asking WebGL agrees with
// WebGL after drawing, resizing and editing. Asset names are content-hashed.
import { openPage, settle, test, clickItem, assert, noProblems } from './lib.mjs';

// Before the page's scripts: when #summary first holds digits (and its text then), and when the
// first WebGL context is asked for.
function recordStartup() {
  const log = (window.__startup = { numbersAt: undefined, numbersText: '', contextAt: undefined, frameAtNumbers: undefined });
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (...args) {
    if (log.contextAt === undefined && /webgl/.test(String(args[0]))) log.contextAt = performance.now();
    return getContext.apply(this, args);
  };
  const watch = () => {
    const summary = document.getElementById('summary');
    if (!summary) return false;
    new MutationObserver(() => {
      if (log.numbersAt === undefined && /\d/.test(summary.textContent)) {
        log.numbersAt = performance.now();
        log.numbersText = summary.textContent;
        log.frameAtNumbers = window.vramcalcFirstFrameMs;
      }
    }).observe(summary, { childList: true, characterData: true, subtree: true });
    return true;
  };
  if (!watch()) document.addEventListener('DOMContentLoaded', watch, { once: true });
}

async function startup(browser, url) {
  const { page, context, problems } = await openPage(browser, url, { init: recordStartup });
  await settle(page);
  const log = await page.evaluate(() => window.__startup);
  const firstFrame = await page.evaluate(() => window.vramcalcFirstFrameMs);
  return { page, context, problems, log, firstFrame };
}

export const tests = [
  ['start-up: the DOM numbers come before the WebGL context and the first canvas frame, and stay right', async ({ browser, server }) => {
    const { page, context, problems, log, firstFrame } = await startup(browser, server.url + 'index.html');
    assert(log.numbersAt !== undefined, 'the summary never showed numbers');
    assert(log.frameAtNumbers === undefined, 'the canvas drew before the DOM numbers');
    assert(log.contextAt !== undefined && log.numbersAt < log.contextAt,
      `the WebGL context was asked for (${log.contextAt} ms) before the numbers were in the DOM (${log.numbersAt} ms)`);
    assert(log.numbersAt < firstFrame, `numbers at ${log.numbersAt} ms, first frame at ${firstFrame} ms`);
    // The early text is the page's own summary of the estimate the canvas shows: no placeholder.
    const summary = await page.textContent('#summary');
    assert(log.numbersText === summary, `early summary "${log.numbersText}" differs from the settled one "${summary}"`);
    const est = await test(page).estimate();
    assert(est.fits === true && /fits/.test(summary) && /per GPU/.test(summary), `summary: ${summary}`);
    await noProblems(page, problems);
    await context.close();
  }],

  ['start-up: a link\'s scenario is what the early DOM numbers describe', async ({ browser, server }) => {
    // 175B parameters on 8 GPUs without sharding cannot fit: the early verdict must say so.
    const { page, context, problems, log } = await startup(browser, server.url + 'index.html#v=3&mp=gpt3-175b');
    const est = await test(page).estimate();
    assert(est.fits === false, 'GPT-3 175B on the default GPUs should not fit');
    assert(/does not fit/.test(log.numbersText) && /GPT-3 175B/.test(log.numbersText), `early summary: ${log.numbersText}`);
    assert(log.numbersText === await page.textContent('#summary'), 'early and settled summaries differ');
    await noProblems(page, problems);
    await context.close();
  }],

  ['GL state the page answers from its cache equals what WebGL reports (after frames, a resize, an edit)', async ({ browser, server }) => {
    const { page, context, problems } = await startup(browser, server.url + 'index.html');
    const t = test(page);
    assert(await page.evaluate(() => window.vramcalcTest.glStateCached()), 'cache differs after start-up');
    await clickItem(page, 'training.micro_batch_size#plus');
    assert((await t.scenario()).training.micro_batch_size === 2, 'the + button did not work');
    assert(await page.evaluate(() => window.vramcalcTest.glStateCached()), 'cache differs after an edit');
    await page.setViewportSize({ width: 900, height: 700 });
    await settle(page);
    assert(await page.evaluate(() => window.vramcalcTest.glStateCached()), 'cache differs after a resize');
    assert((await t.layout()).shaders === true, 'a shader (ImGui\'s included, checked after the first frame) failed');
    await noProblems(page, problems);
    await context.close();
  }],

  ['shader status is asked without waiting: KHR_parallel_shader_compile used where the browser offers it, ImGui\'s shaders checked once compiled', async ({ browser, server }) => {
    const { page, context, problems } = await startup(browser, server.url + 'index.html');
    // What this browser offers, asked of a context of our own (headless software GL: not offered).
    const offered = await page.evaluate(() => document.createElement('canvas').getContext('webgl2')
      .getSupportedExtensions().includes('KHR_parallel_shader_compile'));
    // web/main.js asks for the ImGui shaders' status at idle times until the browser says they are
    // compiled, then records when they were found built.
    await page.waitForFunction(() => window.vramcalcShadersCheckedMs !== undefined, null, { timeout: 20000 });
    const [checked, firstFrame] = await page.evaluate(() => [window.vramcalcShadersCheckedMs, window.vramcalcFirstFrameMs]);
    assert(checked > firstFrame, `shaders checked at ${checked} ms, before the first frame at ${firstFrame} ms`);
    const layout = await test(page).layout();
    assert(layout.parallel_compile === offered, `extension offered: ${offered}, used by the page: ${layout.parallel_compile}`);
    assert(layout.shaders === true, 'a shader failed');
    await noProblems(page, problems);
    await context.close();
  }],

  ['with KHR_parallel_shader_compile, no link or compile status is asked while the browser says it is compiling', async ({ browser, server }) => {
    // This headless Chromium does not offer the extension, so it is offered here: each program
    // reports COMPLETION_STATUS_KHR false the first three times it is asked, then true; every
    // LINK_STATUS / COMPILE_STATUS query (they wait for the compiler) is recorded with whether its
    // program, or the program its shader belongs to, had been reported done.
    const offerExtension = () => {
      const proto = WebGL2RenderingContext.prototype;
      const COMPLETION_STATUS_KHR = 0x91B1;
      const log = (window.__khr = { completionQueries: 0, statusWhileCompiling: [], statusQueries: 0 });
      const asked = new Map(), done = new Set(), programOf = new Map();
      const getExtension = proto.getExtension, getProgramParameter = proto.getProgramParameter;
      const getShaderParameter = proto.getShaderParameter, attachShader = proto.attachShader;
      proto.getExtension = function (name) {
        if (name === 'KHR_parallel_shader_compile') return { COMPLETION_STATUS_KHR };
        return getExtension.call(this, name);
      };
      proto.attachShader = function (program, shader) { programOf.set(shader, program); return attachShader.call(this, program, shader); };
      proto.getProgramParameter = function (program, pname) {
        if (pname === COMPLETION_STATUS_KHR) {
          log.completionQueries++;
          const n = (asked.get(program) || 0) + 1;
          asked.set(program, n);
          if (n > 3) done.add(program);
          return n > 3;
        }
        if (pname === this.LINK_STATUS) {
          log.statusQueries++;
          if (!done.has(program)) log.statusWhileCompiling.push('LINK_STATUS');
        }
        return getProgramParameter.call(this, program, pname);
      };
      proto.getShaderParameter = function (shader, pname) {
        if (pname === this.COMPILE_STATUS) {
          log.statusQueries++;
          if (!done.has(programOf.get(shader))) log.statusWhileCompiling.push('COMPILE_STATUS');
        }
        return getShaderParameter.call(this, shader, pname);
      };
    };
    const { page, context, problems } = await openPage(browser, server.url + 'index.html', { init: offerExtension });
    await page.waitForFunction(() => window.vramcalcShadersCheckedMs !== undefined, null, { timeout: 20000 });
    await settle(page);
    const log = await page.evaluate(() => window.__khr);
    // Two programs at start-up (the background's and ImGui's), each asked until it reports done.
    assert(log.completionQueries >= 8, `COMPLETION_STATUS_KHR asked ${log.completionQueries} times`);
    assert(log.statusWhileCompiling.length === 0, `status asked while compiling: ${log.statusWhileCompiling.join(', ')}`);
    assert(log.statusQueries >= 2, `the link status was never checked (${log.statusQueries} queries)`);
    const layout = await test(page).layout();
    assert(layout.parallel_compile === true && layout.shaders === true, `layout: ${JSON.stringify(layout)}`);
    // The fit map's program (built at its first draw) was waited for in later frames and then drawn.
    const map = (await page.evaluate(() => window.vramcalcTest.charts())).map;
    assert(map.drawn && map.shader_draws > 0, `fit map drawn: ${map.drawn}, shader draws: ${map.shader_draws}`);
    assert(await page.evaluate(() => window.vramcalcTest.glStateCached()), 'GL state cache differs');
    await noProblems(page, problems);
    await context.close();
  }],

  ['asset names are content-hashed; _headers lets browsers keep them for a year', async ({ browser, server }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const names = [];
    const missing = [];
    page.on('response', (r) => {
      names.push(new URL(r.url()).pathname.slice(1));
      if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(server.url + 'index.html');
    await page.waitForFunction(() => window.vramcalcFirstFrameMs !== undefined, null, { timeout: 30000 });
    // Every reference to a hashed file was rewritten (the style sheet names the fonts too).
    await page.evaluate(() => document.fonts.load('16px "vramcalc-sans"'));
    assert(missing.length === 0, `requests that failed: ${missing.join(', ')}`);
    for (const stem of ['vramcalc-app', 'main', 'dom', 'style', 'vramcalc-sans']) {
      assert(names.some((n) => new RegExp(`^${stem}\\.[0-9a-f]{10}\\.(js|wasm|css|ttf)$`).test(n)),
        `no content-hashed ${stem} file was loaded: ${names.join(', ')}`);
    }
    const headers = await (await page.request.get(server.url + '_headers')).text();
    for (const n of names.filter((x) => /\.[0-9a-f]{10}\./.test(x))) {
      assert(new RegExp(`^/${n.replace(/\./g, '\\.')}\\n  Cache-Control: public, max-age=31536000, immutable$`, 'm').test(headers),
        `_headers has no year-long rule for ${n}`);
    }
    assert(/^\/index\.html\n  Cache-Control: no-cache$/m.test(headers), '_headers does not revalidate index.html');
    await context.close();
  }],
  // The page links no built-in font (ImGui's ProggyClean) and one font file (bold is that face
  // widened): web/main.js fetches it once more when the first try fails; without it the page says so.
  ['fonts: one font file, a failed fetch is tried once more; without it the page says so', async ({ browser, server }) => {
    const fontRequests = {};
    const failing = (fail) => ({
      url: /\.ttf$/,
      handler: (route) => {
        const name = /vramcalc-sans\.[0-9a-f]{10}\.ttf$/.test(route.request().url()) ? 'regular' : 'other';
        fontRequests[name] = (fontRequests[name] || 0) + 1;
        return fail(name, fontRequests[name]) ? route.abort() : route.continue();
      },
    });
    const url = server.url + 'index.html#v=3&mp=llama-3-8b';
    const networkOnly = (problems) => problems.filter((p) => !/Failed to load resource/.test(p));

    // The first try fails, the second arrives: the page draws as usual, and asks for no other font.
    let opened = await openPage(browser, url, { route: failing((name, n) => n === 1) });
    await settle(opened.page);
    assert(fontRequests.regular === 2 && !fontRequests.other, `font requests: ${JSON.stringify(fontRequests)}`);
    // Bold is the regular face widened as DejaVu Sans Bold is wider (the fonts' own data; ImGui's
    // 15 px = ascent − descent = 2384 units): digits advance 1425 vs 1303 units (ten: 89.7 vs
    // 82.0 px), the stem of 'l' is 358 vs 184 units (+1.1 px). Whole-pixel advances (PixelSnapH)
    // keep both within 6 % of the fonts' widths.
    const widths = await opened.page.evaluate(() => window.vramcalcTest.fonts());
    const { body, bold } = widths;
    assert(body.size_px === 15 && bold.size_px === 15, `font sizes: ${JSON.stringify(widths)}`);
    assert(Math.abs(body.digits_px / 82.0 - 1) < 0.06 && Math.abs(bold.digits_px / 89.7 - 1) < 0.06,
      `ten digits: regular ${body.digits_px} px (DejaVu Sans: 82.0), bold ${bold.digits_px} px (DejaVu Sans Bold: 89.7)`);
    assert(bold.l_ink_px - body.l_ink_px >= 1 && bold.l_ink_px - body.l_ink_px <= 2,
      `'l' ink: regular ${body.l_ink_px} px, bold ${bold.l_ink_px} px (DejaVu Sans Bold: +1.1 px)`);
    assert((await opened.page.evaluate(() => window.vramcalcTest.frameCount())) > 0, 'no canvas frame');
    assert(networkOnly(opened.problems).length === 0, networkOnly(opened.problems).join(' | '));
    await opened.context.close();

    // No font at all: the summary keeps the numbers, the status line says what happened, no error.
    opened = await openPage(browser, url, {
      route: failing(() => true),
      ready: () => /fonts/.test(document.getElementById('status')?.textContent || ''),
    });
    const { page, problems, context } = opened;
    const status = await page.textContent('#status');
    assert(/Could not load the page's fonts/.test(status), `status: ${status}`);
    const summary = await page.textContent('#summary');
    assert(/Llama/i.test(summary) && /\d/.test(summary), `summary: ${summary}`);
    assert(await page.evaluate(() => window.vramcalcFirstFrameMs === undefined), 'a canvas frame without fonts');
    assert(networkOnly(problems).length === 0, networkOnly(problems).join(' | '));
    await context.close();
  }],
];
