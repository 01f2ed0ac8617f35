import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { ENVIRONMENT } from '../../src/config.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';

/**
 * The README is the whole manual: every client snippet in it (```sh and ```js blocks) runs as
 * printed against a real Plaza, from a folder whose ./data is that Plaza's data folder. The only
 * change is the README's default address http://127.0.0.1:8080, replaced by the test server's.
 * Plain ``` blocks are commands that start things (npm start, the webhook receiver), not clients.
 * The section "Pointing SDKs at Plaza" belongs to its own tests.
 */

const repo = fileURLToPath(new URL('../..', import.meta.url));
const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
let plaza: TestPlaza;
let cwd: string;
let scratch: string;

before(async () => {
  plaza = await startTestPlaza();
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-readme-'));
  fs.symlinkSync(plaza.dataDir, path.join(cwd, 'data'));
  // Beside node_modules, so a snippet's `import 'twitter-api-v2'` resolves as in a clone.
  scratch = fs.mkdtempSync(path.join(repo, 'node_modules', '.plaza-readme-'));
});

after(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** The fenced blocks of a language, outside the section another test owns. */
function blocks(lang: string): string[] {
  const own = readme.replace(/\n## Pointing SDKs at Plaza\n[\s\S]*?(?=\n## |$)/, '\n');
  return [...own.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command; `until` ends it (SIGTERM) once its output shows what was awaited, within `ms`. */
function run(command: string, args: string[], opts: { input?: string; until?: (stdout: string) => boolean; ms?: number } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let ended = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after ${opts.ms ?? 60_000} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, opts.ms ?? 60_000);
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
      if (!ended && opts.until?.(stdout)) {
        ended = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: ended ? 0 : code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

const atPlaza = (snippet: string) => snippet.replaceAll('http://127.0.0.1:8080', plaza.urls.base_url);

test('the README links only what the repository holds (docs/architecture.md, docs/coverage.md), never ../shared', () => {
  assert.doesNotMatch(readme, /\.\.\/shared|DESIGN\.md/);
  for (const link of readme.matchAll(/\]\(([^)#]+)\)/g)) {
    if (/^https?:/.test(link[1])) continue;
    assert.ok(fs.existsSync(path.join(repo, link[1])), `${link[1]} exists in the repository`);
  }
  assert.match(readme, /\(docs\/architecture\.md\)/);
  assert.match(readme, /\(docs\/coverage\.md\)/);
});

test('the README names every environment variable src/config.ts reads, and says which demo app is which, the summoning rule, /readyz and where refusals are logged', () => {
  const source = fs.readFileSync(path.join(repo, 'src/config.ts'), 'utf8');
  const names = new Set([...source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
  for (const name of names) assert.ok(readme.includes(`\`${name}\``), `README names ${name}`);
  for (const e of ENVIRONMENT) assert.ok(names.has(e.name), `${e.name} is read by loadConfig`);
  assert.match(readme, /`apps\[0\]` \| \*\*"Plaza Demo", tier `pro`\*\*/);
  assert.match(readme, /`apps\[1\]` \| \*\*"Plaza Enterprise Demo", tier `enterprise`\*\*/);
  assert.match(readme, /\*\*The summoning rule\*\*/);
  assert.match(readme, /`GET \/readyz`/);
  assert.match(readme, /OAuth 1\.0a verification failed/);
  assert.match(readme, /PLAZA_SECRET_FILE/);
});

test('every ```sh snippet of the README runs as printed, in order, against a real Plaza (one shell: later snippets use earlier variables)', async () => {
  const snippets = blocks('sh');
  assert.ok(snippets.length >= 5, `${snippets.length} sh snippets`);
  const streaming = snippets.filter((s) => s.includes('curl -N'));
  assert.equal(streaming.length, 1, 'one streaming snippet, run last');
  const script = ['set -euo pipefail', ...snippets.filter((s) => !s.includes('curl -N')).map((s, i) => `${atPlaza(s)}\necho "@@ snippet ${i} done"`)].join('\n');
  const ran = await run('bash', ['-c', script], { ms: 120_000 });
  assert.equal(ran.code, 0, `stdout:\n${ran.stdout}\nstderr:\n${ran.stderr}`);
  const outputs = ran.stdout.split(/@@ snippet \d+ done\n/);
  assert.equal(outputs.length, snippets.length, ran.stdout);
  // No answer is a problem (curl prints bodies without a newline, so they are searched, not parsed).
  assert.doesNotMatch(ran.stdout, /"status":[45]\d\d/);
  assert.match(ran.stdout, /"data":\{"id":"\d+","text":"hello webhook"/, 'the webhook snippet posted');
  // The staged scene: the like answered liked:true and the reply was created.
  assert.match(ran.stdout, /\{"data":\{"liked":true\}\}/);
  assert.match(ran.stdout, /"text":"@chen I like it, /);

  // The filtered stream: its rule is added, and the post of the webhook snippet ("hello webhook")
  // arrives by backfill; then the stream is ended.
  const stream = await run('bash', ['-c', `set -euo pipefail\n${atPlaza(streaming[0])}`], { until: (out) => out.includes('"matching_rules"'), ms: 60_000 });
  assert.equal(stream.code, 0, `stdout:\n${stream.stdout}\nstderr:\n${stream.stderr}`);
  assert.match(stream.stdout, /"tag":"greetings"/);
  assert.match(stream.stdout, /hello webhook/);
});

test('the ```js snippet of the README (twitter-api-v2 against Plaza) runs as printed: the person mentions the bot, the bot likes it and replies', async () => {
  const [bot] = blocks('js');
  assert.ok(bot, 'a js snippet');
  assert.match(bot, /from 'twitter-api-v2'/);
  const file = path.join(scratch, 'bot.mjs');
  fs.writeFileSync(file, bot);
  const ran = await run(process.execPath, [file], { ms: 60_000 });
  assert.equal(ran.code, 0, `stdout:\n${ran.stdout}\nstderr:\n${ran.stderr}`);
  const m = /^mention (\d+), liked, reply (\d+)$/m.exec(ran.stdout);
  assert.ok(m, ran.stdout);
  const reply = await plaza.ctx.store.db.selectFrom('posts').select(['in_reply_to_post_id', 'author_id']).where('id', '=', m[2]).executeTakeFirstOrThrow();
  assert.equal(reply.in_reply_to_post_id, m[1]);
  assert.equal(reply.author_id, plaza.creds.users.find((u) => u.username === 'dana')!.id);
  const like = await plaza.ctx.store.db.selectFrom('likes').select('post_id').where('post_id', '=', m[1]).executeTakeFirst();
  assert.ok(like, 'the mention is liked');
});
