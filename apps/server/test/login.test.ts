import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/platform/auth.js';
import { ADMIN_PASSWORD, encodePassword, makeCipher, startTestServer, type TestServer } from './harness.js';
import { addCompany, addUser, dbOf, fails, nowSeconds, ok, startSibling } from './helpers.js';

let t: TestServer;
let compId: number;
beforeAll(async () => {
  t = await startTestServer();
  compId = (await addCompany(t, { comp_name: 'Login Co' })).comp_id;
});
afterAll(async () => {
  await t?.close();
});

type Key = { key_id: string; public_key: string; alg: string; server_time: number };
const loginKey = async () => ok(await t.call<Key>('v2/user/login/key'));
const loginWith = (userId: string, cipher: string, keyId: string) =>
  t.call<{ acc_token: string }>('v2/user/login', {
    device_system: 'web',
    device_model: 'test',
    user_id: userId,
    user_password: cipher,
    key_id: keyId,
  });

describe('login key', () => {
  it('answers an RSA-OAEP-256 SPKI public key and the server time', async () => {
    const key = await loginKey();
    expect(key.alg).toBe('RSA-OAEP-256');
    expect(key.key_id).toMatch(/\S+/);
    expect(key.public_key).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/);
    const publicKey = crypto.createPublicKey(key.public_key);
    expect(publicKey.asymmetricKeyType).toBe('rsa');
    expect(publicKey.asymmetricKeyDetails?.modulusLength).toBeGreaterThanOrEqual(2048);
    expect(Math.abs(key.server_time - nowSeconds())).toBeLessThanOrEqual(2);
  });

  it('needs no token and answers the same key on every call', async () => {
    const a = await loginKey();
    const b = await loginKey();
    expect(b.key_id).toBe(a.key_id);
    expect(b.public_key).toBe(a.public_key);
  });

  it('survives a restart: another server on the same database answers the same key and accepts its ciphers', async () => {
    const first = await loginKey();
    const second = await startSibling(t);
    try {
      const key = ok(await second.call<Key>('v2/user/login/key'));
      expect(key.key_id).toBe(first.key_id);
      expect(key.public_key).toBe(first.public_key);
      // A cipher made with the key the first server answered logs in on the second.
      const cipher = makeCipher(first.public_key, 'admin', ADMIN_PASSWORD, first.server_time);
      const answer = await second.call<{ acc_token: string }>('v2/user/login', {
        user_id: 'admin',
        user_password: cipher,
        key_id: first.key_id,
      });
      expect(ok(answer).acc_token).toBeTruthy();
    } finally {
      await second.close();
    }
  });

  it('keeps the private key sealed in the database', async () => {
    const rows = await dbOf(t).selectFrom('login_key').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.private_key_sealed).not.toMatch(/PRIVATE KEY/);
      expect(row.private_key_sealed).not.toMatch(/^MII/);
      expect(JSON.stringify(row)).not.toMatch(/BEGIN (RSA )?PRIVATE KEY/);
    }
  });
});

describe('login', () => {
  it('answers a token, its expiry, the user without password, and its menus', async () => {
    const answer = await t.loginAnswer('admin', ADMIN_PASSWORD);
    const data = ok(answer);
    expect(data.acc_token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(data.expires_at).toBeGreaterThan(nowSeconds());
    expect(data.expires_at).toBeLessThanOrEqual(nowSeconds() + t.config.tokenTtlSeconds + 2);
    expect(data.user).toMatchObject({ user_id: 'admin', comp_id: 1 });
    expect(JSON.stringify(data.user)).not.toMatch(/password|argon2/i);
    expect(data.menus.length).toBeGreaterThan(0);
    expect(data.menus.some((m) => m.sub_menus.some((s) => s.menu_key === 'system/role'))).toBe(true);
    // The token is stored only as its hash.
    const tokens = await dbOf(t).selectFrom('user_token').select('token_hash').execute();
    expect(tokens.map((r) => r.token_hash)).toContain(hashToken(data.acc_token));
    expect(tokens.map((r) => r.token_hash)).not.toContain(data.acc_token);
    // It works at once.
    ok(await t.call('v2/user/account/get', {}, { token: data.acc_token }));
  });

  it('answers 514 alike for an unknown account and a wrong password', async () => {
    const unknown = await t.loginAnswer('nobody-here', 'whatever');
    const wrong = await t.loginAnswer('admin', 'wrong-password');
    fails(unknown, 514);
    fails(wrong, 514);
    expect(unknown.msg).toBe(wrong.msg);
    expect(unknown.data).toEqual(wrong.data);
  });

  it('refuses a replayed cipher', async () => {
    const key = await loginKey();
    const cipher = makeCipher(key.public_key, 'admin', ADMIN_PASSWORD, key.server_time);
    ok(await loginWith('admin', cipher, key.key_id));
    const replay = await loginWith('admin', cipher, key.key_id);
    fails(replay, 406);
    expect(replay.data?.acc_token).toBeUndefined();
  });

  it('refuses a timestamp more than 300 s away from the server clock', async () => {
    const key = await loginKey();
    // 10 s of margin: the server clock may tick between the key answer and the login.
    for (const skew of [-310, 310, -3600]) {
      const answer = await t.loginAnswer('admin', ADMIN_PASSWORD, { timestamp: key.server_time + skew });
      fails(answer, 406);
    }
    // Inside the window a slow or skewed client still logs in.
    ok(await t.loginAnswer('admin', ADMIN_PASSWORD, { timestamp: key.server_time - 250 }));
    ok(await t.loginAnswer('admin', ADMIN_PASSWORD, { timestamp: key.server_time + 250 }));
  });

  it('refuses a cipher whose account differs from user_id', async () => {
    await addUser(t, { user_id: 'cipher.owner', comp_id: compId, password: 'Own3r!' });
    const key = await loginKey();
    // Admin's valid cipher presented as another account, and the other way round.
    fails(await loginWith('cipher.owner', makeCipher(key.public_key, 'admin', ADMIN_PASSWORD, key.server_time), key.key_id), 406);
    fails(await loginWith('admin', makeCipher(key.public_key, 'cipher.owner', 'Own3r!', key.server_time), key.key_id), 406);
  });

  it('refuses a cipher it cannot read or an unknown key id', async () => {
    const key = await loginKey();
    fails(await loginWith('admin', Buffer.from('x'.repeat(256)).toString('base64'), key.key_id), 406);
    fails(await loginWith('admin', makeCipher(key.public_key, 'admin', ADMIN_PASSWORD, key.server_time), 'no-such-key'), 406);
  });

  it('answers 517 for a disabled account, only with the right password', async () => {
    const user = await addUser(t, { user_id: 'disabled.user', comp_id: compId, password: 'Dis4bled!' });
    ok(await t.call('v2/user/account/set', { id: user.id, state: 2 }, { token: t.adminToken }));
    fails(await t.loginAnswer('disabled.user', 'Dis4bled!'), 517);
    fails(await t.loginAnswer('disabled.user', 'wrong'), 514);
  });

  it('answers 518 for an account past its validity_time', async () => {
    const user = await addUser(t, { user_id: 'expired.user', comp_id: compId, password: 'Exp1red!', validity_time: nowSeconds() + 3600 });
    ok(await t.loginAnswer('expired.user', 'Exp1red!'));
    ok(await t.call('v2/user/account/set', { id: user.id, validity_time: nowSeconds() - 10 }, { token: t.adminToken }));
    fails(await t.loginAnswer('expired.user', 'Exp1red!'), 518);
    fails(await t.loginAnswer('expired.user', 'wrong'), 514);
  });

  it('answers 516 for an account whose company is not active, and its tokens stop working', async () => {
    const company = await addCompany(t, { comp_name: 'Soon disabled Co' });
    await addUser(t, { user_id: 'orphan.user', comp_id: company.comp_id, password: 'Orph4n!' });
    const token = await t.login('orphan.user', 'Orph4n!');
    ok(await t.call('v2/user/company/set', { comp_id: company.comp_id, state: 2 }, { token: t.adminToken }));
    fails(await t.loginAnswer('orphan.user', 'Orph4n!'), 516);
    fails(await t.call('v2/user/account/get', {}, { token }), 401);
  });

  it('answers 516 for an account of a company waiting for approval', async () => {
    const root = ok(await t.call<{ company: { comp_key: string } }>('v2/user/account/get', {}, { token: t.adminToken })).company;
    const reg = await t.call<{ comp_id: number }>('v2/user/company/register', {
      parent_comp_key: root.comp_key,
      comp_name: 'Pending Co',
      comp_person: 'Pat',
      user_id: 'pending.user',
      user_password: encodePassword('pending.user', 'Pend1ng!'),
      user_email: 'pending@example.com',
    });
    const compIdPending = ok(reg).comp_id;
    // The registered account waits too (disabled until approval).
    fails(await t.loginAnswer('pending.user', 'Pend1ng!'), 517);
    // Even if the account itself were enabled, the pending company keeps it out.
    const [user] = ok(await t.call<{ id: number }[]>('v2/user/account/list', { user_id: 'pending.user' }, { token: t.adminToken }));
    await dbOf(t).updateTable('app_user').set({ state: 1 }).where('id', '=', user!.id).execute();
    fails(await t.loginAnswer('pending.user', 'Pend1ng!'), 516);
    expect(compIdPending).toBeGreaterThan(1);
  });
});

describe('sessions', () => {
  it('answers 401 for a missing, unknown or garbage token', async () => {
    fails(await t.call('v2/user/account/get', {}), 401);
    fails(await t.call('v2/user/account/get', {}, { token: crypto.randomBytes(32).toString('base64url') }), 401);
    fails(await t.call('v2/user/account/get', {}, { token: '\u00e9!!garbage; drop table' }), 401);
    fails(await t.call('user/logout', {}, { token: 'garbage' }), 401);
  });

  it('logout revokes the calling token only', async () => {
    const a = await t.login('admin', ADMIN_PASSWORD);
    const b = await t.login('admin', ADMIN_PASSWORD);
    ok(await t.call('user/logout', {}, { token: a }));
    fails(await t.call('v2/user/account/get', {}, { token: a }), 401);
    fails(await t.call('user/logout', {}, { token: a }), 401);
    ok(await t.call('v2/user/account/get', {}, { token: b }));
  });

  it('answers 401 for an expired token', async () => {
    // The row is changed behind the server's back: a process without a session cache sees it.
    const uncached = await startSibling(t, { sessionCacheMs: 0 });
    try {
      const token = await t.login('admin', ADMIN_PASSWORD);
      expect((await uncached.call('v2/user/account/get', {}, token)).code).toBe(200);
      await dbOf(t)
        .updateTable('user_token')
        .set({ expires_at: nowSeconds() - 1 })
        .where('token_hash', '=', hashToken(token))
        .execute();
      expect((await uncached.call('v2/user/account/get', {}, token)).code).toBe(401);
    } finally {
      await uncached.close();
    }
  });

  it('expires a token after tokenTtlSeconds', async () => {
    const short = await startSibling(t, { tokenTtlSeconds: 1 });
    try {
      const key = ok(await short.call<Key>('v2/user/login/key'));
      const answer = await short.call<{ acc_token: string; expires_at: number }>('v2/user/login', {
        user_id: 'admin',
        user_password: makeCipher(key.public_key, 'admin', ADMIN_PASSWORD, key.server_time),
        key_id: key.key_id,
      });
      const { acc_token, expires_at } = ok(answer);
      expect(expires_at).toBeLessThanOrEqual(nowSeconds() + 1);
      await new Promise((r) => setTimeout(r, (expires_at - Date.now() / 1000) * 1000 + 50));
      fails(await short.call('v2/user/account/get', {}, acc_token), 401);
    } finally {
      await short.close();
    }
  });
});

describe('password/modify', () => {
  it('answers 512 for a wrong old password and changes nothing', async () => {
    await addUser(t, { user_id: 'pw.wrong', comp_id: compId, password: 'Old-pass1' });
    const token = await t.login('pw.wrong', 'Old-pass1');
    const answer = await t.call(
      'user/password/modify',
      { user_id: 'pw.wrong', old_password: encodePassword('pw.wrong', 'not-it'), new_password: encodePassword('pw.wrong', 'New-pass1') },
      { token },
    );
    fails(answer, 512);
    ok(await t.call('v2/user/account/get', {}, { token }));
    ok(await t.loginAnswer('pw.wrong', 'Old-pass1'));
  });

  it('changes the password, revokes the other tokens and keeps the calling one', async () => {
    await addUser(t, { user_id: 'pw.change', comp_id: compId, password: 'Old-pass1' });
    const calling = await t.login('pw.change', 'Old-pass1');
    const other = await t.login('pw.change', 'Old-pass1');
    const adminOther = await t.login('admin', ADMIN_PASSWORD);
    ok(
      await t.call(
        'user/password/modify',
        {
          user_id: 'pw.change',
          old_password: encodePassword('pw.change', 'Old-pass1'),
          new_password: encodePassword('pw.change', 'New-pass1'),
        },
        { token: calling },
      ),
    );
    ok(await t.call('v2/user/account/get', {}, { token: calling }));
    fails(await t.call('v2/user/account/get', {}, { token: other }), 401);
    // Someone else's session is untouched.
    ok(await t.call('v2/user/account/get', {}, { token: adminOther }));
    fails(await t.loginAnswer('pw.change', 'Old-pass1'), 514);
    ok(await t.loginAnswer('pw.change', 'New-pass1'));
  });

  it("refuses to change another account's password", async () => {
    await addUser(t, { user_id: 'pw.victim', comp_id: compId, password: 'Victim-1' });
    await addUser(t, { user_id: 'pw.attacker', comp_id: compId, password: 'Attack-1' });
    const token = await t.login('pw.attacker', 'Attack-1');
    const answer = await t.call(
      'user/password/modify',
      {
        user_id: 'pw.victim',
        old_password: encodePassword('pw.victim', 'Victim-1'),
        new_password: encodePassword('pw.victim', 'Hacked-1'),
      },
      { token },
    );
    expect(answer.code).not.toBe(200);
    ok(await t.loginAnswer('pw.victim', 'Victim-1'));
  });
});

describe('throttling', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ loginMaxFailuresAccount: 3, loginMaxFailuresAddress: 6 });
    const c = ok(
      await s.call<{ comp_id: number }>('v2/user/company/add', { comp_name: 'T Co', comp_parent_id: 1 }, { token: s.adminToken }),
    ).comp_id;
    for (const id of ['victim', 'bystander', 'late']) await addUser(s, { user_id: id, comp_id: c, password: 'Right-pw1' }, s.adminToken);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('locks an account after too many failures; the right password then still answers 429; other accounts log in', async () => {
    for (let i = 0; i < 3; i++) fails(await s.loginAnswer('victim', 'wrong'), 514);
    const locked = await s.loginAnswer('victim', 'Right-pw1');
    fails(locked, 429);
    expect(typeof locked.msg).toBe('string');
    // The account name is compared without case: VICTIM is the same bucket.
    fails(await s.loginAnswer('VICTIM', 'Right-pw1'), 429);
    ok(await s.loginAnswer('bystander', 'Right-pw1'));
  });

  it('locks an address after too many failures across accounts', async () => {
    // 3 failures so far from this address; 3 more on unknown accounts reach the limit of 6.
    for (const id of ['ghost1', 'ghost2', 'ghost3']) fails(await s.loginAnswer(id, 'wrong'), 514);
    fails(await s.loginAnswer('late', 'Right-pw1'), 429);
    fails(await s.loginAnswer('bystander', 'Right-pw1'), 429);
  });

  it('gives a successful login its attempt back: successes never lock an address', async () => {
    await dbOf(s).deleteFrom('login_failure').where('bucket', 'like', 'address:%').execute();
    // Far more successes than the address limit of 6.
    for (let i = 0; i < 10; i++) ok(await s.loginAnswer('late', 'Right-pw1'));
    const rows = await dbOf(s).selectFrom('login_failure').select('failures').where('bucket', 'like', 'address:%').execute();
    expect(rows.map((r) => r.failures)).toEqual([0]);
  });
});

describe('throttling under simultaneous attempts', () => {
  const LIMIT = 5;
  /** Wrong-password logins sent at once (ciphers made first), through a server with these limits. */
  const storm = async (limits: { account: number; address: number }, userIds: string[]) => {
    const server = await startSibling(t, { loginMaxFailuresAccount: limits.account, loginMaxFailuresAddress: limits.address });
    try {
      const key = ok(await server.call<Key>('v2/user/login/key'));
      const bodies = userIds.map((userId) => ({
        user_id: userId,
        user_password: makeCipher(key.public_key, userId, 'not-the-password', key.server_time),
        key_id: key.key_id,
      }));
      const answers = await Promise.all(bodies.map((b) => server.call('v2/user/login', b)));
      const codes = answers.map((a) => a.code);
      return { codes, count: (code: number) => codes.filter((c) => c === code).length };
    } finally {
      await server.close();
    }
  };

  for (const n of [20, 50]) {
    it(`${n} wrong passwords at once for one account: ${LIMIT} answer 514, the rest 429`, async () => {
      const userId = `rush${n}`;
      await addUser(t, { user_id: userId, comp_id: compId, password: 'Right-pw1' });
      const { count, codes } = await storm(
        { account: LIMIT, address: 1000 },
        Array.from({ length: n }, () => userId),
      );
      expect(count(514), codes.join(',')).toBe(LIMIT);
      expect(count(429), codes.join(',')).toBe(n - LIMIT);
      // The account stays locked for the right password too.
      const server = await startSibling(t, { loginMaxFailuresAccount: LIMIT, loginMaxFailuresAddress: 1000 });
      try {
        const key = ok(await server.call<Key>('v2/user/login/key'));
        const locked = await server.call<{ retry_after: number }>('v2/user/login', {
          user_id: userId,
          user_password: makeCipher(key.public_key, userId, 'Right-pw1', key.server_time),
          key_id: key.key_id,
        });
        expect(locked.code).toBe(429);
        expect(locked.data.retry_after).toBeGreaterThan(0);
      } finally {
        await server.close();
      }
    });
  }

  it('the address limit holds the same way across many accounts', async () => {
    await dbOf(t).deleteFrom('login_failure').where('bucket', 'like', 'address:%').execute();
    const { count, codes } = await storm(
      { account: 1000, address: 8 },
      Array.from({ length: 40 }, (_, i) => `ghost.storm${i}`),
    );
    expect(count(514), codes.join(',')).toBe(8);
    expect(count(429), codes.join(',')).toBe(32);
    // Refused attempts were given back to the accounts they named: none of them counts one.
    const accounts = await dbOf(t).selectFrom('login_failure').select('failures').where('bucket', 'like', 'account:ghost.storm%').execute();
    expect(accounts.reduce((sum, r) => sum + r.failures, 0)).toBe(8);
    await dbOf(t).deleteFrom('login_failure').where('bucket', 'like', 'address:%').execute();
  });
});

describe('failed-login counters', () => {
  it('deletes counters whose window and lock have both passed, keeps the others', async () => {
    const now = nowSeconds();
    const old = now - t.config.loginFailureWindowSeconds - 10;
    await dbOf(t)
      .insertInto('login_failure')
      .values([
        { bucket: 'account:sweep.expired', failures: 2, window_start: old, locked_until: 0 },
        { bucket: 'account:sweep.unlocked', failures: 9, window_start: old, locked_until: now - 5 },
        { bucket: 'account:sweep.locked', failures: 9, window_start: old, locked_until: now + 600 },
        { bucket: 'account:sweep.window', failures: 1, window_start: now - 5, locked_until: 0 },
      ])
      .execute();
    // A process sweeps on its first login attempt (then at most once a minute).
    const fresh = await startSibling(t);
    try {
      const key = ok(await fresh.call<Key>('v2/user/login/key'));
      const cipher = makeCipher(key.public_key, 'admin', ADMIN_PASSWORD, key.server_time);
      ok(await fresh.call('v2/user/login', { user_id: 'admin', user_password: cipher, key_id: key.key_id }));
    } finally {
      await fresh.close();
    }
    const left = await dbOf(t).selectFrom('login_failure').select('bucket').where('bucket', 'like', 'account:sweep.%').execute();
    expect(left.map((r) => r.bucket).sort()).toEqual(['account:sweep.locked', 'account:sweep.window']);
  });
});
