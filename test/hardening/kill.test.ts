import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { CredentialsFile } from '../../src/seed/credentials.js';
import { childStore, startPlazaChild, type ChildStore, type PlazaChild } from './child.js';

/**
 * Durability (issue #9): Plaza killed with SIGKILL while it takes writes, then started again on
 * the same store (SQLite file, or PostgreSQL when DATABASE_URL is set), has every write it
 * acknowledged before the kill.
 */

const started: PlazaChild[] = [];
let store: ChildStore | undefined;
after(async () => {
  for (const p of started) p.kill();
  await Promise.all(started.map((p) => p.exited));
  await store?.dispose();
});

interface Ack {
  id: string;
  text: string;
  /** The writer's own token: a protected author's posts are visible to them, not to the app. */
  token: string;
}

/** Writers that post until told to stop or until Plaza stops answering; what was acknowledged. */
function writeLoad(creds: CredentialsFile, label: string) {
  const acks: Ack[] = [];
  let stop = false;
  let sent = 0;
  const writer = async (token: string, n: number) => {
    for (let i = 0; !stop; i++) {
      const text = `${label} writer ${n} post ${i} ${Math.random().toString(36).slice(2)}`;
      sent += 1;
      try {
        const res = await fetch(`${creds.base_url}/2/posts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ text }),
          signal: AbortSignal.timeout(10_000),
        });
        const body = (await res.json()) as { data?: { id?: string } };
        if (res.status === 201 || res.status === 200) acks.push({ id: body.data!.id!, text, token });
      } catch {
        return; // the server is gone
      }
    }
  };
  const writers = creds.users.map((u, n) => writer(u.oauth2_access_token, n));
  return {
    acks,
    sent: () => sent,
    async until(count: number, ms: number) {
      const deadline = Date.now() + ms;
      while (acks.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    },
    async finish() {
      stop = true;
      await Promise.all(writers);
    },
  };
}

test('after kill -9 under write load and a restart on the same store, every acknowledged write is there', { timeout: 170_000 }, async () => {
  store = await childStore();
  const acknowledged: Ack[] = [];
  for (let round = 1; round <= 2; round++) {
    const plaza = startPlazaChild(store, { stdout: 'read' });
    started.push(plaza);
    const creds = await plaza.ready();
    const load = writeLoad(creds, `round ${round}`);
    await load.until(60, 30_000);
    // Killed while the writers are still sending: some writes are in flight.
    plaza.child.kill('SIGKILL');
    const exit = await plaza.exitWithin(10_000);
    assert.equal(exit?.signal, 'SIGKILL');
    await load.finish();
    assert.ok(load.acks.length >= 60, `only ${load.acks.length} writes acknowledged in round ${round}`);
    acknowledged.push(...load.acks);
  }

  const plaza = startPlazaChild(store, { stdout: 'read' });
  started.push(plaza);
  const creds = await plaza.ready();
  const missing: string[] = [];
  const byWriter = new Map<string, Ack[]>();
  for (const a of acknowledged) byWriter.set(a.token, [...(byWriter.get(a.token) ?? []), a]);
  for (const [token, acks] of byWriter) {
    for (let i = 0; i < acks.length; i += 100) {
      const batch = acks.slice(i, i + 100);
      const res = await fetch(`${creds.base_url}/2/posts?ids=${batch.map((a) => a.id).join(',')}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 200);
      const body = (await res.json()) as { data?: Array<{ id: string; text: string }> };
      const found = new Map((body.data ?? []).map((p) => [p.id, p.text]));
      for (const a of batch) if (found.get(a.id) !== a.text) missing.push(a.id);
    }
  }
  assert.deepEqual(missing, [], `${missing.length} of ${acknowledged.length} acknowledged writes are missing after kill -9`);
  plaza.child.kill('SIGTERM');
  assert.ok(await plaza.exitWithin(12_000), 'the last start stops on SIGTERM');
});
