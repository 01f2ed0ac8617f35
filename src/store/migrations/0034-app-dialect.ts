import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * An app's dialect (issue 34): 'post' answers in Plaza's names, except to a request that itself
 * uses the public platform's names; 'tweet' answers every request of the app, and delivers
 * everything sent to it, in the public platform's names. Apps made before this keep 'post'.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema.alterTable('apps').addColumn('dialect', 'text', (c) => c.notNull().defaultTo('post')).execute();
}
