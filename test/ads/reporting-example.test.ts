import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProgram } from '../dialect/support.js';
import { startTestPlaza } from '../support/server.js';

/**
 * Issue 38: "the README shows a reporting pipeline being tested: make a campaign, simulate, read
 * the stats". The README shows examples/ads-reporting/test_pipeline.py as it is, and it passes
 * under pytest against a real Plaza, given only the credentials file.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const example = path.join(here, '../../examples/ads-reporting/test_pipeline.py');
const python = '/usr/bin/python3';

test('the README shows the reporting pipeline example as it is', () => {
  const readme = fs.readFileSync(path.join(here, '../../README.md'), 'utf8');
  assert.ok(readme.includes(fs.readFileSync(example, 'utf8').trimEnd()), 'examples/ads-reporting/test_pipeline.py is in the README');
});

test('the reporting pipeline example passes under pytest against Plaza: a campaign made, an audience simulated, the stats read', async () => {
  const plaza = await startTestPlaza();
  const run = await runProgram(python, ['-m', 'pytest', '-q', '-s', '-p', 'no:cacheprovider', example], { PLAZA_CREDENTIALS: plaza.ctx.config.credentialsFile }, 120_000);
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /1 passed/);
  assert.match(run.stdout, /line item \w+: \d+ impressions, \d+ clicks/);
});
