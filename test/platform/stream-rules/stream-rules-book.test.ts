import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LocalEventBus } from '../../../src/events/bus.js';
import { StreamRuleBook } from '../../../src/platform/stream-rules/book.js';
import { matchablePosts } from '../../../src/platform/stream-rules/matchable.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures } from '../../support/fixtures.js';

/**
 * The rule book the stream connections share (issue #12 "Matching"): every app's active rules,
 * indexed, "updated when rules change", whether the change was made through this process or another.
 */
const RULES = '/2/posts/search/stream/rules';

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
let app: { bearer: string };
const books: StreamRuleBook[] = [];
let otherStore: Store | undefined;

before(async () => {
  plaza = await startTestPlaza();
  f = fixtures(plaza);
  app = { bearer: f.enterprise.bearer_token };
});
after(async () => {
  for (const b of books) b.close();
  await otherStore?.close();
});

const book = (ctx = plaza.ctx) => {
  const b = new StreamRuleBook(ctx);
  books.push(b);
  return b;
};

async function post(text: string, username = 'ada'): Promise<string> {
  const res = await f.send('POST', '/2/posts', { auth: f.oauth1As(username), body: { text } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

async function matchable(id: string) {
  const p = (await matchablePosts(plaza.ctx, plaza.ctx.store.db, [id])).get(id);
  assert.ok(p, `post ${id} is matchable`);
  return p;
}

/** Resolves with the first app id `b` reports as changed; rejects after a bounded wait. */
function nextChange(b: StreamRuleBook, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no onChange within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = b.onChange((appId) => {
      clearTimeout(timer);
      off();
      resolve(appId);
    });
  });
}

test('matchablePosts reads "the matcher\'s view of posts of the store" in one go; deleted posts and unknown ids are left out', async () => {
  const id = await post('Matchable #plaza post about cafes');
  const gone = await post('soon deleted');
  assert.equal((await f.send('DELETE', `/2/posts/${gone}`, { auth: f.oauth1As('ada') })).status, 200);
  const found = await matchablePosts(plaza.ctx, plaza.ctx.store.db, [id, gone, '1234567890123456789']);
  assert.deepEqual([...found.keys()], [id]);
  const p = found.get(id)!;
  assert.equal(p.authorUsername, 'ada');
  assert.deepEqual(p.entities.hashtags?.map((h) => h.tag), ['plaza']);
  assert.equal(p.lang.length > 0, true);
});

test('StreamRuleBook: after ensure, match gives "matching_rules:[{id, tag}]" of the app\'s rules the post matches, in rule id order', async () => {
  await f.send('POST', `${RULES}?delete_all=true`, { auth: app });
  const made = await f.send('POST', RULES, { auth: app, body: { add: [{ value: 'kitten', tag: 'cats' }, { value: 'from:ada kitten' }, { value: 'puppy' }] } });
  assert.equal(made.status, 200, made.text);
  const [cats, fromAda] = made.body.data;
  const b = book();
  await b.ensure([f.enterprise.id, f.selfServe.id]);
  const p = await matchable(await post('A kitten appears'));
  assert.deepEqual(b.match(f.enterprise.id, p), [{ id: cats.id, tag: 'cats' }, { id: fromAda.id }]);
  assert.deepEqual(b.match(f.selfServe.id, p), [], 'another app: its own (empty) rule set');
  assert.deepEqual(b.match('1234', p), [], 'an app never ensured matches nothing');
});

test('"updated when rules change": a change through this process is seen by the next match after ensure, and onChange fires without one', async () => {
  await f.send('POST', `${RULES}?delete_all=true`, { auth: app });
  const b = book();
  await b.ensure([f.enterprise.id]);
  const p = await matchable(await post('An otter swims'));
  assert.deepEqual(b.match(f.enterprise.id, p), []);
  const changed = nextChange(b);
  const made = await f.send('POST', RULES, { auth: app, body: { add: [{ value: 'otter' }] } });
  assert.equal(await changed, f.enterprise.id);
  assert.deepEqual(b.match(f.enterprise.id, p), [{ id: made.body.data[0].id }], 'reloaded before the listeners heard');
  await f.send('POST', RULES, { auth: app, body: { delete: { values: ['otter'] } } });
  await b.ensure([f.enterprise.id]);
  assert.deepEqual(b.match(f.enterprise.id, p), []);
});

test('a change made "in another process" is followed: by a version check on ensure, and on a wake-up of the event bus', async () => {
  await f.send('POST', `${RULES}?delete_all=true`, { auth: app });
  // Another process: its own connection to the same store, its own bus (nothing of this process reaches it).
  otherStore = await openStore(plaza.databaseUrl);
  const bus = new LocalEventBus();
  const other = book({ ...plaza.ctx, store: otherStore, events: bus });
  await other.ensure([f.enterprise.id]);
  const p = await matchable(await post('A heron waits'));
  assert.deepEqual(other.match(f.enterprise.id, p), []);

  const made = await f.send('POST', RULES, { auth: app, body: { add: [{ value: 'heron', tag: 'birds' }] } });
  await other.ensure([f.enterprise.id]);
  assert.deepEqual(other.match(f.enterprise.id, p), [{ id: made.body.data[0].id, tag: 'birds' }], 'ensure reads the version');

  const changed = nextChange(other);
  await f.send('POST', RULES, { auth: app, body: { delete: { ids: [made.body.data[0].id] } } });
  // What Redis does between processes: the other process's bus is woken.
  bus.committed();
  assert.equal(await changed, f.enterprise.id);
  assert.deepEqual(other.match(f.enterprise.id, p), []);
  await bus.close();
});
