/** Business constants of SPEC §9 shared by server and web. */
export const NOTIFICATION_DURATION_MS = 10_500;
export const TOAST_DURATION_MS = 2_000;
export const ERROR_SUPPRESS_MS = 1_900;
export const MOBILE_MAX_WIDTH = 599;
export const PAGER_ITEMS = 5;
export const PAGER_ITEMS_MOBILE = 3;
export const LOADING_POLL_MS = 1_000;
export const MODAL_CARD_DELAY_MS = 400;
export const CHUNK_TIMEOUT_MS = 120_000;
export const PHONE_AREA_DEFAULT = '+86';
export const LOGIN_WINDOW_SECONDS = 300;
export const LANGUAGES = ['en', 'zh-CN', 'zh-TW'] as const;
export type Language = (typeof LANGUAGES)[number];
export const CURRENCIES = ['CNY', 'USD', 'INR'] as const;
export const CLIENT_TYPES = ['web', 'android', 'ios', 'mac', 'ipad', 'pc'] as const;

/** The nine company types (SPEC §3). */
export const CompanyType = {
  SUPER_ADMIN: 1,
  ADMIN: 2,
  FACTORY: 3,
  GENERAL_AGENT: 4,
  AGENT: 5,
  DISTRIBUTOR: 6,
  PROPERTY: 7,
  DEVELOPER: 8,
  CUSTOMER: 9,
} as const;
export const COMPANY_TYPES = Object.values(CompanyType);

/** Company state: a self-registered company waits for its parent's approval. */
export const CompanyState = { ACTIVE: 1, DISABLED: 2, PENDING: 3 } as const;
export const RoleState = { OPEN: 1, DISABLE: 2 } as const;
export const UserState = { ENABLED: 1, DISABLED: 2 } as const;
/** Role type: system roles are defined by the platform operator, custom by a company. */
export const RoleType = { SYSTEM: 1, CUSTOM: 2 } as const;
/** What a role's holder sees: its own company, or its company and subsidiaries. */
export const DataScope = { OWN_COMPANY: 1, COMPANY_TREE: 2 } as const;

/** User types of SPEC §6. 1 is the super administrator (sees everything). */
export const UserType = {
  SUPER_ADMIN: 1,
  ADMIN: 2,
  FACTORY: 3,
  AGENT: 4,
  DEVELOPER: 5,
  CLIENT_COMPANY: 6,
  MARKETING: 7,
  SELF_EMPLOYED: 8,
  COMPANY: 9,
} as const;
export const USER_TYPES = Object.values(UserType);

export const ResourceType = ['sys', 'datacenter', 'zonebind'] as const;
export type ResourceTypeName = (typeof ResourceType)[number];
