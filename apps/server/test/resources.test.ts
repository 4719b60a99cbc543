import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyAdmin, startTestServer, type TestServer } from './harness.js';
import { fails, ok } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

type Resource = { id: number; res_type: string; sys: string; name: string; [k: string]: unknown };
const call = <T = Resource>(op: 'list' | 'add' | 'set' | 'del', body: Record<string, unknown>, token = t.adminToken) =>
  t.call<T>(`v2/user/srv/resource/${op}`, body, { token });
const listOf = async (res_type: string, extra: Record<string, unknown> = {}) =>
  ok(await call<Resource[]>('list', { res_type, page_size: 100, ...extra }));

describe('service resources', () => {
  it('sys: add, list, set, del', async () => {
    const row = ok(await call('add', { res_type: 'sys', sys: 'cn', name: 'China' }));
    expect(row).toMatchObject({ res_type: 'sys', sys: 'cn', name: 'China' });
    expect(row.id).toBeGreaterThan(0);
    expect((await listOf('sys')).map((r) => r.id)).toEqual([row.id]);
    expect(ok(await call('set', { id: row.id, name: 'Mainland' }))).toMatchObject({ sys: 'cn', name: 'Mainland' });
    ok(await call('del', { id: row.id }));
    expect(await listOf('sys')).toEqual([]);
    fails(await call('del', { id: row.id }), 406);
  });

  it('datacenter: add with defaults, list, set, del', async () => {
    const row = ok(await call('add', { res_type: 'datacenter', sys: 'eu', name: 'Frankfurt', host: 'fra.example.com', port: '8080' }));
    expect(row).toMatchObject({
      res_type: 'datacenter',
      sys: 'eu',
      name: 'Frankfurt',
      host: 'fra.example.com',
      port: 8080,
      ssl_port: 443,
      deploy_open: 0,
      state: 1,
    });
    const changed = ok(await call('set', { id: row.id, ssl_port: 8443, state: 2 }));
    expect(changed).toMatchObject({ host: 'fra.example.com', port: 8080, ssl_port: 8443, state: 2 });
    const [listed] = await listOf('datacenter');
    expect(listed).toMatchObject({ id: row.id, ssl_port: 8443, state: 2 });
    fails(await call('set', { id: row.id, port: 70000 }), 406);
    ok(await call('del', { ids: [row.id] }));
    expect(await listOf('datacenter')).toEqual([]);
  });

  it('zonebind: add, list, set, del', async () => {
    const row = ok(await call('add', { res_type: 'zonebind', sys: 'cn', src_area: 'north', dest_area: 'south', type: 2, remark: 'r' }));
    expect(row).toMatchObject({ res_type: 'zonebind', sys: 'cn', src_area: 'north', dest_area: 'south', type: 2, remark: 'r', state: 1 });
    const changed = ok(await call('set', { id: row.id, dest_area: 'east', remark: '' }));
    expect(changed).toMatchObject({ src_area: 'north', dest_area: 'east', type: 2, remark: '' });
    expect((await listOf('zonebind')).map((r) => r.id)).toEqual([row.id]);
    ok(await call('del', { id: row.id }));
    expect(await listOf('zonebind')).toEqual([]);
  });

  it('lists one type at a time, filtered and paged, newest first', async () => {
    const a = ok(await call('add', { res_type: 'sys', sys: 'us', name: 'America' }));
    const b = ok(await call('add', { res_type: 'sys', sys: 'in', name: 'India' }));
    const c = ok(await call('add', { res_type: 'sys', sys: 'us2', name: 'America 2' }));
    ok(await call('add', { res_type: 'datacenter', sys: 'us', name: 'Virginia' }));
    expect((await listOf('sys')).map((r) => r.id)).toEqual([c.id, b.id, a.id]);
    expect((await listOf('sys', { sys: 'us' })).map((r) => r.id)).toEqual([c.id, a.id]);
    expect((await listOf('sys', { name: 'ind' })).map((r) => r.id)).toEqual([b.id]);
    const paged = await call<Resource[]>('list', { res_type: 'sys', page_size: 2, page_no: 2 });
    expect(ok(paged).map((r) => r.id)).toEqual([a.id]);
    expect(paged.count).toBe(3);
    expect((await listOf('datacenter')).map((r) => r.name)).toEqual(['Virginia']);
  });

  it('requires res_type on list and add', async () => {
    const noType = await call('list', {});
    fails(noType, 406);
    expect((noType.data as unknown as { fields: Record<string, string> }).fields).toHaveProperty('res_type');
    fails(await call('list', { res_type: 'nonsense' }), 406);
    fails(await call('add', { sys: 'x', name: 'y' }), 406);
    fails(await call('add', { res_type: 'sys', name: 'missing sys' }), 406);
    fails(await call('add', { res_type: 'zonebind', sys: 'x' }), 406);
  });

  it('refuses on set a field that does not belong to the type, and changes nothing', async () => {
    const sys = ok(await call('add', { res_type: 'sys', sys: 'jp', name: 'Japan' }));
    const refused = await call('set', { id: sys.id, name: 'Nippon', host: 'x.example.com' });
    fails(refused, 406);
    expect((refused.data as unknown as { fields: Record<string, string> }).fields).toEqual({ host: 'not_in:sys' });
    const zone = ok(await call('add', { res_type: 'zonebind', sys: 'jp', src_area: 'a', dest_area: 'b' }));
    fails(await call('set', { id: zone.id, port: 80 }), 406);
    const dc = ok(await call('add', { res_type: 'datacenter', sys: 'jp', name: 'Tokyo' }));
    fails(await call('set', { id: dc.id, src_area: 'x' }), 406);
    const [after] = (await listOf('sys', { sys: 'jp' })).filter((r) => r.id === sys.id);
    expect(after).toMatchObject({ name: 'Japan' });
    expect(after).not.toHaveProperty('host');
    // A field of no type at all is simply ignored.
    expect(ok(await call('set', { id: sys.id, name: 'Nippon', no_such_field: 1 }))).not.toHaveProperty('no_such_field');
  });

  it('refuses on add a field of another type instead of dropping it, and stores nothing', async () => {
    const refused = await call('add', { res_type: 'sys', sys: 'kr', name: 'Korea', host: 'kr.example.com', port: 80 });
    fails(refused, 406);
    expect((refused.data as unknown as { fields: Record<string, string> }).fields).toEqual({ host: 'not_in:sys', port: 'not_in:sys' });
    fails(await call('add', { res_type: 'zonebind', sys: 'kr', src_area: 'a', dest_area: 'b', name: 'named' }), 406);
    expect(await listOf('sys', { sys: 'kr' })).toEqual([]);
    expect(await listOf('zonebind', { sys: 'kr' })).toEqual([]);
  });

  it('needs system/resource', async () => {
    const other = await createCompanyAdmin(t, { name: 'No resources', menuKeys: ['operate/user'], userId: 'no.res' });
    fails(await call('list', { res_type: 'sys' }, other.token), 513);
    fails(await call('add', { res_type: 'sys', sys: 'x', name: 'y' }, other.token), 513);
    const holder = await createCompanyAdmin(t, { name: 'Resources', menuKeys: ['system/resource'], userId: 'res.holder' });
    ok(await call('list', { res_type: 'sys' }, holder.token));
  });
});
