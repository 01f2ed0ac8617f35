// `npm test [-- file or folder ... --test-name-pattern=...]`: runs the test files (all of test/ by default) with Node's test
// runner, two at a time, and prints the spec reporter's lines, its summary and the ten slowest files.
//
// The files run compiled: esbuild bundles each test file with the sources and packages it imports
// into node_modules/.cache/plaza-test/<run>/, sharing chunks between files. Loading a
// test through tsx's hooks cost about two seconds of CPU per file, most of a small file's time;
// this build takes about one second for all of them. Every `import.meta.url` (and `dirname`,
// `filename`) is replaced by the source file's own, so paths a test or the server resolves against
// its file are the same as under tsx, and source maps point failures at the TypeScript lines.
// `node --import tsx --test test/x.test.ts` still runs a file uncompiled.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The run's name marks its build (runs at once do not share one) and the PostgreSQL databases
// its tests make, which are dropped when it ends (test/support/postgres.ts says why).
const run = crypto.randomBytes(4).toString('hex');
const out = path.join(root, 'node_modules/.cache/plaza-test', run);
const concurrency = process.env.PLAZA_TEST_CONCURRENCY ?? '2';

function testFiles(targets) {
  const found = [];
  const walk = (p) => {
    const stat = fs.statSync(p);
    if (stat.isDirectory()) for (const entry of fs.readdirSync(p).sort()) walk(path.join(p, entry));
    else if (p.endsWith('.test.ts')) found.push(p);
  };
  for (const target of targets.length ? targets : ['test']) walk(path.resolve(root, target));
  return found;
}

/** Gives every TypeScript file its own import.meta values, as if it ran where it is. */
const ownImportMeta = {
  name: 'own-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.m?ts$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

// Arguments that start with -- go to Node's test runner (--test-name-pattern=...); the others name
// test files or folders.
const given = process.argv.slice(2);
const runnerOptions = given.filter((a) => a.startsWith('--'));
const targets = given.filter((a) => !a.startsWith('--'));
const files = testFiles(targets);
if (files.length === 0) {
  console.error(`no test files in ${targets.join(' ')}`);
  process.exit(1);
}
fs.rmSync(out, { recursive: true, force: true });
// src/main.ts too: tests that start the `plaza` command in a child process run it compiled (test/support/cli.ts).
await build({
  entryPoints: [...files, path.join(root, 'src/main.ts')],
  outdir: out,
  outbase: root,
  bundle: true,
  splitting: true,
  // npm packages are bundled too, as dist/ bundles them (loading one file instead of hundreds
  // halves a test file's start), but for the native SQLite binding, the optional ones, and the
  // clients the tests drive, which load files of their own.
  external: ['better-sqlite3', 'pg-native', 'ioredis', 'playwright-core', 'twitter-api-v2', '@xdevplatform/xdk', 'autocannon', 'esbuild'],
  banner: { js: "import { createRequire as __plazaCreateRequire } from 'node:module'; const require = __plazaCreateRequire(import.meta.url);" },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [ownImportMeta],
});

// Longest first, by the times of earlier runs on this machine (new files count as long): the run
// then ends with short files on both workers rather than one long file on one.
const durations = path.join(root, 'node_modules/.cache/plaza-test-durations.json');
let known = {};
try {
  known = JSON.parse(fs.readFileSync(durations, 'utf8'));
} catch {}
const timeOf = (f) => known[path.relative(root, f)] ?? Number.MAX_SAFE_INTEGER;
const ordered = [...files].sort((a, b) => timeOf(b) - timeOf(a));
const built = ordered.map((f) => path.join(out, path.relative(root, f)).replace(/\.ts$/, '.js'));
const args = [
  `--import=${path.join(root, 'test/support/without-harness-hook.mjs')}`,
  '--enable-source-maps',
  '--test',
  `--test-concurrency=${concurrency}`,
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  `--test-reporter=${path.join(root, 'test/support/slowest-files.mjs')}`,
  '--test-reporter-destination=stdout',
  ...runnerOptions,
  ...built,
];
// The servers the tests start and stop close at once on SIGTERM (no drain wait) unless a test asks.
const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { PLAZA_DRAIN_MS: '0', ...process.env, PLAZA_TEST_BUILD: out, PLAZA_TEST_DURATIONS: durations, PLAZA_TEST_RUN: run } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const [code, signal] = await once(child, 'exit');
fs.rmSync(out, { recursive: true, force: true });
if (process.env.DATABASE_URL) await dropRunDatabases(process.env.DATABASE_URL, run);
process.exit(code ?? (signal ? 1 : 0));

/** Drops every database of the run, four at a time. */
async function dropRunDatabases(adminUrl, run) {
  const query = async (text, values) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await client.query(text, values);
    } finally {
      await client.end();
    }
  };
  const names = (await query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [`plaza_test_${run}_`])).rows.map((r) => r.datname);
  await Promise.all(
    Array.from({ length: 4 }, async (_, lane) => {
      for (let i = lane; i < names.length; i += 4) await query(`DROP DATABASE IF EXISTS ${names[i]} WITH (FORCE)`);
    }),
  );
}
