import { hash, verify } from '@node-rs/argon2';

/**
 * Stored form of an encoded password (CONTRACT §4): argon2id with a random salt.
 * The client already sends SHA-256(user_id:password); we never see the password.
 */
export const hashPassword = (encoded: string): Promise<string> => hash(encoded, { algorithm: 2 });

export const verifyPassword = async (stored: string, encoded: string): Promise<boolean> => {
  try {
    return await verify(stored, encoded);
  } catch {
    return false;
  }
};

/** Verified against when the account does not exist, so both paths take as long. */
let dummyHash: Promise<string> | undefined;
export const dummyVerify = async (encoded: string): Promise<void> => {
  dummyHash ??= hashPassword('0'.repeat(64));
  await verifyPassword(await dummyHash, encoded);
};
