import type { PlatformContext } from '../context.js';

/**
 * The per-webhook Account Activity replay was deprecated on Mar 25, 2026 at 12:00 PM ET (spec 000
 * release history) in favour of POST /2/webhooks/replay: 16:00 UTC, as US Eastern time was on
 * daylight time (UTC−4) then. From that moment (by the injected clock) its answers say so.
 */
export const REPLAY_DEPRECATED_AT = new Date('2026-03-25T16:00:00.000Z');

/** RFC 9745 `Deprecation` (an `@`-prefixed Unix time) and the successor link, once deprecated. */
export function replayDeprecation(ctx: PlatformContext): Record<string, string> {
  if (ctx.clock.now().getTime() < REPLAY_DEPRECATED_AT.getTime()) return {};
  return {
    deprecation: `@${Math.floor(REPLAY_DEPRECATED_AT.getTime() / 1000)}`,
    link: '</2/webhooks/replay>; rel="successor-version"',
  };
}
