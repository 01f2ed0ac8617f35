import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
// @ts-expect-error s3rver ships no types: its constructor, run() and close() are all this uses.
import S3rver from 's3rver';

/**
 * An S3-compatible object store for the media bucket's tests: s3rver, an S3 server in Node that
 * keeps objects in a folder (MinIO, Ceph and Garage are not installable here from Debian or npm).
 * It listens on loopback; Plaza reaches it with AWS's own SDK, as it would any S3 store.
 * Credentials are s3rver's (S3RVER/S3RVER), given to the SDK through the environment; s3rver
 * refuses an unknown access key but does not check the signature's secret, so these tests do not
 * vouch for request signing (AWS's SDK does that).
 */
export interface BucketServer {
  endpoint: string;
  /** A client of the store, to look at what Plaza kept. */
  client: S3Client;
  /** The objects under `prefix`: key to bytes. */
  objects(bucket: string, prefix: string): Promise<Map<string, Buffer>>;
  /** Stops answering (the port closes); `start` listens again on the same port and folder. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startBucketServer(buckets: string[]): Promise<BucketServer> {
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-bucket-'));
  let port = 0;
  let server: { run(): Promise<{ port: number }>; close(): Promise<void> } | undefined;
  const start = async () => {
    server = new S3rver({ address: '127.0.0.1', port, directory, silent: true, configureBuckets: buckets.map((name) => ({ name })) });
    ({ port } = await server!.run());
  };
  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
  const stop = async () => {
    await server?.close();
    server = undefined;
  };
  return {
    endpoint,
    client,
    async objects(bucket, prefix) {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      const out = new Map<string, Buffer>();
      for (const o of listed.Contents ?? []) {
        const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: o.Key! }));
        out.set(o.Key!, Buffer.from(await got.Body!.transformToByteArray()));
      }
      return out;
    },
    stop,
    start,
    async close() {
      client.destroy();
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
