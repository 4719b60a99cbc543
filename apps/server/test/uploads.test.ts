import type { PutUrlOutput, UploadOutput } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPutSigner } from '../src/modules/oss/upload.routes.js';
import { loadSecretKey } from '../src/platform/secrets.js';
import { createCompanyAdmin, startTestServer, type TestServer } from './harness.js';
import { fails, nowSeconds, ok, startSibling } from './helpers.js';

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0, 1, 2, 3, 4]);

let t: TestServer;
let a: Awaited<ReturnType<typeof createCompanyAdmin>>;
let device: Awaited<ReturnType<typeof createCompanyAdmin>>;

beforeAll(async () => {
  t = await startTestServer();
  a = await createCompanyAdmin(t, { name: 'A', menuKeys: ['product/iot'], userId: 'a.admin' });
  device = await createCompanyAdmin(t, { name: 'D', menuKeys: ['product/device'], userId: 'd.admin' });
});
afterAll(async () => {
  await t?.close();
});

interface UploadAnswer {
  status: number;
  code: number;
  msg?: string;
  data: UploadOutput;
}

const upload = async (
  file: { name: string; body: Buffer; type?: string },
  opts: { token?: string | null; folder?: string; base?: string } = {},
): Promise<UploadAnswer> => {
  const form = new FormData();
  if (opts.folder !== undefined) form.append('folder', opts.folder);
  form.append('file', new Blob([new Uint8Array(file.body)], { type: file.type ?? 'application/octet-stream' }), file.name);
  const headers: Record<string, string> = {};
  const token = opts.token === undefined ? a.token : opts.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${opts.base ?? t.url}/api/v2/oss/upload`, { method: 'POST', headers, body: form });
  return { status: res.status, ...((await res.json()) as Omit<UploadAnswer, 'status'>) };
};

/** Upload errors answer HTTP status = code (CONTRACT §1). */
const refused = (answer: UploadAnswer, code: number) => {
  expect(answer.code, `expected ${code}, got ${answer.code} ${answer.msg ?? ''}`).toBe(code);
  expect(answer.status).toBe(code);
};

describe('v2/oss/upload', () => {
  it('stores an image and serves it back byte-identical, with type and cache headers', async () => {
    const answer = await upload({ name: 'logo.PNG', body: PNG, type: 'image/png' });
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ size: PNG.length, name: 'logo.PNG' });
    expect(answer.data.key).toMatch(/^images\/[A-Za-z0-9_-]{22}\.png$/);
    expect(answer.data.url).toBe(`/api/v2/oss/file/${answer.data.key}`);
    const res = await fetch(`${t.url}${answer.data.url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    // jpg, explicit folder
    const jpg = await upload({ name: 'photo.jpeg', body: JPEG }, { folder: 'images' });
    expect(jpg.status).toBe(200);
    expect((await fetch(`${t.url}${jpg.data.url}`)).headers.get('content-type')).toBe('image/jpeg');
  });

  it('refuses a wrong type by extension or by content (HTTP 406 = code)', async () => {
    refused(await upload({ name: 'run.exe', body: PNG }), 406);
    refused(await upload({ name: 'fake.png', body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') }), 406);
    refused(await upload({ name: 'image.svg', body: Buffer.from('<svg/>') }), 406);
    refused(await upload({ name: 'empty.png', body: Buffer.alloc(0) }), 406);
    refused(await upload({ name: 'logo.png', body: PNG }, { folder: '../etc' }), 406);
    // xlsx only in imports, images never there
    refused(await upload({ name: 'devices.xlsx', body: ZIP }, { folder: 'images' }), 406);
    refused(await upload({ name: 'logo.png', body: PNG }, { folder: 'imports', token: device.token }), 406);
  });

  it('needs a token (401) and the folder’s menu (513)', async () => {
    refused(await upload({ name: 'logo.png', body: PNG }, { token: null }), 401);
    refused(await upload({ name: 'logo.png', body: PNG }, { token: 'not-a-token' }), 401);
    refused(await upload({ name: 'devices.xlsx', body: ZIP }, { folder: 'imports' }), 513);
    refused(await upload({ name: 'logo.png', body: PNG }, { token: device.token }), 513);
    const xlsx = await upload({ name: 'devices.xlsx', body: ZIP }, { folder: 'imports', token: device.token });
    expect(xlsx.status).toBe(200);
    expect(xlsx.data.key).toMatch(/^imports\/.+\.xlsx$/);
    expect(xlsx.data.url).toBe('');
    // Imports hold device lists: never served without a token.
    expect((await fetch(`${t.url}/api/v2/oss/file/${xlsx.data.key}`)).status).toBe(404);
  });

  it('refuses a file over UPLOAD_LIMIT with 413', async () => {
    const small = await startSibling(t, { uploadLimit: 1000 });
    try {
      refused(await upload({ name: 'big.png', body: Buffer.concat([PNG, Buffer.alloc(2000)]) }, { base: small.url }), 413);
      expect((await upload({ name: 'ok.png', body: PNG }, { base: small.url })).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('answers 404 for unknown files and keys that are not keys', async () => {
    expect((await fetch(`${t.url}/api/v2/oss/file/images/nothing-here.png`)).status).toBe(404);
    expect((await fetch(`${t.url}/api/v2/oss/file/images/..%2F..%2Fsecret.key`)).status).toBe(404);
  });
});

describe('put URLs', () => {
  const putUrl = (body: Record<string, unknown>, token = a.token) => t.call<PutUrlOutput>('v2/oss/upload/puturl/get', body, { token });
  const put = (url: string, body: Buffer) => fetch(`${t.url}${url}`, { method: 'PUT', body: new Uint8Array(body) });

  it('round trip: signed URL, one PUT, served back', async () => {
    const answer = ok(await putUrl({ name: 'cover.png', zone: 'cn', region: 'east' }));
    expect(answer.key).toMatch(/^images\/.+\.png$/);
    expect(answer.expires_at).toBeGreaterThan(nowSeconds());
    const res = await put(answer.put_url, PNG);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { key: string; size: number } }).data).toMatchObject({ key: answer.key, size: PNG.length });
    const served = await fetch(`${t.url}${answer.url}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    // One file per URL.
    const again = await put(answer.put_url, JPEG);
    expect(again.status).toBe(409);
  });

  it('refuses a tampered or expired URL (401), wrong content (406) and bad names', async () => {
    const answer = ok(await putUrl({ name: 'cover.png' }));
    const token = answer.put_url.split('/').at(-1) ?? '';
    const parts = token.split('.');
    const signature = parts.at(-1) ?? '';
    // Another key, or a later expiry, under the same signature.
    const forgedKey = ['images', 'forgedforgedforgedforg', 'png', parts[3], signature].join('.');
    expect((await put(`/api/v2/oss/put/${forgedKey}`, PNG)).status).toBe(401);
    const later = [...parts.slice(0, 3), String(Number(parts[3]) + 3600), signature].join('.');
    expect((await put(`/api/v2/oss/put/${later}`, PNG)).status).toBe(401);
    expect((await put(`/api/v2/oss/put/${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, PNG)).status).toBe(401);
    const signer = createPutSigner(loadSecretKey(t.config.secretKey, t.config.dataDir));
    const expired = signer.sign({ k: 'images/expiredkey.png', e: nowSeconds() - 1 });
    const res = await put(`/api/v2/oss/put/${expired}`, PNG);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: number }).code).toBe(401);
    expect((await put(answer.put_url, Buffer.from('not an image'))).status).toBe(406);
    fails(await putUrl({ name: 'script.js' }), 406);
    fails(await putUrl({ name: 'devices.xlsx', folder: 'imports' }), 513);
    ok(await putUrl({ name: 'devices.xlsx', folder: 'imports' }, device.token));
    fails(await t.call('v2/oss/upload/puturl/get', { name: 'cover.png' }), 401);
  });
});
