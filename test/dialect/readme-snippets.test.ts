import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { runProgram } from './support.js';

/**
 * The README's "Pointing SDKs at Plaza" snippets are these files, word for word, and each one that
 * can run here runs against a real Plaza and prints the post it looked up.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const snippets = path.join(here, 'snippets');
const readme = fs.readFileSync(path.join(here, '../../README.md'), 'utf8');

let plaza: TestPlaza;
let env: Record<string, string>;

before(async () => {
  plaza = await startTestPlaza();
  env = { PLAZA_URL: plaza.urls.base_url, BEARER_TOKEN: plaza.creds.apps[0].bearer_token, TWEET_ID: plaza.creds.sample.post_ids[2] };
});

test('every snippet file is in the README\'s "Pointing SDKs at Plaza" section as it is', () => {
  const start = readme.indexOf('## Pointing SDKs at Plaza');
  assert.ok(start >= 0, 'the section exists');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  for (const file of fs.readdirSync(snippets)) {
    assert.ok(section.includes(fs.readFileSync(path.join(snippets, file), 'utf8').trimEnd()), `${file} is in the README as it is`);
  }
});

for (const file of ['xdk.mjs']) {
  test(`the README's ${file} snippet runs against Plaza and prints the post it looked up with its created_at`, async () => {
    const run = await runProgram(process.execPath, [path.join(snippets, file)], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^${env.TWEET_ID} \\d{4}-\\d{2}-\\d{2}T`));
  });
}

