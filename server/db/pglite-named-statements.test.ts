import { PGlite } from '@electric-sql/pglite';
import { eq, sql, type Logger } from 'drizzle-orm';
import { integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { drizzleWithNamedStatements } from './pglite-named-statements';

const notes = pgTable('notes', {
  id: serial('id').primaryKey(),
  title: text('title').notNull().unique(),
  score: integer('score'),
  tags: jsonb('tags').$type<string[]>(),
  writtenAt: timestamp('written_at', { withTimezone: true }),
});

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
  await client.exec(`deallocate all; drop table if exists notes; create table notes (
    id serial primary key, title text not null unique, score integer, tags jsonb, written_at timestamptz)`);
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
    expect(named).toEqual({ id: 1, title: '第一 note, with "quotes"', score: null, tags: ['a', '中'], writtenAt });
    expect(named).toEqual(unnamed);
    expect(await statement.execute({ title: 'empty' })).toEqual([
      { id: 2, title: 'empty', score: 0, tags: [], writtenAt: null },
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

  it('prepares a statement again when a column it reads changed type', async () => {
    await db.insert(notes).values({ title: 'retyped', score: 7 });
    const titleOf = db
      .select({ title: notes.title })
      .from(notes)
      .where(eq(notes.score, sql.placeholder('score')))
      .prepare('title_of');
    expect(await titleOf.execute({ score: 7 })).toEqual([{ title: 'retyped' }]);
    await client.exec('alter table notes alter column title type varchar(200)');
    expect(await titleOf.execute({ score: 7 })).toEqual([{ title: 'retyped' }]);
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
