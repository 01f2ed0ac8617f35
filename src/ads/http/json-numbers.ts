import type { FastifyInstance } from 'fastify';

/**
 * Ids the public platform writes as bare JSON numbers in a few places of the advertising
 * interface (the `tweet_ids` echo of POST promoted_tweets), where its Python SDK was built
 * against them. A JavaScript number cannot hold a 64-bit id exactly, so such an id goes into the
 * answer marked and is written as its digits after serialisation. Nothing else in an answer
 * holds a NUL (parameters refuse it), so the mark cannot be forged.
 */
const MARK = '\u0000';
const MARKED = /"\\u0000(\d{1,20})\\u0000"/g;

export class IdAsNumber {
  constructor(readonly digits: string) {}

  toJSON(): string {
    return `${MARK}${this.digits}${MARK}`;
  }
}

/** Writes the marked ids of every JSON answer as numbers (after the dialect's translation). */
export function installIdsAsNumbers(app: FastifyInstance): void {
  app.addHook('onSend', (_request, _reply, payload, done) => {
    done(null, typeof payload === 'string' && payload.includes('\\u0000') ? payload.replace(MARKED, '$1') : payload);
  });
}
