/** Media bytes kept in the store on PostgreSQL (migration 0040-media-blobs; src/platform/media/blobs.ts). */
export interface MediaBlobTables {
  media_blobs: MediaBlobTable;
}

/** One part (at most a mebibyte) of a kept file (`<media key>.<ext>`) or of an upload's segment (`upload/<id>/<index>`). */
export interface MediaBlobTable {
  name: string;
  part: number;
  bytes: Buffer;
}
