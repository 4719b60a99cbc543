import crypto from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Transaction } from 'kysely';
import type { Scope, Services } from './context.js';
import type { DB } from './db/schema.js';
import { nowSeconds } from './time.js';

/**
 * Background jobs: rows of the `job` table claimed by an in-process runner.
 *
 * - Claiming is one `update … where id = (select … for update skip locked)`: several
 *   processes on one PostgreSQL share the queue without taking the same job; PGlite has
 *   one process and one connection, where the same statement simply runs in turn.
 * - A running job holds a lease (`lease_owner`, `lease_until`) that every chunk commit
 *   and a heartbeat renew. A process that dies stops renewing; once the lease runs out
 *   any runner claims the job again and the handler resumes from `checkpoint`.
 * - `commitChunk` stores a chunk's rows and advances the checkpoint in ONE transaction,
 *   fenced by the lease: a kill at any point leaves either both or neither.
 * - Shutdown stops claiming, lets the current chunk commit, and hands the job back to
 *   the queue (state `queued`) so the next process resumes it at once.
 */
export interface JobRecord {
  id: number;
  kind: string;
  comp_id: number;
  user_id: string;
  scope: Scope;
  params: Record<string, unknown>;
  file_name: string;
  input_key: string;
  output_key: string;
  done: number;
  total: number;
  ok_count: number;
  fail_count: number;
  checkpoint: number;
  attempts: number;
}

/** Columns a handler may move forward as it goes. */
export interface JobProgress {
  done?: number;
  total?: number;
  ok_count?: number;
  fail_count?: number;
  checkpoint?: number;
  output_key?: string;
  result?: Record<string, unknown>;
}

export interface JobContext {
  job: JobRecord;
  services: Services;
  log: FastifyBaseLogger;
  /** Shutdown began: finish (or commit) the current chunk, then throw `JobInterrupted`. */
  isStopping(): boolean;
  /** Runs `work` and advances the job in the same transaction; throws `LeaseLost` if another runner took over. */
  commitChunk(work: (trx: Transaction<DB>) => Promise<void>, progress: JobProgress | (() => JobProgress)): Promise<void>;
  /** Progress outside a chunk (also renews the lease). */
  report(progress: JobProgress): Promise<void>;
}

export type JobHandler = (ctx: JobContext) => Promise<JobProgress | undefined>;

/** The job cannot succeed (its file is gone or unreadable…): fail it with this reason. */
export class JobFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'JobFailure';
  }
}
/** Shutdown: the job goes back to the queue, resumable. */
export class JobInterrupted extends Error {
  constructor() {
    super('job interrupted by shutdown');
    this.name = 'JobInterrupted';
  }
}
/** Another runner holds the job now (our lease ran out): stop touching it. */
export class LeaseLost extends Error {
  constructor() {
    super('job lease lost');
    this.name = 'LeaseLost';
  }
}
/** Test hook: behave as if the process died here (no cleanup at all). */
export class AbandonJob extends Error {
  constructor() {
    super('job abandoned (simulated crash)');
    this.name = 'AbandonJob';
  }
}

export interface JobRunnerOptions {
  services: Services;
  handlers: Record<string, JobHandler>;
  log: FastifyBaseLogger;
  /** How long a claim lasts without renewal. */
  leaseMs?: number;
  /** Idle polling interval (new jobs of this process are started at once by `kick`). */
  pollMs?: number;
  /** Attempts before a job that keeps crashing its runner is failed. */
  maxAttempts?: number;
  /** Tests: called after each chunk commit; throwing `AbandonJob` simulates a kill. */
  afterCommit?: (job: JobRecord, commits: number) => void;
}

export interface JobRunner {
  start(): void;
  /** Look for work now. */
  kick(): void;
  /** Claims and runs jobs until none is left; answers how many ran. */
  drain(): Promise<number>;
  stop(): Promise<void>;
  readonly owner: string;
}

const toRecord = (row: Record<string, unknown>): JobRecord => ({
  id: Number(row.id),
  kind: String(row.kind),
  comp_id: Number(row.comp_id),
  user_id: String(row.user_id),
  scope: row.scope as Scope,
  params: (row.params ?? {}) as Record<string, unknown>,
  file_name: String(row.file_name ?? ''),
  input_key: String(row.input_key ?? ''),
  output_key: String(row.output_key ?? ''),
  done: Number(row.done),
  total: Number(row.total),
  ok_count: Number(row.ok_count),
  fail_count: Number(row.fail_count),
  checkpoint: Number(row.checkpoint),
  attempts: Number(row.attempts),
});

const progressSet = (p: JobProgress): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const key of ['done', 'total', 'ok_count', 'fail_count', 'checkpoint', 'output_key'] as const) {
    if (p[key] !== undefined) out[key] = p[key];
  }
  if (p.result !== undefined) out.result = JSON.stringify(p.result);
  return out;
};

export const createJobRunner = (opts: JobRunnerOptions): JobRunner => {
  const { services, handlers, log } = opts;
  const db = services.db;
  const leaseMs = opts.leaseMs ?? 30_000;
  const pollMs = opts.pollMs ?? 1_000;
  const maxAttempts = opts.maxAttempts ?? 5;
  const owner = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
  const kinds = Object.keys(handlers);
  let stopping = false;
  let started = false;
  let timer: NodeJS.Timeout | null = null;
  let loop: Promise<void> | null = null;
  let wake = false;

  const claim = async (): Promise<JobRecord | null> => {
    const now = Date.now();
    const result = await sql<Record<string, unknown>>`
      update job set state = 'running', lease_owner = ${owner}, lease_until = ${now + leaseMs},
        attempts = attempts + 1, gmt_start = coalesce(gmt_start, ${nowSeconds()})
      where id = (
        select id from job
        where kind in (${sql.join(kinds)}) and (state = 'queued' or (state = 'running' and lease_until < ${now}))
        order by id limit 1 for update skip locked
      )
      returning *`.execute(db);
    const row = result.rows[0];
    return row ? toRecord(row) : null;
  };

  /** Updates the job only while we hold it; answers whether we still do. */
  const fenced = async (conn: typeof db | Transaction<DB>, id: number, set: Record<string, unknown>): Promise<boolean> => {
    const res = await conn
      .updateTable('job')
      .set(set as never)
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  };

  const runOne = async (job: JobRecord) => {
    const handler = handlers[job.kind];
    const jobLog = log.child({ job_id: job.id, job_kind: job.kind });
    if (!handler) return;
    if (job.attempts > maxAttempts) {
      await fenced(db, job.id, { state: 'failed', error: 'internal', lease_owner: '', gmt_finish: nowSeconds() });
      jobLog.error({ attempts: job.attempts }, 'job failed: too many attempts');
      return;
    }
    if (job.attempts > 1) jobLog.info({ checkpoint: job.checkpoint, attempts: job.attempts }, 'resuming job');
    let commits = 0;
    const heartbeat = setInterval(
      () => {
        void fenced(db, job.id, { lease_until: Date.now() + leaseMs }).catch(() => {});
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    const ctx: JobContext = {
      job,
      services,
      log: jobLog,
      isStopping: () => stopping,
      commitChunk: async (work, progressOf) => {
        let progress: JobProgress = {};
        await db.transaction().execute(async (trx) => {
          // Fence first (this also locks the job row): a runner that lost its lease must not
          // store the chunk a second time.
          if (!(await fenced(trx, job.id, { lease_until: Date.now() + leaseMs }))) throw new LeaseLost();
          await work(trx);
          progress = typeof progressOf === 'function' ? progressOf() : progressOf;
          const set = progressSet(progress);
          if (Object.keys(set).length > 0) await fenced(trx, job.id, set);
        });
        Object.assign(job, progress);
        commits++;
        opts.afterCommit?.(job, commits);
      },
      report: async (progress) => {
        if (!(await fenced(db, job.id, { ...progressSet(progress), lease_until: Date.now() + leaseMs }))) throw new LeaseLost();
        Object.assign(job, progress);
      },
    };
    try {
      const last = await handler(ctx);
      await fenced(db, job.id, { ...progressSet(last ?? {}), state: 'done', lease_owner: '', gmt_finish: nowSeconds() });
      jobLog.info('job done');
    } catch (err) {
      if (err instanceof AbandonJob) {
        // A simulated kill: this runner is dead from now on.
        stopping = true;
        jobLog.warn('job abandoned (simulated crash)');
      } else if (err instanceof LeaseLost) {
        jobLog.warn({ err: err.message }, 'job left to another runner');
      } else if (err instanceof JobInterrupted) {
        await fenced(db, job.id, { state: 'queued', lease_owner: '', lease_until: 0 });
        jobLog.info({ checkpoint: job.checkpoint }, 'job handed back to the queue (shutdown)');
      } else if (err instanceof JobFailure) {
        await fenced(db, job.id, { state: 'failed', error: err.reason, lease_owner: '', gmt_finish: nowSeconds() });
        jobLog.warn({ reason: err.reason }, 'job failed');
      } else {
        jobLog.error({ err }, 'job crashed');
        await fenced(db, job.id, { state: 'failed', error: 'internal', lease_owner: '', gmt_finish: nowSeconds() }).catch(() => false);
      }
    } finally {
      clearInterval(heartbeat);
    }
  };

  const drain = async (): Promise<number> => {
    let ran = 0;
    while (!stopping) {
      const job = await claim();
      if (!job) break;
      await runOne(job);
      ran++;
    }
    return ran;
  };

  const tick = () => {
    if (stopping) return;
    if (loop) {
      wake = true;
      return;
    }
    loop = (async () => {
      do {
        wake = false;
        try {
          await drain();
        } catch (err) {
          if (!stopping) log.error({ err }, 'job runner: claim failed');
        }
      } while (wake && !stopping);
    })().finally(() => {
      loop = null;
    });
  };

  return {
    owner,
    start() {
      if (started || kinds.length === 0) return;
      started = true;
      timer = setInterval(tick, pollMs);
      timer.unref();
      tick();
    },
    kick: tick,
    drain,
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      await loop;
    },
  };
};

/** The runner of each app (its services), so a route can start a new job at once. */
const runners = new WeakMap<Services, JobRunner>();
export const attachRunner = (services: Services, runner: JobRunner) => runners.set(services, runner);
export const kickJobs = (services: Services) => runners.get(services)?.kick();
