import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { problems, ProblemError } from '../../http/problems.js';
import type { MediaBlobs } from './blobs.js';
import { writeInOrder } from './files.js';

/**
 * An S3-compatible object store for media bytes (issue 37 item 1), when the operator names one
 * (`--media-bucket s3://<bucket>[/<prefix>]`, and `--media-endpoint` for a store other than AWS's
 * own: MinIO, Ceph, R2...). Every process behind a balancer reaches it. The default world's files
 * and chunked uploads' segments are objects under the prefix (`<prefix><name>`,
 * `<prefix>uploads/<upload>/<index>`); a media row's file_path is `s3:<key>`. The client is AWS's
 * own SDK (`@aws-sdk/client-s3`), loaded when a bucket is configured; credentials and region come
 * from its usual chain (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, a profile, an
 * instance role).
 */
export interface BucketSettings {
  /** `s3://<bucket>[/<prefix>]`. */
  url: string;
  /** The store's address when it is not AWS (path-style requests); undefined for AWS. */
  endpoint?: string;
  region: string;
}

export const IN_BUCKET = 's3:';

/** The bucket and key prefix of `s3://<bucket>[/<prefix>]`; throws naming the form when it is not one. */
export function parseBucketUrl(url: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!match) throw new Error(`must be s3://<bucket>[/<prefix>] with a bucket name of 3 to 63 lower-case letters, digits, dots and hyphens, got ${JSON.stringify(url.slice(0, 200))}`);
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { bucket: match[1]!, prefix: prefix ? `${prefix}/` : '' };
}

/** One process's connection to the bucket (its SDK client, made on first use). */
export class MediaBucket {
  readonly bucket: string;
  readonly prefix: string;
  private client?: Promise<{ s3: S3Client; sdk: Sdk }>;

  constructor(private readonly settings: BucketSettings) {
    ({ bucket: this.bucket, prefix: this.prefix } = parseBucketUrl(settings.url));
  }

  /** Sends one request; a store that cannot be reached or refuses is a 503 problem (the operator's to mend, not the client's). */
  async send<T>(make: (sdk: Sdk) => object): Promise<T> {
    this.client ??= loadSdk().then((sdk) => ({
      sdk,
      s3: new sdk.S3Client({
        region: this.settings.region,
        ...(this.settings.endpoint ? { endpoint: this.settings.endpoint, forcePathStyle: true } : {}),
        // Checksums only where S3 requires them: S3-compatible stores do not all read the newer trailing ones.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    }));
    const { s3, sdk } = await this.client;
    try {
      return (await s3.send(make(sdk) as never)) as T;
    } catch (err) {
      if (isMissing(err)) throw new MissingObject();
      throw new MediaStoreUnreachable(describe(err));
    }
  }

  /** Rejects when the bucket cannot be reached with these credentials (readiness, start-up). */
  async reachable(): Promise<void> {
    try {
      await this.send((sdk) => new sdk.HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      throw err instanceof MissingObject ? new Error(`the store has no bucket ${this.bucket}`) : err;
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) (await client.catch(() => undefined))?.s3.destroy();
  }
}

type Sdk = typeof import('@aws-sdk/client-s3');

/** The SDK, loaded when a bucket is first used (a CommonJS package: its exports may come as the default). */
async function loadSdk(): Promise<Sdk> {
  const loaded = (await import('@aws-sdk/client-s3')) as Sdk & { default?: Sdk };
  return loaded.S3Client ? loaded : loaded.default!;
}

class MissingObject extends Error {}

/** The bucket did not answer, or refused: a 503 problem (the operator's to mend, not the client's); `why` is the store's error. */
export class MediaStoreUnreachable extends ProblemError {
  constructor(readonly why: string) {
    super(503, problems.aboutBlank(503, 'Service Unavailable', `The media store cannot be reached (${why}); send the request again.`));
  }
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

function describe(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode;
  return [e?.code ?? e?.name, status ? `HTTP ${status}` : undefined].filter(Boolean).join(', ') || String(e?.message ?? err);
}

/** Media bytes in the bucket; locations kept before the bucket was configured are read from where they are (`fallback`). */
export class BucketBlobs implements MediaBlobs {
  constructor(
    private readonly bucket: MediaBucket,
    private readonly fallback: MediaBlobs,
  ) {}

  private key(name: string): string {
    return `${this.bucket.prefix}${name}`;
  }

  private segmentKey(upload: string, index: number): string {
    return this.key(`uploads/${upload}/${index}`);
  }

  private async putObject(key: string, body: Buffer | Readable, length: number): Promise<void> {
    await this.bucket.send((sdk) => new sdk.PutObjectCommand({ Bucket: this.bucket.bucket, Key: key, Body: body, ContentLength: length }));
  }

  /** An object's bytes as a stream, fetched when first read; undefined when it is not there. */
  private async getObject(key: string): Promise<Readable | undefined> {
    try {
      const got = await this.bucket.send<{ Body?: Readable }>((sdk) => new sdk.GetObjectCommand({ Bucket: this.bucket.bucket, Key: key }));
      return got.Body ?? Readable.from([]);
    } catch (err) {
      if (err instanceof MissingObject) return undefined;
      throw err;
    }
  }

  async put(name: string, bytes: Buffer): Promise<string> {
    await this.putObject(this.key(name), bytes, bytes.length);
    return `${IN_BUCKET}${this.key(name)}`;
  }

  async putSegment(upload: string, index: number, bytes: Buffer): Promise<void> {
    await this.putObject(this.segmentKey(upload, index), bytes, bytes.length);
  }

  async segments(upload: string): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    const prefix = this.key(`uploads/${upload}/`);
    for (const object of await this.list(prefix)) {
      const index = object.key.slice(prefix.length);
      if (/^\d+$/.test(index)) out.set(Number(index), object.size);
    }
    return out;
  }

  private async list(prefix: string): Promise<Array<{ key: string; size: number }>> {
    const out: Array<{ key: string; size: number }> = [];
    let token: string | undefined;
    do {
      const page = await this.bucket.send<{ Contents?: Array<{ Key?: string; Size?: number }>; NextContinuationToken?: string; IsTruncated?: boolean }>(
        (sdk) => new sdk.ListObjectsV2Command({ Bucket: this.bucket.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) out.push({ key: o.Key, size: o.Size ?? 0 });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async assembleTo(upload: string, indexes: readonly number[], target: string): Promise<void> {
    await writeInOrder(target, indexes.map((i) => () => this.lazyStream(this.segmentKey(upload, i))));
  }

  async keep(_upload: string, _indexes: readonly number[], assembled: string, name: string): Promise<string> {
    // The assembled copy (probed already) goes up as one object, streamed from disk.
    await this.putObject(this.key(name), fs.createReadStream(assembled), fs.statSync(assembled).size);
    fs.rmSync(assembled, { force: true });
    return `${IN_BUCKET}${this.key(name)}`;
  }

  async dropUpload(upload: string): Promise<void> {
    const objects = await this.list(this.key(`uploads/${upload}/`));
    // At most 1,000 keys a request (S3's limit).
    for (let i = 0; i < objects.length; i += 1000) {
      const batch = objects.slice(i, i + 1000).map((o) => ({ Key: o.key }));
      await this.bucket.send((sdk) => new sdk.DeleteObjectsCommand({ Bucket: this.bucket.bucket, Delete: { Objects: batch, Quiet: true } }));
    }
  }

  async open(location: string) {
    if (!location.startsWith(IN_BUCKET)) return this.fallback.open(location);
    const key = location.slice(IN_BUCKET.length);
    try {
      const head = await this.bucket.send<{ ContentLength?: number }>((sdk) => new sdk.HeadObjectCommand({ Bucket: this.bucket.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, stream: () => this.lazyStream(key) };
    } catch (err) {
      if (err instanceof MissingObject) return undefined;
      throw err;
    }
  }

  async read(location: string): Promise<Buffer | undefined> {
    if (!location.startsWith(IN_BUCKET)) return this.fallback.read(location);
    const body = await this.getObject(location.slice(IN_BUCKET.length));
    if (!body) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async remove(location: string): Promise<void> {
    if (!location.startsWith(IN_BUCKET)) return this.fallback.remove(location);
    await this.bucket.send((sdk) => new sdk.DeleteObjectCommand({ Bucket: this.bucket.bucket, Key: location.slice(IN_BUCKET.length) }));
  }

  /** A stream of the object's bytes that asks for them once read (a HEAD answered by `open` never fetches them). */
  private lazyStream(key: string): Readable {
    const load = () => this.getObject(key);
    return Readable.from(
      (async function* () {
        const body = await load();
        if (!body) throw new Error(`the media object ${key} is gone`);
        yield* body;
      })(),
      { objectMode: false },
    );
  }
}
