import crypto from 'node:crypto';

/**
 * Access tokens of the push providers that issue them (OPPO, Huawei, Honor, vivo), one per
 * account: the key is a hash of the endpoint and the credentials, so a changed secret gets a new
 * token and no secret is kept as a map key. A token is used until shortly before it expires;
 * sends of one account at the same time share one auth request; a token the provider refuses
 * (expired early, revoked) is dropped and renewed once for that send.
 */

export interface IssuedToken {
  token: string;
  /** How long to use it (a little less than the provider's lifetime). */
  keepMs: number;
}

/** A token of `expires_in` seconds kept until 5 minutes before it ends (half its life for short ones). */
export const keepForSeconds = (expiresIn: number): number => Math.max(expiresIn * 500, (expiresIn - 300) * 1000);

/** The cache key of an account: a hash of its parts (endpoint, ids, secret). */
export const accountKey = (...parts: (string | undefined)[]): string =>
  crypto
    .createHash('sha256')
    .update(parts.map((p) => p ?? '').join('\n'))
    .digest('base64url');

export interface TokenCache {
  /**
   * Calls `use` with the account's token (cached, or from `issue`). When the answer says the
   * token was refused and it came from the cache, the token is renewed and `use` called once
   * more; a refusal of a token just issued is answered as it is (and the token forgotten).
   */
  withToken<A>(
    key: string,
    issue: () => Promise<IssuedToken>,
    use: (token: string) => Promise<A>,
    refused: (answer: A) => boolean,
  ): Promise<A>;
  /** Forgets every token (the provider's close()). */
  clear(): void;
}

export const createTokenCache = (now: () => number = Date.now): TokenCache => {
  const tokens = new Map<string, { token: string; expiresAt: number }>();
  const pending = new Map<string, Promise<string>>();

  /** A valid cached token other than `refused`, else the auth request in flight, else a new one. */
  const fresh = (key: string, issue: () => Promise<IssuedToken>, refused?: string): Promise<string> => {
    const cached = tokens.get(key);
    if (cached && cached.token !== refused && cached.expiresAt > now()) return Promise.resolve(cached.token);
    const inFlight = pending.get(key);
    if (inFlight) return inFlight;
    const request = issue()
      .then(({ token, keepMs }) => {
        tokens.set(key, { token, expiresAt: now() + keepMs });
        return token;
      })
      .finally(() => pending.delete(key));
    pending.set(key, request);
    return request;
  };

  const forget = (key: string, token: string) => {
    if (tokens.get(key)?.token === token) tokens.delete(key);
  };

  return {
    async withToken(key, issue, use, refused) {
      const cached = tokens.get(key);
      const wasCached = cached !== undefined && cached.expiresAt > now();
      const token = await fresh(key, issue);
      const answer = await use(token);
      if (!refused(answer)) return answer;
      forget(key, token);
      if (!wasCached) return answer;
      const renewed = await fresh(key, issue, token);
      const again = await use(renewed);
      if (refused(again)) forget(key, renewed);
      return again;
    },
    clear() {
      tokens.clear();
    },
  };
};
