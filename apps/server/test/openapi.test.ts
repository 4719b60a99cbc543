import SwaggerParser from '@apidevtools/swagger-parser';
import { API_LIST, DOWNLOAD_LIST, UPLOAD_LIST } from '@iot/contract';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

// GET /api/openapi.json: a valid OpenAPI 3.1 document (two independent validators) listing
// every path of the contract: JSON paths, downloads, the live stream and the uploads.
let t: TestServer;
let doc: { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };

beforeAll(async () => {
  t = await startTestServer();
  const res = await t.raw('/api/openapi.json', {});
  expect(res.status).toBe(200);
  doc = (await res.json()) as typeof doc;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('GET /api/openapi.json', () => {
  it('passes @apidevtools/swagger-parser', async () => {
    // validate() dereferences in place: a copy keeps `doc` as served.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('passes @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('refers only to named components (no $ref relative to a nested schema)', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]*)"/g)].map((m) => m[1] as string);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas[ref.slice('#/components/schemas/'.length)]).toBeDefined();
    }
    expect(JSON.stringify(doc)).not.toContain('$defs');
  });

  it('lists every registry path, download, the live stream and the uploads with their methods', () => {
    const expected = [
      ...API_LIST.map((d) => [`/api/${d.path}`, 'post']),
      ...DOWNLOAD_LIST.map((d) => [`/api/${d.path}`, 'get']),
      ...UPLOAD_LIST.map((d) => [`/api/${d.path}`, d.method]),
    ];
    for (const [path, method] of expected) expect(doc.paths[path as string]?.[method as string], `${method} ${path}`).toBeDefined();
    expect(Object.keys(doc.paths)).toHaveLength(expected.length);
    for (const p of ['/api/v2/oss/upload', '/api/v2/oss/put/{token}', '/api/v2/oss/file/{folder}/{name}', '/api/v2/iot/live']) {
      expect(doc.paths[p]).toBeDefined();
    }
  });

  it('documents the product categories as an array', () => {
    const op = doc.paths['/api/user/product/category/get']?.post as {
      responses: { 200: { content: { 'application/json': { schema: { properties: { data: { type: string } } } } } } };
    };
    expect(op.responses[200].content['application/json'].schema.properties.data.type).toBe('array');
  });
});
