import { USER_TYPES, UserState, UserType } from '@iot/contract';
import type { FieldOption } from '../../../components/field-config';

/** The nine user types of SPEC §6 (labels `user.types.<n>`); only the super administrator gives type 1. */
export const userTypeOptions = (isSuper: boolean): FieldOption[] =>
  USER_TYPES.map((v) => ({ value: v, label: `user.types.${v}`, disabled: v === UserType.SUPER_ADMIN && !isSuper }));

export const USER_STATE_OPTIONS: FieldOption[] = [UserState.ENABLED, UserState.DISABLED].map((v) => ({
  value: v,
  label: `user.states.${v}`,
}));

export const USER_STATE_COLORS = { [UserState.ENABLED]: 'green', [UserState.DISABLED]: 'default' };
