import { API, type CompanyRow, CompanyState, CompanyType, ErrorCode, UserState } from '@iot/contract';
import { sessionOf } from '../../platform/context.js';
import { AppError, badParams, notFound } from '../../platform/errors.js';
import { changesOf } from '../../platform/list.js';
import { hashPassword } from '../../platform/passwords.js';
import { nowSeconds } from '../../platform/time.js';
import { type AuditEntity, type Route, route } from '../../platform/transport.js';
import { enablePendingUsers, insertUser, isUserIdTaken } from './account.repository.js';
import {
  countChildren,
  countCompanyUsers,
  deleteCompany,
  getCompanies,
  getCompanyByKey,
  getCompanyInScope,
  insertCompany,
  isCompanyNameTaken,
  listCompanies,
  moveCompany,
  toCompanyRow,
  updateCompany,
} from './company.repository.js';

export const companyEntity: AuditEntity = {
  idField: 'comp_id',
  load: async (conn, ids) => (await getCompanies(conn, ids)).map(toCompanyRow),
};

type CompanyNode = CompanyRow & { children?: CompanyNode[] };

/** Nests a scoped list: a row whose parent is outside the list is a root. */
const toTree = (rows: CompanyRow[]): CompanyNode[] => {
  const byId = new Map<number, CompanyNode>(rows.map((r) => [r.comp_id, { ...r }]));
  const roots: CompanyNode[] = [];
  for (const node of byId.values()) {
    const parent = byId.get(node.comp_parent_id);
    if (parent) {
      parent.children = [...(parent.children ?? []), node];
    } else roots.push(node);
  }
  return roots;
};

/** Types only the platform operator may create: super admin and admin companies. */
const OPERATOR_TYPES: number[] = [CompanyType.SUPER_ADMIN, CompanyType.ADMIN];

export const companyRoutes: Route[] = [
  route(API.companyList, async (ctx, input) => {
    if (input.tree === 1) {
      const { rows, count } = await listCompanies(ctx.conn, ctx.scope, input, { unpaged: true });
      return { rows: toTree(rows), count };
    }
    return listCompanies(ctx.conn, ctx.scope, input);
  }),

  route(
    API.companyAdd,
    async (ctx, input) => {
      const session = sessionOf(ctx);
      const parent = await getCompanyInScope(ctx.conn, ctx.scope, input.comp_parent_id);
      if (!parent) throw badParams({ comp_parent_id: 'not_found' }, 'Parent company does not exist');
      if (!session.isSuper && OPERATOR_TYPES.includes(input.comp_type)) throw new AppError(ErrorCode.NO_PERMISSION);
      if (await isCompanyNameTaken(ctx.conn, parent.comp_id, input.comp_name))
        throw new AppError(ErrorCode.CONFLICT, 'Company name already exists');
      const now = nowSeconds();
      const { comp_parent_id: _p, ...values } = input;
      const compId = await insertCompany(ctx.conn, { ...values, comp_parent_id: parent.comp_id, gmt_create: now, gmt_update: now }, parent);
      return toCompanyRow((await getCompanies(ctx.conn, [compId]))[0]!);
    },
    companyEntity,
  ),

  route(
    API.companySet,
    async (ctx, input) => {
      const session = sessionOf(ctx);
      const company = await getCompanyInScope(ctx.conn, ctx.scope, input.comp_id);
      if (!company) throw notFound('company');
      const { comp_id, comp_parent_id, ...changes } = input;
      const isOwn = comp_id === session.compId;
      const guarded = ['state', 'dk_limit', 'comp_type'] as const;
      // Nobody raises their own limits, changes their own type or state, or moves their own company.
      if (
        !session.isSuper &&
        isOwn &&
        (guarded.some((k) => changes[k] !== undefined && changes[k] !== company[k]) ||
          (comp_parent_id !== undefined && comp_parent_id !== company.comp_parent_id))
      ) {
        throw new AppError(ErrorCode.NO_PERMISSION);
      }
      if (!session.isSuper && changes.comp_type !== undefined && OPERATOR_TYPES.includes(changes.comp_type))
        throw new AppError(ErrorCode.NO_PERMISSION);
      const parentId = comp_parent_id ?? company.comp_parent_id;
      const newParent =
        comp_parent_id !== undefined && comp_parent_id !== company.comp_parent_id
          ? await getCompanyInScope(ctx.conn, ctx.scope, comp_parent_id)
          : undefined;
      if (comp_parent_id !== undefined && comp_parent_id !== company.comp_parent_id) {
        if (!newParent) throw badParams({ comp_parent_id: 'not_found' }, 'Parent company does not exist');
        if (newParent.comp_path.startsWith(company.comp_path))
          throw badParams({ comp_parent_id: 'cycle' }, 'A company cannot move under itself');
      }
      // Checked before the move: a namesake under the new parent answers 409, not a constraint error.
      const name = changes.comp_name ?? company.comp_name;
      if (
        (changes.comp_name !== undefined || comp_parent_id !== undefined) &&
        (await isCompanyNameTaken(ctx.conn, parentId, name, comp_id))
      ) {
        throw new AppError(ErrorCode.CONFLICT, 'Company name already exists');
      }
      if (newParent) await moveCompany(ctx.conn, company, newParent);
      const defined = changesOf(changes);
      await updateCompany(ctx.conn, comp_id, { ...defined, gmt_update: nowSeconds() });
      // Approving a self-registration enables the account it was requested with.
      if (company.state === CompanyState.PENDING && changes.state === CompanyState.ACTIVE) await enablePendingUsers(ctx.conn, comp_id);
      return toCompanyRow((await getCompanies(ctx.conn, [comp_id]))[0]!);
    },
    companyEntity,
  ),

  route(
    API.companyDel,
    async (ctx, input) => {
      const session = sessionOf(ctx);
      const ids = [...new Set([input.comp_id, input.id, ...(input.ids ?? [])].filter((v): v is number => v !== undefined))];
      for (const id of ids) {
        const company = await getCompanyInScope(ctx.conn, ctx.scope, id);
        if (!company) throw notFound('company');
        if (id === session.compId || company.comp_parent_id === 0)
          throw new AppError(ErrorCode.NO_PERMISSION, 'This company cannot be deleted');
        if ((await countChildren(ctx.conn, id)) > 0) throw badParams({ comp_id: 'has_children' }, 'Delete or move its subsidiaries first');
        if ((await countCompanyUsers(ctx.conn, id)) > 0) throw badParams({ comp_id: 'has_users' }, 'Delete or move its users first');
        await deleteCompany(ctx.conn, id);
      }
      return { deleted: ids.length };
    },
    companyEntity,
  ),

  route(
    API.companyRegister,
    async (ctx, input) => {
      const parent = await getCompanyByKey(ctx.conn, input.parent_comp_key);
      if (!parent || parent.state !== CompanyState.ACTIVE) throw badParams({ parent_comp_key: 'not_found' }, 'No company has this key');
      if (await isCompanyNameTaken(ctx.conn, parent.comp_id, input.comp_name))
        throw new AppError(ErrorCode.CONFLICT, 'Company name already exists');
      if (await isUserIdTaken(ctx.conn, input.user_id)) throw new AppError(ErrorCode.USER_ID_EXISTS);
      const now = nowSeconds();
      const compId = await insertCompany(
        ctx.conn,
        {
          comp_name: input.comp_name,
          comp_short_name: input.comp_short_name,
          comp_type: OPERATOR_TYPES.includes(input.comp_type) ? CompanyType.CUSTOMER : input.comp_type,
          comp_parent_id: parent.comp_id,
          comp_addr: input.comp_addr,
          comp_person: input.comp_person,
          area: '',
          area_id: 0,
          country: input.country,
          province: '',
          city: '',
          dk_limit: 0,
          sys: '',
          latitude: null,
          longitude: null,
          comp_phone_area: input.comp_phone_area,
          comp_phone: input.comp_phone,
          sort: null,
          state: CompanyState.PENDING,
          gmt_create: now,
          gmt_update: now,
        },
        parent,
      );
      await insertUser(ctx.conn, {
        user_id: input.user_id,
        password_hash: await hashPassword(input.user_password),
        user_name: input.comp_person,
        user_email: input.user_email,
        user_phone: input.comp_phone,
        user_phone_area: input.comp_phone_area,
        validity_time: 0,
        remark: '',
        comp_id: compId,
        state: UserState.DISABLED,
        user_type: 9,
        role_id: null,
        pending_registration: true,
        gmt_create: now,
        gmt_update: now,
      });
      return toCompanyRow((await getCompanies(ctx.conn, [compId]))[0]!);
    },
    companyEntity,
  ),
];
