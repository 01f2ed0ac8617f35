import { worldCredential } from '../worlds/tags.js';
import { adsAccountIdsOf, seedAdsDemo } from '../ads/seed.js';
import type { PlatformContext } from '../platform/context.js';
import { currentAppBearerToken, issueAppBearerToken, issueOAuth1AccessToken, issueOAuth2Tokens } from '../auth/issue.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { hashToken } from '../auth/tokens.js';
import { recordFollow } from '../platform/follows/service.js';
import { seedGraphDemo } from '../platform/graph/demo.js';
import { seedPostsDemo } from '../platform/posts/demo.js';
import { userEntities } from '../platform/users/profile.js';
import { seedNewsAndNotesDemo } from '../platform/news/demo.js';
import { newPostRow, recordPost } from '../platform/posts/build.js';
import type { PostRow } from '../platform/posts/wire.js';
import { alphanumeric } from '../store/ids.js';
import type { AppTable, Tier, UserTable } from '../store/schema.js';
import { toJson, type DbOrTx } from '../store/store.js';
import type { AppTokens, CredentialsFile } from './credentials.js';

/** Which apps and users form the demo workspace, and its sample posts. No secrets. */
interface DemoWorkspace {
  app_ids: string[];
  user_ids: string[];
  sample: { post_ids: string[]; media_keys: string[] };
}

const DEMO_KEY = 'demo_workspace';
/**
 * The password hash of each demo user when the credentials file was last written with their
 * password: while a user's hash is unchanged, the password the file holds is still theirs, and a
 * restart need not check it again (scrypt is slow by design, and its memory stays with the
 * process). The hashes are the users table's own; nothing secret is added.
 */
const PASSWORDS_KEY = 'demo_password_hashes_written';

async function writtenPasswordHashes(db: DbOrTx): Promise<Record<string, string>> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', PASSWORDS_KEY).executeTakeFirst();
  return row ? (JSON.parse(row.value) as Record<string, string>) : {};
}

async function recordPasswordHashes(db: DbOrTx, hashes: Record<string, string>): Promise<void> {
  const value = toJson(hashes);
  await db.insertInto('settings').values({ key: PASSWORDS_KEY, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
}
export const DEMO_SCOPES = [
  'post.read', 'post.write', 'users.read', 'users.email', 'follows.read', 'follows.write', 'like.read', 'like.write', 'offline.access',
  'bookmark.read', 'bookmark.write', 'block.read', 'block.write', 'mute.read', 'mute.write', 'list.read', 'list.write', 'dm.read', 'dm.write', 'space.read',
  'post.moderate.write', 'media.write', 'timeline.read',
];
const demoPassword = (username: string) => `plaza-${username}-demo`;

interface DemoUser {
  username: string;
  name: string;
  description: string;
  protected?: boolean;
  verified_type?: 'blue' | 'business' | 'government';
  subscription_type?: 'Basic' | 'Premium' | 'PremiumPlus';
  location?: string;
  url?: string;
}

const USERS: DemoUser[] = [
  { username: 'ada', name: 'Ada Example', description: 'Writes about #engineering and pays for Premium.', verified_type: 'blue', subscription_type: 'Premium', location: 'London' },
  { username: 'bruno', name: 'Bruno Private', description: 'Protected account: approved followers only.', protected: true },
  { username: 'plazanews', name: 'Plaza News', description: 'Verified organisation posting news. https://example.com', verified_type: 'business', url: 'https://example.com' },
  { username: 'chen', name: 'Chen Affiliate', description: 'Works at @plazanews.' },
  { username: 'dana', name: 'Dana Reader', description: 'Mostly reads, sometimes quotes.' },
];

export async function demoWorkspace(db: DbOrTx): Promise<DemoWorkspace | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', DEMO_KEY).executeTakeFirst();
  return row ? (JSON.parse(row.value) as DemoWorkspace) : undefined;
}

/**
 * Creates the demo workspace in one transaction and returns its plaintext secrets. `minimal`: the
 * first app and the first user only, with nothing else (the seed of an "empty" world, issue #36).
 */
export async function seedDemo(ctx: PlatformContext, options: { minimal?: boolean } = {}): Promise<CredentialsFile> {
  return ctx.store.db.transaction().execute(async (tx) => {
    const now = ctx.clock.now();
    const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000);
    const apps = [];
    const demoApps: Array<[string, Tier]> = [['Plaza Demo', 'pro'], ['Plaza Enterprise Demo', 'enterprise']];
    for (const [name, tier] of options.minimal ? demoApps.slice(0, 1) : demoApps) {
      const app = {
        id: ctx.ids.next(),
        name,
        tier,
        owner_user_id: null,
        consumer_key: worldCredential(ctx, alphanumeric(25)),
        consumer_secret: alphanumeric(50),
        client_id: worldCredential(ctx, alphanumeric(34)),
        client_secret: alphanumeric(50),
        callback_urls: toJson(['http://127.0.0.1:5173/callback', 'oob']),
        sign_in_enabled: 1,
        // Plaza's names, as the specs write them; `plaza apps --dialect tweet` switches an app to the public platform's.
        dialect: 'post' as const,
        created_at: now.toISOString(),
      };
      await tx.insertInto('apps').values(app).execute();
      apps.push({ ...app, bearer_token: await issueAppBearerToken(ctx, tx, app.id) });
    }

    const users: UserTable[] = [];
    for (const [i, u] of (options.minimal ? USERS.slice(0, 1) : USERS).entries()) {
      const row: UserTable = {
        id: ctx.ids.next(),
        username: u.username,
        username_lower: u.username.toLowerCase(),
        name: u.name,
        password_hash: await hashPassword(demoPassword(u.username)),
        email: `${u.username}@plaza.example`,
        email_confirmed: 1,
        created_at: at(60 * 24 * (400 - i * 30)).toISOString(),
        description: u.description,
        location: u.location ?? null,
        url: u.url ?? null,
        profile_image_url: `https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png`,
        profile_banner_url: null,
        protected: u.protected ? 1 : 0,
        verified: u.verified_type ? 1 : 0,
        verified_type: u.verified_type ?? 'none',
        subscription_type: u.subscription_type ?? 'None',
        parody: 0,
        is_identity_verified: u.verified_type === 'blue' ? 1 : 0,
        pinned_post_id: null,
        most_recent_post_id: null,
        affiliation: null,
        // Links, mentions and hashtags of the description and url, as a profile update writes them.
        entities: userEntities(u.description, u.url ?? null),
        withheld: null,
        followers_count: 0,
        following_count: 0,
        post_count: 0,
        listed_count: 0,
        like_count: 0,
        media_count: 0,
      };
      await tx.insertInto('users').values(row).execute();
      users.push(row);
    }
    const [ada, bruno, news, chen, dana] = users;
    // The demo apps belong to the first demo user, who sees and edits them in the developer console.
    await tx.updateTable('apps').set({ owner_user_id: ada.id }).where('id', 'in', apps.map((a) => a.id)).execute();
    if (options.minimal) return recordWorkspace(ctx, tx, apps, users, { post_ids: [], media_keys: [] }, new Map());
    await tx
      .updateTable('users')
      .set({ affiliation: toJson({ description: 'Plaza News', user_id: [news.id] }) })
      .where('id', '=', chen.id)
      .execute();

    const follow = async (source: UserTable, target: UserTable) => {
      await recordFollow(ctx, tx, source.id, target.id);
    };
    await follow(ada, bruno);
    await follow(bruno, ada);
    await follow(chen, news);
    await follow(dana, ada);
    await follow(dana, news);
    await follow(ada, news);

    const mediaKeys: string[] = [];
    for (const m of [
      { type: 'photo' as const, width: 1200, height: 800, mime: 'image/jpeg', duration: null, alt: 'A plaza at dusk' },
      { type: 'video' as const, width: 1280, height: 720, mime: 'video/mp4', duration: 12_000, alt: null },
    ]) {
      const id = ctx.ids.next();
      const key = `${m.type === 'photo' ? 3 : 7}_${id}`;
      await tx
        .insertInto('media')
        .values({
          media_key: key, id, owner_user_id: ada.id, type: m.type, url: null, preview_image_url: null,
          width: m.width, height: m.height, duration_ms: m.duration, alt_text: m.alt, view_count: m.type === 'video' ? 1234 : 0,
          variants: '[]', mime_type: m.mime, size_bytes: 0, file_path: null, created_at: at(90).toISOString(),
        })
        .execute();
      mediaKeys.push(key);
    }

    const post = async (author: UserTable, minutesAgo: number, text: string, extra: Partial<Parameters<typeof newPostRow>[1]> = {}): Promise<PostRow> => {
      const row = newPostRow(ctx.ids.next(), { authorId: author.id, text, createdAt: at(minutesAgo), ...extra });
      await recordPost(ctx, tx, row);
      return row;
    };
    const withMedia = await post(ada, 90, 'Evening at the plaza, photo and a short clip. #plaza', { mediaKeys });
    const announcement = await post(news, 80, 'Plaza is live: a self-hosted platform for @ada and everyone else. Read more https://example.com/plaza $PLZ #launch');
    const reply = await post(chen, 70, '@plazanews congratulations on the launch!', { replyTo: announcement });
    const quote = await post(dana, 60, 'This is the photo I was talking about.', { quoteOf: withMedia });
    const privatePost = await post(bruno, 50, 'Only my approved followers can read this.');
    await post(ada, 20, 'Edits are allowed within the hour for Premium subscribers.', { paidPartnership: true });
    await tx.updateTable('users').set({ pinned_post_id: withMedia.id }).where('id', '=', ada.id).execute();
    await seedGraphDemo(ctx, tx);
    const written = await seedPostsDemo(ctx, tx, { withMedia, announcement });
    const adsAccounts = await seedAdsDemo(ctx, tx, users);
    await seedNewsAndNotesDemo(ctx, tx, users);

    const sample = { post_ids: [withMedia.id, reply.id, quote.id, announcement.id, privatePost.id, ...written.post_ids], media_keys: [...mediaKeys, ...written.media_keys] };
    return recordWorkspace(ctx, tx, apps, users, sample, adsAccounts);
  });
}

/** Records which apps and users form the workspace, mints their tokens, and answers the credentials. */
async function recordWorkspace(
  ctx: PlatformContext,
  tx: DbOrTx,
  apps: Array<AppTable & { bearer_token: string }>,
  users: UserTable[],
  sample: DemoWorkspace['sample'],
  adsAccounts: Map<string, string[]>,
): Promise<CredentialsFile> {
  const workspace: DemoWorkspace = { app_ids: apps.map((a) => a.id), user_ids: users.map((u) => u.id), sample };
  await tx.insertInto('settings').values({ key: DEMO_KEY, value: toJson(workspace) }).execute();
  await recordPasswordHashes(tx, Object.fromEntries(users.map((u) => [u.id, u.password_hash!])));
  const userCredentials = [];
  for (const u of users) {
    const tokens: AppTokens[] = [];
    for (const app of apps) tokens.push(await appTokens(ctx, tx, app.id, u.id, undefined));
    userCredentials.push(userEntry(u, demoPassword(u.username), tokens, adsAccounts.get(u.id) ?? []));
  }
  await recordMinted(ctx, tx);
  return {
    base_url: '',
    ads_url: '',
    ads_sandbox_url: '',
    apps: apps.map((a) => ({
      id: a.id, name: a.name, tier: a.tier, consumer_key: a.consumer_key, consumer_secret: a.consumer_secret,
      bearer_token: a.bearer_token, client_id: a.client_id, client_secret: a.client_secret, callback_urls: JSON.parse(a.callback_urls), dialect: a.dialect,
    })),
    users: userCredentials,
    sample: workspace.sample,
  };
}

/**
 * On a later start: the demo workspace's credentials again. Secrets the store keeps only as
 * hashes are taken from the previous file when they still verify, and issued anew otherwise.
 * Undefined, and nothing issued, when no file of this workspace is given and the store's demo
 * tokens were minted before: that file belongs to the process that seeded.
 */
export async function demoCredentials(ctx: PlatformContext, workspace: DemoWorkspace, given: CredentialsFile | undefined): Promise<CredentialsFile | undefined> {
  // A file that is not this workspace's (another store's) is no file at all.
  const previous = given && workspace.app_ids.every((id) => given.apps.some((a) => a.id === id)) ? given : undefined;
  return ctx.store.db.transaction().execute(async (tx) => {
    // Minting on start happens once per store: a process given no file of this workspace (a second
    // process on the same PostgreSQL store, say) writes none rather than minting fresh tokens.
    if (!previous && (await mintedAt(tx))) return undefined;
    await tx.updateTable('apps').set({ owner_user_id: workspace.user_ids[0] }).where('id', 'in', workspace.app_ids).where('owner_user_id', 'is', null).execute();
    // The file's order is part of its contract (apps[0] is the self-serve app): keep the seed's order.
    const byPosition = <T extends { id: string }>(rows: T[], order: string[]) => rows.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
    const apps = byPosition(await tx.selectFrom('apps').selectAll().where('id', 'in', workspace.app_ids).execute(), workspace.app_ids);
    const users = byPosition(await tx.selectFrom('users').selectAll().where('id', 'in', workspace.user_ids).execute(), workspace.user_ids);
    const appCredentials = [];
    for (const app of apps) {
      const old = previous?.apps.find((a) => a.id === app.id)?.bearer_token;
      const live = old
        ? await tx.selectFrom('app_bearer_tokens').select('app_id').where('token_hash', '=', hashToken(old)).where('app_id', '=', app.id).where('invalidated_at', 'is', null).executeTakeFirst()
        : undefined;
      appCredentials.push({
        id: app.id, name: app.name, tier: app.tier, consumer_key: app.consumer_key, consumer_secret: app.consumer_secret,
        bearer_token: live ? old! : ((await currentAppBearerToken(ctx, tx, app.id)) ?? (await issueAppBearerToken(ctx, tx, app.id))),
        client_id: app.client_id, client_secret: app.client_secret, callback_urls: JSON.parse(app.callback_urls) as string[], dialect: app.dialect,
      });
    }
    const userCredentials = [];
    const checked = await writtenPasswordHashes(tx);
    const written: Record<string, string> = {};
    for (const user of users) {
      const old = previous?.users.find((u) => u.id === user.id);
      const tokens: AppTokens[] = [];
      for (const [i, app] of apps.entries()) {
        // Files written before `tokens` existed hold apps[0]'s tokens at the top level only.
        const given = old?.tokens?.find((t) => t.app_id === app.id) ?? (i === 0 && old ? { app_id: app.id, ...old } : undefined);
        tokens.push(await appTokens(ctx, tx, app.id, user.id, given));
      }
      let password = old?.password && user.password_hash && checked[user.id] === user.password_hash ? old.password : '';
      const candidates = [old?.password, demoPassword(user.username)].filter((p): p is string => !!p);
      if (!password) for (const candidate of candidates) if (await verifyPassword(candidate, user.password_hash)) { password = candidate; break; }
      if (password && user.password_hash) written[user.id] = user.password_hash;
      userCredentials.push(userEntry(user, password, tokens, await adsAccountIdsOf(tx, user.id)));
    }
    await recordPasswordHashes(tx, written);
    if (!(await mintedAt(tx))) await recordMinted(ctx, tx);
    return { base_url: '', ads_url: '', ads_sandbox_url: '', apps: appCredentials, users: userCredentials, sample: workspace.sample };
  });
}

/** Records that this store's demo tokens were minted: later starts reuse a file, never mint again without one. */
const MINTED_KEY = 'demo_tokens_minted';

async function mintedAt(db: DbOrTx): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', MINTED_KEY).executeTakeFirst();
  return row ? (JSON.parse(row.value) as { at: string }).at : undefined;
}

async function recordMinted(ctx: PlatformContext, db: DbOrTx): Promise<void> {
  const value = toJson({ at: ctx.clock.now().toISOString() });
  await db.insertInto('settings').values({ key: MINTED_KEY, value }).onConflict((oc) => oc.column('key').doNothing()).execute();
}

/** A user's entry of the file: apps[0]'s tokens at the top level (the file's original keys), every app's in `tokens`. */
function userEntry(user: { id: string; username: string }, password: string, tokens: AppTokens[], adsAccountIds: string[]): CredentialsFile['users'][number] {
  const { app_id: _first, ...top } = tokens[0];
  return { id: user.id, username: user.username, password, ...top, tokens, ads_account_ids: adsAccountIds };
}

/**
 * A demo user's tokens for one demo app: the live OAuth 1.0a token the store holds (or a new one),
 * and the OAuth 2.0 pair `given` names while both still verify (or a new pair: the store keeps
 * only their hashes).
 */
async function appTokens(ctx: PlatformContext, tx: DbOrTx, appId: string, userId: string, given: Partial<AppTokens> | undefined): Promise<AppTokens> {
  const now = ctx.clock.now().toISOString();
  const stored = await tx
    .selectFrom('oauth1_tokens')
    .select(['token', 'secret'])
    .where('app_id', '=', appId)
    .where('user_id', '=', userId)
    .where('invalidated_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  const oauth1 = stored ?? (await issueOAuth1AccessToken(ctx, tx, appId, userId, 'read-write-directmessages'));
  const live = async (token: string | undefined, kind: 'access' | 'refresh') =>
    token
      ? (await tx
          .selectFrom('oauth2_tokens')
          .select('token_hash')
          .where('token_hash', '=', hashToken(token))
          .where('kind', '=', kind)
          .where('app_id', '=', appId)
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null)
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
          .executeTakeFirst()) !== undefined
      : false;
  let access = given?.oauth2_access_token;
  let refresh = given?.oauth2_refresh_token;
  if (!(await live(access, 'access')) || !(await live(refresh, 'refresh'))) {
    const issued = await issueOAuth2Tokens(ctx, tx, appId, userId, DEMO_SCOPES);
    access = issued.accessToken;
    refresh = issued.refreshToken;
  }
  return { app_id: appId, access_token: oauth1.token, access_token_secret: oauth1.secret, oauth2_access_token: access!, oauth2_refresh_token: refresh! };
}

/**
 * The demo workspace of a world copied from another store (a seed template, a snapshot file): new
 * keys for every app and new tokens for the workspace, so the copy's credentials are its own and
 * name its world (src/worlds/tags.ts). Every credential the copy held is gone: app keys replaced,
 * tokens, grants, codes, request tokens and browser sessions deleted. `given` is the copied store's
 * credentials, for the passwords it holds (checked as demoCredentials checks them).
 */
export async function rekeyDemoWorkspace(ctx: PlatformContext, given: CredentialsFile | undefined): Promise<CredentialsFile> {
  const workspace = await demoWorkspace(ctx.store.db);
  if (!workspace) throw new Error('the copied store holds no demo workspace');
  await ctx.store.db.transaction().execute(async (tx) => {
    for (const { id } of await tx.selectFrom('apps').select('id').execute()) {
      await tx
        .updateTable('apps')
        .set({ consumer_key: worldCredential(ctx, alphanumeric(25)), consumer_secret: alphanumeric(50), client_id: worldCredential(ctx, alphanumeric(34)), client_secret: alphanumeric(50) })
        .where('id', '=', id)
        .execute();
    }
    for (const table of ['app_bearer_derivations', 'app_bearer_tokens', 'oauth1_tokens', 'oauth2_grant_tokens', 'oauth2_codes', 'oauth2_tokens', 'oauth2_grants', 'oauth1_request_tokens', 'oauth_nonces', 'web_sessions'] as const) {
      await tx.deleteFrom(table).execute();
    }
    await tx.deleteFrom('settings').where('key', '=', MINTED_KEY).execute();
  });
  const credentials = await demoCredentials(ctx, workspace, given);
  if (!credentials) throw new Error('the copied workspace was not minted anew');
  return credentials;
}
