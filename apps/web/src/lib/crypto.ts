import { type LoginKey, loginPlaintext, passwordDigestInput } from '@iot/contract';

/**
 * WebCrypto exists only in a secure context (HTTPS or localhost). Elsewhere the
 * login still works through node-forge, loaded on demand (CONTRACT §4).
 */
export const hasWebCrypto = (): boolean => typeof window !== 'undefined' && window.isSecureContext && !!globalThis.crypto?.subtle;

const loadForge = async () => (await import('node-forge')).default;

const toHex = (buf: ArrayBuffer) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');

export const sha256Hex = async (text: string): Promise<string> => {
  if (hasWebCrypto()) return toHex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  const forge = await loadForge();
  return forge.md.sha256.create().update(text, 'utf8').digest().toHex();
};

/** encodePassword(user_id, password): lowercase hex SHA-256 of `user_id:password`. */
export const encodePassword = (userId: string, password: string) => sha256Hex(passwordDigestInput(userId, password));

const pemBody = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

const rsaOaepSha256 = async (publicKeyPem: string, plain: string): Promise<string> => {
  if (hasWebCrypto()) {
    const der = Uint8Array.from(atob(pemBody(publicKeyPem)), (c) => c.charCodeAt(0));
    const key = await crypto.subtle.importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
    const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(plain)));
    let bin = '';
    for (const b of cipher) bin += String.fromCharCode(b);
    return btoa(bin);
  }
  const forge = await loadForge();
  const key = forge.pki.publicKeyFromPem(publicKeyPem);
  const cipher = key.encrypt(forge.util.encodeUtf8(plain), 'RSA-OAEP', {
    md: forge.md.sha256.create(),
    mgf1: { md: forge.md.sha256.create() },
  });
  return forge.util.encode64(cipher);
};

/**
 * The login cipher: base64(RSA-OAEP-SHA256(account \n encodePassword \n unix seconds)).
 * The timestamp is the server's clock plus the seconds elapsed since the key
 * answer arrived, so a wrong browser clock does not matter.
 */
export const loginCipher = async (key: LoginKey, keyReceivedAt: number, userId: string, password: string) => {
  const encoded = await encodePassword(userId, password);
  const ts = key.server_time + Math.floor((Date.now() - keyReceivedAt) / 1000);
  return rsaOaepSha256(key.public_key, loginPlaintext(userId, encoded, ts));
};
