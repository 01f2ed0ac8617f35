import type { PlatformContext } from '../../platform/context.js';
import { invalidParameter } from '../../http/params.js';
import { candidatesOfLineItem, engage, lineItemAudience, serve } from './service.js';

export interface Simulation {
  line_item_id: string;
  timeline_reads: number;
  engagement_rate?: number;
}

/**
 * POST /admin/ads/simulate: an audience reading home timelines at volume, so reporting can be
 * exercised. Each read is one impression served through the same delivery code a timeline read
 * takes (its budgets, charges and records), to the users the line item's targeting reaches in
 * turn and its promoted posts in turn; `engagement_rate` of the reads (spread evenly) are
 * followed by a click on the post. It stops when a budget is spent. Answers what happened.
 */
export async function simulateAudience(ctx: PlatformContext, s: Simulation) {
  const candidates = await candidatesOfLineItem(ctx, s.line_item_id);
  if (candidates.length === 0) {
    throw invalidParameter(
      'line_item_id',
      [s.line_item_id],
      `Line item ${s.line_item_id} is not delivering: it, its campaign, funding instrument and production account must be ACTIVE, inside their dates, with an ACTIVE promoted post, and its placements must include the home timeline`,
    );
  }
  const rate = s.engagement_rate ?? 0;
  const audience = (await lineItemAudience(ctx, candidates[0]!)).filter((u) => candidates.some((c) => c.author_id !== u));
  let impressions = 0;
  let engagements = 0;
  let stopped: 'budget' | null = null;
  const now = ctx.clock.now();
  for (let i = 0; i < s.timeline_reads && audience.length > 0; i++) {
    const viewer = audience[i % audience.length]!;
    const others = candidates.filter((c) => c.author_id !== viewer);
    const candidate = others[i % others.length]!;
    const impression = await ctx.store.db.transaction().execute(async (tx) => {
      const served = await serve(ctx, tx, candidate, viewer, now);
      if (served && Math.floor((i + 1) * rate) > Math.floor(i * rate)) {
        await engage(ctx, tx, served, 'click', now);
        engagements += 1;
      }
      return served;
    });
    if (!impression) {
      stopped = 'budget';
      break;
    }
    impressions += 1;
  }
  return { line_item_id: s.line_item_id, audience_size: audience.length, impressions, engagements, stopped_by: stopped };
}
