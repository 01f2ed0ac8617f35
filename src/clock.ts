/** The one source of "now". Rules about time read it, so tests move it instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until told to move; for tests and the admin clock. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(at: Date): void {
    this.current = at.getTime();
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/** A clock that runs with real time, shifted by an offset that can be moved. */
export class OffsetClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

export function isoTime(date: Date): string {
  return date.toISOString();
}

/** How the admin clock reads: real time, stopped at an instant, or running on from a set instant. */
export type ClockSetting = { mode: 'real' } | { mode: 'frozen'; at: number } | { mode: 'running'; offsetMs: number };

/**
 * The clock of a running Plaza (src/app.ts): `base` (real time, or a test's clock) until the admin
 * interface moves it (POST /admin/clock); then frozen at an instant or running from one. Every
 * reader of time holds this one object, so a move reaches every rule at once.
 */
export class AdjustableClock implements Clock {
  setting: ClockSetting = { mode: 'real' };
  constructor(readonly base: Clock = systemClock) {}
  now(): Date {
    const s = this.setting;
    if (s.mode === 'frozen') return new Date(s.at);
    if (s.mode === 'running') return new Date(this.base.now().getTime() + s.offsetMs);
    return this.base.now();
  }
}

/**
 * The time of the world outside Plaza: what an OAuth 1.0a client signs its oauth_timestamp with.
 * Moving the admin clock must not put every client's signature out of the timestamp window.
 */
export function wallClock(clock: Clock): Clock {
  return clock instanceof AdjustableClock ? clock.base : clock;
}
