import { SECRET_MASK, secretFieldsOf } from '@iot/contract';
import type { z } from 'zod';
import type { SecretBox } from './secrets.js';

/**
 * Secret fields (payment keys, platform and app secrets) marked with `secret()` in the
 * contract: sealed with AES-256-GCM before they are stored, answered only as a mask,
 * replaced when a new value is sent, kept when the field is absent, empty or the mask.
 * The audit mechanism reads the same marks and records only that a secret changed.
 */
export interface SecretFields {
  /** Input → values to store: secrets sealed, masks and absent secrets left out (kept). */
  seal<T extends Record<string, unknown>>(input: T): T;
  /** Stored row → answer: every secret replaced by the mask (empty stays empty). */
  mask<T extends Record<string, unknown>>(row: T): T;
  /** Stored row → the plain secret, for the server's own use (e.g. calling a payment platform). */
  reveal(row: Record<string, unknown>, field: string): string;
  fields: readonly string[];
}

export const secretFieldsFor = (schema: z.ZodObject, box: SecretBox): SecretFields => {
  const fields = secretFieldsOf(schema);
  return {
    fields,
    seal(input) {
      const out: Record<string, unknown> = { ...input };
      for (const f of fields) {
        const v = out[f];
        if (v === undefined || v === SECRET_MASK) delete out[f];
        else if (typeof v === 'string' && v !== '') out[f] = box.seal(v);
      }
      return out as typeof input;
    },
    mask(row) {
      const out: Record<string, unknown> = { ...row };
      for (const f of fields) if (typeof out[f] === 'string' && out[f] !== '') out[f] = SECRET_MASK;
      return out as typeof row;
    },
    reveal(row, field) {
      const v = row[field];
      return typeof v === 'string' && v !== '' ? box.open(v) : '';
    },
  };
};
