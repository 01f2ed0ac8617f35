import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { PlatformContext } from '../context.js';
import type { Store } from '../../store/store.js';
import { IN_BUCKET, BucketBlobs, type MediaBucket } from './bucket.js';
import { mediaDir, writeInOrder } from './files.js';

/**
 * Where uploaded bytes live (issue 37 item 1). On SQLite, the data directory, as one machine has
 * it: `<media dir>/<name>` and one folder of numbered segments per chunked upload. On PostgreSQL,
 * the store itself, which every process behind a balancer reaches: the `media_blobs` table, in
 * parts of at most PART_BYTES, so a file is written, served and moved part by part, never whole
 * in memory, and a chunked upload whose segments arrived through different processes finalizes
 * on any of them. With a bucket configured, the default world's bytes live there instead
 * (src/platform/media/bucket.ts). A media row's `file_path` is what `put` or `keep` answered: a
 * path on disk, `store:<name>` or `s3:<key>`.
 *
 * Names are built from ids Plaza made (`<media key>.<ext>`, `chat_<id>.bin`), never from anything
 * a client sent.
 */
export interface MediaBlobs {
  /** Keeps `bytes` as the file `name`; answers its location (a media row's file_path). */
  put(name: string, bytes: Buffer): Promise<string>;
  /** Keeps one segment of a chunked upload; sending an index again replaces it. */
  putSegment(upload: string, index: number, bytes: Buffer): Promise<void>;
  /** The upload's segments: index to size. */
  segments(upload: string): Promise<Map<number, number>>;
  /** Writes the segments, in this order, to a local file (to be probed). */
  assembleTo(upload: string, indexes: readonly number[], target: string): Promise<void>;
  /** The segments, in this order, kept as the file `name` (`assembled` is their local copy, which goes); answers its location. */
  keep(upload: string, indexes: readonly number[], assembled: string, name: string): Promise<string>;
  /** Forgets an upload's segments. */
  dropUpload(upload: string): Promise<void>;
  /** A kept file by its location: its size and a stream of its bytes; undefined when it is not there. */
  open(location: string): Promise<{ size: number; stream(): Readable } | undefined>;
  /** A kept file's bytes, whole (for snapshot files, which carry them). */
  read(location: string): Promise<Buffer | undefined>;
  /** Removes a kept file (a refused upload's). */
  remove(location: string): Promise<void>;
}

/** The media folder on this machine's disk. */
class DiskBlobs implements MediaBlobs {
  constructor(private readonly dir: string) {}

  async put(name: string, bytes: Buffer): Promise<string> {
    const file = this.locate(name);
    writeFileAtomically(file, bytes);
    return file;
  }

  private locate(name: string): string {
    return path.join(this.dir, name);
  }

  private uploadDir(upload: string): string {
    return path.join(this.dir, 'uploads', upload);
  }

  async putSegment(upload: string, index: number, bytes: Buffer): Promise<void> {
    writeFileAtomically(path.join(this.uploadDir(upload), `${index}.part`), bytes);
  }

  async segments(upload: string): Promise<Map<number, number>> {
    const dir = this.uploadDir(upload);
    const out = new Map<number, number>();
    if (!fs.existsSync(dir)) return out;
    for (const name of fs.readdirSync(dir)) {
      const match = /^(\d+)\.part$/.exec(name);
      if (match) out.set(Number(match[1]), fs.statSync(path.join(dir, name)).size);
    }
    return out;
  }

  async assembleTo(upload: string, indexes: readonly number[], target: string): Promise<void> {
    await writeInOrder(target, indexes.map((i) => () => fs.createReadStream(path.join(this.uploadDir(upload), `${i}.part`))));
  }

  async keep(_upload: string, _indexes: readonly number[], assembled: string, name: string): Promise<string> {
    const file = this.locate(name);
    fs.renameSync(assembled, file);
    return file;
  }

  async dropUpload(upload: string): Promise<void> {
    fs.rmSync(this.uploadDir(upload), { recursive: true, force: true });
  }

  async open(location: string) {
    return openOnDisk(location);
  }

  async read(location: string): Promise<Buffer | undefined> {
    return fs.existsSync(location) ? fs.readFileSync(location) : undefined;
  }

  async remove(location: string): Promise<void> {
    fs.rmSync(location, { force: true });
  }
}

/** The parts a file or segment is kept in: a row of media_blobs each. */
export const PART_BYTES = 1024 * 1024;
const IN_STORE = 'store:';
/** Segment i's parts are numbered from i * SEGMENT_PARTS when kept as a file, so they read in order. */
const SEGMENT_PARTS = 100_000;

/** PostgreSQL's media_blobs table. */
class StoreBlobs implements MediaBlobs {
  constructor(private readonly store: Store) {}

  private get db() {
    return this.store.db;
  }

  async put(name: string, bytes: Buffer): Promise<string> {
    await this.write(name, bytes);
    return this.locate(name);
  }

  private locate(name: string): string {
    return `${IN_STORE}${name}`;
  }

  private async write(name: string, bytes: Buffer): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('media_blobs').where('name', '=', name).execute();
      for (let part = 0; part * PART_BYTES < Math.max(bytes.length, 1); part++) {
        await tx.insertInto('media_blobs').values({ name, part, bytes: bytes.subarray(part * PART_BYTES, (part + 1) * PART_BYTES) }).execute();
      }
    });
  }

  private segmentName(upload: string, index: number): string {
    return `upload/${upload}/${index}`;
  }

  async putSegment(upload: string, index: number, bytes: Buffer): Promise<void> {
    await this.write(this.segmentName(upload, index), bytes);
  }

  async segments(upload: string): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('media_blobs')
      .select(['name', sql<number>`sum(octet_length(bytes))`.as('size')])
      .where('name', 'like', `upload/${upload}/%`)
      .groupBy('name')
      .execute();
    return new Map(rows.map((r) => [Number(r.name.slice(r.name.lastIndexOf('/') + 1)), Number(r.size)]));
  }

  async assembleTo(upload: string, indexes: readonly number[], target: string): Promise<void> {
    await writeInOrder(target, indexes.map((i) => () => Readable.from(this.parts(this.segmentName(upload, i)))));
  }

  async keep(upload: string, indexes: readonly number[], assembled: string, name: string): Promise<string> {
    fs.rmSync(assembled, { force: true });
    // The segments' parts become the file's, renumbered in segment order: nothing is copied.
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('media_blobs').where('name', '=', name).execute();
      for (const [order, index] of indexes.entries()) {
        await tx
          .updateTable('media_blobs')
          .set({ name, part: sql<number>`part + ${order * SEGMENT_PARTS}` })
          .where('name', '=', this.segmentName(upload, index))
          .execute();
      }
    });
    return this.locate(name);
  }

  async dropUpload(upload: string): Promise<void> {
    await this.db.deleteFrom('media_blobs').where('name', 'like', `upload/${upload}/%`).execute();
  }

  async open(location: string) {
    if (!location.startsWith(IN_STORE)) return openOnDisk(location);
    const name = location.slice(IN_STORE.length);
    const row = await this.db.selectFrom('media_blobs').select(sql<number | null>`sum(octet_length(bytes))`.as('size')).where('name', '=', name).executeTakeFirst();
    if (row?.size === null || row?.size === undefined) return undefined;
    return { size: Number(row.size), stream: () => Readable.from(this.parts(name)) };
  }

  async read(location: string): Promise<Buffer | undefined> {
    const opened = await this.open(location);
    if (!opened) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream()) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async remove(location: string): Promise<void> {
    if (location.startsWith(IN_STORE)) await this.db.deleteFrom('media_blobs').where('name', '=', location.slice(IN_STORE.length)).execute();
    else fs.rmSync(location, { force: true });
  }

  /** A kept file's parts in order, read one at a time. */
  private async *parts(name: string): AsyncGenerator<Buffer> {
    let after = -1;
    for (;;) {
      const row = await this.db.selectFrom('media_blobs').select(['part', 'bytes']).where('name', '=', name).where('part', '>', after).orderBy('part').limit(1).executeTakeFirst();
      if (!row) return;
      after = row.part;
      if (row.bytes.length > 0) yield Buffer.from(row.bytes);
    }
  }
}

/** The location of the file `name` kept beside the file at `location` (a video's poster frame beside the video). */
export function locationBeside(location: string, name: string): string {
  if (location.startsWith(IN_STORE)) return `${IN_STORE}${name}`;
  if (location.startsWith(IN_BUCKET)) return `${location.slice(0, location.lastIndexOf('/') + 1 || IN_BUCKET.length)}${name}`;
  return path.join(path.dirname(location), name);
}

/**
 * Where a world's media bytes live (its context's `media`): the operator's bucket for the default
 * world when one is configured (src/platform/media/bucket.ts); otherwise its store on PostgreSQL
 * and its media folder on SQLite. A world other than the default one keeps its files in its own
 * store or folder, which go when the world goes.
 */
export function openMediaBlobs(p: { store: Store; mediaDir: string; bucket?: MediaBucket }): MediaBlobs {
  const own = p.store.dialect === 'postgres' ? new StoreBlobs(p.store) : new DiskBlobs(p.mediaDir);
  return p.bucket ? new BucketBlobs(p.bucket, own) : own;
}

/** A temporary file in this machine's temp space for an upload being assembled. */
export function assemblyFile(ctx: PlatformContext, upload: string): string {
  return path.join(mediaDir(ctx), `.${upload}.${process.pid}.${Date.now()}.tmp`);
}

function writeFileAtomically(file: string, data: Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, data);
  fs.renameSync(temp, file);
}

async function openOnDisk(location: string): Promise<{ size: number; stream(): Readable } | undefined> {
  try {
    const stat = fs.statSync(location);
    return { size: stat.size, stream: () => fs.createReadStream(location) };
  } catch {
    return undefined;
  }
}
