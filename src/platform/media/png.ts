import zlib from 'node:zlib';

/**
 * A small PNG encoder (8-bit RGB, no interlace) for the images Plaza makes itself: the demo
 * seed's photos and test fixtures. `pixel` gives the colour at (x, y).
 */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const row = width * 3 + 1;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      const at = y * row + 1 + x * 3;
      raw[at] = r;
      raw[at + 1] = g;
      raw[at + 2] = b;
    }
  }
  return pngOf(width, height, raw);
}

function pngOf(width: number, height: number, raw: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A vertical gradient from `top` to `bottom` with a darker band below `horizon` (0..1): a plaza at dusk. */
export function duskScene(width: number, height: number, top: [number, number, number], bottom: [number, number, number], horizon = 0.7): Buffer {
  const row = width * 3 + 1;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    const t = y / Math.max(1, height - 1);
    const shade = t > horizon ? 0.45 : 1;
    const rgb = Buffer.from(top.map((c, i) => Math.round((c + (bottom[i] - c) * t) * shade)));
    raw.fill(rgb, y * row + 1, (y + 1) * row); // each row one colour; byte 0 stays filter "none"
  }
  return pngOf(width, height, raw);
}
