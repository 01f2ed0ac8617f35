import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { issueOAuth2Tokens } from '../../src/auth/issue.js';
import { ManualClock } from '../../src/clock.js';
import { tierRefuses } from '../../src/platform/graph/tiers.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { ALL_SCOPES, fixtures, type Fixtures } from '../support/fixtures.js';
import { problemType } from '../support/problems.js';

let plaza: TestPlaza;
let g: Fixtures;
const clock = new ManualClock(new Date('2025-06-01T12:00:00.000Z'));

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  g = fixtures(plaza);
});

/** A fresh OAuth 2.0 token of the self-serve app: tokens live two hours of the (moved) clock. */
async function selfServeToken(username: string) {
  const ctx = plaza.ctx;
  const issued = await ctx.store.db.transaction().execute((tx) => issueOAuth2Tokens(ctx, tx, g.selfServe.id, g.user(username).id, ALL_SCOPES));
  return { bearer: issued.accessToken };
}

async function like(username: string, postId: string) {
  return g.send('POST', `/2/users/${g.user(username).id}/likes`, { auth: await selfServeToken(username), body: { post_id: postId } });
}

async function follow(username: string, target: string) {
  return g.send('POST', `/2/users/${g.user(username).id}/following`, { auth: await selfServeToken(username), body: { target_user_id: g.user(target).id } });
}

test('before Aug 22, 2025 a free-tier app may still like and follow through POST /2/users/:id/likes and /following', async () => {
  await g.setTier('selfServe', 'free');
  assert.equal((await like('dana', plaza.creds.sample.post_ids[3])).status, 200);
  assert.equal((await follow('chen', 'dana')).status, 200);
});

test('Aug 22, 2025: likes and follows removed from the free tier (client-forbidden); other self-serve tiers keep liking until Apr 20, 2026', async () => {
  clock.set(new Date('2025-08-22T00:00:00.000Z'));
  await g.setTier('selfServe', 'free');
  const refusedLike = await like('chen', plaza.creds.sample.post_ids[0]);
  assert.equal(refusedLike.status, 403);
  assert.equal(refusedLike.body.type, problemType('client-forbidden'));
  assert.equal(refusedLike.body.reason, 'client-not-enrolled');
  assert.equal((await follow('plazanews', 'dana')).status, 403);
  for (const tier of ['pro', 'pay-per-use'] as const) {
    await g.setTier('selfServe', tier);
    assert.equal((await like('chen', plaza.creds.sample.post_ids[0])).status, 200, tier);
  }
  await g.setTier('selfServe', 'pay-per-use');
  assert.equal((await follow('plazanews', 'dana')).status, 200, 'pay-per-use follows before Apr 20, 2026');
});

test('Apr 20, 2026: likes and follows removed from all self-serve tiers; enterprise keeps them', async () => {
  clock.set(new Date('2026-04-20T00:00:00.000Z'));
  for (const tier of ['free', 'basic', 'pro', 'pay-per-use'] as const) {
    await g.setTier('selfServe', tier);
    assert.equal((await like('ada', plaza.creds.sample.post_ids[3])).status, 403, tier);
    assert.equal((await follow('ada', 'dana')).status, 403, tier);
  }
  const enterprise = await g.enterpriseAs('ada');
  const liked = await g.send('POST', `/2/users/${g.user('ada').id}/likes`, { auth: enterprise, body: { post_id: plaza.creds.sample.post_ids[3] } });
  assert.equal(liked.status, 200);
});

test('the tier table: 2023 removals (follows, list-follows, manage-blocks) apply on every date; the dated ones from their day', () => {
  const early = new Date('2025-01-01T00:00:00Z');
  assert.equal(tierRefuses('follows', 'pro', early), true);
  assert.equal(tierRefuses('follows', 'pay-per-use', early), false);
  assert.equal(tierRefuses('listFollows', 'basic', early), true);
  assert.equal(tierRefuses('manageBlocks', 'free', early), true);
  assert.equal(tierRefuses('manageBlocks', 'enterprise', early), false);
  assert.equal(tierRefuses('manageLikes', 'free', early), false);
  assert.equal(tierRefuses('manageLikes', 'free', new Date('2025-08-22T00:00:00Z')), true);
  assert.equal(tierRefuses('manageLikes', 'pro', new Date('2026-04-19T23:59:59Z')), false);
  assert.equal(tierRefuses('manageLikes', 'pro', new Date('2026-04-20T00:00:00Z')), true);
  assert.equal(tierRefuses('manageLikes', 'enterprise', new Date('2030-01-01T00:00:00Z')), false);
});
