import { SECRET_MASK, secret, text } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { secretFieldsFor } from '../src/platform/secret-fields.js';
import { createSecretBox } from '../src/platform/secrets.js';

// A payment-config-like schema: the mechanism is driven only by the contract's `secret()` mark.
const paymentLike = z.object({ platform_app_id: text(64), platform_private_key: secret().optional(), remark: text(64).optional() });
const box = createSecretBox(Buffer.alloc(32, 7));
const secrets = secretFieldsFor(paymentLike, box);

describe('secret fields', () => {
  it('finds the fields the contract marks secret', () => {
    expect(secrets.fields).toEqual(['platform_private_key']);
  });

  it('stores a sealed value that opens to the original and never equals it', () => {
    const stored = secrets.seal({ platform_app_id: 'app-1', platform_private_key: 'PRIVATE-KEY-PEM' });
    expect(stored.platform_app_id).toBe('app-1');
    expect(stored.platform_private_key).not.toContain('PRIVATE-KEY-PEM');
    expect(secrets.reveal(stored, 'platform_private_key')).toBe('PRIVATE-KEY-PEM');
  });

  it('answers the mask, never the stored value', () => {
    const stored = secrets.seal({ platform_app_id: 'app-1', platform_private_key: 'k' });
    expect(secrets.mask(stored)).toEqual({ platform_app_id: 'app-1', platform_private_key: SECRET_MASK });
  });

  it('keeps the stored secret when the mask or nothing is sent back, replaces it otherwise', () => {
    expect(secrets.seal({ platform_app_id: 'a', platform_private_key: SECRET_MASK })).not.toHaveProperty('platform_private_key');
    expect(secrets.seal({ platform_app_id: 'a' })).not.toHaveProperty('platform_private_key');
    const replaced = secrets.seal({ platform_app_id: 'a', platform_private_key: 'new' });
    expect(secrets.reveal(replaced, 'platform_private_key')).toBe('new');
  });

  it('refuses a value sealed with another key', () => {
    const other = createSecretBox(Buffer.alloc(32, 8));
    const stored = secrets.seal({ platform_app_id: 'a', platform_private_key: 'k' });
    expect(() => other.open(stored.platform_private_key as string)).toThrow();
  });
});
