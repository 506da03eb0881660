import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SecretDigester } from '@servicedesk/core';

/**
 * HMAC-SHA256 of a secret under a server key: equal tokens give equal digests (so a token can be
 * looked up), and a stolen database does not reveal or let anyone check tokens without the key.
 */
export class HmacSecretDigester implements SecretDigester {
  private readonly key: Buffer;

  constructor(key: string, purpose = 'connection-token') {
    // A purpose-bound subkey, so the JWT secret can seed it without the two uses ever colliding.
    this.key = createHmac('sha256', key).update(`servicedesk:${purpose}`).digest();
  }

  digest(secret: string): string {
    return createHmac('sha256', this.key).update(secret).digest('base64url');
  }

  matches(secret: string, digest: string): boolean {
    const a = Buffer.from(this.digest(secret));
    const b = Buffer.from(digest);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
