// Takes the review screenshots of the page: desktop 1400×900, phone 390×844 (DPR 2), DPR 2
// desktop, embed mode, a does-not-fit scenario from a partly broken link, the phone's input form. Output: build-web/screenshots/.
// Usage: node bench/web/screenshots.mjs [outdir] [#fragment]
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, openPage, settle, root } from '../../tests/browser/lib.mjs';

const out = process.argv[2] || path.join(root, 'build-web', 'screenshots');
const fragment = process.argv[3] || '';
fs.mkdirSync(out, { recursive: true });
const server = await serve();
const browser = await launch();
const shots = [
  ['desktop-1400x900.png', 'index.html', { width: 1400, height: 900 }],
  ['phone-390x844.png', 'index.html', { width: 390, height: 844, deviceScaleFactor: 2 }],
  ['desktop-dpr2-1400x900.png', 'index.html', { width: 1400, height: 900, deviceScaleFactor: 2 }],
  ['embed-640x480.png', 'embed.html', { width: 640, height: 480 }],
  ['desktop-does-not-fit.png', 'index.html#v=1&mp=llama-2-70b&b=2&off=1&z=3&L=-1&h=abc', { width: 1400, height: 900 }],
  ['phone-inputs-390x844.png', 'index.html', { width: 390, height: 844, deviceScaleFactor: 2 }, 1400],
];
try {
  for (const [name, pageName, opts, scroll] of shots) {
    const { page, context, problems } = await openPage(browser, server.url + pageName + (pageName.includes('#') ? '' : fragment), opts);
    await settle(page);
    if (scroll) {
      await page.mouse.move(opts.width / 2, opts.height / 2);
      await page.mouse.wheel(0, scroll);
      await settle(page);
    }
    await page.screenshot({ path: path.join(out, name) });
    console.log(`${name}: ${JSON.stringify(await page.evaluate(() => window.vramcalcTest.layout()))}` +
      (problems.length ? ` problems: ${problems.join(' | ')}` : ''));
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
