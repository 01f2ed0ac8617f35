import { issueOAuth1AccessToken, issueOAuth2Tokens } from '../auth/issue.js';
import type { AppRow } from '../auth/store.js';
import type { PlatformContext } from '../platform/context.js';
import { invalidParameter } from '../http/params.js';
import { DEMO_SCOPES } from '../seed/demo.js';
import { alphanumeric } from '../store/ids.js';
import type { AppDialect } from '../store/schema.js';
import { signUp } from '../web/accounts.js';

export interface NewPerson {
  username: string;
  name?: string;
  email?: string;
  password?: string;
  /** The app (id or name) the person's tokens are for; the first app made when absent. */
  app?: string;
}

export interface CreatedPerson extends IssuedTokens {
  id: string;
  username: string;
  name: string;
  password: string;
}

/** The app of that id or name (the first app made when absent), or the 400 naming `app`. */
export async function appNamed(ctx: PlatformContext, nameOrId: string | undefined): Promise<AppRow> {
  const db = ctx.store.db;
  let query = db.selectFrom('apps').selectAll().orderBy('created_at').orderBy('id').limit(1);
  if (nameOrId !== undefined) query = query.where((eb) => eb.or([eb('id', '=', nameOrId), eb('name', '=', nameOrId)]));
  const app = await query.executeTakeFirst();
  if (!app) {
    throw invalidParameter('app', nameOrId === undefined ? [] : [nameOrId], nameOrId === undefined ? 'There is no app yet to issue tokens for: name one in `app`' : `The \`app\` value [${nameOrId}] is neither the id nor the name of an app`);
  }
  return app;
}

/**
 * POST /admin/users: an account, as the sign-up page makes one, with an OAuth 1.0a access token
 * (read-write-directmessages) and OAuth 2.0 tokens (the demo workspace's scopes) for one app, as
 * if the person had authorized it. The secrets are returned once; the store keeps what it keeps
 * of any token (the OAuth 2.0 ones only as hashes).
 */
export async function createPerson(ctx: PlatformContext, body: NewPerson): Promise<CreatedPerson> {
  const app = await appNamed(ctx, body.app);
  const password = body.password ?? `${alphanumeric(20)}`;
  const result = await signUp(ctx, {
    username: body.username,
    name: body.name ?? body.username,
    email: body.email ?? `${body.username.trim().toLowerCase()}@plaza.example`,
    password,
  });
  if (!result.ok) {
    const [field, message] = Object.entries(result.errors)[0] as [string, string];
    const value = (body as unknown as Record<string, string | undefined>)[field];
    throw invalidParameter(field, value === undefined || field === 'password' ? [] : [value], `The \`${field}\` body field: ${message}`);
  }
  const user = result.user;
  return { id: user.id, username: user.username, name: user.name, password, ...(await issueTokens(ctx, app, user.id)) };
}

export interface IssuedTokens {
  app_id: string;
  access_token: string;
  access_token_secret: string;
  oauth2_access_token: string;
  oauth2_refresh_token: string;
}

/** OAuth 1.0a (read-write-directmessages) and OAuth 2.0 tokens of one person for one app, as if they had authorized it. */
async function issueTokens(ctx: PlatformContext, app: AppRow, userId: string): Promise<IssuedTokens> {
  const tokens = await ctx.store.db.transaction().execute(async (tx) => {
    const oauth1 = await issueOAuth1AccessToken(ctx, tx, app.id, userId, 'read-write-directmessages');
    const oauth2 = await issueOAuth2Tokens(ctx, tx, app.id, userId, DEMO_SCOPES);
    return { oauth1, oauth2 };
  });
  return {
    app_id: app.id,
    access_token: tokens.oauth1.token,
    access_token_secret: tokens.oauth1.secret,
    oauth2_access_token: tokens.oauth2.accessToken,
    oauth2_refresh_token: tokens.oauth2.refreshToken ?? '',
  };
}

/** POST /admin/tokens: fresh tokens of an existing person (id or username) for an app (id or name). */
export async function mintTokens(ctx: PlatformContext, body: { user: string; app?: string }): Promise<IssuedTokens & { user_id: string; username: string }> {
  const name = body.user.trim().replace(/^@/, '');
  const user = await ctx.store.db
    .selectFrom('users')
    .select(['id', 'username'])
    .where((eb) => eb.or([eb('id', '=', name), eb('username_lower', '=', name.toLowerCase())]))
    .executeTakeFirst();
  if (!user) throw invalidParameter('user', [body.user], `The \`user\` value [${body.user}] is neither the id nor the username of a user`);
  const app = await appNamed(ctx, body.app);
  return { user_id: user.id, username: user.username, ...(await issueTokens(ctx, app, user.id)) };
}

/** GET /admin/users and /admin/apps: who and what there is, without secrets. */
export async function listPeople(ctx: PlatformContext): Promise<Array<{ id: string; username: string; name: string; email: string | null; phone_number: string | null; created_at: string }>> {
  return ctx.store.db
    .selectFrom('users')
    .leftJoin('user_phone_numbers as p', 'p.user_id', 'users.id')
    .select(['users.id', 'users.username', 'users.name', 'users.email', 'p.phone_number', 'users.created_at'])
    .orderBy('users.id')
    .execute();
}

export async function listApps(ctx: PlatformContext): Promise<Array<{ id: string; name: string; tier: string; dialect: AppDialect; created_at: string }>> {
  return ctx.store.db.selectFrom('apps').select(['id', 'name', 'tier', 'dialect', 'created_at']).orderBy('created_at').orderBy('id').execute();
}

/** PATCH /admin/apps/:app: the app's settings an operator may change without its owner's console (its dialect). */
export async function updateAppSettings(ctx: PlatformContext, nameOrId: string, changes: { dialect?: AppDialect }): Promise<{ id: string; name: string; tier: string; dialect: AppDialect }> {
  const app = await appNamed(ctx, nameOrId);
  if (changes.dialect !== undefined && changes.dialect !== app.dialect) {
    await ctx.store.db.updateTable('apps').set({ dialect: changes.dialect }).where('id', '=', app.id).execute();
  }
  return { id: app.id, name: app.name, tier: app.tier, dialect: changes.dialect ?? app.dialect };
}
