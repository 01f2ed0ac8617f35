import fs from 'node:fs';
import path from 'node:path';
import type { PlatformContext } from '../context.js';
import { DEFAULT_WORLD, worldCredential } from '../../worlds/tags.js';

/**
 * Where uploaded bytes live: `${dataDir}/media/<media_key>.<ext>` for media, and one folder of
 * numbered segments per chunked upload under `${dataDir}/media/uploads/`. Names are built from
 * ids Plaza made, never from anything a client sent. A world other than the default one keeps its
 * media in its own folder, `${dataDir}/worlds/<world id>/media/`, which goes when the world goes.
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

export function mediaFilePath(ctx: PlatformContext, mediaKey: string, ext: string): string {
  return path.join(mediaDir(ctx), `${mediaKey}.${ext}`);
}

export function uploadDir(ctx: PlatformContext, mediaId: string): string {
  return path.join(mediaDir(ctx), 'uploads', mediaId);
}

export function segmentPath(ctx: PlatformContext, mediaId: string, index: number): string {
  return path.join(uploadDir(ctx, mediaId), `${index}.part`);
}

/** A temporary file in the media folder, renamed into place once the upload checks out. */
export function tempFilePath(ctx: PlatformContext, mediaId: string): string {
  return path.join(mediaDir(ctx), `.${mediaId}.${process.pid}.${Date.now()}.tmp`);
}

export function writeFileAtomically(file: string, data: Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, data);
  fs.renameSync(temp, file);
}

/** The segments of an upload, by index. */
export function listSegments(ctx: PlatformContext, mediaId: string): Map<number, { path: string; size: number }> {
  const dir = uploadDir(ctx, mediaId);
  const out = new Map<number, { path: string; size: number }>();
  if (!fs.existsSync(dir)) return out;
  for (const name of fs.readdirSync(dir)) {
    const match = /^(\d+)\.part$/.exec(name);
    if (!match) continue;
    const file = path.join(dir, name);
    out.set(Number(match[1]), { path: file, size: fs.statSync(file).size });
  }
  return out;
}

/** Concatenates segments 0..n-1 into `target`. */
export async function assemble(segments: Array<{ path: string }>, target: string): Promise<void> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const out = fs.createWriteStream(target);
  try {
    for (const segment of segments) {
      await new Promise<void>((resolve, reject) => {
        const input = fs.createReadStream(segment.path);
        input.on('error', reject);
        input.on('end', resolve);
        input.pipe(out, { end: false });
      });
    }
  } finally {
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}

export function removeQuietly(target: string): void {
  fs.rmSync(target, { recursive: true, force: true });
}
