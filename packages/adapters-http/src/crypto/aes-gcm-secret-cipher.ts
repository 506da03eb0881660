import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { SecretCipher } from '@servicedesk/core';

const VERSION = 'v1';

/**
 * Seals secrets with AES-256-GCM under a key derived (HKDF-SHA256) from the server's secret
 * (`SECRETS_KEY`, else `JWT_SECRET`): a random 96-bit nonce per value, the context as associated
 * data, and the tag checked on opening, so an altered value, or one copied to another context,
 * does not open. The sealed text names the key by a short fingerprint: a value sealed under
 * another key is recognised as such (it opens as null) rather than as noise.
 * Format: `v1.<key id>.<nonce>.<ciphertext>.<tag>`, each part base64url.
 */
export class AesGcmSecretCipher implements SecretCipher {
  private readonly key: Buffer;
  private readonly keyId: string;

  constructor(secret: string) {
    if (secret.length < 32) throw new TypeError('the secret that derives the cipher key must be at least 32 characters');
    this.key = Buffer.from(hkdfSync('sha256', secret, 'servicedesk', 'secret-cipher aes-256-gcm v1', 32));
    this.keyId = createHash('sha256').update(this.key).digest('base64url').slice(0, 8);
  }

  seal(plain: string, context: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, this.keyId, nonce.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  open(sealed: string, context: string): string | null {
    const [version, keyId, nonce, data, tag, ...rest] = sealed.split('.');
    if (version !== VERSION || keyId !== this.keyId || nonce === undefined || data === undefined || tag === undefined || rest.length) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
