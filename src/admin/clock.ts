import type { AdjustableClock, ClockSetting } from '../clock.js';
import type { CoreContext } from '../context.js';
import { invalidParameter } from '../http/params.js';
import { ADMIN_CLOCK_KEY, readSetting, writeSetting } from './store.js';
import { startPolledJob, type PolledJob } from '../polled-job.js';

/** What POST /admin/clock takes: one of set, advance or real; `frozen` says whether time then stands still. */
export interface ClockChange {
  set?: string;
  advance?: string;
  real?: boolean;
  frozen?: boolean;
}

export interface ClockState {
  now: string;
  mode: ClockSetting['mode'];
  /** How far the admin clock reads from real time, in milliseconds (0 when real). */
  offset_ms: number;
}

/** ISO 8601 date-times with a zone: 2026-05-01T12:00:00Z, 2026-05-01T12:00:00.250+02:00. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
/** ISO 8601 durations of fixed length (weeks, days, hours, minutes, seconds); a leading '-' goes back. */
const DURATION = /^(-)?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Milliseconds of an ISO 8601 duration, or undefined when it is not one this accepts. */
export function durationMs(text: string): number | undefined {
  const m = DURATION.exec(text);
  if (!m || text.endsWith('T') || !m.slice(2).some((part) => part !== undefined)) return undefined;
  const [, sign, w, d, h, min, s] = m;
  const ms = ((Number(w ?? 0) * 7 + Number(d ?? 0)) * 24 * 3600 + Number(h ?? 0) * 3600 + Number(min ?? 0) * 60 + Number(s ?? 0)) * 1000;
  return sign ? -ms : ms;
}

/**
 * The admin clock (POST /admin/clock): kept in the store, so every process sharing it reads the
 * same time; each process applies a change at once when it makes it and reads the store again
 * every activityPollMs for the changes of the others.
 */
export class ClockControl {
  private poll?: PolledJob;
  /** Bumped by every change this process makes, so a read that began before it is not applied over it. */
  private version = 0;
  private readonly base: { now(): Date };

  constructor(
    private readonly ctx: CoreContext,
    private readonly clock: AdjustableClock,
  ) {
    this.base = clock.base;
  }

  /** Reads the stored setting and keeps reading it. */
  async start(): Promise<void> {
    await this.refresh();
    this.poll = startPolledJob(this.ctx, 'could not read the admin clock', () => this.refresh(), Math.max(100, this.ctx.config.activityPollMs));
  }

  close(): void {
    void this.poll?.close();
  }

  async refresh(): Promise<void> {
    const version = this.version;
    const stored = await readSetting<ClockSetting>(this.ctx.store.db, ADMIN_CLOCK_KEY);
    if (version === this.version) this.clock.setting = stored ?? { mode: 'real' };
  }

  state(): ClockState {
    const now = this.clock.now();
    return { now: now.toISOString(), mode: this.clock.setting.mode, offset_ms: now.getTime() - this.base.now().getTime() };
  }

  /** Moves the clock; bad input names its field and changes nothing. */
  async change(body: ClockChange): Promise<ClockState> {
    const given = (['set', 'advance', 'real'] as const).filter((k) => body[k] !== undefined);
    if (given.length !== 1) {
      throw invalidParameter(given[1] ?? 'set', [], 'Send exactly one of `set` (an ISO 8601 date-time), `advance` (an ISO 8601 duration such as PT2H) or `real` (true)');
    }
    const current = this.clock.now().getTime();
    const wasFrozen = this.clock.setting.mode === 'frozen';
    let target: number;
    if (body.real !== undefined) {
      if (body.real !== true) throw invalidParameter('real', [String(body.real)], 'The `real` body field resets the clock to real time: send true');
      if (body.frozen !== undefined) throw invalidParameter('frozen', [String(body.frozen)], 'The `frozen` body field goes with `set` or `advance`, not with `real`');
      return this.apply({ mode: 'real' });
    } else if (body.set !== undefined) {
      target = DATE_TIME.test(body.set) ? Date.parse(body.set) : Number.NaN;
      if (!Number.isFinite(target)) throw invalidParameter('set', [body.set], `The \`set\` body field value [${body.set}] is not an ISO 8601 date-time with a time zone, such as 2026-05-01T12:00:00Z`);
    } else {
      const ms = durationMs(body.advance!);
      if (ms === undefined) throw invalidParameter('advance', [body.advance!], `The \`advance\` body field value [${body.advance}] is not an ISO 8601 duration in weeks, days, hours, minutes and seconds, such as PT2H or P1DT30M`);
      target = current + ms;
    }
    if (Number.isNaN(new Date(target).getTime()) || target < 0) {
      throw invalidParameter(given[0], [String((body as Record<string, unknown>)[given[0]])], `The \`${given[0]}\` body field moves the clock out of range`);
    }
    const frozen = body.frozen ?? wasFrozen;
    return this.apply(frozen ? { mode: 'frozen', at: target } : { mode: 'running', offsetMs: target - this.base.now().getTime() });
  }

  private async apply(setting: ClockSetting): Promise<ClockState> {
    this.version++;
    await writeSetting(this.ctx.store.db, ADMIN_CLOCK_KEY, setting);
    this.clock.setting = setting;
    return this.state();
  }
}
