import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { call, startTestPlaza, type TestPlaza } from '../support/server.js';

/**
 * Bad input to the admin interface's world operations (issue #36): every parameter (the world and
 * snapshot path segments, seed, snapshot_file, name, file) gets wrong values, wrong types and bad
 * encodings. Each answer is a problem below 500 naming what was wrong, and nothing changes: the
 * worlds and their snapshots are as they were.
 */
let plaza: TestPlaza;
let world: string;
before(async () => {
  plaza = await startTestPlaza();
  world = (await admin('POST', '/admin/worlds', { seed: 'empty' })).body.data.id;
  assert.equal((await admin('POST', `/admin/worlds/${world}/snapshots`, { name: 'kept' })).status, 201);
});
after(() => plaza.close());

function admin(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return call(plaza.urls.base_url, path, { method, auth: { bearer: plaza.adminToken! }, headers, ...(body === undefined ? {} : { body }) });
}

const BAD_SEGMENTS = ['0', 'w', 'wZZZZZZZZZZ', 'w00000000000', 'w0000000000', '%00', '%E0%A4%A', '..%2F..', 'a'.repeat(101), '%20'];
const BAD_VALUES: unknown[] = [null, 123, -1, true, [], {}, '', 'a'.repeat(2000), 'a\u0000b', '\uD800', 'relative/snap.json', '../../etc/passwd'];

test('every parameter of the world operations refuses bad values with a problem below 500, and nothing changes', async () => {
  const state = async () => JSON.stringify(await plaza.worlds.list());
  const before = await state();
  const answers: Array<{ what: string; status: number; text: string }> = [];
  // A snapshot is never written over a file, whatever it is, nor into a folder that does not exist.
  const existing = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-fuzz-')), 'taken.json');
  fs.writeFileSync(existing, 'mine');
  const send = async (what: string, method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await admin(method, path, body, headers);
    answers.push({ what, status: res.status, text: res.text });
  };
  for (const segment of BAD_SEGMENTS) {
    await send(`world ${segment}`, 'DELETE', `/admin/worlds/${segment}`);
    await send(`world ${segment}`, 'POST', `/admin/worlds/${segment}/reset`);
    await send(`world ${segment}`, 'POST', `/admin/worlds/${segment}/snapshots`, { name: 'x' });
    await send(`world ${segment}`, 'GET', `/admin/worlds/${segment}/clock`);
    await send(`snapshot ${segment}`, 'POST', `/admin/worlds/${world}/snapshots/${segment}/restore`);
    await send(`snapshot ${segment}`, 'DELETE', `/admin/worlds/${world}/snapshots/${segment}`);
  }
  for (const value of BAD_VALUES) {
    await send(`seed ${JSON.stringify(value)}`, 'POST', '/admin/worlds', { seed: value });
    await send(`snapshot_file ${JSON.stringify(value)}`, 'POST', '/admin/worlds', { snapshot_file: value });
    await send(`name ${JSON.stringify(value)}`, 'POST', `/admin/worlds/${world}/snapshots`, { name: value });
    await send(`file ${JSON.stringify(value)}`, 'POST', `/admin/worlds/${world}/snapshots`, { name: 'kept', file: value });
  }
  await send('a snapshot file that is no snapshot', 'POST', '/admin/worlds', { snapshot_file: '/dev/null' });
  await send('a folder as a snapshot file', 'POST', '/admin/worlds', { snapshot_file: '/' });
  await send('a file that exists', 'POST', `/admin/worlds/${world}/snapshots`, { name: 'kept', file: existing });
  await send('a folder', 'POST', `/admin/worlds/${world}/snapshots`, { name: 'kept', file: path.dirname(existing) });
  await send('a missing folder', 'POST', `/admin/worlds/${world}/snapshots`, { name: 'kept', file: path.join(path.dirname(existing), 'no', 'such.json') });
  // Files that parse as snapshots and do not restore: a newer Plaza's, rows that do not fit.
  const snapshotOf = (store: unknown) => ({ format: 'plaza-world-snapshot', seed: 'empty', credentials: {}, store: { format: 'plaza-store-dump', version: 1, counters: {}, ...(store as object) } });
  for (const [what, snapshot] of [
    ['a newer Plaza\'s snapshot', snapshotOf({ migration: '9999-future', tables: {} })],
    ['rows that do not fit', snapshotOf({ migration: '0001', tables: { users: { columns: ['id'], rows: [['1']] } } })],
    ['no demo workspace', snapshotOf({ migration: '0001', tables: {} })],
  ] as const) {
    const file = path.join(path.dirname(existing), `${what.replace(/\W+/g, '-')}.json`);
    fs.writeFileSync(file, JSON.stringify(snapshot));
    await send(what, 'POST', '/admin/worlds', { snapshot_file: file });
  }
  await send('unknown member', 'POST', '/admin/worlds', { seed: 'demo', colour: 'blue' });
  await send('no body', 'POST', '/admin/worlds');
  await send('not JSON', 'POST', '/admin/worlds', undefined, { 'content-type': 'application/json' });
  await send('a body too deep', 'POST', `/admin/worlds/${world}/snapshots`, JSON.parse('['.repeat(50) + ']'.repeat(50)));
  const failures = answers.filter((a) => a.status < 400 || a.status >= 500);
  assert.deepEqual(failures, []);
  for (const a of answers) assert.match(a.text, /"(title|detail|errors)"/, `${a.what}: a problem`);
  assert.equal(await state(), before);
  assert.equal(fs.readFileSync(existing, 'utf8'), 'mine');
  fs.rmSync(path.dirname(existing), { recursive: true, force: true });
});
