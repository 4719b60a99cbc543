import { z } from 'zod';

/** Config field shapes several providers share. */

/** A base URL (`https://api.push.apple.com`, `http://127.0.0.1:4000` in tests); a path prefix is kept. */
export const endpointField = z.string().regex(/^https?:\/\/[^\s/]+/, 'an http(s) URL');

/** A platform row's flags come as booleans or 0/1. */
export const flagField = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform(Boolean);

/** Ports and numbers may come as text from a form. */
export const portField = z.coerce.number().int().min(1).max(65_535);

export const requiredText = z.string().trim().min(1);

/** A PEM text (private key, CA certificate). */
export const pemField = z.string().refine((s) => s.trim().replace(/\\n/g, '\n').startsWith('-----BEGIN'), 'a PEM text');
