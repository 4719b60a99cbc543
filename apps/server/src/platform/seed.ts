import crypto from 'node:crypto';
import { CompanyType, MENU_TREE, type MenuSeed, passwordDigestInput, UserState, UserType } from '@iot/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/database.js';
import { hashPassword } from './passwords.js';
import { nowSeconds } from './time.js';

/** Adds the menus of the contract tree that the table does not have yet (admins' edits are kept). */
export const seedMenus = async (db: Db): Promise<void> => {
  const existing = new Map((await db.selectFrom('menu').select(['menu_id', 'menu_key']).execute()).map((m) => [m.menu_key, m.menu_id]));
  const insert = async (seed: MenuSeed, parentId: number, sort: number) => {
    let id = existing.get(seed.key);
    if (id === undefined) {
      id = (
        await db
          .insertInto('menu')
          .values({
            menu_key: seed.key,
            menu_name: seed.name,
            menu_cn_name: seed.cnName,
            menu_tw_name: '',
            menu_parent_id: parentId,
            icon: seed.icon,
            sort,
            is_show: seed.show === false ? 0 : 1,
          })
          .onConflict((oc) => oc.column('menu_key').doNothing())
          .returning('menu_id')
          .executeTakeFirst()
      )?.menu_id;
      if (id === undefined) return; // another process inserted it first
    }
    for (const [i, child] of (seed.children ?? []).entries()) await insert(child, id, (i + 1) * 10);
  };
  for (const [i, seed] of MENU_TREE.entries()) await insert(seed, 0, (i + 1) * 10);
};

/** encodePassword of CONTRACT §4, for the first administrator's password from the environment. */
export const encodePassword = (userId: string, password: string) =>
  crypto.createHash('sha256').update(passwordDigestInput(userId, password)).digest('hex');

/**
 * First start (CONTRACT §4): with no users, create the platform root company and the
 * super administrator `admin`, with ADMIN_PASSWORD or a random password logged once.
 */
export const ensureFirstAdmin = async (db: Db, adminPassword: string | undefined, log: FastifyBaseLogger): Promise<void> => {
  const any = await db.selectFrom('app_user').select('id').limit(1).executeTakeFirst();
  if (any) return;
  const password = adminPassword ?? crypto.randomBytes(12).toString('base64url');
  const now = nowSeconds();
  await db.transaction().execute(async (trx) => {
    let root = await trx.selectFrom('company').select(['comp_id']).where('comp_parent_id', '=', 0).orderBy('comp_id').executeTakeFirst();
    if (!root) {
      root = await trx
        .insertInto('company')
        .values({
          comp_name: 'Platform',
          comp_short_name: 'Platform',
          comp_key: crypto.randomBytes(9).toString('base64url'),
          comp_type: CompanyType.SUPER_ADMIN,
          comp_parent_id: 0,
          comp_top_id: 0,
          comp_path: '',
          comp_addr: '',
          comp_person: '',
          area: '',
          area_id: 0,
          country: '',
          province: '',
          city: '',
          dk: 0,
          dk_limit: 0,
          sys: '',
          latitude: null,
          longitude: null,
          comp_phone_area: '+86',
          comp_phone: '',
          sort: null,
          state: 1,
          gmt_create: now,
          gmt_update: now,
        })
        .returning('comp_id')
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('company')
        .set({ comp_path: `/${root.comp_id}/`, comp_top_id: root.comp_id })
        .where('comp_id', '=', root.comp_id)
        .execute();
    }
    await trx
      .insertInto('app_user')
      .values({
        user_id: 'admin',
        password_hash: await hashPassword(encodePassword('admin', password)),
        user_name: 'Administrator',
        user_email: '',
        user_phone: '',
        user_phone_area: '+86',
        validity_time: 0,
        remark: '',
        pending_registration: false,
        comp_id: root.comp_id,
        state: UserState.ENABLED,
        user_type: UserType.SUPER_ADMIN,
        role_id: null,
        gmt_create: now,
        gmt_update: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  });
  if (adminPassword) log.info('created the super administrator "admin" with ADMIN_PASSWORD');
  else log.warn({ user_id: 'admin', password }, 'created the super administrator "admin"; this password is shown once');
};
