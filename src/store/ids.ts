import { randomBytes, randomInt } from 'node:crypto';
import type { Clock } from '../clock.js';

/** The public platform's epoch (2010-11-04), so ids look and sort like its snowflakes. */
const EPOCH_MS = 1288834974657n;

/**
 * Time-ordered decimal ids of at most 19 digits: 41 bits of milliseconds since the epoch, 10 bits
 * of worker (leased from the store by a server process, src/store/worker-lease.ts; random where
 * none is given), 12 bits of sequence.
 */
export class IdGenerator {
  private worker: bigint;
  private lastMs = -1n;
  private sequence = 0n;

  constructor(
    private readonly clock: Clock,
    worker: number = randomInt(1024),
  ) {
    this.worker = BigInt(worker);
  }

  /** Ids from now on carry this worker number (a lease lost and another taken). */
  useWorker(worker: number): void {
    this.worker = BigInt(worker);
  }

  next(): string {
    let ms = BigInt(this.clock.now().getTime()) - EPOCH_MS;
    if (ms < 0n) ms = 0n;
    // A clock moved backwards (tests, the admin clock) must not produce a smaller or equal id.
    if (ms <= this.lastMs) {
      ms = this.lastMs;
      this.sequence = (this.sequence + 1n) & 0xfffn;
      if (this.sequence === 0n) ms = this.lastMs + 1n;
    } else {
      this.sequence = 0n;
    }
    this.lastMs = ms;
    return ((ms << 22n) | (this.worker << 12n) | this.sequence).toString();
  }
}

/** A random URL-safe secret of the given number of bytes. */
export function secretToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A random string of letters and digits, like the platform's consumer keys. */
export function alphanumeric(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}
