import type { Kysely } from 'kysely'

/** Support tickets, their conversation, and the per-day counters behind ticket numbers (relay/tickets). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tickets')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('number', 'varchar(16)', (col) => col.notNull().unique())
    .addColumn('user_id', 'bigint', (col) => col.notNull().references('users.id'))
    .addColumn('type', 'varchar(16)', (col) => col.notNull())
    .addColumn('priority', 'varchar(8)', (col) => col.notNull())
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('title', 'varchar(120)', (col) => col.notNull())
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('assignee_id', 'bigint', (col) => col.references('users.id'))
    // A JSON array of a few short strings: never queried by element, so no join table.
    .addColumn('tags', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('update_timestamp', 'bigint', (col) => col.notNull())
    .addColumn('reply_timestamp', 'bigint')
    .addColumn('closed_timestamp', 'bigint')
    .execute()
  await db.schema.createIndex('tickets_user_status').on('tickets').columns(['user_id', 'status']).execute()
  await db.schema.createIndex('tickets_status').on('tickets').column('status').execute()

  await db.schema
    .createTable('ticket_messages')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('ticket_id', 'bigint', (col) => col.notNull().references('tickets.id'))
    .addColumn('author_kind', 'varchar(8)', (col) => col.notNull())
    // Both null for an operator reply to an unassigned ticket: the portal names it "support".
    .addColumn('author_id', 'bigint', (col) => col.references('users.id'))
    .addColumn('author_name', 'varchar(64)')
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('create_timestamp', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('ticket_messages_ticket').on('ticket_messages').column('ticket_id').execute()

  await db.schema
    .createTable('ticket_number_days')
    .addColumn('day', 'varchar(6)', (col) => col.primaryKey())
    .addColumn('counter', 'integer', (col) => col.notNull())
    .execute()
}
