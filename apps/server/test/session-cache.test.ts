import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { addUser, fails, ok, startSibling } from './helpers.js';

/**
 * Sessions are reused for SESSION_CACHE_MS; a change must still end them on the next
 * call: at once in the process that made it, and in other processes through Redis.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
let t: TestServer;

beforeAll(async () => {
  // A long cache, so only invalidation (not expiry) can explain a 401.
  t = await startTestServer({ sessionCacheMs: 600_000, redisUrl: REDIS_URL });
});
afterAll(async () => {
  await t?.close();
});

describe('session cache', () => {
  it('ends a disabled user’s session on its next call in the same process', async () => {
    const user = await addUser(t, { user_id: 'cache-local', comp_id: 1, role_id: null });
    const token = await t.login('cache-local', 'Passw0rd!');
    ok(await t.call('v2/user/account/get', {}, { token }));
    ok(await t.call('v2/user/account/get', {}, { token })); // now served from the cache
    ok(await t.call('v2/user/account/set', { id: user.id, state: 2 }, { token: t.adminToken }));
    fails(await t.call('v2/user/account/get', {}, { token }), 401);
  });

  it('ends it in another process at once through Redis', async () => {
    const sibling = await startSibling(t);
    try {
      const user = await addUser(t, { user_id: 'cache-remote', comp_id: 1, role_id: null });
      const token = await t.login('cache-remote', 'Passw0rd!');
      expect((await sibling.call('v2/user/account/get', {}, token)).code).toBe(200);
      expect((await sibling.call('v2/user/account/get', {}, token)).code).toBe(200);
      // The change is made on the first process; the sibling has the session cached.
      ok(await t.call('v2/user/account/set', { id: user.id, state: 2 }, { token: t.adminToken }));
      await new Promise((r) => setTimeout(r, 100)); // pub/sub delivery
      expect((await sibling.call('v2/user/account/get', {}, token)).code).toBe(401);
    } finally {
      await sibling.close();
    }
  });

  it('ends a logged-out token everywhere', async () => {
    const sibling = await startSibling(t);
    try {
      await addUser(t, { user_id: 'cache-logout', comp_id: 1, role_id: null });
      const token = await t.login('cache-logout', 'Passw0rd!');
      expect((await sibling.call('v2/user/account/get', {}, token)).code).toBe(200);
      ok(await t.call('user/logout', {}, { token }));
      await new Promise((r) => setTimeout(r, 100));
      expect((await sibling.call('v2/user/account/get', {}, token)).code).toBe(401);
      fails(await t.call('v2/user/account/get', {}, { token }), 401);
    } finally {
      await sibling.close();
    }
  });

  it('is cleared only by calls declared to change sessions, not by other commands', async () => {
    const listener = new Redis(REDIS_URL);
    const heard: string[] = [];
    try {
      await listener.subscribe('iot-console:sessions:invalidate');
      listener.on('message', (_channel, message) => heard.push(message));
      const settle = () => new Promise((r) => setTimeout(r, 150));
      // A service resource and a product change no session: every process keeps its cache.
      ok(await t.call('v2/user/srv/resource/add', { res_type: 'sys', sys: 'cache', name: 'Cache' }, { token: t.adminToken }));
      ok(await t.call('user/product/add', { name: 'Cache product', comp_id: 1 }, { token: t.adminToken }));
      await settle();
      expect(heard).toEqual([]);
      // A role does: the cache is cleared everywhere.
      ok(
        await t.call(
          'v2/user/role/add',
          { name: 'cache-role', cn_name: '', state: 1, data_scope: 1, menu_ids: [] },
          { token: t.adminToken },
        ),
      );
      await settle();
      expect(heard.length).toBe(1);
    } finally {
      listener.disconnect();
    }
  });
});
