import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
const tests = [];
const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = `${d}/${e.name}`; if (e.isDirectory()) walk(p); else if (/\.test\.ts$/.test(e.name)) tests.push(p); } };
walk('test');
const external = process.argv[2] === 'ext';
const t0 = Date.now();
const metaPlugin = { name: 'meta', setup(b) { b.onLoad({ filter: /\.m?ts$/ }, async (args) => { let s = await fs.promises.readFile(args.path, 'utf8'); const url = pathToFileURL(args.path).href; s = s.replaceAll('import.meta.url', JSON.stringify(url)).replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path))).replaceAll('import.meta.filename', JSON.stringify(args.path)); return { contents: s, loader: 'ts' }; }); } };
await build({ entryPoints: [...tests, 'src/main.ts'], outdir: 'node_modules/.plaza-test', outbase: '.', bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20', sourcemap: 'linked', logLevel: 'warning', plugins: [metaPlugin],
  ...(external ? { packages: 'external' } : { external: ['better-sqlite3', 'pg-native', 'ioredis', 'playwright-core'], banner: { js: "import { createRequire as __plazaCreateRequire } from 'node:module'; const require = __plazaCreateRequire(import.meta.url);" } }) });
console.log(tests.length, Date.now() - t0, 'ms');
