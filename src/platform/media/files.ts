import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { PlatformContext } from '../context.js';
import { DEFAULT_WORLD, worldCredential } from '../../worlds/tags.js';

/**
 * The media folder on disk (src/platform/media/blobs.ts keeps bytes there on SQLite, and
 * assembles uploads there on either store): `${dataDir}/media/`; a world other than the default
 * one has its own, `${dataDir}/worlds/<world id>/media/`, which goes when the world goes.
 */
export function mediaDir(ctx: PlatformContext): string {
  return ctx.world === DEFAULT_WORLD ? path.join(ctx.config.dataDir, 'media') : path.join(worldDir(ctx.config.dataDir, ctx.world), 'media');
}

/** The folder of a world other than the default one: its media, and on SQLite its store. */
export function worldDir(dataDir: string, world: string): string {
  return path.join(dataDir, 'worlds', world);
}

/**
 * The URL media bytes are served at: `<base>/media/<media_key>.<ext>`, the key tagged with the
 * world's id in a world other than the default one (`/media/w1a2b3c4d5e~3_123.png`), since the
 * bytes are fetched without credentials and the path is what tells the world (src/worlds/routing.ts).
 */
export function mediaFileUrl(ctx: PlatformContext, baseUrl: string, mediaKey: string, ext: string): string {
  return `${baseUrl}/media/${worldCredential(ctx, mediaKey)}.${ext}`;
}

/** Concatenates the streams, one after another, into `target`. */
export async function writeInOrder(target: string, sources: ReadonlyArray<() => Readable>): Promise<void> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const out = fs.createWriteStream(target);
  try {
    for (const open of sources) {
      await new Promise<void>((resolve, reject) => {
        const input = open();
        input.on('error', reject);
        input.on('end', resolve);
        input.pipe(out, { end: false });
      });
    }
  } finally {
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}
