import { createHash } from 'node:crypto';

/** Bearer and OAuth 2.0 tokens are stored as SHA-256 hashes; this is the one hashing rule. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
