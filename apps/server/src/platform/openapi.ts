import { API_LIST, type ApiDef } from '@iot/contract';
import { z } from 'zod';

const schemaOf = (s: z.ZodType, io: 'input' | 'output') => {
  try {
    return z.toJSONSchema(s, { io, unrepresentable: 'any' });
  } catch {
    return {};
  }
};

const securityOf = (d: ApiDef) => {
  if (d.access === 'public') return [];
  if (d.access === 'service') return [{ serviceKey: [] }];
  return [{ bearer: [] }];
};
const accessText = (d: ApiDef) => (typeof d.access === 'string' ? d.access : `menu keys: ${d.access.join(', ')}`);

/** OpenAPI 3.1 generated from the contract registry: one source for validation and docs. */
export const buildOpenApi = () => ({
  openapi: '3.1.0',
  info: { title: 'IoT console API', version: '1.0.0', description: 'Every call is POST /api/<path>; see docs/api.md for the envelope.' },
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer' },
      serviceKey: { type: 'apiKey', in: 'header', name: 'X-Service-Key' },
    },
  },
  paths: Object.fromEntries(
    API_LIST.map((d) => [
      `/api/${d.path}`,
      {
        post: {
          summary: d.summary,
          description: `Access: ${accessText(d)}. Kind: ${d.kind}.`,
          security: securityOf(d),
          requestBody: { content: { 'application/json': { schema: schemaOf(d.input, 'input') } } },
          responses: {
            200: {
              description: 'Envelope {code, msg, data, count}',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      code: { type: 'integer' },
                      msg: { type: 'string' },
                      data: d.output
                        ? d.kind === 'list'
                          ? { type: 'array', items: schemaOf(d.output, 'output') }
                          : schemaOf(d.output, 'output')
                        : {},
                      ...(d.kind === 'list' ? { count: { type: 'integer' } } : {}),
                    },
                  },
                },
              },
            },
          },
        },
      },
    ]),
  ),
});
