// Shared helpers of the Node tests of the JS API (not a test file itself: node --test only runs
// *.test.mjs). Where things are looked up (set by .ci/test-js.sh, with these defaults):
//   VRAMCALC_DIST  folder holding vramcalc.mjs + vramcalc-wasm.{mjs,wasm}   (build-web/dist)
//   VRAMCALC_CLI   the native CLI binary                                      (build-native/src/cli/vramcalc)
//   VRAMCALC_NPM   the npm package folder                                     (build-web/npm)
// A missing build is a failure with a message saying how to build it, never a skip.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = resolve(fileURLToPath(new URL('../../', import.meta.url)));
export const distDir = resolve(process.env.VRAMCALC_DIST || join(root, 'build-web', 'dist'));
// The npm package folder the build assembles next to dist (package.json, module, wasm, typings).
export const npmDir = resolve(process.env.VRAMCALC_NPM || join(distDir, '..', 'npm'));
export const cliPath = resolve(process.env.VRAMCALC_CLI || join(root, 'build-native', 'src', 'cli', 'vramcalc'));

function need(path, how) {
  if (!existsSync(path)) throw new Error(`${path} is missing: ${how} (or run bash .ci/test-js.sh, which builds everything)`);
  return path;
}

export function distFile(name) {
  return need(join(distDir, name), 'build the wasm API with bash .ci/build-web.sh');
}

let apiPromise;
/** One shared API instance per test file. */
export function loadApi() {
  if (!apiPromise) {
    apiPromise = import(pathToFileURL(distFile('vramcalc.mjs')).href).then((m) => m.createVramcalc());
  }
  return apiPromise;
}

export async function importModule() {
  return import(pathToFileURL(distFile('vramcalc.mjs')).href);
}

/** Runs the native CLI on a scenario written to a temporary JSON file. Returns {status, json, stdout}. */
const scratch = mkdtempSync(join(tmpdir(), 'vramcalc-js-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;
export function runCli(scenario, extraArgs = []) {
  need(cliPath, 'build it with cmake -S . -B build-native && cmake --build build-native --target vramcalc');
  const file = join(scratch, `scenario-${++counter}.json`);
  writeFileSync(file, JSON.stringify(scenario));
  let stdout;
  let status = 0;
  try {
    stdout = execFileSync(cliPath, ['--config', file, ...extraArgs], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    status = e.status;
    stdout = e.stdout;
  }
  return { status, stdout };
}

/** CLI --json output parsed; the JSON starts at the first line that begins with '{'. */
export function cliJson(scenario, extraArgs = []) {
  const { status, stdout } = runCli(scenario, ['--json', ...extraArgs]);
  const start = stdout.search(/^\{/m);
  if (start < 0) throw new Error(`the CLI printed no JSON (exit ${status}):\n${stdout}`);
  return { status, json: JSON.parse(stdout.slice(start)), before: stdout.slice(0, start) };
}

export function readText(path) {
  return readFileSync(path, 'utf8');
}
