import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppRow } from '../../auth/store.js';
import type { PlatformContext } from '../context.js';
import { invalidParameter } from '../../http/params.js';
import type { Listener } from '../../http/server.js';
import { listParam } from '../../http/fields.js';
import { parseSelection, selectionParams } from '../expansions.js';
import { postExpansions } from '../posts/service.js';
import { callerOf } from '../route-auth.js';
import { checkPostCap } from '../usage/post-reads.js';
import { defaultErrorResponse } from '../schemas.js';
import { requireEnterprise } from '../stream-rules/service.js';
import {
  LikeStreamChannel,
  LIKE_FIELDS,
  likeExpansions,
  parseLikeFields,
  PostComplianceChannel,
  SilentChannel,
  LikeComplianceChannel,
  UserComplianceChannel,
  type LikeStreamConnection,
  type PartitionedConnection,
} from './compliance.js';
import { openRecordedStream, type EndpointId } from './connections.js';
import type { StreamChannel } from './engine.js';
import { checkRulesForConnection, invalidRulesOfApp } from './filtered.js';
import { FilteredPostMessage, LikeComplianceMessage, LikeMessage, PostComplianceMessage, PostMessage, streamResponse, UserComplianceMessage } from './messages.js';
import { PostStreamChannel, selectionKeyOf, type PostFilter, type PostStreamConnection } from './posts.js';
import { parseStreamWindow, type StreamWindowQuery } from './window.js';

/**
 * The Stream-tagged operations of the reference (shared/reference/coverage.md, 'tweet' renamed
 * 'post'), each a persistent stream on the process's engine (src/platform/streams/engine.ts),
 * recorded as a connection of its endpoint id (GET /2/connections).
 */

const windowQuery = {
  backfill_minutes: Type.Optional(Type.String({ description: 'Minutes of the log to replay first, 0 to 5.' })),
  start_time: Type.Optional(Type.String({ description: 'Replay the log from this time (YYYY-MM-DDTHH:mm:ssZ).' })),
  end_time: Type.Optional(Type.String({ description: 'End the stream at this time.' })),
};
const partitionQuery = (max: number) => ({ partition: Type.String({ description: `The partition to read, 1 to ${max}.` }) });
const selectionQuery = selectionParams(postExpansions);
const likeQuery = {
  ...selectionParams(likeExpansions),
  'like_with_post_author.fields': listParam(LIKE_FIELDS, 'A comma separated list of like fields to display.'),
};

type Query = StreamWindowQuery & Record<string, string | undefined>;

function parsePartition(raw: string | undefined, max: number): number {
  if (raw === undefined) throw invalidParameter('partition', [], 'The `partition` query parameter is required');
  const n = Number(raw);
  if (!/^[0-9]+$/.test(raw) || n < 1 || n > max) throw invalidParameter('partition', [raw], `The \`partition\` query parameter value [${raw}] is not between 1 and ${max}`);
  return n;
}

interface StreamDef {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  endpoint: EndpointId;
  enterprise: boolean;
  /** The partitions of a partitioned endpoint. */
  partitions?: number;
  query: TProperties;
  /** The shape of its data lines (src/platform/streams/messages.ts); none for a stream of keep-alives only. */
  message?: TSchema;
  open(ctx: PlatformContext, app: AppRow, query: Query, partition: number | undefined, request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

export async function streamRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  const posts = new PostStreamChannel(ctx);
  const postCompliance = new PostComplianceChannel();
  const userCompliance = new UserComplianceChannel();
  const silent = new SilentChannel();
  const likeCompliance = new LikeComplianceChannel();
  const likes = new LikeStreamChannel(ctx);

  // A change of an app's rules that leaves them invalid cuts its filtered streams (InvalidRules):
  // heard from each world's rule book once a stream by rules of that world opens, not before (the
  // book then listens to every other process's writes; the book calls back in its world, and
  // forgets its listeners when its world closes).
  const heard = new WeakSet<PlatformContext['streamRules']>();
  const hearRuleChanges = (): void => {
    const book = ctx.streamRules;
    if (heard.has(book)) return;
    heard.add(book);
    book.onChange((appId) => {
      const conns = ctx.streams.list((c) => c.channel === posts && c.app.id === appId && (c as PostStreamConnection).filter.kind === 'rules');
      if (conns.length === 0) return;
      invalidRulesOfApp(ctx, appId)
        .then((reason) => {
          if (reason) for (const conn of conns) ctx.streams.cut(conn, 'InvalidRules');
        })
        .catch((err) => ctx.log.error({ err }, 'filtered stream: checking the rules failed'));
    });
  };
  app.addHook('preClose', async () => {
    await ctx.streams.close();
  });

  const postStream = (endpoint: EndpointId, filterOf: (partition: number | undefined) => PostFilter) =>
    async (c: PlatformContext, a: AppRow, query: Query, partition: number | undefined, request: FastifyRequest, reply: FastifyReply) => {
      const window = parseStreamWindow(c, query);
      const selection = parseSelection(query, postExpansions);
      const filter = filterOf(partition);
      if (filter.kind === 'rules') hearRuleChanges();
      // A stream sends posts: past the tier's monthly post cap, it is not opened.
      await checkPostCap(c, a);
      await openRecordedStream<PostStreamConnection>(
        c,
        { app: a, channel: posts, endpoint, filter, selection, selectionKey: selectionKeyOf(selection) },
        partition ?? 0,
        window,
        request,
        reply,
        filter.kind === 'rules'
          ? async () => {
              await checkRulesForConnection(c, a);
              await c.streamRules.ensure([a.id]);
            }
          : undefined,
      );
    };

  const eventStream = (endpoint: EndpointId, channel: StreamChannel<PartitionedConnection>, partitions?: number) =>
    async (c: PlatformContext, a: AppRow, query: Query, partition: number | undefined, request: FastifyRequest, reply: FastifyReply) => {
      const window = parseStreamWindow(c, query);
      await openRecordedStream<PartitionedConnection>(c, { app: a, channel, endpoint, partition, partitions }, partition ?? 0, window, request, reply);
    };

  const likeStream = (endpoint: EndpointId, partitions: number, percent?: number) =>
    async (c: PlatformContext, a: AppRow, query: Query, partition: number | undefined, request: FastifyRequest, reply: FastifyReply) => {
      const window = parseStreamWindow(c, query);
      const selection = parseSelection(query, likeExpansions);
      const likeFields = parseLikeFields(query['like_with_post_author.fields']);
      await openRecordedStream<LikeStreamConnection>(
        c,
        { app: a, channel: likes, endpoint, partition, partitions, percent, likeFields, selection, selectionKey: selectionKeyOf(selection) },
        partition ?? 0,
        window,
        request,
        reply,
      );
    };

  const firehoseLang = (lang: string, partitions: number): StreamDef => ({
    path: `/2/posts/firehose/stream/lang/${lang}`,
    operationId: `streamPostsFirehose${lang[0].toUpperCase()}${lang[1]}`,
    summary: `Stream every public post in language ${lang} (enterprise)`,
    description: `Every new public post (and edit) whose lang is \`${lang}\`, split into ${partitions} partitions by post id.`,
    endpoint: `firehose_stream_lang_${lang}` as EndpointId,
    enterprise: true,
    partitions,
    query: { ...windowQuery, ...selectionQuery, ...partitionQuery(partitions) },
    message: PostMessage,
    open: postStream(`firehose_stream_lang_${lang}` as EndpointId, (p) => ({ kind: 'firehose', partition: p!, partitions, lang })),
  });

  const defs: StreamDef[] = [
    {
      path: '/2/posts/search/stream',
      operationId: 'streamPosts',
      summary: "Stream the posts that match the app's rules",
      description:
        'A persistent HTTP stream: one `{data, includes, matching_rules:[{id, tag}]}` line per new public post, or edit, matching the app\'s rules (POST /2/posts/search/stream/rules), `\\r\\n` keep-alives at least every 20 s, backfill_minutes (0 to 5) or start_time/end_time read from the event log. No rules: 409 (RuleConfigurationIssue); invalid rules: 409 (RulesInvalidIssue), or an InvalidRules disconnect when they become invalid.',
      endpoint: 'filtered_stream',
      enterprise: false,
      query: { ...windowQuery, ...selectionQuery },
      message: FilteredPostMessage,
      open: postStream('filtered_stream', () => ({ kind: 'rules' })),
    },
    {
      path: '/2/posts/sample/stream',
      operationId: 'streamPostsSample',
      summary: 'Stream a 1 % sample of public posts',
      description: 'A deterministic 1 % of new public posts, chosen by post id (the sample:1 of the query language).',
      endpoint: 'sample_stream',
      enterprise: false,
      query: { backfill_minutes: windowQuery.backfill_minutes, ...selectionQuery },
      message: PostMessage,
      open: postStream('sample_stream', () => ({ kind: 'sample', percent: 1 })),
    },
    {
      path: '/2/posts/sample10/stream',
      operationId: 'streamPostsSample10',
      summary: 'Stream a 10 % sample of public posts (enterprise)',
      description: 'A deterministic 10 % of new public posts, chosen by post id (sample:10), split into 2 partitions.',
      endpoint: 'sample10_stream',
      enterprise: true,
      partitions: 2,
      query: { ...windowQuery, ...selectionQuery, ...partitionQuery(2) },
      message: PostMessage,
      open: postStream('sample10_stream', (p) => ({ kind: 'sample', percent: 10, partition: p, partitions: 2 })),
    },
    {
      path: '/2/posts/firehose/stream',
      operationId: 'streamPostsFirehose',
      summary: 'Stream every public post (enterprise)',
      description: 'Every new public post (and edit), split into 20 partitions by post id.',
      endpoint: 'firehose_stream',
      enterprise: true,
      partitions: 20,
      query: { ...windowQuery, ...selectionQuery, ...partitionQuery(20) },
      message: PostMessage,
      open: postStream('firehose_stream', (p) => ({ kind: 'firehose', partition: p!, partitions: 20 })),
    },
    firehoseLang('en', 8),
    firehoseLang('ja', 2),
    firehoseLang('ko', 2),
    firehoseLang('pt', 2),
    {
      path: '/2/posts/compliance/stream',
      operationId: 'streamPostsCompliance',
      summary: 'Stream post compliance events (enterprise)',
      description: 'Post deletes (`delete`) and edits (`post_edit`) as they happen, split into 4 partitions by post id.',
      endpoint: 'tweets_compliance_stream',
      enterprise: true,
      partitions: 4,
      query: { ...windowQuery, ...partitionQuery(4) },
      message: PostComplianceMessage,
      open: eventStream('tweets_compliance_stream', postCompliance, 4),
    },
    {
      path: '/2/users/compliance/stream',
      operationId: 'streamUsersCompliance',
      summary: 'Stream user compliance events (enterprise)',
      description: 'Profile modifications (`user_profile_modification`) as they happen, split into 4 partitions by user id.',
      endpoint: 'users_compliance_stream',
      enterprise: true,
      partitions: 4,
      query: { ...windowQuery, ...partitionQuery(4) },
      message: UserComplianceMessage,
      open: eventStream('users_compliance_stream', userCompliance, 4),
    },
    {
      path: '/2/likes/compliance/stream',
      operationId: 'streamLikesCompliance',
      summary: 'Stream like compliance events (enterprise)',
      description: 'Unlikes as they happen: `{"data":{"delete":{"favorite":{"id","user_id"},"event_at"}}}`.',
      endpoint: 'likes_compliance_stream',
      enterprise: true,
      query: { ...windowQuery },
      message: LikeComplianceMessage,
      open: eventStream('likes_compliance_stream', likeCompliance),
    },
    {
      path: '/2/posts/label/stream',
      operationId: 'streamLabelsCompliance',
      summary: 'Stream post label events (enterprise)',
      description: 'Labels applied to and removed from posts. Plaza has no post labels yet: the stream carries keep-alives only.',
      endpoint: 'tweet_label_stream',
      enterprise: true,
      query: { ...windowQuery },
      open: eventStream('tweet_label_stream', silent),
    },
    {
      path: '/2/likes/firehose/stream',
      operationId: 'streamLikesFirehose',
      summary: 'Stream every public like (enterprise)',
      description: 'Every like of a public post, as `{data: Like, includes}`, split into 20 partitions by like id.',
      endpoint: 'likes_firehose_stream',
      enterprise: true,
      partitions: 20,
      query: { ...windowQuery, ...likeQuery, ...partitionQuery(20) },
      message: LikeMessage,
      open: likeStream('likes_firehose_stream', 20),
    },
    {
      path: '/2/likes/sample10/stream',
      operationId: 'streamLikesSample10',
      summary: 'Stream a 10 % sample of public likes (enterprise)',
      description: 'A deterministic 10 % of likes of public posts, chosen by like id, split into 2 partitions.',
      endpoint: 'likes_sample10_stream',
      enterprise: true,
      partitions: 2,
      query: { ...windowQuery, ...likeQuery, ...partitionQuery(2) },
      message: LikeMessage,
      open: likeStream('likes_sample10_stream', 2, 10),
    },
  ];

  for (const def of defs) {
    app.get(
      def.path,
      {
        config: { auth: { schemes: ['app'] } },
        schema: {
          operationId: def.operationId,
          summary: def.summary,
          description: def.description,
          tags: ['Stream'],
          querystring: Type.Object(def.query, { additionalProperties: false }),
          response: { 200: streamResponse(def.message), default: defaultErrorResponse },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request).app;
        const query = request.query as Query;
        if (def.enterprise) requireEnterprise(ctx, caller, 'The streams of the enterprise tier');
        const partition = def.partitions !== undefined ? parsePartition(query.partition, def.partitions) : undefined;
        await def.open(ctx, caller, query, partition, request, reply);
      },
    );
  }
}
