import type { Messages } from '../locales/en';

/**
 * Typed i18n keys, derived from the English messages (the shape every language must match):
 * a label a screen names that no locale holds fails `tsc`.
 */
type Key = string | number;

type Leaves<T, P extends string = ''> = {
  [K in keyof T & Key]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & Key];

type Groups<T, P extends string = ''> = {
  [K in keyof T & Key]: T[K] extends string ? never : `${P}${K}` | Groups<T[K], `${P}${K}.`>;
}[keyof T & Key];

type At<T, P extends string> = P extends `${infer H}.${infer R}`
  ? H extends keyof T
    ? At<T[H], R>
    : never
  : P extends keyof T
    ? T[P]
    : never;

/** A message: `common.save`, `user.fields.user_id`… */
export type LabelKey = Leaves<Messages>;

/** A group of messages, e.g. the labels of an enum's values (`user.states` → `user.states.1`). */
export type LabelGroup = Groups<Messages>;

/** A group holding `fields`: the label area of a screen (`user`, `device_state.licence`…). */
export type LabelArea = { [P in LabelGroup]: At<Messages, P> extends { fields: object } ? P : never }[LabelGroup];

/** A field with a label in an area: `user_id` for `user` (its label is `user.fields.user_id`). */
export type FieldKey<A extends LabelArea> = keyof At<Messages, A>['fields'] & Key;

/** The label of a field by convention: `<area>.fields.<name>`. */
export const fieldLabel = (area: string, name: string): LabelKey => `${area}.fields.${name}` as LabelKey;

/** The label of an enum value: `<group>.<value>`. */
export const valueLabel = (group: LabelGroup, value: unknown): LabelKey => `${group}.${String(value)}` as LabelKey;
