import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../support/server.js';

/**
 * The README's helpers for a world per test (helpers/): their own examples run against a real
 * Plaza, as a user's test suite would run them: node:test for the Node helper, pytest (Debian's)
 * for the Python fixture. Each must pass, and leave no world behind.
 */
let plaza: TestPlaza;
before(async () => {
  plaza = await startTestPlaza();
});
after(() => plaza.close());

const helpers = path.resolve(import.meta.dirname, '../../helpers');

function runToEnd(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      // NODE_TEST_CONTEXT would tell the child's node:test that it runs inside this one.
      env: { ...process.env, NODE_TEST_CONTEXT: undefined, PLAZA_CREDENTIALS: plaza.ctx.config.credentialsFile, PYTHONDONTWRITEBYTECODE: '1', NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const worldsLeft = async () => (await plaza.worlds.list()).length;

test('the Node helper (helpers/node/plaza-world.mjs): its node:test example passes, a world per file, deleted after', async () => {
  const { code, output } = await runToEnd(process.execPath, ['--test', '--test-reporter=tap', 'example.test.mjs'], path.join(helpers, 'node'));
  assert.equal(code, 0, output);
  assert.match(output, /# pass 2/);
  assert.equal(await worldsLeft(), 0);
});

test('the Python helper (helpers/python/plaza_world.py): its pytest example passes, a world per test, deleted after', async () => {
  const { code, output } = await runToEnd('/usr/bin/python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_example.py'], path.join(helpers, 'python'));
  assert.equal(code, 0, output);
  assert.match(output, /2 passed/);
  assert.equal(await worldsLeft(), 0);
});
