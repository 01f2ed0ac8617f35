// Compiles src/ to dist/ for `npm start` and supervisors (`node dist/main.js serve`): one ESM
// bundle of Plaza and the npm packages it uses (all but the native SQLite binding), with source
// maps. Loading a few files instead of a few thousand is most of what a cold start saves.
// esbuild only strips types, in a second or two; `npm run typecheck` is what checks them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist');

fs.rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: [path.join(root, 'src/main.ts'), path.join(root, 'src/app.ts')],
  outdir: out,
  bundle: true,
  splitting: true,
  // better-sqlite3 loads a native addon by path; pg-native is pg's optional, never-installed peer;
  // ioredis is required from node_modules only when REDIS_URL is set (src/redis.ts).
  external: ['better-sqlite3', 'pg-native', 'ioredis'],
  // The bundled CommonJS packages call require() for Node's own modules.
  banner: { js: "import { createRequire as __plazaCreateRequire } from 'node:module'; const require = __plazaCreateRequire(import.meta.url);" },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
