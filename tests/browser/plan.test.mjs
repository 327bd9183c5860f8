// Issue 12 in the page: the Plan panel lists the fastest layouts for the scenario (the same as the
// core planner / `vramcalc --plan`), "Use" adopts one (scenario, link and verdict follow), the
// scaling chart adopts the best layout of another GPU count on click, and the search stays inside
// the 50 ms budget. Numbers come from the test hooks (window.vramcalcTest), never from pixels.
import { openPage, settle, test, reveal, clickItem, assert, noProblems } from './lib.mjs';

const plan = (page) => page.evaluate(() => window.vramcalcTest.plan());
const LLAMA_70B_H100 = '#v=1&mp=llama-2-70b&gpu=H100-SXM&N=64&s=4096&B=1024&fa=1&drop=0';

export const tests = [
  ['plan: the panel lists fitting layouts, best first, and "Use" adopts one', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html' + LLAMA_70B_H100);
    await settle(page);
    const t = test(page);
    const before = await t.estimate();
    assert(!before.fits, 'the scenario as linked does not fit (t = p = 1)');
    const state = await plan(page);
    assert(state.plans.length === 8, `8 plans shown (got ${state.plans.length})`);
    assert(state.feasible >= 8 && state.searched >= state.feasible, 'searched ≥ feasible ≥ shown');
    for (let i = 1; i < state.plans.length; i++)
      assert(state.plans[i].step_seconds >= state.plans[i - 1].step_seconds * 0.999, 'ranked by step time');
    assert(state.plan_ms < 50, `the 64-GPU search takes ${state.plan_ms} ms in wasm (budget 50 ms)`);
    await clickItem(page, 'plan:use:1');
    const link = await t.link();
    assert(link === state.plans[1].link, `the link is plan 2's (${link} vs ${state.plans[1].link})`);
    const after = await t.estimate();
    assert(after.fits, 'the adopted layout fits');
    assert(after.performance.predicted, 'adopting switches to the predicted throughput model');
    assert(Math.abs(after.performance.step_seconds - state.plans[1].step_seconds) < 1e-9, 'the step time shown is the estimate\'s');
    await noProblems(page, problems);
    await context.close();
  }],
  ['plan: the scaling chart holds the best layout per GPU count and adopts one on click', async ({ browser, server }) => {
    const { page, context, problems } = await openPage(browser, server.url + 'index.html' + LLAMA_70B_H100);
    await settle(page);
    const state = await plan(page);
    const counts = state.scaling.map((p) => p.num_gpus);
    assert(JSON.stringify(counts) === JSON.stringify([8, 16, 32, 64, 128, 256, 512]), `counts N·2^k: ${counts}`);
    const found = state.scaling.filter((p) => p.found);
    for (let i = 1; i < found.length; i++)
      assert(found[i].step_seconds < found[i - 1].step_seconds, 'more GPUs, shorter steps (global batch held)');
    const chart = await reveal(page, 'plan:scaling');
    // The 128-GPU point: the 5th of 7 equal slots.
    const x = chart.x + chart.w * (4.5 / 7), y = chart.y + chart.h * 0.5;
    await page.mouse.move(x - 1, y);
    await page.waitForTimeout(60);
    await page.mouse.move(x, y);
    await settle(page, 60);
    await page.mouse.down();
    await page.waitForTimeout(60);
    await page.mouse.up();
    await settle(page, 60);
    const scenario = await test(page).scenario();
    assert(scenario.parallel.num_gpus === 128, `adopted 128 GPUs (got ${scenario.parallel.num_gpus})`);
    const e = await test(page).estimate();
    assert(Math.abs(e.performance.step_seconds - state.scaling[4].step_seconds) < 1e-9, 'the point\'s step time');
    await noProblems(page, problems);
    await context.close();
  }],
];
