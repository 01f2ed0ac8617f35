// Compiles src/ to dist/ (ESM JavaScript, one file per module, source maps) for `npm start`
// and supervisors (`node dist/main.js serve`). esbuild only strips types, in well under a second;
// `npm run typecheck` is what checks them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const out = path.join(root, 'dist');

const entryPoints = fs
  .readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => path.join(src, f));

fs.rmSync(out, { recursive: true, force: true });
await build({ entryPoints, outdir: out, outbase: src, format: 'esm', platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' });
