import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../store/schema.js';
import type { DbOrTx } from '../store/store.js';
import type { AccountRow, AdsActor } from './actor.js';
import { recordChange, type HistoryEntity } from './history/record.js';
import { AdsError } from './http/errors.js';
import { namePrefix } from './http/list.js';
import { newAdsId } from './ids.js';

/**
 * What the entities of an account (campaigns, line items, targeting criteria, funding
 * instruments, ...) share: they are created and read by account and id, a missing or deleted one
 * is 404 in the same words, DELETE is soft, and the account history records each change for the entities
 * it keeps; their lists filter the same way. Each entity declares itself once; what only it does
 * stays with it.
 */

/** Columns every entity of an account has; a deleted one keeps `deleted` = 1. */
interface AccountEntityColumns {
  id: string;
  account_id: string;
  created_at: string;
  updated_at: string;
  deleted: number;
}

/** The tables of entities of an account. */
type AccountEntityTable = { [T in keyof Database]: Database[T] extends AccountEntityColumns ? T : never }[keyof Database];

type Row<T extends AccountEntityTable> = Selectable<Database[T]> & AccountEntityColumns;

/** What a new entity is made of: the rest is the same for all. */
type NewAccountEntity<T extends AccountEntityTable> = Omit<Row<T>, keyof AccountEntityColumns>;

/**
 * Kysely cannot follow a table chosen by a type parameter: the queries here see every entity table
 * as the columns they all have, and their rows are typed back as the table's own.
 */
const entityTables = (db: DbOrTx) => db as unknown as Kysely<Record<AccountEntityTable, AccountEntityColumns>>;

/** What lists of account entities filter on, besides their own filters. */
export interface AccountEntityFilters {
  ids?: string[];
  /** A name prefix (`q`), for entities that have a name. */
  q?: string;
  withDeleted: boolean;
  /** Set for entities that have drafts: false leaves them out. */
  withDraft?: boolean;
}

/** An account's entities of one table, filtered (no order, no limit: see runList). */
export function entitiesOf<T extends AccountEntityTable>(db: DbOrTx, table: T, accountId: string, f: AccountEntityFilters): SelectQueryBuilder<Database, T, Selectable<Database[T]>> {
  const from: AccountEntityTable = table;
  let query = entityTables(db).selectFrom(from).selectAll().where('account_id', '=', accountId);
  if (f.ids) query = query.where('id', 'in', f.ids);
  if (f.q !== undefined) query = query.where(namePrefix('name', f.q));
  if (!f.withDeleted) query = query.where('deleted', '=', 0);
  if (f.withDraft === false) query = query.where(sql.ref('entity_status'), '!=', 'DRAFT');
  return query as unknown as SelectQueryBuilder<Database, T, Selectable<Database[T]>>;
}

interface AccountEntityDeclaration<T extends AccountEntityTable> {
  table: T;
  /** The entity in not-found messages: `<label> <id> was not found for Account <account id>`. */
  label: string;
  /** The parameter a not-found error names, unless the caller names another. */
  parameter: string;
  /** The not-found error code, for entities that have their own. */
  notFoundCode?: string;
  /** How the account history records a creation or deletion; absent for entities it does not keep. */
  history?: { entity: HistoryEntity; data: (row: Row<T>) => Record<string, unknown> };
}

/** One kind of account entity, from its declaration. */
export class AccountEntity<T extends AccountEntityTable> {
  /** The table, as the queries here see it. */
  private readonly table: AccountEntityTable;

  constructor(private readonly decl: AccountEntityDeclaration<T>) {
    this.table = decl.table;
  }

  /** Inserts a new, live entity of the account. */
  async create(actor: AdsActor, db: DbOrTx, account: AccountRow, fields: NewAccountEntity<T>): Promise<Row<T>> {
    const now = actor.ctx.clock.now().toISOString();
    const row = { id: newAdsId(actor.ctx), account_id: account.id, ...fields, created_at: now, updated_at: now, deleted: 0 } as Row<T>;
    await entityTables(db).insertInto(this.table).values(row).execute();
    await this.record(actor, db, account, 'CREATE', row);
    return row;
  }

  /** The 404 of an entity the account does not have (or has deleted). */
  notFound(id: string, account: AccountRow, parameter = this.decl.parameter): AdsError {
    return AdsError.notFound(`${this.decl.label} ${id} was not found for Account ${account.id}`, parameter, this.decl.notFoundCode);
  }

  /** One entity of the account; a deleted one only with with_deleted=true. */
  async get(db: DbOrTx, account: AccountRow, id: string | undefined, withDeleted = false, parameter?: string): Promise<Row<T>> {
    const row = id === undefined ? undefined : await this.find(db, account.id, id);
    if (!row || (row.deleted === 1 && !withDeleted)) throw this.notFound(id ?? '', account, parameter);
    return row;
  }

  /** Writes changes to an entity already read, with its updated_at, and records them; no changes, no write. */
  async update(actor: AdsActor, db: DbOrTx, account: AccountRow, before: Row<T>, changes: Partial<NewAccountEntity<T>>): Promise<Row<T>> {
    if (Object.keys(changes).length === 0) return before;
    return this.write(actor, db, account, before, changes, 'UPDATE');
  }

  /** Deletes an entity already read: soft, not reversible. */
  markDeleted(actor: AdsActor, db: DbOrTx, account: AccountRow, before: Row<T>): Promise<Row<T>> {
    return this.write(actor, db, account, before, { deleted: 1 }, 'DELETE');
  }

  /** DELETE: a second one is 404. */
  async delete(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined): Promise<Row<T>> {
    return this.markDeleted(actor, db, account, await this.get(db, account, id));
  }

  private async find(db: DbOrTx, accountId: string, id: string): Promise<Row<T> | undefined> {
    const row = await entityTables(db).selectFrom(this.table).selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return row as Row<T> | undefined;
  }

  private async write(actor: AdsActor, db: DbOrTx, account: AccountRow, before: Row<T>, changes: object, type: 'UPDATE' | 'DELETE'): Promise<Row<T>> {
    const after = (await entityTables(db)
      .updateTable(this.table)
      .set({ ...(changes as Partial<AccountEntityColumns>), updated_at: actor.ctx.clock.now().toISOString() })
      .where('id', '=', before.id)
      .returningAll()
      .executeTakeFirstOrThrow()) as Row<T>;
    await this.record(actor, db, account, type, after, before);
    return after;
  }

  /** Records a change in the account history, for the entities it keeps. */
  private async record(actor: AdsActor, db: DbOrTx, account: AccountRow, type: 'CREATE' | 'UPDATE' | 'DELETE', after: Row<T>, before?: Row<T>): Promise<void> {
    const history = this.decl.history;
    if (!history) return;
    await recordChange(actor, db, { accountId: account.id, entity: history.entity, entityId: after.id, type, before: before && history.data(before), entityData: history.data(after) });
  }
}
