import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { eventually } from '../../support/wait.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';

let plaza: TestPlaza;
let g: Fixtures;
const clock = new ManualClock(new Date('2026-09-01T12:00:00.000Z'));
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const SCOPES = ['broadcast.read', 'broadcast.write', 'users.read', 'post.read'];

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  g = fixtures(plaza);
});

const as = async (username: string, scopes = SCOPES) => ({ bearer: (await g.enterpriseAs(username, scopes)).bearer });
const ms = (offset: number) => String(clock.now().getTime() + offset);
const schedule = async (username: string, body: Record<string, unknown>) =>
  g.send('POST', '/2/broadcasts/scheduled', { auth: await as(username), body: { source_id: 'rtmp-key-1', scheduled_start_ms: ms(HOUR), scheduled_end_ms: ms(2 * HOUR), ...body } });

test('POST /2/broadcasts/scheduled "schedules a one-off broadcast for the authenticated user": 201 with broadcast_id, numeric scheduled_broadcast_id, state Scheduled and the times as given', async () => {
  const start = ms(HOUR);
  const end = ms(3 * HOUR);
  const res = await schedule('ada', { title: 'Launch day', description: 'We ship', locale: 'en', available_for_replay: true, scheduled_start_ms: start, scheduled_end_ms: end });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const b = res.body.data;
  assert.match(b.broadcast_id, /^[a-zA-Z0-9]{1,13}$/);
  assert.deepEqual(normalise(res.body, { [b.broadcast_id]: 'broadcast', [start]: 'start', [end]: 'end' }), {
    data: {
      broadcast_id: '<broadcast>',
      scheduled_broadcast_id: '<id:1>',
      state: 'Scheduled',
      source_id: 'rtmp-key-1',
      available_for_replay: true,
      manual_publish: false,
      scheduled_start_ms: '<start>',
      scheduled_end_ms: '<end>',
      title: 'Launch day',
      description: 'We ship',
      locale: 'en',
    },
  });
  const got = await g.get(`/2/broadcasts/scheduled/${b.broadcast_id}`, { auth: await as('ada') });
  assert.deepEqual(got.body.data, b);
});

test('"start times in the future": a past or present start, an end before the start, a missing source_id, a bad recurrence or someone else\'s thumbnail are a 400 naming the field, and nothing is written', async () => {
  const before = (await g.get('/2/broadcasts/scheduled', { auth: await as('chen') })).body.meta.result_count;
  const media = await plaza.ctx.store.db.selectFrom('media').select(['id', 'owner_user_id']).where('owner_user_id', '!=', g.user('chen').id).executeTakeFirst();
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ scheduled_start_ms: ms(-HOUR), scheduled_end_ms: ms(HOUR) }, 'scheduled_start_ms'],
    [{ scheduled_start_ms: ms(0), scheduled_end_ms: ms(HOUR) }, 'scheduled_start_ms'],
    [{ scheduled_start_ms: ms(2 * HOUR), scheduled_end_ms: ms(HOUR) }, 'scheduled_end_ms'],
    [{ scheduled_start_ms: 'soon' }, 'scheduled_start_ms'],
    [{ source_id: '' }, 'source_id'],
    [{ recurrence: { frequency: 'Daily', repeats: '0' } }, 'recurrence.repeats'],
    [{ recurrence: { frequency: 'Hourly', repeats: '2' } }, 'recurrence'],
  ];
  assert.ok(media, 'the demo holds media of another user');
  cases.push([{ thumbnail_media_id: media.id }, 'thumbnail_media_id']);
  for (const [body, field] of cases) {
    const res = await schedule('chen', body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.ok(Object.keys(res.body.errors[0].parameters).some((p) => p.startsWith(field.split('.')[0])), `${JSON.stringify(res.body)} names ${field}`);
  }
  const missing = await g.send('POST', '/2/broadcasts/scheduled', { auth: await as('chen'), body: { scheduled_start_ms: ms(HOUR), scheduled_end_ms: ms(2 * HOUR) } });
  assert.equal(missing.status, 400, '"A source_id (ingest) is required at create time"');
  assert.equal((await g.get('/2/broadcasts/scheduled', { auth: await as('chen') })).body.meta.result_count, before);
});

test('"a user\'s own scheduled broadcasts only": another user gets 404 on get, update, delete and live; the list holds only the caller\'s', async () => {
  const mine = (await schedule('dana', { title: 'Dana only' })).body.data;
  for (const [method, path, body] of [
    ['GET', `/2/broadcasts/scheduled/${mine.broadcast_id}`, undefined],
    ['PUT', `/2/broadcasts/scheduled/${mine.broadcast_id}`, { scheduled_broadcast_id: mine.scheduled_broadcast_id, scheduled_start_ms: ms(HOUR), scheduled_end_ms: ms(2 * HOUR) }],
    ['DELETE', `/2/broadcasts/scheduled/${mine.broadcast_id}`, undefined],
    ['POST', `/2/broadcasts/scheduled/${mine.broadcast_id}/live`, undefined],
  ] as const) {
    const res = await g.send(method, path, { auth: await as('ada'), ...(body ? { body } : {}) });
    assert.equal(res.status, 404, `${method} ${path}`);
  }
  const adaList = await g.get('/2/broadcasts/scheduled', { auth: await as('ada') });
  assert.ok(!(adaList.body.data ?? []).some((b: any) => b.broadcast_id === mine.broadcast_id));
  const danaList = await g.get('/2/broadcasts/scheduled', { auth: await as('dana') });
  assert.ok(danaList.body.data.some((b: any) => b.broadcast_id === mine.broadcast_id));
});

test('scopes: listing needs broadcast.read, scheduling needs broadcast.write too; an app-only token is refused', async () => {
  const readOnly = await as('ada', ['broadcast.read', 'users.read']);
  assert.equal((await g.get('/2/broadcasts/scheduled', { auth: readOnly })).status, 200);
  const write = await g.send('POST', '/2/broadcasts/scheduled', { auth: readOnly, body: { source_id: 'k', scheduled_start_ms: ms(HOUR), scheduled_end_ms: ms(2 * HOUR) } });
  assert.equal(write.status, 403);
  const none = await as('ada', ['users.read']);
  assert.equal((await g.get('/2/broadcasts/scheduled', { auth: none })).status, 403);
  assert.equal((await g.get('/2/broadcasts/scheduled', { auth: g.appAuth })).status, 403);
});

test('GET /2/broadcasts/scheduled: earliest start first, max_results and pagination_token page through, oldest_start_time/newest_start_time bound the start (inclusive); bad values are a 400 naming them', async () => {
  const auth = await as('plazanews');
  const starts = [5, 1, 3, 2, 4].map((h) => ms(h * DAY));
  for (const start of starts) await schedule('plazanews', { scheduled_start_ms: start, scheduled_end_ms: String(Number(start) + HOUR) });
  const first = await g.get('/2/broadcasts/scheduled?max_results=2', { auth });
  assert.deepEqual(first.body.data.map((b: any) => b.scheduled_start_ms), [ms(DAY), ms(2 * DAY)]);
  assert.equal(first.body.meta.result_count, 2);
  const second = await g.get(`/2/broadcasts/scheduled?max_results=2&pagination_token=${first.body.meta.next_token}`, { auth });
  assert.deepEqual(second.body.data.map((b: any) => b.scheduled_start_ms), [ms(3 * DAY), ms(4 * DAY)]);
  const third = await g.get(`/2/broadcasts/scheduled?max_results=2&pagination_token=${second.body.meta.next_token}`, { auth });
  assert.deepEqual(third.body.data.map((b: any) => b.scheduled_start_ms), [ms(5 * DAY)]);
  assert.equal(third.body.meta.next_token, undefined);
  const bounded = await g.get(`/2/broadcasts/scheduled?oldest_start_time=${ms(2 * DAY)}&newest_start_time=${ms(4 * DAY)}`, { auth });
  assert.deepEqual(bounded.body.data.map((b: any) => b.scheduled_start_ms), [ms(2 * DAY), ms(3 * DAY), ms(4 * DAY)]);
  const iso = await g.get(`/2/broadcasts/scheduled?oldest_start_time=${new Date(Number(ms(4 * DAY))).toISOString()}`, { auth });
  assert.equal(iso.body.data.length, 2);
  for (const [q, name] of [['max_results=0', 'max_results'], ['max_results=101', 'max_results'], ['oldest_start_time=yesterday', 'oldest_start_time'], ['newest_start_time=x', 'newest_start_time'], ['pagination_token=zzz', 'pagination_token']]) {
    const res = await g.get(`/2/broadcasts/scheduled?${q}`, { auth });
    assert.equal(res.status, 400, q);
    assert.ok(name in res.body.errors[0].parameters, q);
  }
});

test('"going live turns a scheduled broadcast into a live broadcast": POST .../live on a manual_publish broadcast makes it Running on GET and writes broadcast.start; a second call, or one without manual_publish, is a 409', async () => {
  const auth = await as('ada');
  const manual = (await schedule('ada', { manual_publish: true, title: 'Manual' })).body.data;
  assert.equal(manual.state, 'Scheduled');
  const seq = await g.lastSeq();
  const live = await g.send('POST', `/2/broadcasts/scheduled/${manual.broadcast_id}/live`, { auth });
  assert.equal(live.status, 200, JSON.stringify(live.body));
  assert.equal(live.body.data.state, 'Running');
  assert.equal((await g.get(`/2/broadcasts/scheduled/${manual.broadcast_id}`, { auth })).body.data.state, 'Running');
  // Only this broadcast's: the coordinator may announce others' while the clock is moved by other tests.
  const [event] = (await g.eventsSince(seq, 'broadcast.start')).filter((e) => e.payload.broadcast_id === manual.broadcast_id);
  assert.equal(event.subject, g.user('ada').id);
  const again = await g.send('POST', `/2/broadcasts/scheduled/${manual.broadcast_id}/live`, { auth });
  assert.equal(again.status, 409);
  const auto = (await schedule('ada', { title: 'Auto' })).body.data;
  const refused = await g.send('POST', `/2/broadcasts/scheduled/${auto.broadcast_id}/live`, { auth });
  assert.equal(refused.status, 409, '"Without that flag the coordinator auto-publishes at start and this call is rejected"');
  assert.equal((await g.get(`/2/broadcasts/scheduled/${auto.broadcast_id}`, { auth })).body.data.state, 'Scheduled');
});

test('"without manual_publish the coordinator auto-publishes at start": the state follows the clock, Scheduled, then Running at the start, then Ended at the end', async () => {
  const auth = await as('chen');
  const b = (await schedule('chen', { scheduled_start_ms: ms(10 * MIN), scheduled_end_ms: ms(20 * MIN) })).body.data;
  assert.equal(b.state, 'Scheduled');
  const saved = clock.now();
  try {
    clock.set(new Date(Number(b.scheduled_start_ms)));
    assert.equal((await g.get(`/2/broadcasts/scheduled/${b.broadcast_id}`, { auth })).body.data.state, 'Running');
    clock.set(new Date(Number(b.scheduled_end_ms)));
    assert.equal((await g.get(`/2/broadcasts/scheduled/${b.broadcast_id}`, { auth })).body.data.state, 'Ended');
  } finally {
    clock.set(saved);
  }
});

test('"without that flag the coordinator auto-publishes at start": it writes broadcast.start once the clock passes the start, and broadcast.end once a started broadcast\'s end has passed, each once; a manual_publish broadcast never published announces nothing', async () => {
  const seq = await g.lastSeq();
  const auto = (await schedule('bruno', { title: 'Auto', scheduled_start_ms: ms(3 * DAY), scheduled_end_ms: ms(3 * DAY + HOUR) })).body.data;
  const live = (await schedule('bruno', { title: 'Live', manual_publish: true, scheduled_start_ms: ms(3 * DAY), scheduled_end_ms: ms(3 * DAY + HOUR) })).body.data;
  const never = (await schedule('bruno', { title: 'Never', manual_publish: true, scheduled_start_ms: ms(3 * DAY), scheduled_end_ms: ms(3 * DAY + HOUR) })).body.data;
  const of = async (id: string, type: string) => (await g.eventsSince(seq, type)).filter((e) => e.payload.broadcast_id === id);
  // Published ahead of its start (a manual_publish broadcast runs from POST .../live).
  assert.equal((await g.send('POST', `/2/broadcasts/scheduled/${live.broadcast_id}/live`, { auth: await as('bruno') })).status, 200);
  const saved = clock.now();
  try {
    clock.set(new Date(Number(auto.scheduled_start_ms)));
    const [start] = await eventually(async () => ((await of(auto.broadcast_id, 'broadcast.start')).length > 0 ? of(auto.broadcast_id, 'broadcast.start') : undefined), 'broadcast.start of the automatic broadcast');
    assert.equal(start.subject, g.user('bruno').id);
    const known = { [auto.broadcast_id]: 'broadcast', [auto.scheduled_broadcast_id]: 'scheduled', [g.user('bruno').id]: 'bruno', [auto.scheduled_start_ms]: 'start', [auto.scheduled_end_ms]: 'end' };
    assert.deepEqual(normalise(start.payload, known), {
      broadcast_id: '<broadcast>',
      scheduled_broadcast_id: '<scheduled>',
      state: 'Running',
      source_id: 'rtmp-key-1',
      title: 'Auto',
      available_for_replay: false,
      manual_publish: false,
      scheduled_start_ms: '<start>',
      scheduled_end_ms: '<end>',
      user_id: '<bruno>',
    });
    clock.set(new Date(Number(auto.scheduled_end_ms)));
    const ended = await eventually(async () => {
      const [a, l] = [await of(auto.broadcast_id, 'broadcast.end'), await of(live.broadcast_id, 'broadcast.end')];
      return a.length > 0 && l.length > 0 ? [a, l] : undefined;
    }, 'broadcast.end of both started broadcasts');
    for (const events of ended) {
      assert.equal(events.length, 1);
      assert.equal(events[0].payload.state, 'Ended');
    }
    // The same tick claimed every end due at this time: one never published is not among them.
    assert.deepEqual([(await of(never.broadcast_id, 'broadcast.start')).length, (await of(never.broadcast_id, 'broadcast.end')).length], [0, 0]);
    assert.equal((await of(auto.broadcast_id, 'broadcast.start')).length, 1, 'announced once');
    assert.equal((await of(live.broadcast_id, 'broadcast.start')).length, 1, 'the manual one\'s start is the one POST .../live wrote');
  } finally {
    clock.set(saved);
  }
});

test('"chat only to a live broadcast, stored": POST /2/broadcasts/{id}/chat answers success and a nanosecond timestamp, stores the message and writes broadcast.chat; a scheduled, ended or deleted broadcast refuses', async () => {
  const owner = await as('dana');
  const b = (await schedule('dana', { manual_publish: true, scheduled_start_ms: ms(10 * MIN), scheduled_end_ms: ms(30 * MIN) })).body.data;
  const early = await g.send('POST', `/2/broadcasts/${b.broadcast_id}/chat`, { auth: await as('ada'), body: { text: 'hello?' } });
  assert.equal(early.status, 409, 'not live yet');
  await g.send('POST', `/2/broadcasts/scheduled/${b.broadcast_id}/live`, { auth: owner });
  const seq = await g.lastSeq();
  const sent = await g.send('POST', `/2/broadcasts/${b.broadcast_id}/chat`, { auth: await as('ada'), body: { text: 'Great stream!' } });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  assert.equal(sent.body.data.success, true);
  assert.equal(sent.body.data.timestamp, (BigInt(clock.now().getTime()) * 1_000_000n).toString());
  const stored = await plaza.ctx.store.db.selectFrom('broadcast_chats').selectAll().where('broadcast_id', '=', b.broadcast_id).execute();
  assert.deepEqual(stored.map((c) => [c.user_id, c.text]), [[g.user('ada').id, 'Great stream!']]);
  const [event] = await g.eventsSince(seq, 'broadcast.chat');
  assert.equal(event.subject, g.user('dana').id);
  assert.equal(event.payload.sender_id, g.user('ada').id);
  await plaza.ctx.store.db.insertInto('blocks').values({ id: plaza.ctx.ids.next(), source_user_id: g.user('dana').id, target_user_id: g.user('chen').id, created_at: clock.now().toISOString() }).execute();
  const blocked = await g.send('POST', `/2/broadcasts/${b.broadcast_id}/chat`, { auth: await as('chen'), body: { text: 'let me in' } });
  assert.equal(blocked.status, 403, 'the broadcaster blocks the sender');
  for (const text of ['', 'x'.repeat(141), '   ']) {
    const bad = await g.send('POST', `/2/broadcasts/${b.broadcast_id}/chat`, { auth: await as('ada'), body: { text } });
    assert.equal(bad.status, 400, JSON.stringify(text));
    assert.ok('text' in bad.body.errors[0].parameters);
  }
  const saved = clock.now();
  try {
    clock.set(new Date(Number(b.scheduled_end_ms)));
    const ended = await g.send('POST', `/2/broadcasts/${b.broadcast_id}/chat`, { auth: await as('ada'), body: { text: 'late' } });
    assert.equal(ended.status, 409);
    assert.match(ended.body.detail, /ended/);
  } finally {
    clock.set(saved);
  }
  const seqEnd = await g.lastSeq();
  assert.equal((await g.send('DELETE', `/2/broadcasts/scheduled/${b.broadcast_id}`, { auth: owner })).body.data.deleted, true);
  assert.equal((await g.eventsSince(seqEnd, 'broadcast.end')).filter((e) => e.payload.broadcast_id === b.broadcast_id).length, 1, 'deleting a running broadcast ends it');
  const gone = await g.send('POST', `/2/broadcasts/${b.broadcast_id}/chat`, { auth: await as('ada'), body: { text: 'anyone?' } });
  assert.equal(gone.status, 404);
  assert.equal((await plaza.ctx.store.db.selectFrom('broadcast_chats').select('id').where('broadcast_id', '=', b.broadcast_id).execute()).length, 0);
});

test('PUT /2/broadcasts/scheduled/{id} "fully replaces schedule fields": fields not re-sent are cleared, scheduled_broadcast_id must match, a running broadcast is a 409', async () => {
  const auth = await as('chen');
  const b = (await schedule('chen', { title: 'Old title', description: 'Old description', available_for_replay: true })).body.data;
  const wrongId = await g.send('PUT', `/2/broadcasts/scheduled/${b.broadcast_id}`, { auth, body: { scheduled_broadcast_id: '1', scheduled_start_ms: ms(HOUR), scheduled_end_ms: ms(2 * HOUR) } });
  assert.equal(wrongId.status, 400);
  assert.ok('scheduled_broadcast_id' in wrongId.body.errors[0].parameters);
  const past = await g.send('PUT', `/2/broadcasts/scheduled/${b.broadcast_id}`, { auth, body: { scheduled_broadcast_id: b.scheduled_broadcast_id, scheduled_start_ms: ms(-HOUR), scheduled_end_ms: ms(HOUR) } });
  assert.equal(past.status, 400);
  const res = await g.send('PUT', `/2/broadcasts/scheduled/${b.broadcast_id}`, {
    auth,
    body: { scheduled_broadcast_id: b.scheduled_broadcast_id, title: 'New title', scheduled_start_ms: ms(30 * MIN), scheduled_end_ms: ms(50 * MIN) },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(normalise(res.body, { [b.broadcast_id]: 'broadcast', [b.scheduled_broadcast_id]: 'scheduled', [ms(30 * MIN)]: 'start', [ms(50 * MIN)]: 'end' }), {
    data: {
      broadcast_id: '<broadcast>',
      scheduled_broadcast_id: '<scheduled>',
      state: 'Scheduled',
      source_id: 'rtmp-key-1', // the bound source is kept
      available_for_replay: false,
      manual_publish: false,
      scheduled_start_ms: '<start>',
      scheduled_end_ms: '<end>',
      title: 'New title',
    },
  });
  assert.deepEqual((await g.get(`/2/broadcasts/scheduled/${b.broadcast_id}`, { auth })).body.data, res.body.data);
  const saved = clock.now();
  try {
    clock.set(new Date(Number(ms(30 * MIN))));
    const running = await g.send('PUT', `/2/broadcasts/scheduled/${b.broadcast_id}`, { auth, body: { scheduled_broadcast_id: b.scheduled_broadcast_id, scheduled_start_ms: ms(HOUR), scheduled_end_ms: ms(2 * HOUR) } });
    assert.equal(running.status, 409);
  } finally {
    clock.set(saved);
  }
});

test('"recurring broadcasts": a recurrence creates a series of `repeats` occurrences a day or a week apart sharing recurring_schedule_id; PUT with roll_forward moves the later ones with the head', async () => {
  const auth = await as('bruno');
  const created = await schedule('bruno', { recurrence: { frequency: 'Weekly', repeats: '3' }, scheduled_start_ms: ms(DAY), scheduled_end_ms: ms(DAY + HOUR) });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const head = created.body.data;
  assert.ok(head.recurring_schedule_id);
  const series = (await g.get('/2/broadcasts/scheduled', { auth })).body.data.filter((b: any) => b.recurring_schedule_id === head.recurring_schedule_id);
  assert.deepEqual(series.map((b: any) => b.scheduled_start_ms), [ms(DAY), ms(8 * DAY), ms(15 * DAY)]);
  assert.equal(new Set(series.map((b: any) => b.broadcast_id)).size, 3);
  const moved = await g.send('PUT', `/2/broadcasts/scheduled/${head.broadcast_id}`, {
    auth,
    body: { scheduled_broadcast_id: head.scheduled_broadcast_id, source_id: 'rtmp-key-1', roll_forward: true, scheduled_start_ms: ms(DAY + 2 * HOUR), scheduled_end_ms: ms(DAY + 4 * HOUR) },
  });
  assert.equal(moved.status, 200);
  const after = (await g.get('/2/broadcasts/scheduled', { auth })).body.data.filter((b: any) => b.recurring_schedule_id === head.recurring_schedule_id);
  assert.deepEqual(after.map((b: any) => [b.scheduled_start_ms, b.scheduled_end_ms]), [
    [ms(DAY + 2 * HOUR), ms(DAY + 4 * HOUR)],
    [ms(8 * DAY + 2 * HOUR), ms(8 * DAY + 4 * HOUR)],
    [ms(15 * DAY + 2 * HOUR), ms(15 * DAY + 4 * HOUR)],
  ]);
  const alone = await g.send('PUT', `/2/broadcasts/scheduled/${after[1].broadcast_id}`, {
    auth,
    body: { scheduled_broadcast_id: after[1].scheduled_broadcast_id, scheduled_start_ms: ms(9 * DAY), scheduled_end_ms: ms(9 * DAY + HOUR) },
  });
  assert.equal(alone.status, 200);
  const third = await g.get(`/2/broadcasts/scheduled/${after[2].broadcast_id}`, { auth });
  assert.equal(third.body.data.scheduled_start_ms, ms(15 * DAY + 2 * HOUR), 'without roll_forward only this occurrence moves');
});

test('DELETE /2/broadcasts/scheduled/{id} with "roll_forward": true deletes only this occurrence and the series rolls forward to the next; without it the rest of the series goes too', async () => {
  const auth = await as('bruno');
  const head = (await schedule('bruno', { recurrence: { frequency: 'Daily', repeats: '4' }, scheduled_start_ms: ms(DAY), scheduled_end_ms: ms(DAY + HOUR) })).body.data;
  const seriesOf = async () => ((await g.get('/2/broadcasts/scheduled', { auth })).body.data ?? []).filter((b: any) => b.recurring_schedule_id === head.recurring_schedule_id);
  const rolled = await g.send('DELETE', `/2/broadcasts/scheduled/${head.broadcast_id}?roll_forward=true`, { auth });
  assert.deepEqual(rolled.body, { data: { deleted: true } });
  const left = await seriesOf();
  assert.deepEqual(left.map((b: any) => b.scheduled_start_ms), [ms(2 * DAY), ms(3 * DAY), ms(4 * DAY)]);
  assert.equal((await g.get(`/2/broadcasts/scheduled/${head.broadcast_id}`, { auth })).status, 404);
  const cut = await g.send('DELETE', `/2/broadcasts/scheduled/${left[1].broadcast_id}`, { auth });
  assert.equal(cut.status, 200);
  assert.deepEqual((await seriesOf()).map((b: any) => b.scheduled_start_ms), [ms(2 * DAY)]);
  const bad = await g.send('DELETE', `/2/broadcasts/scheduled/${left[0].broadcast_id}?roll_forward=maybe`, { auth });
  assert.equal(bad.status, 400);
  assert.equal((await g.send('DELETE', '/2/broadcasts/scheduled/not_an_id!', { auth })).status, 400);
});
