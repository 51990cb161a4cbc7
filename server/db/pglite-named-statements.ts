import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';
import { createTableRelationsHelpers, extractTablesRelationalConfig, type Logger, type Query } from 'drizzle-orm';
import { NoopCache } from 'drizzle-orm/cache/core';
import type { WithCacheConfig } from 'drizzle-orm/cache/core/types';
import {
  PgDialect,
  type PgPreparedQuery,
  type PreparedQueryConfig,
  type SelectedFieldsOrdered,
} from 'drizzle-orm/pg-core';
import { PgliteDatabase, PglitePreparedQuery, PgliteSession } from 'drizzle-orm/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

interface PreparedOnce {
  name: string;
  parameterTypes: number[];
  /** The statement's row description, sent once at Describe; absent for a statement returning no rows. */
  rowDescription: BackendMessage | undefined;
}

/** PostgreSQL's "cached plan must not change result type": a column the statement reads changed. */
const PLAN_NO_LONGER_FITS = '0A000';

function joined(parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

/**
 * Runs the shop's named statements (`.prepare(name)`, ADR 0178) on PGlite as PostgreSQL runs
 * them on a connection of the pool: parsed and planned once, then bound and executed. PGlite's
 * own `query` sends every statement unnamed (Parse, Describe, Bind, Describe, Execute, Sync, one
 * call into the WASM each), so the embedded database planned the order placement and the session
 * check afresh on every request, on the shop's one thread (ADR 0186).
 *
 * Holds the same two locks `PGlite.query` does, so a statement never runs inside another
 * caller's transaction.
 */
export class PgliteNamedStatements {
  private readonly preparedByText = new Map<string, PreparedOnce>();
  private readonly textByName = new Map<string, string>();

  constructor(private readonly client: PGlite) {}

  /** The `query` a statement of this name calls; a name already taken by another text runs unnamed. */
  queryFor(name: string): Pick<PGlite, 'query'> {
    return {
      query: <T>(text: string, values: unknown[] = [], options?: QueryOptions) => {
        const owner = this.textByName.get(name);
        if (owner !== undefined && owner !== text) return this.client.query<T>(text, values, options);
        this.textByName.set(name, text);
        return this.run<T>(name, text, values, options);
      },
    };
  }

  private async run<T>(name: string, text: string, values: unknown[], options?: QueryOptions): Promise<Results<T>> {
    const client = this.client;
    await client._checkReady();
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        try {
          return await this.execute<T>(name, text, values, options);
        } catch (error) {
          if ((error as { code?: string }).code !== PLAN_NO_LONGER_FITS) throw error;
          await this.forget(text);
          return this.execute<T>(name, text, values, options);
        } finally {
          await client.syncToFs();
        }
      }),
    );
  }

  private async execute<T>(name: string, text: string, values: unknown[], options?: QueryOptions): Promise<Results<T>> {
    const statement = this.preparedByText.get(text) ?? (await this.prepare(name, text));
    const serialized = values.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = this.client.serializers[statement.parameterTypes[index] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const { messages } = await this.client.execProtocol(
      joined([
        protocol.serialize.bind({ statement: statement.name, values: serialized }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
    const [results] = parse.parseResults(described, this.client.parsers, options);
    if (!results) throw new Error(`PGlite answered no result for the statement ${name}`);
    return results as Results<T>;
  }

  private async prepare(name: string, text: string): Promise<PreparedOnce> {
    const { messages } = await this.client.execProtocol(
      joined([
        protocol.serialize.parse({ name, text, types: [] }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const prepared = {
      name,
      parameterTypes: parse.parseDescribeStatementResults(messages),
      rowDescription: messages.find((message) => message.name === 'rowDescription'),
    };
    this.preparedByText.set(text, prepared);
    return prepared;
  }

  private async forget(text: string): Promise<void> {
    const statement = this.preparedByText.get(text);
    if (!statement) return;
    this.preparedByText.delete(text);
    await this.client.execProtocol(
      joined([protocol.serialize.close({ type: 'S', name: statement.name }), protocol.serialize.sync()]),
      { syncToFs: false },
    );
  }
}

/** A drizzle session whose named statements run through PgliteNamedStatements. */
class NamedStatementsSession extends PgliteSession<Record<string, unknown>, never> {
  private readonly noCache = new NoopCache();

  constructor(
    private readonly named: PgliteNamedStatements,
    private readonly statementLogger: Logger,
    ...rest: ConstructorParameters<typeof PgliteSession<Record<string, unknown>, never>>
  ) {
    super(...rest);
  }

  override prepareQuery<T extends PreparedQueryConfig = PreparedQueryConfig>(
    query: Query,
    fields: SelectedFieldsOrdered | undefined,
    name: string | undefined,
    isResponseInArrayMode: boolean,
    customResultMapper?: (rows: unknown[][]) => T['execute'],
    queryMetadata?: { type: 'select' | 'update' | 'delete' | 'insert'; tables: string[] },
    cacheConfig?: WithCacheConfig,
  ): PgPreparedQuery<T> {
    if (!name) {
      return super.prepareQuery<T>(
        query,
        fields,
        name,
        isResponseInArrayMode,
        customResultMapper,
        queryMetadata,
        cacheConfig,
      );
    }
    return new PglitePreparedQuery<T>(
      this.named.queryFor(name) as PGlite,
      query.sql,
      query.params,
      this.statementLogger,
      this.noCache,
      queryMetadata,
      cacheConfig,
      fields,
      name,
      isResponseInArrayMode,
      customResultMapper,
    );
  }
}

/**
 * `drizzle(client, { schema, logger })` from drizzle-orm/pglite, with the session above. The
 * statements of a transaction run on drizzle's own transaction session, unnamed, as before.
 */
export function drizzleWithNamedStatements(
  client: PGlite,
  config: { schema: Record<string, unknown>; logger: Logger },
): PgliteDatabase<Record<string, unknown>> {
  const dialect = new PgDialect();
  const tables = extractTablesRelationalConfig(config.schema, createTableRelationsHelpers);
  const schema = { fullSchema: config.schema, schema: tables.tables, tableNamesMap: tables.tableNamesMap };
  const named = new PgliteNamedStatements(client);
  const session = new NamedStatementsSession(named, config.logger, client, dialect, schema as never, {
    logger: config.logger,
  });
  const db = new PgliteDatabase(dialect, session as never, schema as never);
  return Object.assign(db, { $client: client });
}
