import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { partitionOf } from '../../../src/platform/streams/posts.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import type { StreamClient } from '../../support/streams.js';
import { streamFixtures } from './support.js';
import { withEventsPlaced } from '../../support/event-log.js';

/**
 * The lines of the streams against the 200 responses the served description (/2/openapi.json)
 * declares for them (src/platform/streams/messages.ts): each test opens a stream, makes an event
 * happen through the interface, and validates the line it brings, and, for one stream, the
 * operational-disconnect line that ends it.
 */

let plaza: TestPlaza;
let f: ReturnType<typeof streamFixtures>;
let enterprise: string;
let document: any;
const ajv = new Ajv({ strict: false, allErrors: true });
formats.default(ajv);

before(async () => {
  plaza = await startTestPlaza({ activityKeepAliveMs: 100, activityPollMs: 50, streamConnectionsEnterprise: 4 });
  f = streamFixtures(plaza);
  enterprise = plaza.creds.apps[1].bearer_token;
  document = (await f.g.get('/2/openapi.json')).body;
  ajv.addSchema({ components: document.components }, 'description');
});

after(async () => {
  f.closeAll();
  await plaza.close();
});

beforeEach(async () => {
  f.closeAll();
  await f.killAll();
});

/** Asserts that `line` is valid against the 200 schema of GET `path` in the served description. */
function assertValid(path: string, line: unknown): void {
  const schema = document.paths[path].get.responses['200'].content['application/json'].schema;
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"description#/components')));
  assert.ok(validate(line), `GET ${path}: ${ajv.errorsText(validate.errors, { separator: '; ' })}\n${JSON.stringify(line)}`);
}

/** Every field and expansion a stream's description lists, as its query string. */
function everyField(path: string): string {
  const query = new URLSearchParams();
  for (const p of document.paths[path].get.parameters ?? []) if (p.schema?.items?.enum) query.set(p.name, p.schema.items.enum.join(','));
  return query.toString();
}

async function firstEvent(stream: StreamClient, where: (m: any) => boolean, what: string): Promise<any> {
  await stream.until(() => stream.events().some(where), what);
  return stream.events().find(where);
}

test('a post of the filtered stream, every field and expansion selected, with the rule it matched, is a line of its described shape', async () => {
  const path = '/2/posts/search/stream';
  await f.addRules([{ value: 'described', tag: 'the description' }], enterprise);
  const stream = await f.open(`${path}?${everyField(path)}`, enterprise);
  assert.equal(stream.status, 200);
  const made = await f.post('ada', 'A described post, https://example.com #plaza @chen');
  const line = await firstEvent(stream, (m) => m.data?.id === made.id, 'the matching post');
  assert.ok(line.includes?.users, 'the expansions are there to validate');
  assert.deepEqual(line.matching_rules.map((r: { tag?: string }) => r.tag), ['the description']);
  assertValid(path, line);
});

test('a delete and an edit on the posts compliance stream, and the disconnect that ends it, are lines of its described shape', async () => {
  const path = '/2/posts/compliance/stream';
  const streams = await Promise.all([1, 2, 3, 4].map((p) => f.open(`${path}?partition=${p}`, enterprise)));
  const gone = await f.post('ada', 'soon gone');
  const removed = await f.g.send('DELETE', `/2/posts/${gone.id}`, { auth: await f.g.enterpriseAs('ada') });
  assert.equal(removed.status, 200, removed.text);
  const deletes = streams[partitionOf(gone.id, 4) - 1];
  assertValid(path, await firstEvent(deletes, (m) => m.data.delete?.post.id === gone.id, 'the delete'));
  const original = await f.post('ada', 'to be edited');
  const edit = await f.post('ada', 'to be edited, now edited', { edit_options: { previous_post_id: original.id } });
  const edits = streams[partitionOf(original.id, 4) - 1];
  assertValid(path, await firstEvent(edits, (m) => m.data.post_edit?.post.id === edit.id, 'the edit'));
  await f.killAll();
  await deletes.until(() => deletes.ended, 'the killed stream to end');
  const last = deletes.messages().at(-1);
  assert.equal(last.errors[0].disconnect_type, 'ForceDisconnect');
  assertValid(path, last);
});

test('a profile modification and a protect on the users compliance stream are lines of its described shape', async () => {
  const path = '/2/users/compliance/stream';
  const dana = f.g.user('dana');
  const stream = await f.open(`${path}?partition=${partitionOf(dana.id, 4)}`, enterprise);
  const auth = f.g.oauth2As('dana');
  for (const body of [{ description: 'Compliance, described.' }, { protected: true }, { protected: false }]) {
    const res = await f.g.send('PATCH', '/2/users/me', { auth, body });
    assert.equal(res.status, 200, res.text);
  }
  await stream.until(() => stream.events().some((m) => m.data.user_unprotect), 'the unprotect');
  const kinds = stream.events().map((m) => Object.keys(m.data)[0]);
  assert.deepEqual(kinds, ['user_profile_modification', 'user_protect', 'user_unprotect']);
  for (const line of stream.events()) assertValid(path, line);
});

test('a like on the likes firehose, every field and expansion selected, and its unlike on the likes compliance stream are lines of their described shapes', async () => {
  const firehose = '/2/likes/firehose/stream';
  const compliance = '/2/likes/compliance/stream';
  const unlikes = await f.open(compliance, enterprise);
  const chen = f.g.user('chen');
  const target = await f.post('ada', 'liked, then not');
  const auth = await f.g.enterpriseAs('chen');
  const liked = await f.g.send('POST', `/2/users/${chen.id}/likes`, { auth, body: { post_id: target.id } });
  assert.equal(liked.status, 200, liked.text);
  const [logged] = await (await withEventsPlaced(plaza.ctx.store.db)).selectFrom('events').select('payload').where('type', '=', 'like.create').orderBy('seq', 'desc').limit(1).execute();
  const likeId: string = JSON.parse(logged.payload).id;
  // The like is already in the log: its partition replays it.
  const likes = await f.open(`${firehose}?partition=${partitionOf(likeId, 20)}&backfill_minutes=1&${everyField(firehose)}`, enterprise);
  const like = await firstEvent(likes, (m) => m.data.id === likeId, 'the like');
  assert.ok(like.includes?.posts && like.includes.users, 'the expansions are there to validate');
  assertValid(firehose, like);
  const unliked = await f.g.send('DELETE', `/2/users/${chen.id}/likes/${target.id}`, { auth });
  assert.equal(unliked.status, 200, unliked.text);
  assertValid(compliance, await firstEvent(unlikes, (m) => m.data.delete?.favorite.id === likeId, 'the unlike'));
});

test('an event of the activity stream, with its author in includes, is a line of its described shape', async () => {
  const path = '/2/activity/stream';
  const ada = f.g.user('ada');
  const sub = await f.g.send('POST', '/2/activity/subscriptions', { auth: { bearer: enterprise }, body: { event_type: 'post.create', filter: { user_id: ada.id }, tag: 'ada posts' } });
  assert.equal(sub.status, 200, sub.text);
  const stream = await f.open(path, enterprise);
  assert.equal(stream.status, 200);
  const made = await f.post('ada', 'An activity, described');
  const line = await firstEvent(stream, (m) => m.data.payload?.id === made.id, 'the post.create event');
  assert.equal(line.data.includes.users[0].id, ada.id);
  assertValid(path, line);
});
