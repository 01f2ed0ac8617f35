import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Delivery from the event log: consumer cursors, the webhook delivery outbox, the webhook
 * lifecycle columns, Account Activity subscriptions and replay jobs. The same on both engines.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  // Where each durable consumer of the log has read up to (the webhook fan-out is one).
  await db.schema
    .createTable('event_cursors')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .execute();

  // The lifecycle of the reference: transient failures are tolerated until `failing_since` is
  // more than 28 h old; `invalid_reason` says why a webhook became invalid.
  await db.schema.alterTable('webhooks').addColumn('failing_since', 'text').execute();
  await db.schema.alterTable('webhooks').addColumn('invalid_reason', 'text').execute();
  await db.schema.alterTable('webhooks').addColumn('last_crc_attempt_at', 'text').execute();
  await db.schema.createIndex('webhooks_app_url').on('webhooks').columns(['app_id', 'url']).unique().execute();

  // One row per (webhook, event, router, part, replay job): the delivery id clients dedupe on is `id`.
  // Rows outlive their delivery for 24 h and more, since replay re-delivers from them.
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_seq', 'bigint', (c) => c.notNull())
    .addColumn('route', 'integer', (c) => c.notNull())
    .addColumn('part', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('replay_job_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('claimed_until', 'text')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .addUniqueConstraint('webhook_deliveries_once', ['webhook_id', 'event_id', 'route', 'part', 'replay_job_id'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_webhook_created').on('webhook_deliveries').columns(['webhook_id', 'created_at']).execute();

  await db.schema
    .createTable('account_activity_subscriptions')
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    // Whether the subscribing token could read direct messages: only then are DM events delivered.
    .addColumn('direct_messages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_activity_subscriptions_pk', ['webhook_id', 'user_id'])
    .execute();
  await db.schema.createIndex('account_activity_subscriptions_user').on('account_activity_subscriptions').column('user_id').execute();
  await db.schema.createIndex('account_activity_subscriptions_app').on('account_activity_subscriptions').column('app_id').execute();

  await db.schema
    .createTable('webhook_replay_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('from_time', 'text', (c) => c.notNull())
    .addColumn('to_time', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('webhook_replay_jobs_webhook_state').on('webhook_replay_jobs').columns(['webhook_id', 'state']).execute();
}
