import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { policyLookup, refusedAddress, type DestinationPolicy } from './url-policy.js';

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

/**
 * Sends the CRC challenge (GET url?crc_token=...) and checks the answer. A redirect, a non-200,
 * a wrong or missing response_token, a time-out (the whole answer, body included, must arrive
 * within `timeoutMs`) or a network error all make the webhook invalid.
 *
 * The connection only goes to an address `policy` allows (src/platform/webhooks/url-policy.ts),
 * checked when it is made. Every failure before an HTTP status line arrives (refused, reset,
 * unreachable, a name that does not resolve, a refused address, a peer that is not HTTP, silence)
 * gets one and the same reason: the answer must not tell an open port from a closed one.
 * Without a policy, only addresses no policy allows (link-local, unspecified) are refused.
 */
export async function runCrc(url: string, consumerSecret: string, timeoutMs: number, policy: DestinationPolicy = { development: true }): Promise<CrcOutcome> {
  const crcToken = randomBytes(24).toString('base64url');
  const target = new URL(url);
  target.searchParams.set('crc_token', crcToken);
  const noAnswer: CrcOutcome = { valid: false, reason: `no HTTP answer within ${timeoutMs} ms` };
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return noAnswer;
  // A literal address is never looked up, so the lookup below cannot refuse it: checked here.
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && refusedAddress(literal, policy)) return noAnswer;

  return new Promise<CrcOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: CrcOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(outcome);
    };
    let answered = false;
    const timer = setTimeout(() => finish(answered ? { valid: false, reason: `no complete answer within ${timeoutMs} ms` } : noAnswer), timeoutMs);
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      { method: 'GET', headers: { accept: 'application/json' }, lookup: policyLookup(policy), agent: false },
      (response) => {
        answered = true;
        if (response.statusCode !== 200) return finish({ valid: false, reason: `answered HTTP ${response.statusCode}` });
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) return finish({ valid: false, reason: `answer is longer than ${MAX_ANSWER_BYTES} bytes` });
          chunks.push(chunk);
        });
        response.on('error', () => finish({ valid: false, reason: 'answer could not be read' }));
        response.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            return finish({ valid: false, reason: 'answer is not JSON' });
          }
          const token = (body as { response_token?: unknown } | null)?.response_token;
          finish(token === crcResponseToken(crcToken, consumerSecret) ? { valid: true } : { valid: false, reason: 'wrong response_token' });
        });
      },
    );
    request.on('error', () => finish(answered ? { valid: false, reason: 'answer could not be read' } : noAnswer));
    request.end();
  });
}
