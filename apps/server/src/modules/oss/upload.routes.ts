import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import {
  API,
  DOWNLOADS,
  downloadPathOf,
  ErrorCode,
  errorMessages,
  fileUrlOf,
  UPLOAD_FOLDER_ACCESS,
  UPLOAD_FOLDERS,
  UPLOADS,
  type UploadFolder,
} from '@iot/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Services } from '../../platform/context.js';
import { type Download, download } from '../../platform/downloads.js';
import { AppError, badParams } from '../../platform/errors.js';
import { loadSecretKey } from '../../platform/secrets.js';
import { isStorageKey, newStorageKey } from '../../platform/storage.js';
import { nowSeconds } from '../../platform/time.js';
import { assertAccess, authenticate, type Route, route } from '../../platform/transport.js';

/** How long a put URL stays valid. */
export const PUT_URL_TTL_SECONDS = 600;

/** Allowed types per folder: extension → content type and the magic bytes the file must start with. */
interface FileType {
  contentType: string;
  matches: (head: Buffer) => boolean;
}
const startsWith = (head: Buffer, bytes: number[], at = 0) => bytes.every((b, i) => head[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const PNG: FileType = { contentType: 'image/png', matches: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) };
const JPEG: FileType = { contentType: 'image/jpeg', matches: (h) => startsWith(h, [0xff, 0xd8, 0xff]) };
const GIF: FileType = { contentType: 'image/gif', matches: (h) => startsWith(h, ascii('GIF87a')) || startsWith(h, ascii('GIF89a')) };
const WEBP: FileType = { contentType: 'image/webp', matches: (h) => startsWith(h, ascii('RIFF')) && startsWith(h, ascii('WEBP'), 8) };
// xlsx is a zip (local file header); the reader refuses a zip that is not a workbook.
const XLSX: FileType = {
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  matches: (h) => startsWith(h, [0x50, 0x4b, 0x03, 0x04]),
};

export const FOLDER_TYPES: Record<UploadFolder, Record<string, FileType>> = {
  images: { png: PNG, jpg: JPEG, jpeg: JPEG, gif: GIF, webp: WEBP },
  imports: { xlsx: XLSX },
};
/** Folders served by `GET /api/v2/oss/file/<key>` (no token): only images (imports hold device lists). */
const PUBLIC_FOLDERS = new Set<string>(['images']);
const CONTENT_TYPES: Record<string, string> = Object.fromEntries(
  Object.values(FOLDER_TYPES).flatMap((types) => Object.entries(types).map(([ext, t]) => [ext, t.contentType])),
);

const extOf = (name: string) => /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase() ?? '';

const fileTypeOf = (folder: UploadFolder, name: string) => {
  const ext = extOf(name);
  const type = FOLDER_TYPES[folder][ext];
  if (!type) throw badParams({ file: `one_of:${Object.keys(FOLDER_TYPES[folder]).join(',')}` }, 'This file type is not accepted here');
  return { ext, type };
};

const assertContent = (type: FileType, body: Buffer) => {
  if (body.length === 0) throw badParams({ file: 'required' }, 'The file is empty');
  if (!type.matches(body.subarray(0, 16))) throw badParams({ file: 'format:content' }, 'The file content does not match its type');
};

const isFolder = (v: unknown): v is UploadFolder => typeof v === 'string' && (UPLOAD_FOLDERS as readonly string[]).includes(v);

/**
 * Put URL tokens: `<folder>.<random>.<ext>.<expiry>.<signature>` (the key, its expiry in unix
 * seconds, and a 128-bit HMAC-SHA256 of both with a key derived from the server secret).
 * Stateless, so any process of a cluster accepts it; short enough for a path segment.
 */
export const createPutSigner = (secret: Buffer) => {
  const key = crypto.createHmac('sha256', secret).update('put-url-v1').digest();
  const mac = (claims: string) => crypto.createHmac('sha256', key).update(claims).digest().subarray(0, 16).toString('base64url');
  return {
    sign(claims: { k: string; e: number }) {
      const body = `${claims.k.replace('/', '.')}.${claims.e}`;
      return `${body}.${mac(body)}`;
    },
    /** The claims of a valid, unexpired token; null otherwise. */
    verify(token: string): { k: string; e: number } | null {
      const parts = token.split('.');
      if (parts.length !== 5) return null;
      const [folder, random, ext, expiry, signature = ''] = parts;
      const body = `${folder}.${random}.${ext}.${expiry}`;
      const expected = Buffer.from(mac(body));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
      const k = `${folder}/${random}.${ext}`;
      const e = Number(expiry);
      if (!isStorageKey(k) || !Number.isInteger(e)) return null;
      return e >= nowSeconds() ? { k, e } : null;
    },
  };
};

const signerOf = (services: Services) => createPutSigner(loadSecretKey(services.config.secretKey, services.config.dataDir));

/** `v2/oss/upload/puturl/get`: a key reserved now, filled by one `PUT` to the answered URL. */
export const uploadRoutes: Route[] = [
  route(API.putUrlGet, async (ctx, input) => {
    assertAccess(ctx.session, UPLOAD_FOLDER_ACCESS[input.folder]);
    const { ext } = fileTypeOf(input.folder, input.name);
    const key = newStorageKey(input.folder, ext);
    const expiresAt = nowSeconds() + PUT_URL_TTL_SECONDS;
    const token = signerOf(ctx.services).sign({ k: key, e: expiresAt });
    return {
      put_url: `/api/${downloadPathOf(UPLOADS.put, { token })}`,
      key,
      url: PUBLIC_FOLDERS.has(input.folder) ? fileUrlOf(key) : '',
      expires_at: expiresAt,
    };
  }),
];

/** Upload errors answer HTTP status = code (CONTRACT §1): the client maps the trailing status (SPEC §8). */
const sendError = (reply: FastifyReply, code: number, msg: string, data: unknown = null) =>
  reply.status(code >= 400 && code < 600 ? code : 400).send({ code, msg, data });

const readBody = async (stream: Readable, limit: number): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buf.length;
    if (size > limit) throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, `The file is larger than ${limit} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
};

/**
 * The paths taking a file (contract `UPLOADS`), in their own encapsulated context (their own
 * body parsers and error answers): `POST /api/v2/oss/upload` (multipart) and
 * `PUT /api/v2/oss/put/<token>`. Tokens and permissions go through transport's `authenticate`.
 */
export const registerUploads = (services: Services) => async (app: FastifyInstance) => {
  const limit = services.config.uploadLimit;
  const signer = signerOf(services);
  app.removeAllContentTypeParsers();
  await app.register(fastifyMultipart, { limits: { fileSize: limit, files: 1, fields: 10, fieldSize: 1024, parts: 12 } });
  // PUT bodies stay a stream: counted and checked as they arrive, never parsed.
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof AppError) return sendError(reply, error.code, error.message, error.data);
    const err = error as { code?: string; statusCode?: number; message?: string };
    if (err.code === 'FST_REQ_FILE_TOO_LARGE' || err.statusCode === 413)
      return sendError(reply, ErrorCode.PAYLOAD_TOO_LARGE, `The file is larger than ${limit} bytes`);
    if (err.statusCode === 406 || (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500))
      return sendError(reply, ErrorCode.BAD_PARAMS, err.message ?? errorMessages[406]);
    request.log.error({ err: error }, 'upload failed');
    return sendError(reply, ErrorCode.SERVER_ERROR, errorMessages[500]);
  });

  app.post(`/api/${UPLOADS.upload.path}`, async (request, reply) => {
    const session = await authenticate(services, request, UPLOADS.upload.access);
    if (!request.isMultipart()) throw badParams({ file: 'required' }, 'Send the file as multipart/form-data');
    const part = await request.file();
    if (!part) throw badParams({ file: 'required' }, 'No file');
    // The folder is a form field before the file part.
    const rawFolder = part.fields.folder && 'value' in part.fields.folder ? part.fields.folder.value : 'images';
    const folder = rawFolder === undefined || rawFolder === '' ? 'images' : rawFolder;
    if (!isFolder(folder)) {
      part.file.resume();
      throw badParams({ folder: `one_of:${UPLOAD_FOLDERS.join(',')}` });
    }
    let checked: ReturnType<typeof fileTypeOf>;
    try {
      assertAccess(session, UPLOAD_FOLDER_ACCESS[folder]);
      checked = fileTypeOf(folder, part.filename);
    } catch (err) {
      // Drain the refused file so the answer goes out at once.
      part.file.resume();
      throw err;
    }
    const { ext, type } = checked;
    const body = await part.toBuffer();
    assertContent(type, body);
    const { key, size } = await services.storage.put(folder, ext, body);
    return reply.send({
      code: ErrorCode.OK,
      data: { key, url: PUBLIC_FOLDERS.has(folder) ? fileUrlOf(key) : '', size, name: part.filename },
    });
  });

  app.put<{ Params: { token: string } }>(`/api/${UPLOADS.put.path.replace('{token}', ':token')}`, async (request, reply) => {
    const claims = signer.verify(request.params.token);
    if (!claims) throw new AppError(ErrorCode.UNAUTHORIZED, 'The put URL is invalid or expired');
    const [folder] = claims.k.split('/');
    if (!isFolder(folder)) throw new AppError(ErrorCode.UNAUTHORIZED, 'The put URL is invalid or expired');
    // One file per URL: a second PUT does not replace what the first stored.
    if ((await services.storage.size(claims.k)) !== null) throw new AppError(ErrorCode.CONFLICT, 'This put URL was already used');
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE);
    const { type } = fileTypeOf(folder, claims.k);
    const source = request.body as Readable | undefined;
    const body = source ? await readBody(source, limit) : Buffer.alloc(0);
    assertContent(type, body);
    const size = await services.storage.putAt(claims.k, body);
    return reply.send({ code: ErrorCode.OK, data: { key: claims.k, url: PUBLIC_FOLDERS.has(folder) ? fileUrlOf(claims.k) : '', size } });
  });
};

/** `GET /api/v2/oss/file/<folder>/<name>`: a stored file of a public folder (platform/downloads.ts). */
export const ossDownloads: Download[] = [
  download(DOWNLOADS.ossFile, async (ctx, { folder, name }) => {
    const key = `${folder}/${name}`;
    const stream = PUBLIC_FOLDERS.has(folder) && isStorageKey(key) ? await ctx.services.storage.open(key) : null;
    if (!stream) throw new AppError(ErrorCode.NOT_FOUND_PATH, 'No such file');
    // Keys are never reused: the bytes under a key never change.
    return { body: stream, type: CONTENT_TYPES[extOf(key)], size: await ctx.services.storage.size(key), cache: 'immutable' };
  }),
];
