import { z } from 'zod';
import { auditListInput, auditRowSchema } from '../schemas/audit.js';
import { deletedSchema, delSchema } from '../schemas/common.js';
import {
  companyAddInput,
  companyDelInput,
  companyListInput,
  companyRegisterInput,
  companyRowSchema,
  companySetInput,
} from '../schemas/company.js';
import { menuAddInput, menuDelInput, menuListInput, menuNodeSchema, menuSetInput } from '../schemas/menu.js';
import { resourceAddInput, resourceListInput, resourceRowSchema, resourceSetInput } from '../schemas/resource.js';
import { roleAddInput, roleGetInput, roleListInput, roleRelaListInput, roleRowSchema, roleSetInput } from '../schemas/role.js';
import { accountGetOutput, loginOutput } from '../schemas/session.js';
import {
  accountAddInput,
  accountListInput,
  accountSetInput,
  loginInput,
  loginKeyOutput,
  passwordModifyInput,
  userRowSchema,
} from '../schemas/user.js';
import { type ApiDef, changesSessions, def, empty } from './define.js';

const COMPANY_MENUS = ['operate/company'] as const;
const USER_MENUS = ['operate/user'] as const;
const ROLE_MENUS = ['system/role'] as const;
const MENU_MENUS = ['system/menu'] as const;

/** Accounts, companies, roles, menus (issue 2). */
export const USER_API = {
  loginKey: def('v2/user/login/key', 'public', 'get', empty, 'RSA public key for the login cipher', loginKeyOutput),
  login: def('v2/user/login', 'public', 'action', loginInput, 'Log in with the RSA-OAEP cipher', loginOutput),
  logout: changesSessions(def('user/logout', 'user', 'action', empty, 'Revoke the calling token', z.null())),
  accountGet: def('v2/user/account/get', 'user', 'get', empty, 'The calling user with company, role and menus', accountGetOutput),
  passwordModify: changesSessions(
    def('user/password/modify', 'user', 'action', passwordModifyInput, 'Change own password; revokes other tokens', z.null()),
  ),

  accountList: def('v2/user/account/list', USER_MENUS, 'list', accountListInput, 'Users in scope', userRowSchema),
  accountAdd: changesSessions(def('v2/user/account/add', USER_MENUS, 'add', accountAddInput, 'Create a user', userRowSchema)),
  accountSet: changesSessions(def('v2/user/account/set', USER_MENUS, 'set', accountSetInput, 'Change a user', userRowSchema)),
  accountDel: changesSessions(def('v2/user/account/del', USER_MENUS, 'del', delSchema, 'Delete users', deletedSchema)),

  companyList: def(
    'v2/user/company/list',
    'user',
    'list',
    companyListInput,
    'Companies in scope (also feeds company pickers)',
    companyRowSchema,
  ),
  companyAdd: changesSessions(def('v2/user/company/add', COMPANY_MENUS, 'add', companyAddInput, 'Create a company', companyRowSchema)),
  companySet: changesSessions(
    def('v2/user/company/set', COMPANY_MENUS, 'set', companySetInput, 'Change (or approve) a company', companyRowSchema),
  ),
  companyDel: changesSessions(
    def('v2/user/company/del', COMPANY_MENUS, 'del', companyDelInput, 'Delete companies without children or users', deletedSchema),
  ),
  companyRegister: def(
    'v2/user/company/register',
    'public',
    'add',
    companyRegisterInput,
    'Self-registration: a pending company and its first account',
    companyRowSchema,
  ),

  roleList: def('v2/user/role/list', [...ROLE_MENUS, ...USER_MENUS], 'list', roleListInput, 'Roles in scope', roleRowSchema),
  roleGet: def('v2/user/role/get', ROLE_MENUS, 'get', roleGetInput, 'One role with its menu ids', roleRowSchema),
  roleAdd: changesSessions(def('v2/user/role/add', ROLE_MENUS, 'add', roleAddInput, 'Create a role', roleRowSchema)),
  roleSet: changesSessions(def('v2/user/role/set', ROLE_MENUS, 'set', roleSetInput, 'Change a role', roleRowSchema)),
  roleDel: changesSessions(def('v2/user/role/del', ROLE_MENUS, 'del', delSchema, 'Delete roles no user holds', deletedSchema)),
  roleRelaList: def('v2/user/role/rela/list', ROLE_MENUS, 'list', roleRelaListInput, 'Users holding a role', userRowSchema),

  menuList: def(
    'v2/user/menu/list',
    [...MENU_MENUS, ...ROLE_MENUS],
    'list',
    menuListInput,
    'Menu tree (the caller’s own menus unless super admin)',
    menuNodeSchema,
  ),
  menuAdd: changesSessions(def('v2/user/menu/add', 'super', 'add', menuAddInput, 'Create a menu', menuNodeSchema)),
  menuSet: changesSessions(def('v2/user/menu/set', 'super', 'set', menuSetInput, 'Change a menu', menuNodeSchema)),
  menuDel: changesSessions(def('v2/user/menu/del', 'super', 'del', menuDelInput, 'Delete a menu without children', deletedSchema)),

  resourceList: def(
    'v2/user/srv/resource/list',
    ['system/resource'],
    'list',
    resourceListInput,
    'Service resources of one type',
    resourceRowSchema,
  ),
  resourceAdd: def(
    'v2/user/srv/resource/add',
    ['system/resource'],
    'add',
    resourceAddInput,
    'Create a service resource',
    resourceRowSchema,
  ),
  resourceSet: def(
    'v2/user/srv/resource/set',
    ['system/resource'],
    'set',
    resourceSetInput,
    'Change a service resource',
    resourceRowSchema,
  ),
  resourceDel: def('v2/user/srv/resource/del', ['system/resource'], 'del', delSchema, 'Delete service resources', deletedSchema),

  auditList: def('v2/user/audit/list', ['system/audit'], 'list', auditListInput, 'Audit log in scope', auditRowSchema),
} as const satisfies Record<string, ApiDef>;
