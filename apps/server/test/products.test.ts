import { type ProductCategory, type ProductRow, type ProductShareRow, productRowSchema } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyAdmin, startTestServer, type TestServer } from './harness.js';
import { addCompany, dbOf, fails, nowSeconds, ok } from './helpers.js';

/**
 * Companies:
 *   Platform (1, super admin)
 *   ├── A  (a.admin: product/iot, scope A + subsidiaries)
 *   │   └── A1
 *   └── B  (b.admin: product/iot; a sibling of A)
 */
let t: TestServer;
let a: Awaited<ReturnType<typeof createCompanyAdmin>>;
let b: Awaited<ReturnType<typeof createCompanyAdmin>>;
let a1: number;

beforeAll(async () => {
  t = await startTestServer();
  a = await createCompanyAdmin(t, { name: 'A', menuKeys: ['product/iot'], userId: 'a.admin' });
  b = await createCompanyAdmin(t, { name: 'B', menuKeys: ['product/iot'], userId: 'b.admin' });
  a1 = (await addCompany(t, { comp_name: 'A1', comp_parent_id: a.compId })).comp_id;
});
afterAll(async () => {
  await t?.close();
});

const add = (body: Record<string, unknown>, token = t.adminToken) => t.call<ProductRow>('user/product/add', body, { token });
const set = (body: Record<string, unknown>, token = t.adminToken) => t.call<ProductRow>('user/product/set', body, { token });
const del = (body: Record<string, unknown>, token = t.adminToken) => t.call('v2/umh/admin/product/delete', body, { token });
const get = (body: Record<string, unknown>, token = t.adminToken) => t.call<ProductRow>('user/product/get', body, { token });
const list = (body: Record<string, unknown>, token = t.adminToken) => t.call<ProductRow[]>('v2/umh/admin/product/list', body, { token });
const productCount = async () =>
  Number(
    (
      await dbOf(t)
        .selectFrom('product')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('products', () => {
  it('lists the categories with their Chinese names', async () => {
    const cats = ok(await t.call<ProductCategory[]>('user/product/category/get', {}, { token: a.token }));
    expect(cats.length).toBeGreaterThan(3);
    expect(cats[0]).toMatchObject({ name: expect.any(String), cn_name: expect.any(String) });
  });

  it('adds a product with a generated, unique pk and answers the row', async () => {
    const [cat] = ok(await t.call<ProductCategory[]>('user/product/category/get', {}, { token: a.token }));
    const row = ok(
      await add(
        {
          name: 'Cam 1',
          comp_id: a.compId,
          node_type: 2,
          category_id: cat?.id,
          attr: '{"resolution":"1080p","ir":true}',
          oem: 1,
          link_id: 'L1',
          link_type: 2,
          batch_id: 'B-7',
          remark: 'first',
          pk: 'chosen-by-client',
        },
        a.token,
      ),
    );
    expect(productRowSchema.parse(row)).toBeTruthy();
    expect(row).toMatchObject({
      name: 'Cam 1',
      comp_id: a.compId,
      comp_name: 'A',
      node_type: 2,
      category: cat?.id,
      category_name: cat?.name,
      category_cn_name: cat?.cn_name,
      oem: 1,
      link_id: 'L1',
      link_type: 2,
      batch_id: 'B-7',
      shared: false,
    });
    expect(JSON.parse(row.attr)).toEqual({ resolution: '1080p', ir: true });
    expect(row.pk).toMatch(/^[A-Za-z0-9]{12}$/);
    const pks = new Set([row.pk]);
    for (let i = 0; i < 20; i++) pks.add(ok(await add({ name: `Bulk ${i}`, comp_id: a.compId }, a.token)).pk);
    expect(pks.size).toBe(21);
    expect(ok(await get({ pk: row.pk }, a.token)).id).toBe(row.id);
    expect(ok(await get({ id: row.id }, a.token)).pk).toBe(row.pk);
  });

  it('refuses a duplicate name in one company (409) but allows it in another', async () => {
    ok(await add({ name: 'Twin', comp_id: a.compId }, a.token));
    fails(await add({ name: 'Twin', comp_id: a.compId }, a.token), 409);
    ok(await add({ name: 'Twin', comp_id: a1 }, a.token));
  });

  it('validates attr: JSON object, no empty values', async () => {
    const before = await productCount();
    const bad = await add({ name: 'Bad attr', comp_id: a.compId, attr: '{not json' }, a.token);
    fails(bad, 406);
    expect(bad.data).toEqual({ fields: { attr: 'format:json' } });
    const arr = await add({ name: 'Bad attr', comp_id: a.compId, attr: '[1,2]' }, a.token);
    expect(arr.data).toEqual({ fields: { attr: 'format:json' } });
    const empty = await add({ name: 'Bad attr', comp_id: a.compId, attr: '{"color":""}' }, a.token);
    expect(empty.data).toEqual({ fields: { attr: 'format:attr_value' } });
    fails(await add({ name: 'Bad node', comp_id: a.compId, node_type: 9 }, a.token), 406);
    expect(await productCount()).toBe(before);
    // An empty attr is an empty object.
    expect(ok(await add({ name: 'No attr', comp_id: a.compId, attr: '' }, a.token)).attr).toBe('{}');
  });

  it('refuses a foreign company (406) and stores nothing', async () => {
    const before = await productCount();
    const answer = await add({ name: 'Sneaky', comp_id: b.compId }, a.token);
    fails(answer, 406);
    expect(answer.data).toEqual({ fields: { comp_id: 'not_found' } });
    fails(await add({ name: 'Ghost', comp_id: 999_999 }, a.token), 406);
    fails(await add({ name: 'Bad category', comp_id: a.compId, category: 999_999 }, a.token), 406);
    expect(await productCount()).toBe(before);
  });

  it('sets given fields only; pk and company never change', async () => {
    const row = ok(await add({ name: 'Settable', comp_id: a.compId, attr: '{"a":1}' }, a.token));
    const changed = ok(await set({ id: row.id, remark: 'changed', pk: 'x', comp_id: b.compId }, a.token));
    expect(changed).toMatchObject({ remark: 'changed', pk: row.pk, comp_id: a.compId, attr: '{"a":1}', name: 'Settable' });
    fails(await set({ id: row.id, attr: '{"a":' }, a.token), 406);
    fails(await set({ id: row.id, name: 'Twin' }, a.token), 409);
    fails(await set({ id: row.id, name: 'x' }, b.token), 406);
  });

  it('lists with filters and sorting, scoped by company', async () => {
    const all = await list({ page_size: 100 }, a.token);
    expect(all.count).toBeGreaterThan(20);
    expect(all.data.every((p) => p.comp_id === a.compId || p.comp_id === a1)).toBe(true);
    const byName = ok(await list({ name: 'cam' }, a.token));
    expect(byName.map((p) => p.name)).toEqual(['Cam 1']);
    const byNode = await list({ node_type: 2 }, a.token);
    expect(byNode.data.every((p) => p.node_type === 2)).toBe(true);
    const byComp = await list({ comp_id: a1, page_size: 100 }, a.token);
    expect(byComp.data.map((p) => p.name)).toEqual(['Twin']);
    const byOem = await list({ oem: 1 }, a.token);
    expect(byOem.data.map((p) => p.name)).toEqual(['Cam 1']);
    const sorted = ok(await list({ order_by: 'name', order: 'asc', page_size: 100 }, a.token)).map((p) => p.name);
    expect(sorted).toEqual([...sorted].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    fails(await list({ order_by: 'secret' }, a.token), 406);
    expect((await list({}, b.token)).count).toBe(0);
    expect((await list({ page_size: 1000 })).count).toBe(all.count);
  });

  it('needs the product/iot menu (513) and a token (401)', async () => {
    const other = await createCompanyAdmin(t, { name: 'NoProducts', menuKeys: ['operate/user'], userId: 'np.admin' });
    fails(await list({}, other.token), 513);
    fails(await t.call('v2/umh/admin/product/list', {}), 401);
    // Categories feed pickers on several screens: any signed-in user.
    ok(await t.call('user/product/category/get', {}, { token: other.token }));
  });
});

describe('sharing', () => {
  let product: ProductRow;
  beforeAll(async () => {
    product = ok(await add({ name: 'Shared cam', comp_id: a.compId }, a.token));
  });
  const shareList = (productId: number, token = t.adminToken) =>
    t.call<ProductShareRow[]>('v2/umh/admin/product/share/list', { product_id: productId }, { token });

  it('a sibling does not see the product before it is shared', async () => {
    fails(await get({ id: product.id }, b.token), 406);
    expect((await list({ name: 'Shared cam' }, b.token)).count).toBe(0);
  });

  it('the owner shares only with companies in its scope', async () => {
    const refused = await t.call('v2/umh/admin/product/share/add', { product_id: product.id, comp_id: b.compId }, { token: a.token });
    fails(refused, 406);
    fails(await t.call('v2/umh/admin/product/share/add', { product_id: product.id, comp_id: a.compId }, { token: a.token }), 406);
    const share = ok(
      await t.call<ProductShareRow>('v2/umh/admin/product/share/add', { product_id: product.id, comp_id: a1 }, { token: a.token }),
    );
    expect(share).toMatchObject({ product_id: product.id, comp_id: a1, comp_name: 'A1' });
    fails(await t.call('v2/umh/admin/product/share/add', { product_id: product.id, comp_id: a1 }, { token: a.token }), 409);
  });

  it('a sibling sees a shared product, read-only', async () => {
    ok(await t.call('v2/umh/admin/product/share/add', { product_id: product.id, comp_id: b.compId }, { token: t.adminToken }));
    const shares = await shareList(product.id, a.token);
    expect(shares.data.map((s) => s.comp_id).sort()).toEqual([a1, b.compId].sort());
    expect(shares.count).toBe(2);

    const seen = ok(await get({ id: product.id }, b.token));
    expect(seen).toMatchObject({ pk: product.pk, shared: true, comp_name: 'A' });
    expect(ok(await list({}, b.token)).map((p) => p.id)).toEqual([product.id]);
    fails(await set({ id: product.id, remark: 'mine now' }, b.token), 513);
    fails(await del({ id: product.id }, b.token), 513);
    fails(await t.call('v2/umh/admin/product/share/add', { product_id: product.id, comp_id: b.compId }, { token: b.token }), 513);
    fails(await t.call('v2/umh/admin/product/share/delete', { product_id: product.id, comp_id: b.compId }, { token: b.token }), 513);
    fails(await shareList(product.id, b.token), 513);
    expect(ok(await get({ id: product.id }, a.token)).remark).toBe('');
  });

  it('unsharing hides it again, and the change is audited', async () => {
    const unshare = { product_id: product.id, comp_id: b.compId };
    ok(await t.call('v2/umh/admin/product/share/delete', unshare, { token: t.adminToken }));
    fails(await get({ id: product.id }, b.token), 406);
    fails(await t.call('v2/umh/admin/product/share/delete', unshare, { token: t.adminToken }), 406);
    const audit = await dbOf(t)
      .selectFrom('audit_log')
      .select(['path', 'target_id', 'changes'])
      .where('path', 'like', 'v2/umh/admin/product/share/%')
      .orderBy('id')
      .execute();
    expect(audit.map((r) => r.path)).toEqual([
      'v2/umh/admin/product/share/add',
      'v2/umh/admin/product/share/add',
      'v2/umh/admin/product/share/delete',
    ]);
    expect(audit.every((r) => r.target_id === String(product.id))).toBe(true);
  });
});

describe('delete', () => {
  it('deletes a product without devices, and refuses one with devices (406 has_devices)', async () => {
    const free = ok(await add({ name: 'Free', comp_id: a.compId }, a.token));
    const used = ok(await add({ name: 'Used', comp_id: a.compId }, a.token));
    const now = nowSeconds();
    await dbOf(t)
      .insertInto('device')
      .values({ uid: 'UID-0001', mac: '', pk: used.pk, comp_id: a.compId, dev_key: '', import_id: null, gmt_create: now, gmt_update: now })
      .execute();
    const refused = await del({ ids: [free.id, used.id] }, a.token);
    fails(refused, 406);
    expect(refused.data).toEqual({ fields: { id: 'has_devices' } });
    // All or none: the free one is still there.
    ok(await get({ id: free.id }, a.token));
    ok(await del({ id: free.id }, a.token));
    fails(await get({ id: free.id }, a.token), 406);
    fails(await del({ id: used.id }, b.token), 406);
    const audit = await dbOf(t)
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('path', '=', 'v2/umh/admin/product/delete')
      .execute();
    expect(audit).toEqual([{ action: 'del', target_id: String(free.id) }]);
  });

  it('refuses a product that licence codes name (406 has_licences), and deletes nothing', async () => {
    const licensed = ok(await add({ name: 'Licensed', comp_id: a.compId }, a.token));
    ok(await t.call('v2/umh/admin/liccode/add', { pk: licensed.pk, comp_id: a.compId, count: 2 }, { token: t.adminToken }));
    const refused = await del({ id: licensed.id }, a.token);
    fails(refused, 406);
    expect(refused.data).toEqual({ fields: { id: 'has_licences' } });
    ok(await get({ id: licensed.id }, a.token));
  });
});
