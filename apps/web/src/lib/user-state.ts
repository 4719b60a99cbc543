import { UserState } from '@iot/contract';

/** The user-list state filter offers "all" as -1; the server reads 0 as any state (SPEC §5). */
export const USER_STATE_ALL = -1;

export const userStateFilter = (v: unknown): number => {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : 0;
};

/** Tag colors of the user states (users, role users, own account). */
export const USER_STATE_COLORS = { [UserState.ENABLED]: 'green', [UserState.DISABLED]: 'default' };
