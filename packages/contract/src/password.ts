/** Plain text the login cipher carries (CONTRACT §4): account, encoded password, unix seconds. */
export const loginPlaintext = (userId: string, encoded: string, unixSeconds: number): string => `${userId}\n${encoded}\n${unixSeconds}`;

/**
 * A new password as typed (forms only: the wire carries its encoding, so the server cannot see
 * its length): at least 6 characters.
 */
export const PLAIN_PASSWORD_MIN = 6;
export const PLAIN_PASSWORD_MAX = 64;

/** The input of encodePassword's SHA-256 (CONTRACT §4); hashing is left to each side's crypto. */
export const passwordDigestInput = (userId: string, password: string): string => `${userId}:${password}`;
