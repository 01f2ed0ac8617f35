import { createHmac, randomBytes } from 'node:crypto';

/** The response token a webhook must return: `sha256=` + base64 HMAC-SHA256 of the token under the consumer secret. */
export function crcResponseToken(crcToken: string, consumerSecret: string): string {
  return `sha256=${createHmac('sha256', consumerSecret).update(crcToken).digest('base64')}`;
}

export interface CrcOutcome {
  valid: boolean;
  /** Why it failed, for the log and the error message. */
  reason?: string;
}

/** A CRC answer is a one-field JSON object; anything much larger is not one. */
const MAX_ANSWER_BYTES = 16 * 1024;

const isTimeout = (err: unknown) => (err as Error | null)?.name === 'TimeoutError';

/**
 * Sends the CRC challenge (GET url?crc_token=...) and checks the answer. A redirect, a non-200,
 * a wrong or missing response_token, a time-out (the whole answer, body included, must arrive
 * within `timeoutMs`) or a network error all make the webhook invalid.
 */
export async function runCrc(url: string, consumerSecret: string, timeoutMs: number): Promise<CrcOutcome> {
  const crcToken = randomBytes(24).toString('base64url');
  const target = new URL(url);
  target.searchParams.set('crc_token', crcToken);
  const tooSlow: CrcOutcome = { valid: false, reason: `no answer within ${timeoutMs} ms` };
  let response: Response;
  try {
    response = await fetch(target, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  } catch (err) {
    return isTimeout(err) ? tooSlow : { valid: false, reason: `request failed: ${(err as Error).message}` };
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    return { valid: false, reason: `answered HTTP ${response.status}` };
  }
  let text: string;
  try {
    text = await readLimited(response, MAX_ANSWER_BYTES);
  } catch (err) {
    return isTimeout(err) ? tooSlow : { valid: false, reason: `answer could not be read: ${(err as Error).message}` };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { valid: false, reason: 'answer is not JSON' };
  }
  const token = (body as { response_token?: unknown } | null)?.response_token;
  if (token !== crcResponseToken(crcToken, consumerSecret)) return { valid: false, reason: 'wrong response_token' };
  return { valid: true };
}

/** The body as text, refusing (and dropping) one longer than `limit` bytes. */
async function readLimited(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`answer is longer than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
