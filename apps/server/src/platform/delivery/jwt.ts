import crypto from 'node:crypto';

/**
 * Compact JWS (RFC 7515) signing with node:crypto, for the two provider tokens we need:
 * ES256 (APNs provider token, P-256 key from the .p8 file; the signature is r‖s, 64 bytes,
 * not DER) and RS256 (Google service-account assertion, RSASSA-PKCS1-v1_5 with SHA-256).
 */

export type JwsAlgorithm = 'ES256' | 'RS256';

const b64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

/** Reads a PEM private key; a bad key is an error of the config (never a file path: it must start with -----BEGIN). */
export const privateKeyOf = (pem: string): crypto.KeyObject => {
  const text = pem.trim().replace(/\\n/g, '\n');
  if (!text.startsWith('-----BEGIN')) throw new Error('the private key is not a PEM text');
  return crypto.createPrivateKey({ key: text, format: 'pem' });
};

export const signJwt = (
  alg: JwsAlgorithm,
  header: Readonly<Record<string, string>>,
  claims: Readonly<Record<string, string | number>>,
  key: crypto.KeyObject,
): string => {
  if (alg === 'ES256' && (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')) {
    throw new Error('ES256 needs a P-256 (prime256v1) EC key');
  }
  if (alg === 'RS256' && key.asymmetricKeyType !== 'rsa') throw new Error('RS256 needs an RSA key');
  const input = `${b64url(JSON.stringify({ ...header, alg }))}.${b64url(JSON.stringify(claims))}`;
  const signature =
    alg === 'ES256'
      ? crypto.sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
      : crypto.sign('sha256', Buffer.from(input), key);
  return `${input}.${b64url(signature)}`;
};
