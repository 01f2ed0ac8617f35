// Bytes of media files of the sizes a test asks for, built in memory: what a client uploads.
import { encodePng } from '../../src/platform/media/png.js';

/** A PNG of the given size. */
export function png(width: number, height: number): Buffer {
  return encodePng(width, height, (x, y) => [(x * 7) % 256, (y * 5) % 256, 128]);
}

/** An ISO base media box: size, type, content. */
function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

/**
 * A minimal MP4 (or QuickTime, brand `qt  `): ftyp, an mdat of `payload` bytes before the moov
 * (as many encoders write it), a movie header of `durationMs` and one video track of the given
 * size, plus a silent audio track with zero dimensions. Version 1 headers with `v1`.
 */
export function mp4(p: { width: number; height: number; durationMs: number; payload?: number; brand?: string; v1?: boolean }): Buffer {
  const timescale = 1000;
  const ftyp = box('ftyp', Buffer.from(p.brand ?? 'isom', 'latin1'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41', 'latin1'));
  const mvhd = Buffer.alloc(p.v1 ? 112 : 100);
  if (p.v1) {
    mvhd[0] = 1;
    mvhd.writeUInt32BE(timescale, 20);
    mvhd.writeBigUInt64BE(BigInt(p.durationMs), 24);
  } else {
    mvhd.writeUInt32BE(timescale, 12);
    mvhd.writeUInt32BE(p.durationMs, 16);
  }
  const tkhd = (w: number, h: number) => {
    const b = Buffer.alloc(p.v1 ? 96 : 84);
    if (p.v1) b[0] = 1;
    const at = p.v1 ? 88 : 76;
    b.writeUInt32BE(w << 16, at);
    b.writeUInt32BE(h << 16, at + 4);
    return box('tkhd', b);
  };
  const moov = box('moov', box('mvhd', mvhd), box('trak', tkhd(0, 0)), box('trak', tkhd(p.width, p.height)));
  const mdat = box('mdat', Buffer.alloc(p.payload ?? 64, 7));
  return Buffer.concat([ftyp, mdat, moov]);
}

/** A GIF header (logical screen of the given size) with one empty image and a trailer. */
export function gif(width: number, height: number): Buffer {
  const head = Buffer.alloc(13);
  head.write('GIF89a', 0, 'latin1');
  head.writeUInt16LE(width, 6);
  head.writeUInt16LE(height, 8);
  return Buffer.concat([head, Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b])]);
}

/** The first bytes of a baseline JPEG: SOI, an APP0 segment, then a SOF0 frame header. */
export function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** A lossless WebP (VP8L) header of the given size. */
export function webp(width: number, height: number): Buffer {
  const data = Buffer.alloc(5);
  data[0] = 0x2f;
  data.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
  const chunk = Buffer.concat([Buffer.from('VP8L', 'latin1'), Buffer.from([data.length, 0, 0, 0]), data, Buffer.alloc(1)]);
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + chunk.length, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, chunk]);
}
