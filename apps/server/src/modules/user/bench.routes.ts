import type { FastifyInstance } from 'fastify';
import type { Scope, Services } from '../../platform/context.js';
import { treeScopeOf } from '../../platform/scope.js';
import { listUsers } from './account.repository.js';

/** The path of the benchmark's bare list (registered only with BENCH_BARE_ROUTES=1). */
export const BARE_LIST_PATH = '/api/bench/bare/account-list';

/**
 * The honest ceiling of a list (`npm run bench`): the same two SQL statements as
 * `v2/user/account/list` page 1 (the page's keys with its rows, and the count) through the same
 * pool, with no token, session, access check, validation, audit or envelope. `comp_id` names the
 * company whose tree scope the statements carry (0: all companies); it is resolved once.
 * Only the benchmark's server registers it (BENCH_BARE_ROUTES=1): it answers without a token.
 */
export const registerBenchRoutes = (app: FastifyInstance, services: Services) => {
  const scopes = new Map<number, Scope>();
  app.post(BARE_LIST_PATH, async (request) => {
    const compId = Number((request.body as { comp_id?: unknown } | null)?.comp_id ?? 0) || 0;
    let scope = scopes.get(compId);
    if (!scope) {
      scope = compId > 0 ? await treeScopeOf(services.db, compId) : { kind: 'all' };
      scopes.set(compId, scope);
    }
    return listUsers(services.db, scope, { page_no: 1, page_size: 10 });
  });
};
