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

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

interface PreparedOnce {
  text: string;
  parameterTypes: number[];
  /** The statement's row description, sent once at Describe; absent for a statement returning no rows. */
  rowDescription: BackendMessage | undefined;
}

/**
 * Errors that say the database no longer holds the statement as it was prepared. Both are
 * raised at Bind, before the statement runs, so preparing it again and running it once more
 * never runs it twice.
 */
function preparationWentStale(error: unknown): boolean {
  const { code, routine } = error as { code?: string; routine?: string };
  // "cached plan must not change result type": a column the statement returns changed type.
  // Only this routine's 0A000: the same code raised while the statement runs means "not supported".
  if (code === '0A000' && routine === 'RevalidateCachedQuery') return true;
  // "prepared statement does not exist": a DEALLOCATE or DISCARD ALL dropped it.
  return code === '26000';
}

function concatMessages(messages: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(messages.reduce((length, message) => length + message.length, 0));
  let offset = 0;
  for (const message of messages) {
    whole.set(message, offset);
    offset += message.length;
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
 * caller's transaction. Options other than `rowMode` and `parsers` (the ones drizzle passes) and
 * `onNotice` are not read.
 */
export class PgliteNamedStatements {
  private readonly preparedByName = new Map<string, PreparedOnce>();

  constructor(private readonly client: PGlite) {}

  /**
   * The `query` a statement of this name calls. Like node-postgres, it refuses a name already
   * given to another text, so a clash fails on the embedded database as it would on PostgreSQL.
   */
  queryFor(name: string): Pick<PGlite, 'query'> {
    return {
      query: <T>(text: string, values: unknown[] = [], options?: QueryOptions) =>
        this.run<T>(name, text, values, options),
    };
  }

  private async run<T>(name: string, text: string, values: unknown[], options?: QueryOptions): Promise<Results<T>> {
    const client = this.client;
    await client._checkReady();
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        let results: Results<T>;
        try {
          results = await this.bindAndExecute<T>(name, text, values, options);
        } catch (error) {
          if (!preparationWentStale(error)) throw error;
          this.preparedByName.delete(name);
          results = await this.bindAndExecute<T>(name, text, values, options);
        }
        await client.syncToFs();
        return results;
      }),
    );
  }

  private async bindAndExecute<T>(
    name: string,
    text: string,
    values: unknown[],
    options?: QueryOptions,
  ): Promise<Results<T>> {
    // Checked under the locks, so two first calls racing with one name cannot bind the wrong text.
    const known = this.preparedByName.get(name);
    if (known && known.text !== text) {
      throw new Error(`Prepared statements must be unique - '${name}' was used for a different statement`);
    }
    const statement = known ?? (await this.prepare(name, text, options));
    const serialized = values.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = this.client.serializers[statement.parameterTypes[index] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await this.client.execProtocolStream(
      concatMessages([
        protocol.serialize.bind({ statement: name, values: serialized }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false, onNotice: options?.onNotice },
    );
    const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
    // One statement, so one result; parseResults answers at least one even for no rows.
    return parse.parseResults(described, this.client.parsers, options).at(0) as Results<T>;
  }

  /**
   * Closes any statement of this name first (closing one that does not exist is no error), so
   * the name is free even after the record here and the database's drifted apart.
   */
  private async prepare(name: string, text: string, options?: QueryOptions): Promise<PreparedOnce> {
    const messages = await this.client.execProtocolStream(
      concatMessages([
        protocol.serialize.close({ type: 'S', name }),
        protocol.serialize.parse({ name, text, types: [] }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false, onNotice: options?.onNotice },
    );
    const prepared = {
      text,
      parameterTypes: parse.parseDescribeStatementResults(messages),
      rowDescription: messages.find((message) => message.name === 'rowDescription'),
    };
    this.preparedByName.set(name, prepared);
    return prepared;
  }
}

/**
 * A drizzle session whose named statements run through PgliteNamedStatements. It keeps its own
 * logger and (no) cache because PgliteSession's are private to it.
 */
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
      // PglitePreparedQuery calls only `query` on its client.
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
export function drizzleWithNamedStatements<Schema extends Record<string, unknown>>(
  client: PGlite,
  config: { schema: Schema; logger: Logger },
): PgliteDatabase<Schema> & { $client: PGlite } {
  const dialect = new PgDialect();
  const tables = extractTablesRelationalConfig(config.schema, createTableRelationsHelpers);
  const schema = { fullSchema: config.schema, schema: tables.tables, tableNamesMap: tables.tableNamesMap };
  const named = new PgliteNamedStatements(client);
  const session = new NamedStatementsSession(named, config.logger, client, dialect, schema as never, {
    logger: config.logger,
  });
  const db = new PgliteDatabase<Schema>(dialect, session as never, schema as never);
  return Object.assign(db, { $client: client });
}
