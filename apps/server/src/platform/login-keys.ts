import crypto from 'node:crypto';
import type { Db } from './db/database.js';
import type { SecretBox } from './secrets.js';
import { nowSeconds } from './time.js';

/**
 * The RSA-OAEP key pair of the login cipher (CONTRACT §4). It lives in the database,
 * sealed with the server secret, so it survives restarts and every process on the
 * same database answers the same key.
 */
export interface LoginKeys {
  current(): Promise<{ keyId: string; publicKey: string }>;
  /** Decrypts a base64 cipher made with the key `keyId`; null when it cannot. */
  decrypt(keyId: string, cipherBase64: string): Promise<string | null>;
}

export const createLoginKeys = (db: Db, secrets: SecretBox): LoginKeys => {
  const privateKeys = new Map<string, crypto.KeyObject>();
  let cached: { keyId: string; publicKey: string } | undefined;

  const load = async () => {
    const row = await db.selectFrom('login_key').selectAll().orderBy('gmt_create', 'desc').orderBy('key_id').executeTakeFirst();
    if (row) return row;
    const pair = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicKey = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const privatePem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const keyId = crypto.createHash('sha256').update(publicKey).digest('hex').slice(0, 16);
    // Two processes starting together: the first insert wins, both then read it.
    await db
      .insertInto('login_key')
      .values({ key_id: keyId, public_key: publicKey, private_key_sealed: secrets.seal(privatePem), gmt_create: nowSeconds() })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return db.selectFrom('login_key').selectAll().orderBy('gmt_create', 'desc').orderBy('key_id').executeTakeFirstOrThrow();
  };

  const privateKeyOf = async (keyId: string) => {
    const hit = privateKeys.get(keyId);
    if (hit) return hit;
    const row = await db.selectFrom('login_key').selectAll().where('key_id', '=', keyId).executeTakeFirst();
    if (!row) return null;
    const key = crypto.createPrivateKey(secrets.open(row.private_key_sealed));
    privateKeys.set(keyId, key);
    return key;
  };

  return {
    async current() {
      if (!cached) {
        const row = await load();
        cached = { keyId: row.key_id, publicKey: row.public_key };
      }
      return cached;
    },
    async decrypt(keyId, cipherBase64) {
      const key = await privateKeyOf(keyId);
      if (!key) return null;
      try {
        return crypto
          .privateDecrypt(
            { key, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
            Buffer.from(cipherBase64, 'base64'),
          )
          .toString('utf8');
      } catch {
        return null;
      }
    },
  };
};
