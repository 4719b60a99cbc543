import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

describe('admin session', () => {
  it('answers the calling account with all menus', async () => {
    const me = await t.call<{ user: { user_id: string }; menus: unknown[] }>('v2/user/account/get', {}, { token: t.adminToken });
    expect(me.code).toBe(200);
    expect(me.data.user.user_id).toBe('admin');
    expect(me.data.menus.length).toBeGreaterThan(5);
  });
});
