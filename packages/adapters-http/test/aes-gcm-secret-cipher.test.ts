import { expect } from 'chai';
import { AesGcmSecretCipher } from '../src/index.js';

const SECRET = 'a-server-secret-of-at-least-32-characters!';

describe('AesGcmSecretCipher', () => {
  const cipher = new AesGcmSecretCipher(SECRET);

  it('seals to a value that does not show the secret and opens it again in the same context', () => {
    const sealed = cipher.seal('sk-proj-secret-key-1234', 'transcription-credential:1');
    expect(sealed).to.match(/^v1\.[\w-]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).to.not.include('sk-proj');
    expect(cipher.open(sealed, 'transcription-credential:1')).to.equal('sk-proj-secret-key-1234');
    expect(new AesGcmSecretCipher(SECRET).open(sealed, 'transcription-credential:1'), 'another instance with the same secret').to.equal(
      'sk-proj-secret-key-1234',
    );
    expect(cipher.seal('sk-proj-secret-key-1234', 'transcription-credential:1')).to.not.equal(sealed);
    expect(cipher.open(cipher.seal('', 'c'), 'c')).to.equal('');
  });

  it('opens nothing in another context, under another key, altered or malformed', () => {
    const sealed = cipher.seal('sk-proj-secret-key-1234', 'transcription-credential:1');
    expect(cipher.open(sealed, 'transcription-credential:2')).to.equal(null);
    expect(new AesGcmSecretCipher(`${SECRET}-rotated`).open(sealed, 'transcription-credential:1')).to.equal(null);
    const parts = sealed.split('.');
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    for (const i of [2, 3, 4]) {
      const altered = parts.map((p, j) => (j === i ? flip(p) : p)).join('.');
      expect(cipher.open(altered, 'transcription-credential:1'), `part ${i} altered`).to.equal(null);
    }
    for (const bad of ['', 'v1', 'plain-text-key', `${sealed}.extra`, sealed.replace(/^v1/, 'v2'), parts.slice(0, 4).join('.')]) {
      expect(cipher.open(bad, 'transcription-credential:1'), bad).to.equal(null);
    }
  });

  it('refuses a secret too short to derive a key from', () => {
    expect(() => new AesGcmSecretCipher('short')).to.throw(TypeError);
  });
});
