import type { CoreContext } from '../../context.js';
import { invalidParameter } from '../../http/params.js';

/** Which part of the log a connection replays: from `from` (inclusive), up to `to` when given (the stream then ends there). */
export interface StreamWindow {
  from?: string;
  to?: string;
}

export interface StreamWindowQuery {
  backfill_minutes?: string;
  start_time?: string;
  end_time?: string;
}

const BACKFILL_MINUTES = { min: 0, max: 5 };
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** backfill_minutes (0 to 5) or start_time/end_time (shared/reference/platform.md §6, §7), read from the event log. */
export function parseStreamWindow(ctx: Pick<CoreContext, 'clock'>, query: StreamWindowQuery): StreamWindow {
  const now = ctx.clock.now();
  const time = (name: 'start_time' | 'end_time', raw: string) => {
    if (!TIME.test(raw) || Number.isNaN(Date.parse(raw))) throw invalidParameter(name, [raw], `The \`${name}\` query parameter value [${raw}] is not a valid time (YYYY-MM-DDTHH:mm:ssZ)`);
    return new Date(raw).toISOString();
  };
  const start = query.start_time !== undefined ? time('start_time', query.start_time) : undefined;
  const end = query.end_time !== undefined ? time('end_time', query.end_time) : undefined;
  let from = start;
  if (query.backfill_minutes !== undefined) {
    const raw = query.backfill_minutes;
    const n = Number(raw);
    if (!/^[0-9]+$/.test(raw) || n < BACKFILL_MINUTES.min || n > BACKFILL_MINUTES.max) {
      throw invalidParameter('backfill_minutes', [raw], `The \`backfill_minutes\` query parameter value [${raw}] is not between ${BACKFILL_MINUTES.min} and ${BACKFILL_MINUTES.max}`);
    }
    if (start !== undefined) throw invalidParameter('backfill_minutes', [raw], 'Give `backfill_minutes` or `start_time`, not both');
    if (n > 0) from = new Date(now.getTime() - n * 60_000).toISOString();
  }
  if (start !== undefined && start > now.toISOString()) {
    throw invalidParameter('start_time', [query.start_time!], `The \`start_time\` query parameter value [${query.start_time}] is in the future`);
  }
  if (end !== undefined && start !== undefined && end <= start) {
    throw invalidParameter('end_time', [query.end_time!], `The \`end_time\` query parameter value [${query.end_time}] is not after \`start_time\``);
  }
  if (end !== undefined && start === undefined && end <= now.toISOString()) {
    throw invalidParameter('end_time', [query.end_time!], `The \`end_time\` query parameter value [${query.end_time}] is in the past: give a \`start_time\` to read a past window`);
  }
  return { from, to: end };
}
