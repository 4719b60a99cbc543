import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * AES-256-GCM sealing of secret fields and of the login private key. The key comes
 * from SECRET_KEY (any string; hashed to 32 bytes) or from `DATA_DIR/secret.key`,
 * created on first start. Several processes on one database must share it.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

const PREFIX = 'v1:';

export const createSecretBox = (key: Buffer): SecretBox => ({
  seal(plain) {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  },
  open(sealed) {
    if (!sealed.startsWith(PREFIX)) throw new Error('not a sealed value');
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  },
});

export const loadSecretKey = (secretKey: string | undefined, dataDir: string): Buffer => {
  if (secretKey) return crypto.createHash('sha256').update(secretKey).digest();
  const file = path.join(dataDir, 'secret.key');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return key;
};
