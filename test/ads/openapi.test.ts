import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, after, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { creativesKit, lineItemQuery, startAdsPlaza, type AdsKit } from './support.js';

/**
 * Issue #38 "Described": the ads listeners serve GET /12/openapi.json, generated from the route
 * declarations that validate the requests; the committed copy (openapi/ads.json) is checked for
 * drift as openapi/platform.json is.
 */
let k: AdsKit;
let production: any;
let sandbox: any;
let account: string;

before(async () => {
  k = await startAdsPlaza();
  production = (await (await fetch(`${k.plaza.urls.ads_url}/12/openapi.json`)).json()) as any;
  sandbox = (await (await fetch(`${k.plaza.urls.ads_sandbox_url}/12/openapi.json`)).json()) as any;
  account = (await k.sandboxSetup('ada')).account;
});
after(() => k.plaza.close());

test('the served description equals the committed openapi/ads.json (run `npm run openapi:write` after changing an ads route)', () => {
  const committed = JSON.parse(fs.readFileSync(new URL('../../openapi/ads.json', import.meta.url), 'utf8'));
  assert.deepEqual(production, committed);
});

test('every declared route is an operation, with its path variables and every declared parameter (required as declared, enumerations and ranges from the declaration)', () => {
  assert.equal(production.openapi, '3.1.0');
  const posts = production.paths['/12/accounts/{account_id}/posts'].get;
  const param = (op: any, name: string) => op.parameters.find((p: any) => p.name === name);
  assert.deepEqual(param(posts, 'account_id'), { name: 'account_id', in: 'path', required: true, schema: { type: 'string' } });
  assert.deepEqual(param(posts, 'post_type'), { name: 'post_type', in: 'query', required: true, schema: { type: 'string', enum: ['DRAFT', 'PUBLISHED', 'SCHEDULED'] } });
  assert.deepEqual(param(posts, 'count').schema, { type: 'integer', minimum: 1, maximum: 1000, default: 200 });
  assert.equal(param(posts, 'count').required, false, 'a parameter with a default is not required');
  const promoted = production.paths['/12/accounts/{account_id}/promoted_posts'].post;
  assert.deepEqual(param(promoted, 'post_ids').schema, { type: 'array', items: { type: 'string', pattern: '^[0-9]{1,19}$' }, minItems: 1, maxItems: 50 });
  assert.equal(param(promoted, 'post_ids').explode, false, 'lists are comma-separated');
  // Sandbox-only operations: described on both, answered 405 on production.
  const create = production.paths['/12/accounts'].post;
  assert.ok(create.responses['405'] && !create.responses['200']);
  assert.ok(sandbox.paths['/12/accounts'].post.responses['200']);
  const operations = Object.values<any>(production.paths).flatMap((ops) => Object.values<any>(ops));
  assert.equal(new Set(operations.map((op) => op.operationId)).size, operations.length, 'operation ids are unique');
  assert.ok(operations.length > 100, `${operations.length} operations`);
});

/** The ids a by-id path takes, read from its list's first entity. */
const idOf = (variable: string, entity: Record<string, unknown>) => String(variable === 'media_key' ? entity.media_key : entity.id);

/** Lists that may answer none in this fixture, and why; every other list must hold an entity to sample. */
const MAY_BE_EMPTY: Record<string, string> = {
  '/12/accounts/{account_id}/account_apps': 'sandbox accounts have no apps (the seeded ones are on production accounts; sampled there below)',
  '/12/accounts/{account_id}/custom_audiences/{custom_audience_id}/targeted': 'a line item can target an audience only once it matches 3 users; the fixture audience matches none',
  '/12/stats/accounts/{account_id}/active_entities': 'sandbox accounts deliver nothing (only production accounts do: test/ads/analytics.test.ts)',
};
/** GET operations that cannot be sampled, and why (none today). */
const NOT_SAMPLED: Record<string, string> = {};

/** What each GET with required parameters (or a value chosen over the first enumerated one) is asked with. */
function queryOf(path: string, f: Fixture): Record<string, string> {
  const now = k.clock.now().getTime();
  const hour = Math.floor(now / 3_600_000) * 3_600_000;
  const queries: Record<string, Record<string, string>> = {
    '/12/accounts/{account_id}/targeting_criteria': { line_item_ids: f.lineItem },
    '/12/accounts/{account_id}/posts': { post_type: 'PUBLISHED' },
    '/12/accounts/{account_id}/curated_categories': { country_codes: 'US' },
    '/12/accounts/{account_id}/account_history': {
      entity_type: 'CAMPAIGN',
      entity_id: f.campaign,
      start_time: new Date(hour - 3_600_000).toISOString(),
      end_time: new Date(hour + 3_600_000).toISOString(),
    },
    '/12/insights/keywords/search': { granularity: 'DAY', keywords: 'described', start_time: new Date(now - 2 * 86_400_000).toISOString() },
    '/12/stats/accounts/{account_id}': {
      entity: 'CAMPAIGN',
      entity_ids: f.campaign,
      start_time: new Date(hour).toISOString(),
      end_time: new Date(hour + 3 * 3_600_000).toISOString(),
      granularity: 'HOUR',
      metric_groups: 'ENGAGEMENT,BILLING,VIDEO',
      placement: 'ALL_ON_PLATFORM',
    },
    '/12/stats/accounts/{account_id}/active_entities': { entity: 'LINE_ITEM', start_time: new Date(hour).toISOString(), end_time: new Date(hour + 3_600_000).toISOString() },
  };
  return queries[path] ?? {};
}

interface Fixture {
  account: string;
  campaign: string;
  lineItem: string;
}

/** One entity of every kind, made through the interface on the sandbox listener. */
async function makeFixture(): Promise<Fixture> {
  const s = await k.sandboxSetup('ada');
  const ada = k.user('ada').id;
  const c = creativesKit(k);
  const ok = async (res: Promise<{ status: number; text: string; body: any }>) => {
    const r = await res;
    assert.equal(r.status, 200, r.text);
    return r.body.data;
  };
  const post = (path: string, query: ReturnType<typeof lineItemQuery>) => ok(k.sandbox.post(`/12/accounts/${s.account}${path}`, { query }));
  const postJson = (path: string, json: unknown) => ok(k.sandbox.post(`/12/accounts/${s.account}${path}`, { json }));
  const campaign = async (name: string) => (await post('/campaigns', { funding_instrument_id: s.fundingInstrument, name, daily_budget_amount_local_micro: 1_000_000 })).id as string;
  await post('/features', { feature_keys: 'ACCOUNT_HISTORY,SHARE_AUDIENCE_OUTSIDE_BUSINESS' });

  const lineItem = (await post('/line_items', lineItemQuery(s.campaign))).id as string;
  await post('/targeting_criteria', { line_item_id: lineItem, targeting_type: 'LOCATION', targeting_value: 'US' });
  const made = await post('/post', { as_user_id: ada, text: 'Described #plaza $PLZ @bob https://example.com/described' });
  await post('/promoted_posts', { line_item_id: lineItem, post_ids: made.id });
  const follow = await post('/line_items', lineItemQuery(await campaign('follow'), { product_type: 'PROMOTED_ACCOUNT', objective: 'FOLLOWERS', placements: 'PLATFORM_TIMELINE' }));
  await post('/promoted_accounts', { line_item_id: follow.id, user_id: ada });

  const image = await c.inLibrary(s.account, 'image');
  const video = await c.inLibrary(s.account, 'video');
  await c.inLibrary(s.account, 'gif');
  await c.inLibrary(s.account, 'promo');
  const preroll = (await ok(k.sandbox.get(`/12/accounts/${s.account}/account_media`)))[0].id;
  const media = await post(
    '/line_items',
    lineItemQuery(await campaign('media'), { product_type: 'MEDIA', objective: 'VIDEO_VIEWS', placements: 'PUBLISHER_NETWORK', advertiser_domain: 'example.com', categories: 'IAB1' }),
  );
  await post('/media_creatives', { account_media_id: preroll, line_item_id: media.id });
  const prerollViews = await post('/line_items', lineItemQuery(await campaign('preroll'), { product_type: 'MEDIA', objective: 'PREROLL_VIEWS', placements: 'ALL_ON_PLATFORM', categories: 'IAB20' }));
  await post('/targeting_criteria', { line_item_id: prerollViews.id, targeting_type: 'LOCATION', targeting_value: 'US' });
  await post('/line_item_curated_categories', { line_item_id: prerollViews.id, curated_category_id: '929wbl6ymlfk' });

  const details = (title: string) => ({ type: 'DETAILS', title, destination: { type: 'WEBSITE', url: 'https://example.com' } });
  await postJson('/cards', { name: 'one', components: [{ type: 'MEDIA', media_key: video }, details('Watch')] });
  await postJson('/cards', { name: 'slides', slides: [[{ type: 'MEDIA', media_key: image }, details('First')], [{ type: 'MEDIA', media_key: video }, details('Second')]] });
  await post('/cards/poll', { name: 'poll', duration_in_minutes: 60, first_choice: 'Yes', second_choice: 'No', media_key: video });
  await post('/cards/video_conversation', { name: 'talk', first_cta: '#yes', first_cta_post: 'Yes!', second_cta: '#no', second_cta_post: 'No.', thank_you_text: 'Thanks', media_key: video });

  await post('/scheduled_posts', { as_user_id: ada, text: 'Later', scheduled_at: new Date(k.clock.now().getTime() + 86_400_000).toISOString() });
  await post('/draft_posts', { as_user_id: ada, text: 'Draft' });

  const audience = await post('/custom_audiences', { name: 'Described' });
  const other = (await k.sandboxSetup('ada')).account;
  await ok(k.sandbox.post(`/5/accounts/${s.account}/tailored_audiences/${audience.id}/permissions`, { query: { granted_account_id: other, permission_level: 'READ_ONLY' } }));
  await post('/do_not_reach_lists', { name: 'Never' });

  const catalog = await ok(k.sandbox.post('/12/product_catalogs', { query: { name: 'Shop' } }));
  const product = { id: 'sku-1', title: 'Lamp', description: 'A lamp.', availability: 'in stock', condition: 'new', price: '19.99 USD', link: 'https://shop.example/lamp', image_link: 'https://cdn.example/lamp.png', brand: 'Acme', inventory: 3 };
  await ok(k.sandbox.put(`/12/product_catalogs/${catalog.id}/products`, { json: { products: [product] } }));
  const hour = Math.floor(k.clock.now().getTime() / 3_600_000) * 3_600_000;
  await ok(
    k.sandbox.post(`/12/stats/jobs/accounts/${s.account}`, {
      query: { entity: 'LINE_ITEM', entity_ids: lineItem, start_time: new Date(hour).toISOString(), end_time: new Date(hour + 86_400_000).toISOString(), granularity: 'DAY', metric_groups: 'ENGAGEMENT', placement: 'ALL_ON_PLATFORM' },
    }),
  );
  await ok(k.sandbox.post(`/12/product_catalogs/${catalog.id}/product_sets`, { json: { name: 'Acme', type: 'FILTERED', filters: [{ attribute: 'brand', operator: 'EQUALS', value: 'Acme' }] } }));
  return { account: s.account, campaign: s.campaign, lineItem };
}

test('a sample answer of every GET operation validates against the description: lists first, each by-id path with an id from its list', async () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // Each operation's answer schema, its references resolved within the description's components.
  const answerOf = (op: any) => ajv.compile({ ...op.responses['200'].content['application/json'].schema, components: sandbox.components });
  const f = await makeFixture();
  const gets = Object.entries<any>(sandbox.paths)
    .filter(([, ops]) => ops.get)
    .map(([path]) => path)
    // Lists before the by-id paths below them.
    .sort((a, b) => a.split('{').length - b.split('{').length || a.length - b.length);
  const answers = new Map<string, any>();
  const sampled: string[] = [];
  const check = (path: string, op: any, body: any) => {
    const valid = answerOf(op);
    assert.ok(valid(body), `${path}: ${JSON.stringify(valid.errors?.slice(0, 5))}\n${JSON.stringify(body).slice(0, 2000)}`);
  };
  for (const path of gets) {
    if (NOT_SAMPLED[path]) continue;
    const op = sandbox.paths[path].get;
    let url = path;
    for (const [, variable] of path.matchAll(/\{([a-z_]+)\}/g)) {
      let value = f.account;
      if (variable !== 'account_id') {
        // The list this id comes from: the path up to the variable (a tailored audience is a custom audience).
        const list = path.slice(0, path.indexOf(`{${variable}}`) - 1).replace('/5/', '/12/').replace('tailored_audiences', 'custom_audiences');
        const first = answers.get(list)?.data?.[0];
        assert.ok(first, `${path}: ${list} answered no entity to take ${variable} from`);
        value = idOf(variable, first);
      }
      url = url.replace(`{${variable}}`, value);
    }
    const res = await k.sandbox.get(url, { query: queryOf(path, f) });
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    check(path, op, res.body);
    if (Array.isArray(res.body.data) && res.body.data.length === 0) assert.ok(MAY_BE_EMPTY[path], `${path} answered an empty list`);
    answers.set(path, res.body);
    sampled.push(path);
  }
  assert.equal(sampled.length + Object.keys(NOT_SAMPLED).length, gets.length, 'every GET operation is sampled or named as not');
  assert.ok(gets.length >= 56, `${gets.length} GET operations`);

  // The other forms of some answers: scheduled and draft posts in GET posts, an account's seeded apps.
  const posts = sandbox.paths['/12/accounts/{account_id}/posts'].get;
  for (const post_type of ['SCHEDULED', 'DRAFT']) {
    const res = await k.sandbox.get(`/12/accounts/${f.account}/posts`, { query: { post_type } });
    assert.equal(res.body.data.length, 1, res.text);
    check(`posts ${post_type}`, posts, res.body);
  }
  check('trimmed', posts, (await k.sandbox.get(`/12/accounts/${f.account}/posts`, { query: { post_type: 'PUBLISHED', trim_user: 'true' } })).body);
  const apps = await k.ads.get(`/12/accounts/${k.accountOf('ada')}/account_apps`);
  assert.ok(apps.body.data.length > 0, apps.text);
  check('production account_apps', production.paths['/12/accounts/{account_id}/account_apps'].get, apps.body);
  const history = answers.get('/12/accounts/{account_id}/account_history');
  assert.ok(history.data.length > 0, 'the fixture campaign has its CREATE in the history');
});

test('entities are declared once and closed: an answer with a field the declaration lacks, or without one it names, does not validate', async () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const campaignSchema = sandbox.components.schemas.Campaign;
  assert.equal(campaignSchema.additionalProperties, false);
  const valid = ajv.compile({ ...campaignSchema, components: sandbox.components });
  const list = await k.sandbox.get(`/12/accounts/${account}/campaigns`);
  const campaign: Record<string, unknown> = (list.body.data as Array<Record<string, unknown>>)[0]!;
  assert.ok(valid(campaign), JSON.stringify(valid.errors));
  assert.equal(valid({ ...campaign, surprise: 1 }), false);
  const { servable: _s, ...without } = campaign;
  assert.equal(valid(without), false);
  const get = sandbox.paths['/12/accounts/{account_id}/campaigns/{campaign_id}'].get;
  const one = await k.sandbox.get(`/12/accounts/${account}/campaigns/${campaign.id}`);
  const answer = ajv.compile({ ...get.responses['200'].content['application/json'].schema, components: sandbox.components });
  assert.ok(answer(one.body), JSON.stringify(answer.errors));
});
