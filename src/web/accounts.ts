import { hashPassword, verifyPassword } from '../auth/passwords.js';
import type { UserRow } from '../auth/store.js';
import type { PlatformContext } from '../platform/context.js';
import { isUniqueViolation } from '../store/store.js';

/** Accounts of the pages: signing in with a password, signing up. */

/** A hash that never matches, so an unknown name costs as much time as a wrong password. */
let decoyHash: Promise<string> | undefined;

/** The person with this username (any case) or email address and password, if both match. */
export async function checkCredentials(ctx: PlatformContext, login: string, password: string): Promise<UserRow | undefined> {
  const name = login.trim().replace(/^@/, '').toLowerCase();
  if (!name || !password) return undefined;
  const user = await ctx.store.db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('username_lower', '=', name), eb('email', '=', name)]))
    .orderBy('id')
    .executeTakeFirst();
  if (!user?.password_hash) {
    await verifyPassword(password, await (decoyHash ??= hashPassword('decoy')));
    return undefined;
  }
  return (await verifyPassword(password, user.password_hash)) ? user : undefined;
}

export interface SignUp {
  username: string;
  name: string;
  email: string;
  password: string;
}

export type SignUpResult = { ok: true; user: UserRow } | { ok: false; errors: Partial<Record<keyof SignUp, string>> };

const USERNAME = /^[A-Za-z0-9_]{1,15}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Creates an account. No mail leaves Plaza, so in development mode the address counts as confirmed
 * at once (the users.email scope then shows it); otherwise it stays unconfirmed.
 */
export async function signUp(ctx: PlatformContext, input: SignUp): Promise<SignUpResult> {
  const username = input.username.trim().replace(/^@/, '');
  const name = input.name.trim();
  const email = input.email.trim().toLowerCase();
  const errors: Partial<Record<keyof SignUp, string>> = {};
  if (!USERNAME.test(username)) errors.username = 'A username has 1 to 15 letters, digits or underscores.';
  if (name.length < 1 || name.length > 50) errors.name = 'A name has 1 to 50 characters.';
  if (email.length > 254 || !EMAIL.test(email)) errors.email = 'Enter an email address like name@example.com.';
  if (input.password.length < 8 || input.password.length > 128) errors.password = 'A password has 8 to 128 characters.';
  const db = ctx.store.db;
  if (!errors.username && (await db.selectFrom('users').select('id').where('username_lower', '=', username.toLowerCase()).executeTakeFirst())) {
    errors.username = 'That username is taken.';
  }
  if (!errors.email && (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst())) {
    errors.email = 'An account with that email address already exists.';
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const user: UserRow = {
    id: ctx.ids.next(),
    username,
    username_lower: username.toLowerCase(),
    name,
    password_hash: await hashPassword(input.password),
    email,
    email_confirmed: ctx.config.development ? 1 : 0,
    created_at: ctx.clock.now().toISOString(),
    description: '',
    location: null,
    url: null,
    profile_image_url: 'https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png',
    profile_banner_url: null,
    protected: 0,
    verified: 0,
    verified_type: 'none',
    subscription_type: 'None',
    parody: 0,
    is_identity_verified: 0,
    pinned_post_id: null,
    most_recent_post_id: null,
    affiliation: null,
    entities: '{}',
    withheld: null,
    followers_count: 0,
    following_count: 0,
    post_count: 0,
    listed_count: 0,
    like_count: 0,
    media_count: 0,
  };
  try {
    await db.insertInto('users').values(user).execute();
  } catch (err) {
    if (isUniqueViolation(err)) return { ok: false, errors: { username: 'That username is taken.' } };
    throw err;
  }
  return { ok: true, user };
}
