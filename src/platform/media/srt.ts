/**
 * SubRip (SRT) subtitle files, the one subtitle format the public platform takes for
 * media_category=subtitles: UTF-8 text of cues, each a cue number, a timing line
 * `00:00:01,000 --> 00:00:02,500` and one or more lines of text, cues apart by a blank line.
 */

/** The largest subtitle file Plaza takes (the reference publishes no figure; see the report of issue 18). */
export const SUBTITLES_MAX_BYTES = 1024 * 1024;

export interface SrtSummary {
  cues: number;
  /** When the last cue ends. */
  durationMs: number;
}

/** Why a text is not an SRT file, worded to follow "The `media` file ". */
export class SrtError extends Error {}

const TIME = '(\\d{2,}):([0-5]\\d):([0-5]\\d),(\\d{3})';
// Some writers put position hints (X1:… Y2:…) after the end time: kept as SRT, ignored.
const TIMING = new RegExp(`^${TIME}[ \\t]+-->[ \\t]+${TIME}(?:[ \\t]+.*)?$`);
const SRT_START = /^\uFEFF?[ \t\r\n]*\d+[ \t]*\r?\n[ \t]*\d{2,}:\d{2}:\d{2},\d{3}[ \t]+-->/;

const ms = (m: RegExpExecArray, at: number) => ((Number(m[at]) * 60 + Number(m[at + 1])) * 60 + Number(m[at + 2])) * 1000 + Number(m[at + 3]);

/** Whether the first bytes of a file read as the start of an SRT file (a cue number, then a timing line). */
export function looksLikeSrt(head: Buffer): boolean {
  return SRT_START.test(head.toString('utf8'));
}

/** Reads a whole SRT file: every cue numbered in rising order, timed (start before end) and with text. */
export function parseSrt(bytes: Buffer): SrtSummary {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new SrtError('is not a SubRip (SRT) subtitle file: it is not UTF-8 text');
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  let cues = 0;
  let durationMs = 0;
  let previous = 0;
  let i = 0;
  const blank = (n: number) => n < lines.length && lines[n].trim() === '';
  while (i < lines.length) {
    while (blank(i)) i++;
    if (i >= lines.length) break;
    const cue = cues + 1;
    const where = `cue ${cue} (line ${i + 1})`;
    const number = lines[i].trim();
    if (!/^\d+$/.test(number)) throw new SrtError(`is not a valid SubRip (SRT) subtitle file: ${where} does not start with a cue number`);
    if (Number(number) <= previous) throw new SrtError(`is not a valid SubRip (SRT) subtitle file: ${where} is numbered ${number}, not after ${previous}`);
    const timing = TIMING.exec((lines[i + 1] ?? '').trim());
    if (!timing) throw new SrtError(`is not a valid SubRip (SRT) subtitle file: ${where} has no timing line like 00:00:01,000 --> 00:00:02,000`);
    const start = ms(timing, 1);
    const end = ms(timing, 5);
    if (end <= start) throw new SrtError(`is not a valid SubRip (SRT) subtitle file: ${where} ends before it starts`);
    i += 2;
    if (i >= lines.length || blank(i)) throw new SrtError(`is not a valid SubRip (SRT) subtitle file: ${where} has no text`);
    while (i < lines.length && !blank(i)) i++;
    previous = Number(number);
    cues = cue;
    durationMs = Math.max(durationMs, end);
  }
  if (cues === 0) throw new SrtError('is not a valid SubRip (SRT) subtitle file: it has no cues');
  return { cues, durationMs };
}
