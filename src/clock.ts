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
