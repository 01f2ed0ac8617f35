import type { CoreContext } from '../context.js';

/**
 * Which world a request is in is told by its credentials (issue #36): every key and token minted
 * in a world other than the default one starts with the world's id and a tilde (`w3k9x0q2m7a~…`;
 * an OAuth 1.0a access token keeps its `<user id>-` head, as the public platform's do). A tilde is
 * unreserved in URLs and in OAuth 1.0a's encoding, and no credential of the default world has one,
 * so the default world's credentials look as they always did.
 */
export const DEFAULT_WORLD = 'default';

/** A world id: `w` and ten lowercase letters or digits. */
export const WORLD_ID = /^w[0-9a-z]{10}$/;

const TAGGED = /(?<![0-9A-Za-z])(w[0-9a-z]{10})~/;

/** A credential of the context's world: `raw` itself in the default world, tagged in any other. */
export function worldCredential(ctx: Pick<CoreContext, 'world'>, raw: string): string {
  return WORLD_ID.test(ctx.world) ? `${ctx.world}~${raw}` : raw;
}

/** The world a credential (or a header carrying some) names, or undefined for the default world. */
export function worldNamedBy(text: string | undefined): string | undefined {
  // Some OAuth 1.0a clients percent-encode the tilde, which needs none.
  return text ? TAGGED.exec(text.replace(/%7E/gi, '~'))?.[1] : undefined;
}

/** A key of state kept outside the world's store (rate-limit windows): the default world's keys are unchanged. */
export function worldKey(ctx: Pick<CoreContext, 'world'>, key: string): string {
  return WORLD_ID.test(ctx.world) ? `${ctx.world}/${key}` : key;
}
