import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where files live: uploads (product images, xlsx imports), import reports and exports.
 * One interface; the default keeps files under DATA_DIR/files, and an S3-compatible store
 * can implement the same four calls later. Keys are opaque, generated here.
 */
export interface Storage {
  /** Stores a stream under a new key (`<folder>/<random>.<ext>`) and answers the key and size. */
  put(folder: string, ext: string, body: Readable | Buffer): Promise<{ key: string; size: number }>;
  /** Stores under a key chosen earlier by `newStorageKey` (signed put URLs); answers the size. */
  putAt(key: string, body: Readable | Buffer): Promise<number>;
  /** A readable stream of the file, or null when it does not exist. */
  open(key: string): Promise<Readable | null>;
  /** Size in bytes, or null when it does not exist. */
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
  /** A local path for libraries that need one (streaming xlsx readers); null for remote stores. */
  localPath(key: string): string | null;
}

const KEY_PATTERN = /^[a-z0-9_-]+\/[A-Za-z0-9_-]+\.[a-z0-9]{1,8}$/;

export const isStorageKey = (key: string): boolean => KEY_PATTERN.test(key);

/** A new, unguessable key (`<folder>/<128 random bits>.<ext>`). */
export const newStorageKey = (folder: string, ext: string): string => {
  if (!/^[a-z0-9_-]+$/.test(folder) || !/^[a-z0-9]{1,8}$/.test(ext)) throw new Error('bad folder or extension');
  return `${folder}/${crypto.randomBytes(16).toString('base64url')}.${ext}`;
};

export const createLocalStorage = (root: string): Storage => {
  const fileOf = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`not a storage key: ${key}`);
    return path.join(root, key);
  };
  const putAt = async (key: string, body: Readable | Buffer): Promise<number> => {
    const file = fileOf(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    // Write to a temporary name and rename: a crash never leaves a half file under the key.
    const tmp = `${file}.part`;
    if (Buffer.isBuffer(body)) await fs.promises.writeFile(tmp, body);
    else await pipeline(body, fs.createWriteStream(tmp));
    await fs.promises.rename(tmp, file);
    return (await fs.promises.stat(file)).size;
  };
  return {
    async put(folder, ext, body) {
      const key = newStorageKey(folder, ext);
      return { key, size: await putAt(key, body) };
    },
    putAt,
    async open(key) {
      if (!isStorageKey(key)) return null;
      try {
        await fs.promises.access(fileOf(key));
      } catch {
        return null;
      }
      return fs.createReadStream(fileOf(key));
    },
    async size(key) {
      if (!isStorageKey(key)) return null;
      try {
        return (await fs.promises.stat(fileOf(key))).size;
      } catch {
        return null;
      }
    },
    async remove(key) {
      if (!isStorageKey(key)) return;
      await fs.promises.rm(fileOf(key), { force: true });
    },
    localPath: (key) => (isStorageKey(key) ? fileOf(key) : null),
  };
};
