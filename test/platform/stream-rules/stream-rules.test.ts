import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures } from '../../support/fixtures.js';
import { problemType } from '../../support/problems.js';
import { withEventsPlaced } from '../../support/event-log.js';

/**
 * The filtered stream's rules (issue #12 "Rules"; shared/reference/platform.md §6 and the spec's
 * Limits table): GET and POST /2/posts/search/stream/rules, the counts and the enterprise listing.
 */
const RULES = '/2/posts/search/stream/rules';

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
let selfServe: { bearer: string };
let enterprise: { bearer: string };

before(async () => {
  plaza = await startTestPlaza({ enterpriseStreamRules: 30 });
  f = fixtures(plaza);
  selfServe = { bearer: f.selfServe.bearer_token };
  enterprise = { bearer: f.enterprise.bearer_token };
});

const add = (auth: { bearer: string }, rules: Array<{ value: string; tag?: string }>, q = '') => f.send('POST', `${RULES}${q}`, { auth, body: { add: rules } });
const del = (auth: { bearer: string }, body: unknown, q = '') => f.send('POST', `${RULES}${q}`, { auth, body: { delete: body } });
const deleteAll = (auth: { bearer: string }) => f.send('POST', `${RULES}?delete_all=true`, { auth });
const list = (auth: { bearer: string }, q = '') => f.get(`${RULES}${q}`, { auth });

test('POST /2/posts/search/stream/rules "add [{value, tag}]": rules are created with ids, and "meta.summary {created, not_created, valid, invalid}"', async () => {
  await deleteAll(selfServe);
  const res = await add(selfServe, [{ value: 'cat has:images', tag: 'cats with images' }, { value: 'from:ada -is:reply' }]);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.length, 2);
  assert.match(res.body.data[0].id, /^[0-9]{1,19}$/);
  assert.deepEqual(res.body.data.map((r: any) => [r.value, r.tag]), [['cat has:images', 'cats with images'], ['from:ada -is:reply', undefined]]);
  assert.deepEqual(res.body.meta.summary, { created: 2, not_created: 0, valid: 2, invalid: 0 });
  assert.ok(!Number.isNaN(Date.parse(res.body.meta.sent)));
  assert.equal(res.body.errors, undefined);

  const got = await list(selfServe);
  assert.equal(got.status, 200, got.text);
  assert.deepEqual(got.body.data, res.body.data, 'GET lists the rules as created, in id order');
  assert.equal(got.body.meta.result_count, 2);
  assert.ok(!Number.isNaN(Date.parse(got.body.meta.sent)));
});

test('"Duplicate rules and invalid rules come back in `errors` as duplicate-rules and invalid-rules problems with HTTP 200 when others succeed"', async () => {
  await deleteAll(selfServe);
  const first = await add(selfServe, [{ value: 'plaza news' }]);
  const existing = first.body.data[0];
  const res = await add(selfServe, [{ value: 'plaza news', tag: 'again' }, { value: 'apple OR' }, { value: 'moon' }, { value: 'moon' }, { value: 'has:media' }]);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data.map((r: any) => r.value), ['moon']);
  assert.deepEqual(res.body.meta.summary, { created: 1, not_created: 4, valid: 3, invalid: 2 });
  const byType = (t: string) => res.body.errors.filter((e: any) => e.type === problemType(t));
  assert.deepEqual(
    byType('duplicate-rules').map((e: any) => ({ id: e.id, value: e.value, title: e.title })),
    [
      { id: existing.id, value: 'plaza news', title: 'DuplicateRule' },
      { id: res.body.data[0].id, value: 'moon', title: 'DuplicateRule' },
    ],
    'a rule already in the set, and one sent twice, each name the rule they duplicate',
  );
  const invalid = byType('invalid-rules');
  assert.deepEqual(invalid.map((e: any) => e.value), ['apple OR', 'has:media']);
  for (const e of invalid) {
    assert.equal(e.title, 'UnprocessableEntity');
    assert.match(e.detail, /Rule is invalid/);
  }
  assert.match(invalid[1].detail, /cannot be used alone/);
  assert.equal((await list(selfServe)).body.meta.result_count, 2);
});

test('"The rule grammar is the query language\'s; stream-only operators (sample:, and the count operators ...) work here"', async () => {
  await deleteAll(selfServe);
  const res = await add(selfServe, [{ value: 'cat sample:10' }, { value: 'dog min_likes:5' }, { value: 'news min_replies:2 OR moon min_reposts:1' }, { value: '"apple ipad"~3 -is:retweet lang:en' }]);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.meta.summary, { created: 4, not_created: 0, valid: 4, invalid: 0 });
});

test('"?dry_run=true validates without changing anything"', async () => {
  await deleteAll(selfServe);
  const kept = await add(selfServe, [{ value: 'kept' }]);
  const dry = await add(selfServe, [{ value: 'sun' }, { value: 'kept' }, { value: '(' }], '?dry_run=true');
  assert.equal(dry.status, 200, dry.text);
  assert.deepEqual(dry.body.meta.summary, { created: 1, not_created: 2, valid: 2, invalid: 1 });
  assert.deepEqual(dry.body.data.map((r: any) => r.value), ['sun']);
  assert.deepEqual(dry.body.errors.map((e: any) => e.type.split('/').pop()), ['duplicate-rules', 'invalid-rules']);
  const dryDelete = await del(selfServe, { ids: [kept.body.data[0].id] }, '?dry_run=true');
  assert.deepEqual(dryDelete.body.meta.summary, { deleted: 1, not_deleted: 0 });
  const dryAll = await f.send('POST', `${RULES}?delete_all=true&dry_run=true`, { auth: selfServe });
  assert.deepEqual(dryAll.body.meta.summary, { deleted: 1, not_deleted: 0 });
  const now = await list(selfServe);
  assert.deepEqual(now.body.data.map((r: any) => r.value), ['kept'], 'nothing was added or deleted');
});

test('"delete {ids | values}" and "?delete_all=true": meta.summary {deleted, not_deleted}; a rule that does not exist is reported in errors', async () => {
  await deleteAll(selfServe);
  const made = await add(selfServe, [{ value: 'one' }, { value: 'two' }, { value: 'three' }, { value: 'four' }]);
  const [one, two] = made.body.data;
  const byId = await del(selfServe, { ids: [one.id, '1234567890123456789'] });
  assert.equal(byId.status, 200, byId.text);
  assert.deepEqual(byId.body.meta.summary, { deleted: 1, not_deleted: 1 });
  assert.equal(byId.body.errors.length, 1);
  assert.equal(byId.body.errors[0].type, problemType('invalid-request'));
  assert.deepEqual(byId.body.errors[0].errors[0].parameters, { ids: ['1234567890123456789'] });
  const byValue = await del(selfServe, { values: ['two', 'three', 'nope'] });
  assert.deepEqual(byValue.body.meta.summary, { deleted: 2, not_deleted: 1 });
  assert.deepEqual((await list(selfServe)).body.data.map((r: any) => r.value), ['four']);
  // The other app's rules are not this app's to delete.
  const theirs = await add(enterprise, [{ value: 'enterprise only' }]);
  const cross = await del(selfServe, { ids: [theirs.body.data[0].id] });
  assert.deepEqual(cross.body.meta.summary, { deleted: 0, not_deleted: 1 });
  const all = await deleteAll(selfServe);
  assert.equal(all.status, 200, all.text);
  assert.deepEqual(all.body.meta.summary, { deleted: 1, not_deleted: 0 });
  const empty = await list(selfServe);
  assert.equal(empty.body.data, undefined);
  assert.equal(empty.body.meta.result_count, 0);
  assert.equal((await list(enterprise)).body.meta.result_count, 1, "the other app's rules stay");
  assert.ok(two);
  await deleteAll(enterprise);
});

test('POST rules: "exactly one of add [{value, tag}] or delete {ids | values}, or ?delete_all=true"; bad input is an invalid-request naming the parameter', async () => {
  const cases: Array<[string, unknown, string]> = [
    ['', {}, 'add'],
    ['', { add: [{ value: 'a' }], delete: { ids: ['1'] } }, 'add'],
    ['?delete_all=true', { add: [{ value: 'a' }] }, 'add'],
    ['', { delete: { ids: ['1'], values: ['a'] } }, 'delete'],
    ['', { delete: {} }, 'delete'],
    ['', { add: [] }, 'add'],
    ['', { add: [{ value: 'a', colour: 'red' }] }, 'colour'],
    ['', { delete: { ids: ['abc'] } }, 'ids'],
    ['?dry_run=maybe', { add: [{ value: 'a' }] }, 'dry_run'],
  ];
  for (const [q, body, param] of cases) {
    const res = await f.send('POST', `${RULES}${q}`, { auth: selfServe, body });
    assert.equal(res.status, 400, `${q} ${JSON.stringify(body)}: ${res.text}`);
    assert.equal(res.body.type, problemType('invalid-request'));
    assert.ok(JSON.stringify(res.body.errors).includes(param), `${JSON.stringify(body)} names ${param}: ${res.text}`);
  }
  const noBody = await f.send('POST', RULES, { auth: selfServe });
  assert.equal(noBody.status, 400, noBody.text);
  // The rules are the app's: user context is not how they are managed.
  assert.equal((await f.send('POST', RULES, { auth: f.oauth2As(plaza.creds.users[0]!.username), body: { add: [{ value: 'a' }] } })).status, 403);
  assert.equal((await f.get(RULES)).status, 401);
});

test('"Rule length: 1,024 characters on self-serve, 2,048 on enterprise"', async () => {
  await deleteAll(selfServe);
  await deleteAll(enterprise);
  const rule = (n: number) => `${'a'.repeat(n - 4)} cat`;
  const self = await add(selfServe, [{ value: rule(1024) }, { value: `b${rule(1024)}` }]);
  assert.equal(self.status, 200, self.text);
  assert.deepEqual(self.body.meta.summary, { created: 1, not_created: 1, valid: 1, invalid: 1 });
  assert.equal(self.body.errors[0].type, problemType('invalid-rules'));
  assert.match(self.body.errors[0].detail, /1025 characters.*at most 1024/);
  const ent = await add(enterprise, [{ value: rule(2048) }, { value: `b${rule(2048)}` }]);
  assert.deepEqual(ent.body.meta.summary, { created: 1, not_created: 1, valid: 1, invalid: 1 });
  assert.match(ent.body.errors[0].detail, /2049 characters.*at most 2048/);
  // Characters, not bytes or UTF-16 units.
  const emoji = await add(selfServe, [{ value: `cat ${'🚀'.repeat(1020)}` }]);
  assert.deepEqual(emoji.body.meta.summary, { created: 1, not_created: 0, valid: 1, invalid: 0 });
  await deleteAll(selfServe);
  await deleteAll(enterprise);
});

test('"rule count: 1,000 per project on self-serve": "a rule set past the app\'s cap is refused whole with rule-cap"', async () => {
  await deleteAll(selfServe);
  const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ value: `word${from + i}` }));
  assert.deepEqual((await add(selfServe, batch(0, 600))).body.meta.summary.created, 600);
  const over = await add(selfServe, batch(600, 401));
  assert.equal(over.status, 200, over.text);
  assert.equal(over.body.data, undefined);
  assert.deepEqual(over.body.meta.summary, { created: 0, not_created: 401, valid: 401, invalid: 0 });
  assert.deepEqual(over.body.errors.map((e: any) => [e.type, e.title]), [[problemType('rule-cap'), 'RulesCapExceeded']]);
  assert.equal((await list(selfServe)).body.meta.result_count, 600, 'nothing of the refused set was added');
  const fits = await add(selfServe, [...batch(600, 400), { value: 'word0' }]);
  assert.deepEqual(fits.body.meta.summary, { created: 400, not_created: 1, valid: 401, invalid: 0 }, 'a duplicate does not count against the cap');
  const full = await add(selfServe, batch(2000, 1));
  assert.equal(full.body.errors[0].type, problemType('rule-cap'));
  await deleteAll(selfServe);
});

test('"25,000 on enterprise (configurable higher: \\"25,000 and more\\")": the enterprise cap follows the configuration', async () => {
  await deleteAll(enterprise);
  // This server is configured with an enterprise cap of 30 (PLAZA_ENTERPRISE_STREAM_RULES); the default is 25,000.
  const batch = Array.from({ length: 31 }, (_, i) => ({ value: `ent${i}` }));
  const over = await add(enterprise, batch);
  assert.equal(over.body.errors[0].type, problemType('rule-cap'));
  assert.equal((await add(enterprise, batch.slice(0, 30))).body.meta.summary.created, 30);
  const counts = await f.get('/2/posts/search/stream/rules/counts', { auth: enterprise });
  assert.equal(counts.body.data.cap_per_project, '30');
  await deleteAll(enterprise);
  const { loadConfig } = await import('../../../src/config.js');
  assert.equal(loadConfig({}, {}).enterpriseStreamRules, 25_000);
  assert.equal(loadConfig({}, { PLAZA_ENTERPRISE_STREAM_RULES: '100000' }).enterpriseStreamRules, 100_000);
});

test('GET /2/posts/search/stream/rules "(ids up to 1000, max_results 1-1000, pagination_token; meta {sent, result_count, next_token})"', async () => {
  await deleteAll(selfServe);
  const made = (await add(selfServe, Array.from({ length: 7 }, (_, i) => ({ value: `page${i}`, tag: `t${i}` })))).body.data;
  const seen: string[] = [];
  let token: string | undefined;
  for (let pages = 0; pages < 10; pages++) {
    const res = await list(selfServe, `?max_results=3${token ? `&pagination_token=${token}` : ''}`);
    assert.equal(res.status, 200, res.text);
    seen.push(...res.body.data.map((r: any) => r.id));
    assert.equal(res.body.meta.result_count, res.body.data.length);
    token = res.body.meta.next_token;
    if (!token) break;
  }
  assert.deepEqual(seen, made.map((r: any) => r.id));
  const some = await list(selfServe, `?ids=${made[4].id},${made[1].id},1234567890123456789`);
  assert.deepEqual(some.body.data.map((r: any) => r.value), ['page1', 'page4']);
  for (const [q, param] of [
    ['?max_results=0', 'max_results'],
    ['?max_results=1001', 'max_results'],
    ['?pagination_token=nonsense', 'pagination_token'],
    [`?ids=${Array.from({ length: 1001 }, (_, i) => String(i + 1)).join(',')}`, 'ids'],
    ['?ids=abc', 'ids'],
  ]) {
    const res = await list(selfServe, q);
    assert.equal(res.status, 400, `${q}: ${res.text}`);
    assert.ok(JSON.stringify(res.body.errors).includes(param), res.text);
  }
  await deleteAll(selfServe);
});

test('GET /2/posts/search/stream/rules/counts: rules per project and client app, and the caps', async () => {
  await deleteAll(selfServe);
  await add(selfServe, [{ value: 'a1' }, { value: 'a2' }]);
  const res = await f.get('/2/posts/search/stream/rules/counts', { auth: selfServe });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data, {
    cap_per_client_app: '1000',
    cap_per_project: '1000',
    project_rules_count: '2',
    client_app_rules_count: { client_app_id: f.selfServe.id, rule_count: 2 },
  });
  const all = await f.get('/2/posts/search/stream/rules/counts?rules_count.fields=all_project_client_apps', { auth: selfServe });
  assert.deepEqual(all.body.data.all_project_client_apps, [{ client_app_id: f.selfServe.id, rule_count: 2 }]);
  const bad = await f.get('/2/posts/search/stream/rules/counts?rules_count.fields=colour', { auth: selfServe });
  assert.equal(bad.status, 400);
  assert.ok(JSON.stringify(bad.body.errors).includes('rules_count.fields'));
  await deleteAll(selfServe);
});

test('"GET /2/enterprise_stream/rules for enterprise apps: the rules configured on each stream instance"; self-serve apps are refused', async () => {
  await deleteAll(enterprise);
  await add(enterprise, [{ value: 'ent rule', tag: 'x' }]);
  const res = await f.get('/2/enterprise_stream/rules', { auth: enterprise });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.length, 1);
  assert.deepEqual({ ...res.body.data[0], id: undefined }, { id: undefined, value: 'ent rule', tag: 'x', instance_id: f.enterprise.id });
  const refused = await f.get('/2/enterprise_stream/rules', { auth: selfServe });
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.body.type, problemType('client-forbidden'));
  await deleteAll(enterprise);
});

test('a rule change "appends an event to the event log" so other processes learn of it', async () => {
  await deleteAll(selfServe);
  const latest = async () => {
    const [event] = await (await withEventsPlaced(plaza.ctx.store.db)).selectFrom('events').selectAll().where('type', '=', 'stream.rules.change').where('subject', '=', f.selfServe.id).orderBy('seq', 'desc').limit(1).execute();
    return JSON.parse(event!.payload);
  };
  await add(selfServe, [{ value: 'logged' }, { value: 'logged too' }]);
  const added = await latest();
  assert.deepEqual({ ...added, version: undefined }, { app_id: f.selfServe.id, version: undefined, created: 2, deleted: 0 });
  await del(selfServe, { values: ['logged'] });
  const removed = await latest();
  assert.deepEqual(removed.deleted, 1);
  assert.ok(removed.version > added.version, 'each change moves the rule set\'s version');
  // A dry run, or a request that changes nothing, appends nothing.
  await add(selfServe, [{ value: 'dry' }], '?dry_run=true');
  await del(selfServe, { values: ['never there'] });
  assert.equal((await latest()).version, removed.version);
  await deleteAll(selfServe);
});
