import { AdsError } from '../http/errors.js';
import { Param, scalar } from '../http/params.js';

/** An absolute http or https URL of at most 2048 characters (card destinations, landing pages). */
export function isWebUrl(value: string): boolean {
  if (value.length > 2048 || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** A parameter holding a web URL. */
export function webUrl(): Param<string> {
  return new Param((raw, name) => {
    const value = scalar(raw, name).trim();
    if (!isWebUrl(value)) throw AdsError.invalidParameter(name, `Expected an absolute http or https URL, got ${JSON.stringify(value.slice(0, 100))} for ${name}`);
    return value;
  });
}
