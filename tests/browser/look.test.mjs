// How the page looks: both themes render (the system's choice, a theme in the link, the toggle),
// no control overlaps another or leaves the window at any width from 320 px, and the memory
// timeline chart draws the estimate's memory_timeline with its peak where the JSON says.
// Screenshots of each (desktop, HiDPI, phone) are saved for a person to look at.
import { openPage, settle, test, assert, noProblems, saveShot, clickItem } from './lib.mjs';
import { decodePng } from './png.mjs';

// Mean luminance (0–255) of a screenshot's left margin strip (page background, no widgets).
function backgroundLuma(png) {
  const img = decodePng(png);
  let sum = 0, n = 0;
  for (let y = Math.floor(img.height * 0.3); y < img.height * 0.7; y += 4) {
    for (let x = 0; x < 6; x++) {
      const i = (y * img.width + x) * 4;
      sum += 0.2126 * img.data[i] + 0.7152 * img.data[i + 1] + 0.0722 * img.data[i + 2];
      n++;
    }
  }
  return sum / n;
}

// Controls that take input, drawn and not clipped away: [{id, x, y, w, h, fullH}]. Overlaps up to
// 4 px are the clip rectangles' rounding at a panel edge, not a layout collision.
const visibleControls = (page) => page.evaluate(() => [...document.querySelectorAll('#ui [data-id]')]
  .filter((e) => ['button', 'textbox', 'number', 'select', 'checkbox', 'combobox'].includes(e.dataset.role) &&
    !e.classList.contains('vc-clipped'))
  .map((e) => {
    // The part its scrolling panel shows (the DOM layer clips each element like the canvas does).
    const r = e.getBoundingClientRect();
    const m = /inset\((-?[\d.]+)px (-?[\d.]+)px (-?[\d.]+)px (-?[\d.]+)px\)/.exec(e.style.clipPath || '');
    const [top, right, bottom, left] = m ? m.slice(1).map((v) => Math.max(0, Number(v))) : [0, 0, 0, 0];
    return { id: e.dataset.id, x: r.x + left, y: r.y + top, w: r.width - left - right, h: r.height - top - bottom, fullH: r.height };
  })
  .filter((r) => r.w > 0 && r.h > 0 && r.y + r.h > 0 && r.y < innerHeight));

export const tests = [
  ['themes: the system\'s light or dark is followed, theme= in the link wins, the toggle keeps the scenario', async ({ browser, server }) => {
    const light = await openPage(browser, server.url + 'index.html', { colorScheme: 'light' });
    await settle(light.page);
    assert((await test(light.page).layout()).light === true, 'a light system did not get the light theme');
    const lightLuma = backgroundLuma(await light.page.screenshot());
    assert(lightLuma > 200, `light theme background luminance ${lightLuma.toFixed(0)}`);
    await saveShot(light.page, 'desktop-light');
    await noProblems(light.page, light.problems);
    await light.context.close();

    const dark = await openPage(browser, server.url + 'index.html', { colorScheme: 'dark' });
    await settle(dark.page);
    const t = test(dark.page);
    assert((await t.layout()).light === false, 'a dark system did not get the dark theme');
    const darkLuma = backgroundLuma(await dark.page.screenshot());
    assert(darkLuma < 50, `dark theme background luminance ${darkLuma.toFixed(0)}`);
    await saveShot(dark.page, 'desktop-dark');
    // The toggle: light now, kept in the URL as a view key; the scenario's link is unchanged.
    const link = await t.link();
    await clickItem(dark.page, 'theme');
    assert((await t.layout()).light === true, 'the toggle did not switch to light');
    const hash = await dark.page.evaluate(() => location.hash);
    assert(/(^#|&)theme=light(&|$)/.test(hash), `theme not in the link: ${hash}`);
    assert((await t.link()) === link, 'the theme changed the scenario link');
    assert((await dark.page.evaluate(() => document.documentElement.dataset.theme)) === 'light', 'the page shell did not follow');
    await noProblems(dark.page, dark.problems);
    await dark.context.close();

    // theme=dark in a link beats a light system setting.
    const linked = await openPage(browser, server.url + 'index.html#v=3&theme=dark&b=4', { colorScheme: 'light' });
    await settle(linked.page);
    assert((await test(linked.page).layout()).light === false, 'theme=dark in the link was not applied');
    assert((await test(linked.page).scenario()).training.micro_batch_size === 4, 'the scenario of a themed link was lost');
    await noProblems(linked.page, linked.problems);
    await linked.context.close();
  }],

  ['no control overlaps another or leaves the window, from 320 px to desktop (screenshots: phone, HiDPI)', async ({ browser, server }) => {
    const sizes = [
      { width: 320, height: 640, deviceScaleFactor: 3, hasTouch: true, isMobile: true, shot: 'phone-320', screens: 8 },
      { width: 390, height: 844, deviceScaleFactor: 3, hasTouch: true, isMobile: true, shot: 'phone-390', screens: 2 },
      { width: 700, height: 800, shot: 'tablet-700', screens: 3 },
      { width: 1400, height: 900, deviceScaleFactor: 2, shot: 'desktop-hidpi', screens: 3 },
    ];
    for (const size of sizes) {
      const { page, context, problems } = await openPage(browser, server.url + 'index.html', size);
      await settle(page);
      const tag = `${size.width}px`;
      const layout = await test(page).layout();
      assert(layout.touch === !!size.hasTouch, `${tag}: touch targets ${layout.touch}`);
      // Scroll through the page, checking each screenful.
      for (let screen = 0; screen < size.screens; screen++) {
        const controls = await visibleControls(page);
        for (const c of controls) {
          assert(c.x >= -1 && c.x + c.w <= size.width + 1, `${tag}: ${c.id} leaves the window (${c.x.toFixed(0)}…${(c.x + c.w).toFixed(0)})`);
          if (size.hasTouch) assert(c.fullH >= 43.5, `${tag}: ${c.id} is ${c.fullH.toFixed(1)} px tall (touch targets: 44)`);
        }
        for (let i = 0; i < controls.length; i++) {
          for (let j = i + 1; j < controls.length; j++) {
            const a = controls[i], b = controls[j];
            const ox = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
            const oy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
            assert(!(ox > 4 && oy > 4), `${tag}: ${a.id} and ${b.id} overlap (${ox.toFixed(0)} × ${oy.toFixed(0)} px)`);
          }
        }
        if (screen === 0) {
          // The header's name (a text, not a control) is not covered by the header's controls either.
          const n = await test(page).rect('header_name');
          for (const c of controls.filter((c) => c.y < 80)) {
            const ox = Math.min(n.x + n.w, c.x + c.w) - Math.max(n.x, c.x), oy = Math.min(n.y + n.h, c.y + c.h) - Math.max(n.y, c.y);
            assert(!(ox > 1 && oy > 1), `${tag}: ${c.id} covers the page name`);
          }
          if (size.shot) await saveShot(page, size.shot);
        }
        await page.mouse.move(size.width / 2, size.height / 2);
        await page.mouse.wheel(0, size.height * 0.8);
        await settle(page, 60);
      }
      await noProblems(page, problems);
      await context.close();
    }
  }],

  ['the memory timeline chart draws memory_timeline with the peak where the JSON says, against the capacity line', async ({ browser, server }) => {
    for (const fragment of ['v=3&mp=llama-3-8b&gpu=H100-SXM&z=3&b=2&sp=1', 'v=3&mp=llama-3-8b&gpu=A100-40GB&b=8&s=4096']) {
      const { page, context, problems } = await openPage(browser, server.url + 'index.html#' + fragment);
      await settle(page);
      const t = test(page);
      const est = await t.estimate();
      const tl = (await page.evaluate(() => window.vramcalcTest.charts())).timeline;
      assert(tl.drawn, 'the timeline was not drawn');
      const phases = est.memory_timeline.map((p) => p.phase);
      assert(JSON.stringify(tl.bars.map((b) => b.phase)) === JSON.stringify(phases), `bars ${tl.bars.map((b) => b.phase)} vs ${phases}`);
      // The peak: the phase with the most allocated memory, as the JSON names it and as drawn.
      const most = est.memory_timeline.reduce((a, b) => (b.total > a.total ? b : a));
      assert(est.memory_per_gpu_bytes.peak_phase === most.phase, `JSON peak ${est.memory_per_gpu_bytes.peak_phase} vs largest phase ${most.phase}`);
      assert(tl.peak === est.memory_per_gpu_bytes.peak_phase, `drawn peak ${tl.peak} vs ${est.memory_per_gpu_bytes.peak_phase}`);
      for (let i = 0; i < phases.length; i++) {
        assert(tl.bars[i].allocated === est.memory_timeline[i].total, `${phases[i]}: drawn ${tl.bars[i].allocated} vs ${est.memory_timeline[i].total}`);
      }
      const peakBar = tl.bars.find((b) => b.phase === tl.peak);
      assert(peakBar.top === est.memory_per_gpu_bytes.total, 'the peak bar does not reach the device total');
      assert(tl.bars.every((b) => b === peakBar || b.y > peakBar.y), 'another bar is drawn taller than the peak');
      // Above the capacity line exactly when it does not fit.
      assert((peakBar.y < tl.capacity_y) === !est.fits, `fits ${est.fits}, peak top y ${peakBar.y}, capacity y ${tl.capacity_y}`);
      const [x, y, w, h] = tl.rect;
      assert(tl.capacity_y >= y && tl.capacity_y <= y + h && w > 100 && h > 50, `capacity line outside the plot: ${JSON.stringify(tl)}`);
      const r = await t.rect('timeline');
      assert(r && r.visible, 'the timeline is not on the first screen');
      await saveShot(page, `timeline-${est.fits ? 'fits' : 'over'}`);
      await noProblems(page, problems);
      await context.close();
    }
  }],
];
