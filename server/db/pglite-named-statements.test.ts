import { PGlite } from '@electric-sql/pglite';
import { and, eq, sql, type Logger } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { drizzleWithNamedStatements } from './pglite-named-statements';

const notes = pgTable('notes', {
  id: serial('id').primaryKey(),
  title: text('title').notNull().unique(),
  score: integer('score'),
  tags: jsonb('tags').$type<string[]>(),
  writtenAt: timestamp('written_at', { withTimezone: true }),
  pinned: boolean('pinned').notNull().default(false),
});

/** A table created only during one test. */
const drafts = pgTable('drafts', { id: serial('id').primaryKey() });

const silent: Logger = { logQuery: () => {} };

let client: PGlite;
let db: ReturnType<typeof drizzleWithNamedStatements>;

beforeAll(async () => {
  client = await PGlite.create();
});

afterAll(async () => {
  await client.close();
});

beforeEach(async () => {
  await client.exec(`deallocate all; drop table if exists notes; drop table if exists drafts; create table notes (
    id serial primary key, title text not null unique, score integer, tags jsonb, written_at timestamptz,
    pinned boolean not null default false)`);
  db = drizzleWithNamedStatements(client, { schema: { notes }, logger: silent });
});

async function preparedStatements(): Promise<Array<{ name: string; executions: number }>> {
  const result = await client.query<{ name: string; generic_plans: number; custom_plans: number }>(
    'select name, generic_plans::int, custom_plans::int from pg_prepared_statements order by name',
  );
  return result.rows.map((row) => ({ name: row.name, executions: row.generic_plans + row.custom_plans }));
}

const noteByTitle = () =>
  db
    .select()
    .from(notes)
    .where(eq(notes.title, sql.placeholder('title')))
    .prepare('note_by_title');

describe('named statements on PGlite', () => {
  it('prepares a named statement once and executes it by name', async () => {
    await db.insert(notes).values({ title: 'first', score: 1 });
    const statement = noteByTitle();
    for (let call = 0; call < 7; call++) {
      const [note] = await statement.execute({ title: 'first' });
      expect(note?.score).toBe(1);
    }
    expect(await preparedStatements()).toEqual([{ name: 'note_by_title', executions: 7 }]);
  });

  it('leaves statements without a name unprepared', async () => {
    await db.select().from(notes).where(eq(notes.title, 'first'));
    await db.insert(notes).values({ title: 'second' });
    expect(await preparedStatements()).toEqual([]);
  });

  it('sends and reads back nulls, JSON, times and text as the unnamed path does', async () => {
    const writtenAt = new Date('2026-12-07T11:30:00.123Z');
    await db.insert(notes).values([
      { title: '第一 note, with "quotes"', score: null, tags: ['a', '中'], writtenAt },
      { title: 'empty', score: 0, tags: [], writtenAt: null },
    ]);
    const statement = noteByTitle();
    const [named] = await statement.execute({ title: '第一 note, with "quotes"' });
    const [unnamed] = await db.select().from(notes).where(eq(notes.title, '第一 note, with "quotes"'));
    expect(named).toEqual({
      id: 1,
      title: '第一 note, with "quotes"',
      score: null,
      tags: ['a', '中'],
      writtenAt,
      pinned: false,
    });
    expect(named).toEqual(unnamed);
    expect(await statement.execute({ title: 'empty' })).toEqual([
      { id: 2, title: 'empty', score: 0, tags: [], writtenAt: null, pinned: false },
    ]);
    expect(await statement.execute({ title: 'nobody' })).toEqual([]);
  });

  it('reports a refused statement with its SQLSTATE and answers the next one', async () => {
    const insertNote = db
      .insert(notes)
      .values({ title: sql.placeholder('title') })
      .returning({ id: notes.id })
      .prepare('insert_note');
    expect(await insertNote.execute({ title: 'once' })).toEqual([{ id: 1 }]);
    const refusal = await insertNote.execute({ title: 'once' }).catch((error: unknown) => error);
    expect((refusal as { cause?: { code?: string } }).cause?.code).toBe('23505');
    expect(await insertNote.execute({ title: 'twice' })).toEqual([{ id: 3 }]);
  });

  it('sends lists and booleans through the serializer of each parameter type', async () => {
    await db.insert(notes).values([{ title: 'a' }, { title: 'b', pinned: true }, { title: 'c', pinned: true }]);
    const pinnedAmong = db
      .select({ title: notes.title })
      .from(notes)
      .where(and(sql`${notes.id} = any(${sql.placeholder('ids')}::int[])`, eq(notes.pinned, sql.placeholder('pinned'))))
      .orderBy(notes.id)
      .prepare('pinned_among');
    expect(await pinnedAmong.execute({ ids: [1, 3], pinned: true })).toEqual([{ title: 'c' }]);
    expect(await pinnedAmong.execute({ ids: [1, 2, 3], pinned: false })).toEqual([{ title: 'a' }]);
  });

  it('answers a statement without selected fields with the rows it changed', async () => {
    await db.insert(notes).values([{ title: 'x', score: 1 }]);
    const rescore = db
      .update(notes)
      .set({ score: sql`${notes.score} + 1` })
      .where(eq(notes.title, sql.placeholder('title')))
      .prepare('rescore');
    expect((await rescore.execute({ title: 'x' })).affectedRows).toBe(1);
    expect((await rescore.execute({ title: 'nobody' })).affectedRows).toBe(0);
    expect(await db.select({ score: notes.score }).from(notes)).toEqual([{ score: 2 }]);
  });

  it('prepares a statement again when a column it returns changed type', async () => {
    await db.insert(notes).values({ title: 'retyped', score: 7 });
    // A raw field reads the value as the database's parser gives it: 7 while an integer, '7' as text.
    const scoreOf = db
      .select({ score: sql`${notes.score}` })
      .from(notes)
      .where(eq(notes.title, sql.placeholder('title')))
      .prepare('score_of');
    expect(await scoreOf.execute({ title: 'retyped' })).toEqual([{ score: 7 }]);
    await client.exec('alter table notes alter column score type text');
    expect(await scoreOf.execute({ title: 'retyped' })).toEqual([{ score: '7' }]);
  });

  it('prepares a statement again after DEALLOCATE ALL, and for a second instance on the same client', async () => {
    await db.insert(notes).values({ title: 'kept' });
    expect(await noteByTitle().execute({ title: 'kept' })).toHaveLength(1);
    await client.exec('deallocate all');
    expect(await noteByTitle().execute({ title: 'kept' })).toHaveLength(1);
    const second = drizzleWithNamedStatements(client, { schema: { notes }, logger: silent });
    const again = second
      .select()
      .from(notes)
      .where(eq(notes.title, sql.placeholder('title')))
      .prepare('note_by_title');
    expect(await again.execute({ title: 'kept' })).toHaveLength(1);
    expect(await noteByTitle().execute({ title: 'kept' })).toHaveLength(1);
  });

  it('prepares nothing for a statement the database refused to parse, and prepares it once it can', async () => {
    const allDrafts = db.select().from(drafts).prepare('all_drafts');
    const refusal = await allDrafts.execute().catch((error: unknown) => error);
    expect((refusal as { cause?: { code?: string } }).cause?.code).toBe('42P01');
    await client.exec('create table drafts (id serial primary key); insert into drafts default values');
    expect(await allDrafts.execute()).toEqual([{ id: 1 }]);
  });

  it('refuses a name already given to another statement, as node-postgres does', async () => {
    await db.insert(notes).values({ title: 'one' });
    expect(await noteByTitle().execute({ title: 'one' })).toHaveLength(1);
    const clash = db
      .select()
      .from(notes)
      .where(eq(notes.id, sql.placeholder('id')))
      .prepare('note_by_title');
    const refusal = await clash.execute({ id: 1 }).catch((error: unknown) => error);
    expect(String((refusal as { cause?: unknown }).cause)).toContain(
      "Prepared statements must be unique - 'note_by_title' was used for a different statement",
    );
  });

  it('refuses the second of two first calls racing with one name for different statements', async () => {
    await db.insert(notes).values({ title: 'raced' });
    const byId = db
      .select()
      .from(notes)
      .where(eq(notes.id, sql.placeholder('id')))
      .prepare('note_by_title');
    const [byTitleRows, byIdOutcome] = await Promise.all([
      noteByTitle().execute({ title: 'raced' }),
      byId.execute({ id: 1 }).catch((error: unknown) => error),
    ]);
    expect(byTitleRows.map((row) => row.title)).toEqual(['raced']);
    expect(String((byIdOutcome as { cause?: unknown }).cause)).toContain(
      "Prepared statements must be unique - 'note_by_title' was used for a different statement",
    );
  });

  it("never runs inside another caller's transaction", async () => {
    const statement = noteByTitle();
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let inserted!: () => void;
    const insertedInTransaction = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = db
      .transaction(async (tx) => {
        await tx.insert(notes).values({ title: 'rolled back' });
        inserted();
        await gate;
        tx.rollback();
      })
      .catch(() => 'rolled back');
    await insertedInTransaction;
    let answered = false;
    const outside = statement.execute({ title: 'rolled back' }).then((rows) => {
      answered = true;
      return rows;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    openGate();
    expect(await transaction).toBe('rolled back');
    expect(await outside).toEqual([]);
  });
});
