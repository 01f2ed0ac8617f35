import type { PlatformContext } from '../context.js';
import { jsonText, type RawJson } from '../../http/json-body.js';
import { sampleBucket } from '../../query/geo-sample.js';
import type { MatchablePost } from '../../query/index.js';
import type { LoggedEvent } from '../activity/event-types.js';
import { hydrate, ResponseReads, type Selection } from '../expansions.js';
import { postExpansions } from '../posts/service.js';
import { editHistoryOf, type PostRow } from '../posts/wire.js';
import type { MatchingRule, StreamRuleBook } from '../stream-rules/book.js';
import { matchablePosts } from '../stream-rules/matchable.js';
import type { RecordedConnection } from './connections.js';
import type { Send, StreamChannel } from './engine.js';
import { visibleTo } from '../visibility/memory.js';
import { READABLE } from '../visibility/rule.js';
import { errorsUnderBase } from '../../http/problems.js';
import { countPostsRead } from '../usage/post-reads.js';

/**
 * The post streams: the filtered stream (the app's rules), the 1 % and 10 % samples and the
 * firehose with its language variants. Each new post (edits are new versions) is read once
 * through the read pipeline, never shown when its author is protected, rendered once per field
 * selection, and sent to each connection that takes it: `{data, includes, matching_rules}` on the
 * filtered stream, `{data, includes}` on the others. Each post sent counts as a read by the
 * connection's app (usage/post-reads.ts).
 */

/** Which posts a connection takes. */
export type PostFilter =
  | { kind: 'rules' }
  /** sample:N of the query language: a post's bucket (0-99) below `percent`; `partition` of `partitions` splits what passes. */
  | { kind: 'sample'; percent: number; partition?: number; partitions?: number }
  | { kind: 'firehose'; partition: number; partitions: number; lang?: string };

export interface PostStreamConnection extends RecordedConnection {
  filter: PostFilter;
  selection: Selection;
  /** One text per selection: connections that share it share the rendering of each post. */
  selectionKey: string;
}

export function selectionKeyOf(selection: Selection): string {
  return JSON.stringify([selection.expansions, selection.post, selection.user, selection.media, selection.poll].map((s) => [...s].sort()));
}

/** A post's partition (1..partitions): the digits of its id above the two that pick the sample, spread evenly. */
export function partitionOf(id: string, partitions: number): number {
  const digits = id.length > 2 ? Number(id.slice(-6, -2)) : 0;
  return (digits % partitions) + 1;
}

export function takesPost(filter: PostFilter, post: PostRow): boolean {
  switch (filter.kind) {
    case 'rules':
      return true;
    case 'sample':
      return sampleBucket(post.id) < filter.percent && (filter.partitions === undefined || partitionOf(post.id, filter.partitions) === filter.partition);
    case 'firehose':
      return partitionOf(post.id, filter.partitions) === filter.partition && (filter.lang === undefined || post.lang === filter.lang);
  }
}

export class PostStreamChannel implements StreamChannel<PostStreamConnection> {
  readonly logTypes: ReadonlySet<string> = new Set(['post.create']);

  /** `ctx` is read at each dispatch: the engine dispatching is its world's (src/worlds/scope.ts), and so is the rule book. */
  constructor(private readonly ctx: PlatformContext) {}

  async dispatch(events: readonly LoggedEvent[], conns: readonly PostStreamConnection[], send: Send<PostStreamConnection>): Promise<void> {
    const ctx = this.ctx;
    const reads = new ResponseReads(ctx);
    const ids = events.map((e) => e.subject);
    const rows = new Map((await reads.postsByIds(ids)).map((p) => [p.id, p]));
    // Protected authors' posts are never streamed: a stream's reader is no one's approved follower.
    const authors = new Map((await reads.usersByIds([...rows.values()].map((p) => p.author_id))).map((u) => [u.id, u]));
    for (const [id, row] of rows) {
      const author = authors.get(row.author_id);
      if (!author || !visibleTo(READABLE, author, undefined, {})) rows.delete(id);
    }
    if (rows.size === 0) return;

    // Rules: each post's matching rules per app, the edits of a post matching the rules of its earlier version too.
    const ruleApps = [...new Set(conns.filter((c) => c.filter.kind === 'rules').map((c) => c.app.id))];
    const matched = new Map<string, Map<string, MatchingRule[]>>();
    if (ruleApps.length > 0) {
      const rules = ctx.streamRules;
      await rules.ensure(ruleApps);
      const previous = new Map<string, string>();
      for (const row of rows.values()) {
        const chain = editHistoryOf(row);
        if (chain.length > 1) previous.set(row.id, chain[chain.length - 2]);
      }
      const matchable = await matchablePosts(ctx, reads.db, [...rows.keys(), ...previous.values()]);
      for (const appId of ruleApps) {
        const byPost = new Map<string, MatchingRule[]>();
        for (const id of rows.keys()) {
          const candidates = [matchable.get(id), matchable.get(previous.get(id) ?? '')].filter((m): m is MatchablePost => m !== undefined);
          const found = new Map<string, MatchingRule>();
          for (const m of candidates) for (const r of rules.match(appId, m)) found.set(r.id, r);
          if (found.size > 0) byPost.set(id, [...found.values()]);
        }
        matched.set(appId, byPost);
      }
    }

    // Each post rendered once per selection, for the connections that take it.
    const rendered = new Map<string, string>();
    const render = async (conn: PostStreamConnection, row: PostRow): Promise<string> => {
      const key = `${conn.selectionKey}\u0000${row.id}`;
      let text = rendered.get(key);
      if (text === undefined) {
        const hydrated = await hydrate(ctx, { now: ctx.clock.now() }, [row], postExpansions, conn.selection, [], reads);
        const body = jsonText({ data: hydrated.post(row) as RawJson, includes: hydrated.includes as Record<string, RawJson[]> | undefined, errors: errorsUnderBase(hydrated.errors, ctx.config.problemBase) });
        // Without the closing brace: matching_rules, when any, follows.
        text = body.slice(0, -1);
        rendered.set(key, text);
      }
      return text;
    };
    for (const event of events) {
      const row = rows.get(event.subject);
      if (!row) continue;
      for (const conn of conns) {
        if (!takesPost(conn.filter, row)) continue;
        let tail = '}';
        if (conn.filter.kind === 'rules') {
          const rules = matched.get(conn.app.id)?.get(row.id);
          if (!rules) continue;
          tail = `,"matching_rules":${JSON.stringify(rules)}}`;
        }
        send(conn, event, `${await render(conn, row)}${tail}\r\n`);
        countPostsRead(ctx, conn.app.id, [row]);
      }
    }
  }
}
