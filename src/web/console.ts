import { worldCredential } from '../worlds/tags.js';
import { invalidateBearersOfApp, findLatestOAuth1Token } from '../auth/flows/store.js';
import { currentAppBearerToken, issueAppBearerToken, issueOAuth1AccessToken } from '../auth/issue.js';
import type { AppRow, UserRow } from '../auth/store.js';
import type { PlatformContext } from '../platform/context.js';
import { alphanumeric } from '../store/ids.js';
import type { AppDialect, Tier } from '../store/schema.js';
import { fromJson, toJson } from '../store/store.js';

/** The developer console's rules: a person's apps, their settings, keys and tokens. */

export const TIERS: Tier[] = ['free', 'basic', 'pro', 'enterprise', 'pay-per-use'];
export const DIALECTS: AppDialect[] = ['post', 'tweet'];
export const MAX_CALLBACK_URLS = 10;
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:']);

export interface AppSettings {
  name: string;
  tier: string;
  callbackUrls: string;
  signInEnabled: boolean;
  dialect: string;
}

export type SettingsErrors = Partial<Record<'name' | 'tier' | 'callback_urls' | 'dialect', string>>;

interface ValidSettings {
  name: string;
  tier: Tier;
  callbackUrls: string[];
  signInEnabled: boolean;
  dialect: AppDialect;
}

/** One URL per line: absolute, no fragment, not a script or data URL; at most ten. */
export function validateSettings(input: AppSettings): { ok: true; value: ValidSettings } | { ok: false; errors: SettingsErrors } {
  const errors: SettingsErrors = {};
  const name = input.name.trim();
  if (name.length < 1 || name.length > 50) errors.name = 'An app name has 1 to 50 characters.';
  if (!TIERS.includes(input.tier as Tier)) errors.tier = `Choose one of ${TIERS.join(', ')}.`;
  if (!DIALECTS.includes(input.dialect as AppDialect)) errors.dialect = `Choose one of ${DIALECTS.join(', ')}.`;
  const urls = [...new Set(input.callbackUrls.split(/\r?\n/).map((l) => l.trim()).filter(Boolean))];
  if (urls.length > MAX_CALLBACK_URLS) errors.callback_urls = `An app has at most ${MAX_CALLBACK_URLS} callback URLs.`;
  for (const url of urls) {
    if (errors.callback_urls) break;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      errors.callback_urls = `"${url}" is not an absolute URL.`;
      break;
    }
    if (FORBIDDEN_SCHEMES.has(parsed.protocol)) errors.callback_urls = `"${url}" uses a scheme that cannot be a callback.`;
    else if (parsed.hash) errors.callback_urls = `"${url}" has a fragment (#…), which a callback URL cannot have.`;
    else if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && !parsed.hostname) errors.callback_urls = `"${url}" has no host.`;
    else if (url.length > 1000) errors.callback_urls = 'A callback URL has at most 1,000 characters.';
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { name, tier: input.tier as Tier, callbackUrls: urls, signInEnabled: input.signInEnabled, dialect: input.dialect as AppDialect } };
}

export async function appsOf(ctx: PlatformContext, owner: UserRow): Promise<AppRow[]> {
  return ctx.store.db.selectFrom('apps').selectAll().where('owner_user_id', '=', owner.id).orderBy('created_at').orderBy('id').execute();
}

/** The app, when the person owns it. */
export async function ownedApp(ctx: PlatformContext, owner: UserRow, appId: string): Promise<AppRow | undefined> {
  if (!/^[0-9]{1,19}$/.test(appId)) return undefined;
  return ctx.store.db.selectFrom('apps').selectAll().where('id', '=', appId).where('owner_user_id', '=', owner.id).executeTakeFirst();
}

/** Creates an app with its keys and its app-only bearer token. */
export async function createApp(ctx: PlatformContext, owner: UserRow, settings: ValidSettings): Promise<AppRow> {
  return ctx.store.db.transaction().execute(async (tx) => {
    const app: AppRow = {
      id: ctx.ids.next(),
      name: settings.name,
      tier: settings.tier,
      owner_user_id: owner.id,
      consumer_key: worldCredential(ctx, alphanumeric(25)),
      consumer_secret: alphanumeric(50),
      client_id: worldCredential(ctx, alphanumeric(34)),
      client_secret: alphanumeric(50),
      callback_urls: toJson(settings.callbackUrls),
      sign_in_enabled: settings.signInEnabled ? 1 : 0,
      dialect: settings.dialect,
      created_at: ctx.clock.now().toISOString(),
    };
    await tx.insertInto('apps').values(app).execute();
    await issueAppBearerToken(ctx, tx, app.id);
    return app;
  });
}

export async function updateApp(ctx: PlatformContext, app: AppRow, settings: ValidSettings): Promise<void> {
  await ctx.store.db
    .updateTable('apps')
    .set({ name: settings.name, tier: settings.tier, callback_urls: toJson(settings.callbackUrls), sign_in_enabled: settings.signInEnabled ? 1 : 0, dialect: settings.dialect })
    .where('id', '=', app.id)
    .execute();
}

export type Regenerable = 'consumer_keys' | 'bearer_token' | 'client_secret' | 'access_token';
export const REGENERABLE: Record<Regenerable, string> = {
  consumer_keys: 'API key and secret regenerated. The previous bearer token no longer works; a new one was issued.',
  bearer_token: 'Bearer token regenerated. The previous one no longer works.',
  client_secret: 'OAuth 2.0 client secret regenerated.',
  access_token: 'Access token and secret generated for your account. Any previous one no longer works.',
};

/**
 * Regenerates a credential. New consumer keys also end the app-only bearer token (it was obtained
 * with the old keys); a new access token ends the owner's previous ones for this app.
 */
export async function regenerate(ctx: PlatformContext, app: AppRow, owner: UserRow, what: Regenerable): Promise<void> {
  const now = ctx.clock.now().toISOString();
  await ctx.store.db.transaction().execute(async (tx) => {
    if (what === 'consumer_keys') {
      await tx.updateTable('apps').set({ consumer_key: worldCredential(ctx, alphanumeric(25)), consumer_secret: alphanumeric(50) }).where('id', '=', app.id).execute();
    }
    if (what === 'consumer_keys' || what === 'bearer_token') {
      await invalidateBearersOfApp(tx, app.id, now);
      await issueAppBearerToken(ctx, tx, app.id);
    }
    if (what === 'client_secret') await tx.updateTable('apps').set({ client_secret: alphanumeric(50) }).where('id', '=', app.id).execute();
    if (what === 'access_token') {
      await tx.updateTable('oauth1_tokens').set({ invalidated_at: now }).where('app_id', '=', app.id).where('user_id', '=', owner.id).where('invalidated_at', 'is', null).execute();
      await issueOAuth1AccessToken(ctx, tx, app.id, owner.id, 'read-write-directmessages');
    }
  });
}

export interface AppCredentials {
  bearerToken?: string;
  accessToken?: { token: string; secret: string; level: string };
  callbackUrls: string[];
}

export async function credentialsOf(ctx: PlatformContext, app: AppRow, owner: UserRow): Promise<AppCredentials> {
  const [bearerToken, access] = await Promise.all([currentAppBearerToken(ctx, ctx.store.db, app.id), findLatestOAuth1Token(ctx.store.db, app.id, owner.id)]);
  return {
    bearerToken,
    accessToken: access ? { token: access.token, secret: access.secret, level: access.access_level } : undefined,
    callbackUrls: fromJson<string[]>(app.callback_urls) ?? [],
  };
}
