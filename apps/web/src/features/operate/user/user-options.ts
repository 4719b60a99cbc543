import { UserState } from '@iot/contract';

/** Tag colors of the user states (users, role users, own account). */
export const USER_STATE_COLORS = { [UserState.ENABLED]: 'green', [UserState.DISABLED]: 'default' };
