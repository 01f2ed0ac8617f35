import fs from 'node:fs';
import { SUBTITLES_MAX_BYTES, SrtError, looksLikeSrt, parseSrt } from './srt.js';

/**
 * What an uploaded file is, read from its own bytes rather than from what the client declared:
 * PNG, JPEG, GIF and WebP images with their pixel dimensions, and MP4 or QuickTime video with the
 * duration of its movie header (mvhd) and the dimensions of its first visual track header (tkhd).
 * Reads only headers, at any offset, so a 512 MB video is never held in memory.
 */
export interface Probed {
  mime: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'video/mp4' | 'video/quicktime' | 'text/srt';
  /** Pixels; 0 for subtitles, which have none. */
  width: number;
  height: number;
  durationMs?: number;
}

/** Random access to the bytes being probed. */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Buffer;
}

/** Why a file is not a media file Plaza accepts, worded for the client. */
export class ProbeError extends Error {}

export const EXTENSIONS: Readonly<Record<Probed['mime'], string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'text/srt': 'srt',
};

export function bufferSource(buffer: Buffer): ByteSource {
  return { size: buffer.length, read: (offset, length) => buffer.subarray(offset, Math.min(buffer.length, offset + length)) };
}

/** Probes a file on disk through a file descriptor. */
export function probeFile(path: string, expectSubtitles = false): Probed {
  const fd = fs.openSync(path, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    return probe({
      size,
      read(offset, length) {
        const out = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
        if (out.length > 0) fs.readSync(fd, out, 0, out.length, offset);
        return out;
      },
    }, expectSubtitles);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * `expectSubtitles`: the upload says it is subtitles, so text is read as SRT (and told what is
 * wrong with it); otherwise only text that starts like an SRT file is.
 */
export function probe(src: ByteSource, expectSubtitles = false): Probed {
  const head = src.read(0, 32);
  const ascii = (from: number, to: number) => head.subarray(from, to).toString('latin1');
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return png(src);
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return jpeg(src);
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return gif(head);
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return webp(src);
  if (ascii(4, 8) === 'ftyp') return isoMedia(src, ascii(8, 12));
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) throw new ProbeError('is a WebM/Matroska video; upload MP4 (H.264) or QuickTime instead');
  if (expectSubtitles || looksLikeSrt(src.read(0, 256))) return srt(src);
  throw new ProbeError('is not a PNG, JPEG, GIF or WebP image, nor an MP4 or QuickTime video');
}

function srt(src: ByteSource): Probed {
  // Read whole only up to the subtitle limit, so a large file is never held in memory for this.
  if (src.size > SUBTITLES_MAX_BYTES) throw new ProbeError(`is ${src.size} bytes; a subtitle file may be at most 1 MB (${SUBTITLES_MAX_BYTES} bytes)`);
  try {
    const summary = parseSrt(src.read(0, src.size));
    return { mime: 'text/srt', width: 0, height: 0, durationMs: summary.durationMs };
  } catch (err) {
    if (err instanceof SrtError) throw new ProbeError(err.message);
    throw err;
  }
}

function dimensions<T extends Probed>(p: T, what: string): T {
  if (!(p.width > 0 && p.height > 0)) throw new ProbeError(`is not a valid ${what}: it has no pixel dimensions`);
  return p;
}

function png(src: ByteSource): Probed {
  const ihdr = src.read(8, 16);
  if (ihdr.length < 16 || ihdr.toString('latin1', 4, 8) !== 'IHDR') throw new ProbeError('is not a valid PNG image: its IHDR chunk is missing');
  return dimensions({ mime: 'image/png', width: ihdr.readUInt32BE(8), height: ihdr.readUInt32BE(12) }, 'PNG image');
}

function gif(head: Buffer): Probed {
  if (head.length < 10) throw new ProbeError('is not a valid GIF image: it is truncated');
  return dimensions({ mime: 'image/gif', width: head.readUInt16LE(6), height: head.readUInt16LE(8) }, 'GIF image');
}

/** Walks the JPEG segments to the first start-of-frame (SOF0..SOF15 but DHT, JPG and DAC). */
function jpeg(src: ByteSource): Probed {
  let offset = 2;
  while (offset + 4 <= src.size) {
    const header = src.read(offset, 9);
    if (header[0] !== 0xff) break;
    const marker = header[1];
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      offset += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, or scan data before any frame header
    const length = header.readUInt16BE(2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (header.length < 9) break;
      return dimensions({ mime: 'image/jpeg', width: header.readUInt16BE(7), height: header.readUInt16BE(5) }, 'JPEG image');
    }
    if (length < 2) break;
    offset += 2 + length;
  }
  throw new ProbeError('is not a valid JPEG image: no frame header was found');
}

function webp(src: ByteSource): Probed {
  const chunk = src.read(12, 30);
  const kind = chunk.toString('latin1', 0, 4);
  let width = 0;
  let height = 0;
  if (kind === 'VP8 ' && chunk.length >= 18 && chunk[11] === 0x9d && chunk[12] === 0x01 && chunk[13] === 0x2a) {
    width = chunk.readUInt16LE(14) & 0x3fff;
    height = chunk.readUInt16LE(16) & 0x3fff;
  } else if (kind === 'VP8L' && chunk.length >= 13 && chunk[8] === 0x2f) {
    const bits = chunk.readUInt32LE(9);
    width = (bits & 0x3fff) + 1;
    height = ((bits >>> 14) & 0x3fff) + 1;
  } else if (kind === 'VP8X' && chunk.length >= 18) {
    width = chunk.readUIntLE(12, 3) + 1;
    height = chunk.readUIntLE(15, 3) + 1;
  }
  return dimensions({ mime: 'image/webp', width, height }, 'WebP image');
}

interface Box {
  type: string;
  /** Where the box's content starts and ends. */
  start: number;
  end: number;
}

/** The boxes directly inside [start, end) of an ISO base media file (MP4, QuickTime). */
function boxes(src: ByteSource, start: number, end: number): Box[] {
  const out: Box[] = [];
  let offset = start;
  while (offset + 8 <= end) {
    const header = src.read(offset, 16);
    let size = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    let headerSize = 8;
    if (size === 1) {
      if (header.length < 16) break;
      size = Number(header.readBigUInt64BE(8));
      headerSize = 16;
    } else if (size === 0) {
      size = end - offset;
    }
    if (size < headerSize || offset + size > end) break;
    out.push({ type, start: offset + headerSize, end: offset + size });
    offset += size;
  }
  return out;
}

function isoMedia(src: ByteSource, brand: string): Probed {
  const mime = brand === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  const moov = boxes(src, 0, src.size).find((b) => b.type === 'moov');
  if (!moov) throw new ProbeError('is not a playable MP4 video: it has no moov box (movie header)');
  const inside = boxes(src, moov.start, moov.end);
  const mvhd = inside.find((b) => b.type === 'mvhd');
  if (!mvhd) throw new ProbeError('is not a playable MP4 video: it has no mvhd box');
  const movie = src.read(mvhd.start, 32);
  const v1 = movie[0] === 1;
  const timescale = v1 ? movie.readUInt32BE(20) : movie.readUInt32BE(12);
  const duration = v1 ? Number(movie.readBigUInt64BE(24)) : movie.readUInt32BE(16);
  let width = 0;
  let height = 0;
  for (const trak of inside.filter((b) => b.type === 'trak')) {
    const tkhd = boxes(src, trak.start, trak.end).find((b) => b.type === 'tkhd');
    if (!tkhd) continue;
    const track = src.read(tkhd.start, 96);
    const at = track[0] === 1 ? 88 : 76;
    if (track.length < at + 8) continue;
    // 16.16 fixed-point; an audio track has zero width and height.
    const w = track.readUInt32BE(at) >>> 16;
    const h = track.readUInt32BE(at + 4) >>> 16;
    if (w > 0 && h > 0) {
      width = w;
      height = h;
      break;
    }
  }
  if (width === 0) throw new ProbeError('is not a video: it has no visual track');
  if (timescale === 0) throw new ProbeError('is not a playable MP4 video: its movie header has no timescale');
  return { mime, width, height, durationMs: Math.round((duration * 1000) / timescale) };
}
