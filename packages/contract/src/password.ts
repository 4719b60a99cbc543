/** Plain text the login cipher carries (CONTRACT §4): account, encoded password, unix seconds. */
export const loginPlaintext = (userId: string, encoded: string, unixSeconds: number): string => `${userId}\n${encoded}\n${unixSeconds}`;

/** The input of encodePassword's SHA-256 (CONTRACT §4); hashing is left to each side's crypto. */
export const passwordDigestInput = (userId: string, password: string): string => `${userId}:${password}`;
