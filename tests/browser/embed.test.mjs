// The embed in a docs page (docs/embedding.md): at each documented size it shows the parts the docs
// table says (a screenshot of each is saved for a person to look at), the loader script gives the
// iframe its content's height and follows width changes, it accepts only the height message from
// its own iframe, and the mouse wheel over an embed with nothing to scroll scrolls the host page.
import { openPage, settle, test, assert, noProblems, saveShot } from './lib.mjs';

// docs/embedding.md, "The snippet" and "Sizes without the loader".
const FRAGMENT = 'v=3&mp=llama-3-8b&gpu=H100-SXM&z=3&b=2&sp=1';
const TILES = ['parameters.total', 'compute.seconds', 'compute.tflop_hours', 'compute.cost'];
const ALL = ['open_full', 'verdict', 'peak_line', 'memory_bar', 'legend', ...TILES.map((p) => `tile:${p}`), 'warnings', 'warnings_end'];
const SIZES = [
  { width: 640, height: 700, shown: ALL, columns: 4, more: false },
  { width: 400, height: 1000, shown: ALL, columns: 2, more: false },
  { width: 640, height: 360, shown: ['open_full', 'verdict', 'peak_line', 'memory_bar'], columns: 4, more: true },
];

async function openHost(browser, server, viewport = { width: 900, height: 700 }) {
  const context = await browser.newContext({ viewport, colorScheme: 'dark' });
  const host = await context.newPage();
  const problems = [];
  host.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  host.on('pageerror', (e) => problems.push(e.message));
  await host.goto(server.url + 'loader-host.html');
  const iframe = await host.waitForSelector('iframe[data-vramcalc]');
  const frame = await iframe.contentFrame();
  await frame.waitForFunction(() => window.vramcalcTest && window.vramcalcFirstFrameMs !== undefined, null, { timeout: 30000 });
  return { context, host, frame, problems };
}

// The height the embed needs (what it reports), once it has settled.
async function settledFrame(host, frame) {
  await settle(frame);
  await host.waitForTimeout(100);
  return frame.evaluate(() => {
    const bar = document.querySelector('.summary-bar');
    return Math.ceil(window.vramcalcTest.contentHeight() + bar.getBoundingClientRect().height);
  });
}
const frameHeight = (host) => host.evaluate(() => document.querySelector('iframe[data-vramcalc]').getBoundingClientRect().height);

export const tests = [
  ['embed: at each documented size the documented parts are on screen (screenshots saved)', async ({ browser, server }) => {
    for (const size of SIZES) {
      const { page, context, problems } = await openPage(browser, server.url + 'embed.html#' + FRAGMENT,
        { width: size.width, height: size.height });
      await settle(page);
      const t = test(page);
      const est = await t.estimate();
      assert(est.warnings.length === 1, `the documented scenario has ${est.warnings.length} notes (the docs say one)`);
      const tag = `${size.width}x${size.height}`;
      const file = await saveShot(page, `embed-${tag}`);
      for (const name of ALL) {
        const r = await t.rect(name);
        assert(r, `${tag}: ${name} was not drawn`);
        const inside = r.visible && r.y >= 0 && r.y + r.h <= size.height && r.x >= 0 && r.x + r.w <= size.width + 0.5;
        if (size.shown.includes(name)) assert(inside, `${tag}: ${name} is not on screen (${JSON.stringify(r)}; ${file})`);
      }
      if (!size.more) {
        const cut = ALL.filter((n) => !size.shown.includes(n));
        assert(cut.length === 0, `${tag}: not everything is documented as shown`);
      }
      // Tiles in one row (4 columns) or two (2 columns).
      const ys = await Promise.all(TILES.map((p) => t.rect(`tile:${p}`).then((r) => Math.round(r.y))));
      assert(new Set(ys).size === 4 / size.columns, `${tag}: tile rows at ${ys.join(', ')}`);
      const layout = await t.layout();
      assert(layout.more_below === size.more, `${tag}: "more below" is ${layout.more_below}`);
      // TFLOP-hours is a headline figure of the embed (issue 13 item 5).
      const tflop = await t.rect('tile:compute.tflop_hours');
      assert(tflop, 'no TFLOP-hours tile in the embed');
      await noProblems(page, problems);
      await context.close();
    }
  }],

  ['embed: the loader gives the iframe its content\'s height and follows a width change', async ({ browser, server }) => {
    const { context, host, frame, problems } = await openHost(browser, server);
    const need = await settledFrame(host, frame);
    await host.waitForFunction((h) => Math.abs(document.querySelector('iframe[data-vramcalc]').getBoundingClientRect().height - h) <= 1,
      need, { timeout: 5000 });
    assert(need > 300, `the embed reports ${need} px`);
    assert((await frame.evaluate(() => window.vramcalcTest.layout())).more_below === false, 'the sized embed still cuts its content');
    await saveShot(host, 'embed-loader-640');
    // Narrower: the tiles take two rows, the embed needs more height, the loader follows.
    await host.evaluate(() => { document.querySelector('iframe[data-vramcalc]').width = '400'; });
    await host.waitForTimeout(300);
    const narrow = await settledFrame(host, frame);
    assert(narrow > need + 40, `at 400 px the embed needs ${narrow} px (at 640: ${need})`);
    await host.waitForFunction((h) => Math.abs(document.querySelector('iframe[data-vramcalc]').getBoundingClientRect().height - h) <= 1,
      narrow, { timeout: 5000 });
    await saveShot(host, 'embed-loader-400');
    assert(problems.length === 0, problems.join(' | '));
    await context.close();
  }],

  ['embed: the loader accepts only the height message, from its own iframe', async ({ browser, server }) => {
    const { context, host, frame, problems } = await openHost(browser, server);
    const need = await settledFrame(host, frame);
    await host.waitForFunction((h) => Math.abs(document.querySelector('iframe[data-vramcalc]').getBoundingClientRect().height - h) <= 1,
      need, { timeout: 5000 });
    const ignored = [
      // From the host page itself (not the iframe's window).
      () => host.evaluate(() => window.postMessage({ type: 'vramcalc:height', height: 1234 }, '*')),
      // From the iframe, but not the protocol's exact shape.
      () => frame.evaluate(() => parent.postMessage({ type: 'vramcalc:height', height: 1234, extra: 1 }, '*')),
      () => frame.evaluate(() => parent.postMessage({ type: 'vramcalc:height', height: '1234' }, '*')),
      () => frame.evaluate(() => parent.postMessage({ type: 'vramcalc:resize', height: 1234 }, '*')),
      () => frame.evaluate(() => parent.postMessage({ type: 'vramcalc:height', height: Infinity }, '*')),
      () => frame.evaluate(() => parent.postMessage('vramcalc:height 1234', '*')),
    ];
    for (const send of ignored) {
      await send();
      await host.waitForTimeout(60);
      const h = await frameHeight(host);
      assert(Math.abs(h - need) <= 1, `a message outside the protocol resized the iframe to ${h} (${send})`);
    }
    // The protocol's message from the iframe is obeyed, clamped to 120–8000 px.
    await frame.evaluate(() => parent.postMessage({ type: 'vramcalc:height', height: 50 }, '*'));
    await host.waitForFunction(() => document.querySelector('iframe[data-vramcalc]').getBoundingClientRect().height === 120, null, { timeout: 3000 });
    assert(problems.length === 0, problems.join(' | '));
    await context.close();
  }],

  ['embed: the wheel over an embed with nothing to scroll scrolls the host page; a cut embed scrolls itself first', async ({ browser, server }) => {
    const { context, host, frame, problems } = await openHost(browser, server);
    const need = await settledFrame(host, frame);
    await host.waitForFunction((h) => Math.abs(document.querySelector('iframe[data-vramcalc]').getBoundingClientRect().height - h) <= 1,
      need, { timeout: 5000 });
    const box = await (await host.$('iframe[data-vramcalc]')).boundingBox();
    await host.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height, 600) / 2);
    await settle(frame);
    assert((await host.evaluate(() => window.scrollY)) === 0, 'the host page starts scrolled');
    for (let i = 0; i < 3; i++) { await host.mouse.wheel(0, 200); await host.waitForTimeout(80); }
    await host.waitForTimeout(300);
    const scrolled = await host.evaluate(() => window.scrollY);
    assert(scrolled >= 300, `the host page scrolled ${scrolled} px under an embed that fits`);
    await context.close();

    // A fixed height shorter than the content (no loader): the embed scrolls itself, then lets go.
    const second = await openHost(browser, server);
    await second.host.evaluate(() => {
      const f = document.querySelector('iframe[data-vramcalc]');
      f.removeAttribute('data-vramcalc');  // the loader no longer sizes it
      f.style.height = '320px';
    });
    await second.host.waitForTimeout(200);
    await settle(second.frame);
    const t = test(second.frame);
    assert((await t.layout()).more_below === true, 'a 320 px embed does not say "more below"');
    const before = await t.rect('verdict');
    const b2 = await (await second.host.$('iframe')).boundingBox();
    await second.host.mouse.move(b2.x + b2.width / 2, b2.y + 160);
    await second.host.mouse.wheel(0, 120);
    await second.host.waitForTimeout(200);
    await settle(second.frame);
    const after = await t.rect('verdict');
    assert(after.y < before.y - 20, `the cut embed did not scroll itself (${before.y} → ${after.y})`);
    assert((await second.host.evaluate(() => window.scrollY)) === 0, 'the host page scrolled while the embed had more to show');
    for (let i = 0; i < 12; i++) { await second.host.mouse.wheel(0, 200); await second.host.waitForTimeout(60); }
    await second.host.waitForTimeout(300);
    assert((await second.host.evaluate(() => window.scrollY)) > 0, 'at its end the embed kept the wheel from the host page');
    assert(problems.length === 0 && second.problems.length === 0, [...problems, ...second.problems].join(' | '));
    await second.context.close();
  }],
];
