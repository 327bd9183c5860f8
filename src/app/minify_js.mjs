// Minifies the page's JavaScript in place before its files are content-hashed (hash_assets.cmake):
// the app's Emscripten glue (Debian's emcc only strips its whitespace: Closure is not available)
// and web/main.js, web/dom.js. Terser (Debian package node-terser) mangles local names and drops
// dead code; property names and strings are kept, so Module["_vramcalc_…"] exports, DOM and
// window properties keep their names. All three are ES modules.
// Usage: NODE_PATH=/usr/share/nodejs node minify_js.mjs FILE...
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let minify;
try {
  ({ minify } = require('terser'));
} catch (error) {
  console.error(`minify_js.mjs: terser not found (${error.code}); install Debian's node-terser ` +
                '(bash .ci/install-deps.sh web) and set NODE_PATH=/usr/share/nodejs');
  process.exit(1);
}

for (const file of process.argv.slice(2)) {
  const source = fs.readFileSync(file, 'utf8');
  const result = await minify(source, {
    module: true,
    ecma: 2020,
    compress: { passes: 2 },
    mangle: true,
    format: { comments: false },
  });
  if (!result.code) {
    console.error(`minify_js.mjs: terser returned nothing for ${file}`);
    process.exit(1);
  }
  fs.writeFileSync(file, result.code);
}
