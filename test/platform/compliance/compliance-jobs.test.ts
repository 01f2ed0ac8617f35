import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { call, startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';

/** Batch compliance jobs (issue #18): create, upload ids, processing by the clock, download the answer. */
let plaza: TestPlaza;
let g: Fixtures;
let clock: ManualClock;
let samples: string[];
const MISSING = '1234567890123456789';

before(async () => {
  clock = new ManualClock(new Date('2026-03-01T12:00:00.000Z'));
  plaza = await startTestPlaza({}, { clock });
  g = fixtures(plaza);
  samples = plaza.creds.sample.post_ids;
});

const enterpriseApp = () => ({ bearer: plaza.creds.apps[1].bearer_token });
const createJob = async (body: Record<string, unknown>, auth: { bearer: string } = g.appAuth) => g.send('POST', '/2/compliance/jobs', { auth, body });
/** upload_url and download_url are absolute URLs on the platform listener. */
const put = (url: string, text: string) => fetch(url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: text });

test('POST /2/compliance/jobs (app-only): a created job with upload_url, upload_expires_at 15 minutes and download_expires_at 7 days after created_at', async () => {
  const res = await createJob({ type: 'tweets', name: 'nightly', resumable: false });
  assert.equal(res.status, 200, res.text);
  const job = res.body.data;
  assert.deepEqual(normalise(res.body, { [job.upload_url]: 'upload_url', [job.download_url]: 'download_url' }), {
    data: {
      id: '<id:1>',
      type: 'tweets',
      name: 'nightly',
      resumable: false,
      status: 'created',
      created_at: '<time>',
      upload_url: '<upload_url>',
      upload_expires_at: '<time>',
      download_url: '<download_url>',
      download_expires_at: '<time>',
    },
  });
  assert.deepEqual([job.created_at, job.upload_expires_at, job.download_expires_at], ['2026-03-01T12:00:00.000Z', '2026-03-01T12:15:00.000Z', '2026-03-08T12:00:00.000Z']);
  assert.ok(job.upload_url.startsWith(plaza.urls.base_url), job.upload_url);
  assert.ok(job.download_url.startsWith(plaza.urls.base_url), job.download_url);
  const again = await createJob({ type: 'users' });
  assert.notEqual(again.body.data.upload_url, job.upload_url, 'each job has its own secret URLs');
  assert.equal(again.body.data.name, undefined);
});

test('compliance jobs take app-only authentication: a user token is refused (403) and creates nothing', async () => {
  const res = await createJob({ type: 'users' }, await g.enterpriseAs('ada'));
  assert.equal(res.status, 403, res.text);
});

test('bad input is a 400 naming the parameter: type outside [tweets, posts, users], name over 64 characters, a missing type on the list, an unknown compliance_job.fields', async () => {
  const before = (await g.get('/2/compliance/jobs?type=users', { auth: g.appAuth })).body.meta.result_count;
  for (const body of [{ type: 'likes' }, { type: 'users', name: 'x'.repeat(65) }, { name: 'no type' }, { type: 'users', extra: 1 }]) {
    const res = await createJob(body);
    assert.equal(res.status, 400, JSON.stringify(body));
  }
  assert.equal((await g.get('/2/compliance/jobs', { auth: g.appAuth })).status, 400);
  assert.equal((await g.get('/2/compliance/jobs?type=users&status=done', { auth: g.appAuth })).status, 400);
  const fields = await g.get('/2/compliance/jobs?type=users&compliance_job.fields=secret', { auth: g.appAuth });
  assert.equal(fields.status, 400);
  assert.match(JSON.stringify(fields.body), /compliance_job\.fields/);
  assert.equal((await g.get('/2/compliance/jobs?type=users', { auth: g.appAuth })).body.meta.result_count, before, 'nothing was created');
});

test('a posts job: after the upload it is in_progress; once the clock passes processing it is complete and download_url lists deleted, protected and unknown posts (not the live public one) in the public format', async () => {
  const [withMedia, , quote, , privatePost] = samples;
  // A post of ada's, deleted before the job runs.
  const made = await g.send('POST', '/2/posts', { auth: await g.enterpriseAs('ada'), body: { text: 'soon gone, compliance' } });
  assert.equal(made.status, 201, made.text);
  const gone = made.body.data.id;
  assert.equal((await g.send('DELETE', `/2/posts/${gone}`, { auth: await g.enterpriseAs('ada') })).status, 200);
  const privateRow = await g.postRow(privatePost);
  assert.equal((await g.userRow('bruno')).protected, 1, 'the demo private post is by a protected account');
  assert.equal(privateRow.author_id, g.user('bruno').id);

  const job = (await createJob({ type: 'tweets' })).body.data;
  const upload = await put(job.upload_url, [withMedia, gone, privatePost, MISSING, quote, ''].join('\n'));
  assert.equal(upload.status, 200, await upload.text());
  const during = await g.get(`/2/compliance/jobs/${job.id}`, { auth: g.appAuth });
  assert.equal(during.body.data.status, 'in_progress');
  assert.equal((await fetch(job.download_url)).status, 404, 'no answer before processing ends');

  clock.advance(5_000);
  const done = await g.get(`/2/compliance/jobs/${job.id}`, { auth: g.appAuth });
  assert.equal(done.body.data.status, 'complete');
  const download = await fetch(job.download_url);
  assert.equal(download.status, 200);
  const lines = (await download.text()).trim().split('\n').map((l) => JSON.parse(l));
  // In the order of the upload; an unknown id's created_at is the time its snowflake id tells.
  assert.deepEqual(lines, [
    { id: gone, action: 'delete', created_at: '2026-03-01T12:00:00.000Z', redacted_at: '2026-03-01T12:00:00.000Z', reason: 'deleted' },
    { id: privatePost, action: 'delete', created_at: privateRow.created_at, redacted_at: null, reason: 'protected' },
    { id: MISSING, action: 'delete', created_at: '2020-03-02T19:54:56.824Z', redacted_at: null, reason: 'deleted' },
  ]);
});

test('a users job (type users) answers protected and unknown accounts; type=tweets and the Plaza name posts list the same jobs', async () => {
  const job = (await createJob({ type: 'users', name: 'people' })).body.data;
  assert.equal((await put(job.upload_url, `${g.user('ada').id}\n${g.user('bruno').id}\n${MISSING}\n`)).status, 200);
  clock.advance(5_000);
  const lines = (await (await fetch(job.download_url)).text()).trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.id, l.reason]).sort(), [[g.user('bruno').id, 'protected'], [MISSING, 'deleted']].sort());
  const posts = (await createJob({ type: 'posts' })).body.data;
  assert.equal(posts.type, 'posts');
  const asTweets = await g.get('/2/compliance/jobs?type=tweets', { auth: g.appAuth });
  const asPosts = await g.get('/2/compliance/jobs?type=posts', { auth: g.appAuth });
  assert.deepEqual(asTweets.body.data.map((j: { id: string }) => j.id), asPosts.body.data.map((j: { id: string }) => j.id));
  assert.ok(asTweets.body.data.some((j: { id: string }) => j.id === posts.id));
  assert.equal(asTweets.body.data[0].id, posts.id, 'newest first');
});

test('GET /2/compliance/jobs filters by status; compliance_job.fields selects fields (id always); another app sees neither the list nor the job (404)', async () => {
  const job = (await createJob({ type: 'users' })).body.data;
  const created = await g.get('/2/compliance/jobs?type=users&status=created&compliance_job.fields=status', { auth: g.appAuth });
  assert.ok(created.body.data.every((j: { status: string }) => j.status === 'created'));
  assert.ok(created.body.data.some((j: { id: string }) => j.id === job.id));
  assert.deepEqual(Object.keys(created.body.data[0]).sort(), ['id', 'status']);
  assert.equal(created.body.meta.result_count, created.body.data.length);
  const complete = await g.get('/2/compliance/jobs?type=users&status=complete', { auth: g.appAuth });
  assert.ok(complete.body.data.every((j: { status: string }) => j.status === 'complete'));
  const other = await g.get(`/2/compliance/jobs/${job.id}`, { auth: enterpriseApp() });
  assert.equal(other.status, 404);
  const list = await g.get('/2/compliance/jobs?type=users', { auth: enterpriseApp() });
  assert.equal(list.status, 200);
  assert.equal(list.body.meta.result_count, 0);
  assert.equal(list.body.data, undefined);
});

test('the upload URL takes one file: a malformed line is a 400 and changes nothing; a second upload is a 409; after upload_expires_at an unused job is expired and its upload URL refused (403)', async () => {
  const job = (await createJob({ type: 'users' })).body.data;
  const bad = await put(job.upload_url, `${g.user('ada').id}\nnot-an-id\n`);
  assert.equal(bad.status, 400);
  assert.equal((await put(job.upload_url, '\n\n')).status, 400, 'an empty file');
  assert.equal((await g.get(`/2/compliance/jobs/${job.id}`, { auth: g.appAuth })).body.data.status, 'created');
  assert.equal((await put(job.upload_url, g.user('ada').id)).status, 200);
  assert.equal((await put(job.upload_url, g.user('ada').id)).status, 409);
  assert.equal((await call(plaza.urls.base_url, `/compliance/uploads/${'A'.repeat(43)}`, { method: 'PUT', body: '1' })).status, 404, 'an unknown secret');

  const late = (await createJob({ type: 'users' })).body.data;
  clock.advance(15 * 60_000);
  assert.equal((await g.get(`/2/compliance/jobs/${late.id}`, { auth: g.appAuth })).body.data.status, 'expired');
  assert.equal((await put(late.upload_url, g.user('ada').id)).status, 403);
});

test('after download_expires_at a complete job is expired and its download URL refused (403)', async () => {
  const job = (await createJob({ type: 'users' })).body.data;
  assert.equal((await put(job.upload_url, g.user('bruno').id)).status, 200);
  clock.advance(5_000);
  assert.equal((await fetch(job.download_url)).status, 200);
  clock.advance(7 * 24 * 3600_000);
  assert.equal((await g.get(`/2/compliance/jobs/${job.id}`, { auth: g.appAuth })).body.data.status, 'expired');
  assert.equal((await fetch(job.download_url)).status, 403);
});
