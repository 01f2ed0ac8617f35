import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { problemType } from '../../support/problems.js';

let plaza: TestPlaza;
let g: Fixtures;

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
});

const inADay = () => new Date(Date.now() + 24 * 3_600_000).toISOString();

test('POST /2/spaces without scheduled_start goes live at once and is the source of a spaces.start event carrying the space', async () => {
  const seq = await g.lastSeq();
  const res = await g.send('POST', '/2/spaces', { auth: g.oauth2As('chen'), body: { title: 'Morning coffee', speaker_ids: [g.user('dana').id] } });
  assert.equal(res.status, 201);
  const space = res.body.data;
  assert.match(space.id, /^[a-zA-Z0-9]{1,13}$/);
  assert.equal(space.state, 'live');
  assert.equal(space.creator_id, g.user('chen').id);
  assert.deepEqual(space.host_ids, [g.user('chen').id]);
  assert.ok(space.started_at);
  const [event] = await g.eventsSince(seq, 'spaces.start');
  assert.equal(event.subject, space.id);
  assert.equal(event.payload.id, space.id);
  assert.equal(event.payload.state, 'live');
  assert.equal(event.payload.title, 'Morning coffee');
});

test('a scheduled space (scheduled_start in the future) starts with POST /2/spaces/{id}/start (spaces.start) and ends with POST /2/spaces/{id}/end (spaces.end)', async () => {
  const created = await g.send('POST', '/2/spaces', { auth: g.oauth2As('dana'), body: { title: 'Planning session', scheduled_start: inADay(), host_ids: [g.user('ada').id] } });
  const id = created.body.data.id;
  assert.equal(created.body.data.state, 'scheduled');
  assert.ok(created.body.data.scheduled_start);
  const seq = await g.lastSeq();
  const early = await g.send('POST', `/2/spaces/${id}/end`, { auth: g.oauth2As('dana') });
  assert.equal(early.status, 409, 'only a live space ends');
  const stranger = await g.send('POST', `/2/spaces/${id}/start`, { auth: g.oauth2As('chen') });
  assert.equal(stranger.status, 403, 'only the creator or a host');
  const started = await g.send('POST', `/2/spaces/${id}/start`, { auth: g.oauth2As('ada') });
  assert.equal(started.status, 200);
  assert.equal(started.body.data.state, 'live');
  const ended = await g.send('POST', `/2/spaces/${id}/end`, { auth: g.oauth2As('dana') });
  assert.equal(ended.body.data.state, 'ended');
  assert.ok(ended.body.data.ended_at);
  const events = await g.eventsSince(seq);
  assert.deepEqual(events.map((e) => e.type), ['spaces.start', 'spaces.end']);
  assert.equal(events[1].payload.state, 'ended');
  const again = await g.send('POST', `/2/spaces/${id}/start`, { auth: g.oauth2As('dana') });
  assert.equal(again.status, 409);
  assert.equal((await g.send('POST', '/2/spaces/1nosuchspace/end', { auth: g.oauth2As('dana') })).status, 404);
});

test('creating a space checks its input: a blank or long title, a past scheduled_start, an unknown host are refused and nothing is written', async () => {
  const seq = await g.lastSeq();
  for (const [body, field, status] of [
    [{ title: '' }, 'title', 400],
    [{ title: 'x'.repeat(71) }, 'title', 400],
    [{ title: 'Past', scheduled_start: '2020-01-01T00:00:00Z' }, 'scheduled_start', 400],
    [{ title: 'Bad date', scheduled_start: 'tomorrow' }, 'scheduled_start', 400],
  ] as const) {
    const res = await g.send('POST', '/2/spaces', { auth: g.oauth2As('chen'), body });
    assert.equal(res.status, status, JSON.stringify(body));
    assert.ok(field in res.body.errors[0].parameters);
  }
  const unknownHost = await g.send('POST', '/2/spaces', { auth: g.oauth2As('chen'), body: { title: 'Hosts', host_ids: ['1234567890123456789'] } });
  assert.equal(unknownHost.status, 404);
  assert.equal(unknownHost.body.parameter, 'host_ids');
  assert.equal((await g.eventsSince(seq)).length, 0);
});

test('GET /2/spaces/{id} and /2/spaces?ids: default fields id and state, space.fields on request, expansions creator_id/host_ids/speaker_ids into includes.users, resource-not-found items for misses', async () => {
  const created = await g.send('POST', '/2/spaces', { auth: g.oauth2As('ada'), body: { title: 'Lookup me', speaker_ids: [g.user('chen').id] } });
  const id = created.body.data.id;
  const plain = await g.get(`/2/spaces/${id}`, { auth: g.appAuth });
  assert.deepEqual(plain.body, { data: { id, state: 'live' } });
  const rich = await g.get(`/2/spaces/${id}?space.fields=title,creator_id,speaker_ids,lang,is_ticketed&expansions=creator_id,speaker_ids&user.fields=verified&topic.fields=name`, { auth: g.appAuth });
  assert.equal(rich.body.data.title, 'Lookup me');
  assert.equal(rich.body.data.is_ticketed, false);
  assert.deepEqual(rich.body.includes.users.map((u: any) => u.username).sort(), ['ada', 'chen']);
  const many = await g.get(`/2/spaces?ids=${id},1MissingSpace`, { auth: g.appAuth });
  assert.deepEqual(many.body.data.map((s: any) => s.id), [id]);
  assert.equal(many.body.errors[0].type, problemType('resource-not-found'));
  assert.equal(many.body.errors[0].resource_type, 'space');
  assert.equal(many.body.errors[0].parameter, 'ids');
  const one = await g.get('/2/spaces/1MissingSpace', { auth: g.appAuth });
  assert.equal(one.body.errors[0].parameter, 'id');
  for (const path of ['/2/spaces/not-an-id!', `/2/spaces/${id}?space.fields=colour`, `/2/spaces?ids=${'a'.repeat(14)}`, `/2/spaces/${id}?expansions=owner_id`]) {
    assert.equal((await g.get(path, { auth: g.appAuth })).status, 400, path);
  }
});

test('GET /2/spaces/search finds live and scheduled spaces by title words (state filter live, scheduled, all); GET /2/spaces/by/creator_ids lists a creator\'s live and scheduled spaces', async () => {
  const live = (await g.send('POST', '/2/spaces', { auth: g.oauth2As('plazanews'), body: { title: 'Weekly Plaza radio' } })).body.data.id;
  const scheduled = (await g.send('POST', '/2/spaces', { auth: g.oauth2As('plazanews'), body: { title: 'Plaza radio special', scheduled_start: inADay() } })).body.data.id;
  const ended = (await g.send('POST', '/2/spaces', { auth: g.oauth2As('plazanews'), body: { title: 'Old plaza radio' } })).body.data.id;
  await g.send('POST', `/2/spaces/${ended}/end`, { auth: g.oauth2As('plazanews') });
  const all = await g.get('/2/spaces/search?query=PLAZA%20radio&space.fields=title', { auth: g.appAuth });
  assert.deepEqual(all.body.data.map((s: any) => s.id).sort(), [live, scheduled].sort());
  assert.equal(all.body.meta.result_count, 2);
  const onlyLive = await g.get('/2/spaces/search?query=radio&state=live', { auth: g.appAuth });
  assert.deepEqual(onlyLive.body.data.map((s: any) => s.id), [live]);
  const onlyScheduled = await g.get('/2/spaces/search?query=radio&state=scheduled', { auth: g.appAuth });
  assert.deepEqual(onlyScheduled.body.data.map((s: any) => s.id), [scheduled]);
  const none = await g.get('/2/spaces/search?query=nothing%20matches', { auth: g.appAuth });
  assert.deepEqual(none.body, { meta: { result_count: 0 } });
  assert.equal((await g.get('/2/spaces/search?query=radio&state=ended', { auth: g.appAuth })).status, 400);
  assert.equal((await g.get('/2/spaces/search', { auth: g.appAuth })).status, 400);
  const byCreator = await g.get(`/2/spaces/by/creator_ids?user_ids=${g.user('plazanews').id}&space.fields=creator_id`, { auth: g.appAuth });
  const ids = byCreator.body.data.map((s: any) => s.id);
  assert.ok(ids.includes(live) && ids.includes(scheduled) && !ids.includes(ended));
  assert.equal((await g.get('/2/spaces/by/creator_ids?user_ids=abc', { auth: g.appAuth })).status, 400);
});

test('spaces are read with space.read: an OAuth 2.0 token without it is refused', async () => {
  const res = await g.get('/2/spaces/search?query=radio', { auth: await g.enterpriseAs('chen', ['post.read', 'users.read']) });
  assert.equal(res.status, 403);
  assert.match(res.body.detail, /space\.read/);
});
