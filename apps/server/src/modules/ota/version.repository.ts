import { API, ErrorCode, type ProductVersionDetail, type ProductVersionRow, type Rollout, versionRangeRules } from '@iot/contract';
import { type SqlBool, sql } from 'kysely';
import type { RequestContext, Scope } from '../../platform/context.js';
import { defineCrud } from '../../platform/crud.js';
import type { Conn } from '../../platform/db/database.js';
import { AppError, badParams } from '../../platform/errors.js';
import { contains, eq, positive } from '../../platform/list.js';
import { productKeyOwnedBy, productOwnedBy, productVisibleTo } from '../../platform/scope.js';
import { versionsOffered } from './upgrade.repository.js';

/** Upgrades of the version by state, counted from the (version_id, state) index. */
const rolloutOf = sql<Rollout>`(select json_build_object(
    'offered', count(*) filter (where u.state = 'offered'),
    'upgrading', count(*) filter (where u.state = 'upgrading'),
    'succeeded', count(*) filter (where u.state = 'succeeded'),
    'failed', count(*) filter (where u.state = 'failed'),
    'superseded', count(*) filter (where u.state = 'superseded'))
  from ota_upgrade u where u.version_id = t.id)`;

interface StoredVersion {
  id: number;
  details: ProductVersionDetail[];
  owner_name: string;
  rollout: Rollout;
  [k: string]: unknown;
}

/** The product of a pk as the caller sees it: owned (may carry firmware), shared with it (read-only), or neither. */
const productForFirmware = async (conn: Conn, scope: Scope, pk: string) => {
  const row = await conn
    .selectFrom('product as p')
    .select(sql<boolean>`${productOwnedBy(scope, 'p')}`.as('owned'))
    .where('p.pk', '=', pk)
    .where(productVisibleTo(scope, 'p'))
    .executeTakeFirst();
  return row ? { owned: Boolean(row.owned) } : undefined;
};

/** Another version of the product already has this `ver_num` or `ver`: which field. */
/**
 * The version as it will be (add: the input; set: the row with the changes): its product owned
 * by the caller (a product shared with it is read-only: 513; another company's: 406
 * `{pk: not_found}`), the range rules (406). `ver` and `ver_num` unique within the product (409): `unique` below.
 */
const checkVersion = async (ctx: RequestContext, next: Record<string, unknown>, current: ProductVersionRow | undefined) => {
  const v = next as { pk: string; ver: string; ver_num: number; min_ver_num: number; max_ver_num: number; id?: number };
  if (!current) {
    const product = await productForFirmware(ctx.conn, ctx.scope, v.pk);
    if (!product) throw badParams({ pk: 'not_found' }, 'product does not exist');
    if (!product.owned) throw new AppError(ErrorCode.NO_PERMISSION, 'A shared product is read-only');
  }
  const rules = versionRangeRules(v);
  if (Object.keys(rules).length > 0) throw badParams(rules);
};

/**
 * Firmware versions (CRUD kit): scoped through the product that owns them, rows with the product's
 * name and company and the rollout counted by state; default order newest version first.
 */
export const versions = defineCrud(
  { list: API.productVerList, add: API.productVerAdd, set: API.productVerSet, del: API.productVerDel },
  {
    table: 'product_version',
    what: 'version',
    scope: (scope) => productKeyOwnedBy(scope, 't.pk'),
    filters: {
      pk: eq('t.pk'),
      ver: contains('t.ver'),
      state: positive('t.state'),
      comp_id: (v) => sql<SqlBool>`exists (select 1 from product fp where fp.pk = t.pk and fp.comp_id = ${v})`,
    },
    sorts: { ver: 't.ver', ver_num: 't.ver_num', state: 't.state', level: 't.level', limit: 't.limit', count: 't.count' },
    defaultSort: { column: 't.ver_num', direction: 'desc' },
    select: (conn) =>
      conn
        .selectFrom('product_version as t')
        .innerJoin('product as p', 'p.pk', 't.pk')
        .leftJoin('company as c', 'c.comp_id', 'p.comp_id')
        .selectAll('t')
        .select([
          'p.name as product_name',
          'p.comp_id',
          sql<string>`coalesce(c.comp_name, '')`.as('owner_name'),
          rolloutOf.as('rollout'),
        ]) as never,
    toRow: (stored) => {
      const { owner_name, rollout, details, ...rest } = stored as unknown as StoredVersion;
      return {
        ...rest,
        id: Number(rest.id),
        comp_name: owner_name,
        details: details.map((d) => ({ lang: d.lang, url: d.url, title: d.title, content: d.content, size: Number(d.size) })),
        rollout: {
          offered: Number(rollout.offered),
          upgrading: Number(rollout.upgrading),
          succeeded: Number(rollout.succeeded),
          failed: Number(rollout.failed),
          superseded: Number(rollout.superseded),
        },
      } as unknown as ProductVersionRow;
    },
    check: checkVersion,
    unique: [
      {
        field: 'ver_num',
        message: 'A version of this product already has this version number',
        index: 'product_version_pk_ver_num_key',
        among: (next) => sql<SqlBool>`pk = ${next.pk} and ver_num = ${next.ver_num}`,
      },
      {
        field: 'ver',
        message: 'A version of this product already has this version',
        among: (next) => sql<SqlBool>`pk = ${next.pk} and ver = ${next.ver}`,
      },
    ],
    beforeDelete: async (ctx, rows) => {
      // Offered versions carry devices' upgrade history: they are delisted instead (all or none deleted).
      const offered = await versionsOffered(
        ctx.conn,
        rows.map((r) => r.id),
      );
      if (offered.length > 0)
        throw badParams({ id: 'in_use' }, `Devices have been offered version ${offered.join(', ')}: delist it instead`);
    },
  },
);
