import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { childStore, startPlazaChild, type ChildStore, type PlazaChild } from './child.js';

/**
 * Logging never blocks the event loop or exit (issue #9): with stdout a pipe whose reader is
 * stalled or gone, Plaza keeps answering, drops (and counts) the lines it cannot write, and
 * SIGTERM ends it within its own 10 s deadline.
 */

const started: PlazaChild[] = [];
const stores: ChildStore[] = [];
after(async () => {
  for (const p of started) p.kill();
  await Promise.all(started.map((p) => p.exited));
  for (const s of stores) await s.dispose();
});

/** Requests until the log pipe is full many times over; each one bounded, so a stalled server shows as failures. */
async function flood(base: string, requests: number): Promise<number> {
  let answered = 0;
  for (let i = 0; i < requests; i += 20) {
    const batch = await Promise.allSettled(
      Array.from({ length: 20 }, () => fetch(`${base}/healthz?padding=${'p'.repeat(2000)}`, { signal: AbortSignal.timeout(3000) }).then((r) => r.text())),
    );
    answered += batch.filter((b) => b.status === 'fulfilled').length;
    if (batch.every((b) => b.status === 'rejected')) break;
  }
  return answered;
}

for (const mode of ['stalled', 'gone'] as const) {
  test(`with stdout a pipe whose reader is ${mode}, Plaza keeps answering, counts the log lines it drops in /metrics, and SIGTERM ends it within 10 s`, async () => {
    const store = await childStore();
    stores.push(store);
    // A small buffer so that a few hundred requests overflow it.
    const plaza = startPlazaChild(store, { stdout: mode, env: { PLAZA_LOG_BUFFER_BYTES: String(64 * 1024) } });
    started.push(plaza);
    const creds = await plaza.ready();
    const answered = await flood(creds.base_url, 600);
    let dropped = 0;
    if (mode === 'stalled' && answered > 0) {
      const metrics = await fetch(`${creds.base_url}/metrics`, { signal: AbortSignal.timeout(3000) }).then((r) => r.text());
      dropped = Number(/^plaza_log_lines_dropped_total (\d+)$/m.exec(metrics)?.[1] ?? 0);
    }
    plaza.child.kill('SIGTERM');
    const exit = await plaza.exitWithin(12_000);
    assert.ok(exit, `still running 12 s after SIGTERM: ${plaza.stderr()}`);
    assert.equal(exit.code, 0, plaza.stderr());
    assert.equal(answered, 600, 'every request answered while the log pipe was full');
    if (mode === 'stalled') assert.ok(dropped > 0, 'dropped lines are counted');
  });
}
