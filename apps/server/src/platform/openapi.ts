import {
  API,
  type ApiDef,
  DOWNLOADS,
  type DownloadDef,
  LANGUAGES,
  menuNodeSchema,
  pathParamsOf,
  UPLOADS,
  type UploadDef,
} from '@iot/contract';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/**
 * Schemas that become named components: every recursive schema must be here (a recursive
 * schema nested in a path's answer cannot refer to itself otherwise), and any schema worth a
 * name of its own. The build fails on a recursive schema without a name.
 */
const COMPONENTS = new Map<z.ZodType, string>([[menuNodeSchema, 'MenuNode']]);

/** zod's metadata (descriptions) plus the component names as `id`s, which toJSONSchema puts in `$defs`. */
const metadata = Object.create(z.globalRegistry, {
  get: {
    value: (schema: z.ZodType) => {
      const meta = z.globalRegistry.get(schema);
      const id = COMPONENTS.get(schema);
      return id ? { ...meta, id } : meta;
    },
  },
}) as typeof z.globalRegistry;

const componentRef = (name: string) => `#/components/schemas/${name}`;

/**
 * Converts zod schemas to OpenAPI 3.1 schema objects. `$defs` (named schemas) move to
 * `components.schemas` (input variants suffixed `Input`) and their `$ref`s follow: a `$ref`
 * relative to a nested schema's own root would point at the document's root instead.
 */
const createSchemas = () => {
  const components: Record<string, JsonSchema> = {};
  const convert = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const {
      $schema: _dialect,
      $defs,
      ...root
    } = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      cycles: 'ref',
      reused: 'inline',
      metadata,
    }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const nameOf = (def: string) => {
      // zod names an unnamed recursive schema `__schemaN`.
      if (def.startsWith('__schema')) throw new Error(`A recursive schema needs a component name (openapi.ts COMPONENTS): ${def}`);
      return io === 'input' ? `${def}Input` : def;
    };
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (node === null || typeof node !== 'object') return node;
      const out: JsonSchema = {};
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          if (!value.startsWith('#/$defs/')) throw new Error(`A recursive schema needs a component name (openapi.ts COMPONENTS): ${value}`);
          out.$ref = componentRef(nameOf(value.slice('#/$defs/'.length)));
        } else {
          out[key] = rewrite(value);
        }
      }
      return out;
    };
    for (const [def, body] of Object.entries($defs ?? {})) components[nameOf(def)] = rewrite(body) as JsonSchema;
    return rewrite(root) as JsonSchema;
  };
  return { components, convert };
};

const accessText = (access: ApiDef['access']) => (typeof access === 'string' ? access : `menu keys: ${access.join(', ')}`);

const envelopeOf = (data: JsonSchema, withCount = false): JsonSchema => ({
  type: 'object',
  properties: {
    code: { type: 'integer', description: '200 success, else a code of the error catalogue (SPEC §8)' },
    msg: { type: 'string' },
    data,
    ...(withCount ? { count: { type: 'integer', description: 'rows matching the filters' } } : {}),
  },
  required: ['code', 'data'],
});
const REFUSAL = { $ref: componentRef('Refusal') };

const apiSecurity = (d: ApiDef) => {
  if (d.access === 'public') return [];
  if (d.access === 'service') return [{ serviceKey: [] }];
  return [{ bearer: [] }];
};

/** ticket and/or token, as the download declares (platform/downloads.ts). */
const downloadSecurity = (d: DownloadDef) => {
  if (d.access === 'public') return [];
  const token = d.kind === 'stream' ? [{ bearer: [] }, { queryToken: [] }] : [{ bearer: [] }];
  if (d.auth === 'ticket') return [{ ticket: [] }];
  if (d.auth === 'token') return token;
  return [{ ticket: [] }, ...token];
};

/** Path parameters and query of a download, from its input schema (one object). */
const downloadParameters = (d: DownloadDef, convert: (s: z.ZodType, io: 'input') => JsonSchema) => {
  const input = convert(d.input, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  const inPath = new Set(pathParamsOf(d.path));
  const fields = Object.entries(input.properties ?? {}).map(([name, schema]) => ({
    name,
    in: inPath.has(name) ? 'path' : 'query',
    required: inPath.has(name) || (input.required ?? []).includes(name),
    schema,
  }));
  const lang = {
    name: 'lang',
    in: 'query',
    required: false,
    description: 'Language of the file (headers, sheet names, states); else Accept-Language, else en',
    schema: { type: 'string', enum: [...LANGUAGES] },
  };
  return d.kind === 'download' ? [...fields, lang] : fields;
};

const downloadResponse = (d: DownloadDef, convert: (s: z.ZodType, io: 'output') => JsonSchema) => {
  const refusal = { 'application/json': { schema: REFUSAL } };
  if (d.kind === 'stream') {
    const events = Object.entries(d.events ?? {}).map(([name, schema]) => ({ name, schema: convert(schema, 'output') }));
    return {
      description: `Server-sent events: ${events.map((e) => `\`event: ${e.name}\``).join(', ')} with JSON \`data\` (schemas in x-events), comments as keepalive. A refusal is the JSON envelope.`,
      content: { [d.contentType]: { schema: { type: 'string' } }, ...refusal },
      'x-events': Object.fromEntries(events.map((e) => [e.name, e.schema])),
    };
  }
  return {
    description: 'The file; a refusal (401 no or bad credentials, 513 no permission, 406 bad query or no such file) is the JSON envelope',
    // Binary content: no schema (OpenAPI 3.1).
    content: { [d.contentType]: {}, ...refusal },
  };
};

const uploadOperation = (name: string, d: UploadDef, convert: (s: z.ZodType, io: 'input' | 'output') => JsonSchema) => {
  const fields = d.fields ? (convert(d.fields, 'input') as { properties?: JsonSchema }).properties : {};
  const body =
    d.contentType === 'multipart/form-data'
      ? {
          type: 'object',
          properties: { ...fields, file: { type: 'string', contentMediaType: 'application/octet-stream' } },
          required: ['file'],
        }
      : undefined;
  return {
    operationId: name,
    summary: d.summary,
    description: `Access: ${accessText(d.access)}. Errors answer HTTP status = code (CONTRACT §1).`,
    security: d.access === 'public' ? [] : [{ bearer: [] }],
    parameters: pathParamsOf(d.path).map((p) => ({ name: p, in: 'path', required: true, schema: { type: 'string' } })),
    requestBody: { required: true, content: { [d.contentType]: body ? { schema: body } : {} } },
    responses: {
      200: { description: 'Stored', content: { 'application/json': { schema: envelopeOf(convert(d.output, 'output')) } } },
      default: { description: 'Refused: HTTP status = code', content: { 'application/json': { schema: REFUSAL } } },
    },
  };
};

/**
 * OpenAPI 3.1 from the contract: every JSON path (API), the GET downloads and the live stream
 * (DOWNLOADS), the file uploads (UPLOADS). One source for validation and docs.
 */
export const buildOpenApi = () => {
  const { components, convert } = createSchemas();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, d] of Object.entries(API) as [string, ApiDef][]) {
    const data = d.output ? convert(d.output, 'output') : {};
    paths[`/api/${d.path}`] = {
      post: {
        operationId: name,
        summary: d.summary,
        description: `Access: ${accessText(d.access)}. Kind: ${d.kind}.`,
        security: apiSecurity(d),
        requestBody: { content: { 'application/json': { schema: convert(d.input, 'input') } } },
        responses: {
          200: {
            description: 'Envelope {code, msg, data, count}',
            content: {
              'application/json': { schema: envelopeOf(d.kind === 'list' ? { type: 'array', items: data } : data, d.kind === 'list') },
            },
          },
        },
      },
    };
  }
  for (const [name, d] of Object.entries(DOWNLOADS) as [string, DownloadDef][]) {
    paths[`/api/${d.path}`] = {
      get: {
        operationId: name,
        summary: d.summary,
        description: `Access: ${accessText(d.access)}. Credentials: ${d.access === 'public' ? 'none' : d.auth}.`,
        security: downloadSecurity(d),
        parameters: downloadParameters(d, convert),
        responses: { 200: downloadResponse(d, convert) },
      },
    };
  }
  for (const [name, d] of Object.entries(UPLOADS) as [string, UploadDef][]) {
    paths[`/api/${d.path}`] = { [d.method]: uploadOperation(name, d, convert) };
  }
  components.Refusal = envelopeOf({ description: 'details, e.g. {fields: {<field>: <rule>}} for 406' });
  return {
    openapi: '3.1.0',
    info: {
      title: 'IoT console API',
      version: '1.0.0',
      description:
        'JSON calls are POST /api/<path> answering the envelope {code, msg, data, count}; GET downloads, the live stream and uploads as listed. See docs/api.md.',
    },
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Session token (also accepted without the Bearer prefix)' },
        serviceKey: { type: 'apiKey', in: 'header', name: 'X-Service-Key' },
        ticket: { type: 'apiKey', in: 'query', name: 'ticket', description: 'download_ticket of the POST answer offering the link' },
        queryToken: { type: 'apiKey', in: 'query', name: 'token', description: 'Session token (streams: EventSource sends no headers)' },
      },
    },
    paths,
  };
};
