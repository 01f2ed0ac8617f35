/**
 * Times of the advertising interface. Stored as ISO 8601 UTC with milliseconds (they sort as
 * text on both engines); on the wire as `YYYY-MM-DDTHH:MM:SSZ`, the form the public platform
 * answers in (shared/reference/ads.md §3).
 */

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Parses an ISO 8601 date or date-time. A date alone is midnight UTC, a time without a zone is
 * UTC. Returns undefined for anything else, including impossible dates such as 2026-02-30.
 */
export function parseIsoTime(text: string): Date | undefined {
  const m = ISO.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (year < 1970 || year > 9999 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return undefined;
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const date = new Date(utc - offsetMinutes * 60_000);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A stored time as the wire shows it: seconds precision, `Z`. */
export function wireTime(stored: string): string;
export function wireTime(stored: string | null): string | null;
export function wireTime(stored: string | null): string | null {
  if (stored === null) return null;
  return stored.replace(/\.\d{3}Z$/, 'Z');
}
