import type { PGlite } from '@electric-sql/pglite';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';

/**
 * A Kysely dialect over one PGlite instance. PGlite has a single connection, so
 * every query and every transaction takes a turn in one queue: a transaction holds
 * the connection until it ends, and no other query can see its uncommitted rows
 * (the published dialects get this wrong; STACK.md).
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createIntrospector(db: Parameters<Dialect['createIntrospector']>[0]) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  private tail: Promise<void> = Promise.resolve();
  private readonly connection: PGliteConnection;

  constructor(private readonly pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }

  async init() {
    await this.pglite.waitReady;
  }

  /** Waits for the previous holder to release, then hands out the one connection. */
  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.tail;
    this.tail = previous.then(() => turn);
    await previous;
    this.connection.release = release;
    return this.connection;
  }

  async releaseConnection(connection: DatabaseConnection) {
    (connection as PGliteConnection).release();
  }

  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery({ sql: 'begin', parameters: [], query: { kind: 'RawNode' } } as unknown as CompiledQuery);
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery({ sql: 'commit', parameters: [], query: { kind: 'RawNode' } } as unknown as CompiledQuery);
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery({ sql: 'rollback', parameters: [], query: { kind: 'RawNode' } } as unknown as CompiledQuery);
  }
  async destroy() {
    await this.tail;
    if (!this.pglite.closed) await this.pglite.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  release: () => void = () => {};
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Without parameters use the simple protocol, which (like pg) allows several statements.
    const result =
      compiled.parameters.length > 0
        ? await this.pglite.query<R>(compiled.sql, compiled.parameters as unknown[])
        : (((await this.pglite.exec(compiled.sql)).at(-1) ?? { rows: [] }) as { rows: R[]; affectedRows?: number });
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && compiled.query.kind !== 'SelectQueryNode' ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered by PGlite; Kysely only needs the method to exist.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect does not stream');
  }
}
