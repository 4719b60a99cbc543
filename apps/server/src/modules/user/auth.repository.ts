import crypto from 'node:crypto';
import { LOGIN_WINDOW_SECONDS } from '@iot/contract';
import type { Conn } from '../../platform/db/database.js';

/** Remembers a cipher until it could no longer pass the time window: a second use is a replay. */
export const claimCipher = async (conn: Conn, cipher: string, now: number): Promise<boolean> => {
  const cipherHash = crypto.createHash('sha256').update(cipher).digest('hex');
  await conn.deleteFrom('login_replay').where('expires_at', '<', now).execute();
  const inserted = await conn
    .insertInto('login_replay')
    .values({ cipher_hash: cipherHash, expires_at: now + 2 * LOGIN_WINDOW_SECONDS })
    .onConflict((oc) => oc.doNothing())
    .returning('cipher_hash')
    .executeTakeFirst();
  return inserted !== undefined;
};
