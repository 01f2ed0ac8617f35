import type { CoreContext } from '../context.js';
import type { Tier } from '../store/schema.js';

/** The demo apps by their place in the credentials file (src/seed/demo.ts seeds them in this order). */
const DEMO_APPS: ReadonlyArray<{ index: number; tier: Tier; name: string }> = [
  { index: 0, tier: 'pro', name: 'Plaza Demo' },
  { index: 1, tier: 'enterprise', name: 'Plaza Enterprise Demo' },
];

/**
 * The local way out of a refusal by a tier rule, appended to the problem's `detail` (the public
 * platform's `registration_url` stays as it is): which demo app's tokens can do it, or where in
 * the developer console an app on such a tier is made.
 */
export function tierWayOut(ctx: CoreContext, allowed: readonly Tier[]): string {
  const demo = ctx.config.seedDemo ? DEMO_APPS.filter((a) => allowed.includes(a.tier)) : [];
  const console = `create an app on the ${allowed.join(' or ')} tier (or change this one's tier) in the developer console at /developer`;
  if (demo.length === 0) return ` In Plaza: ${console}.`;
  const apps = demo.map((a) => `apps[${a.index}] ("${a.name}", ${a.tier})`).join(' or ');
  return ` In Plaza: use the demo app ${apps} of the credentials file: its bearer_token, and each user's tokens for it in users[].tokens (the entry whose app_id is that app's id); or ${console}.`;
}

/**
 * The local way out of a refusal by the summoning rule (spec 000 "Post creation and editing
 * rules", rule 1), appended after the public platform's own sentence.
 */
export function summoningWayOut(ctx: CoreContext): string {
  const rule = ' In Plaza: rule 1 (summoning) binds self-serve apps: a reply, quote or @mention is allowed only where the other account summoned yours (mentioned it, or quoted one of its posts).';
  if (!ctx.config.seedDemo) return `${rule} To stage a scene, have that person post mentioning this account through an app on the enterprise tier (developer console, /developer), which the rule does not bind; then reply.`;
  return `${rule} To stage a scene, post as that person through the enterprise demo app apps[1], which the rule does not bind (their users[].tokens entry whose app_id is apps[1].id), mentioning this account; then reply. Or act through apps[1] yourself.`;
}
