import { expect } from 'chai';
import { MAX_JSON_DEPTH, findBadText, isPublicAddress, jsonDepthExceeds, parseJsonText, parseMetaDelivery, safeFetch } from '../src/index.js';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return (e as { code?: string }).code;
  }
};

describe('Hostile text: depth, NUL and lone surrogates', () => {
  it('counts nesting without being fooled by brackets inside strings', () => {
    expect(jsonDepthExceeds(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).to.equal(false);
    expect(jsonDepthExceeds(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).to.equal(true);
    expect(jsonDepthExceeds(JSON.stringify({ text: '['.repeat(500), quoted: '\\"[[[[' }))).to.equal(false);
    expect(codeOf(() => parseJsonText(`{"config":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}`))).to.equal('ERR_JSON_TOO_DEEP');
    expect(codeOf(() => parseJsonText('{"a":'))).to.equal('ERR_INVALID_JSON');
  });

  it('finds NUL and unpaired surrogates in strings and keys, at any depth, and leaves real text alone', () => {
    expect(findBadText({ a: ['ok', { b: 'x\u0000y' }] }, 'body')).to.equal('body.a.1.b');
    expect(findBadText({ ['k\u0000']: 1 }, 'body')).to.equal('body.k?');
    expect(findBadText({ a: 'lone \ud800 high' }, 'body')).to.equal('body.a');
    expect(findBadText({ a: 'lone \udc00 low' }, 'body')).to.equal('body.a');
    expect(findBadText({ a: 'Olá 😀 ünïcode', n: 1, z: null, t: true }, 'body')).to.equal(null);
    expect(codeOf(() => parseJsonText('{"body":"a\\u0000b"}'))).to.equal('ERR_VALIDATION');
    expect(codeOf(() => parseJsonText('{"body":"\\ud83d\\ude00"}'))).to.equal('ok');
  });

  it('skips Meta deliveries that are not shaped as documented instead of throwing', () => {
    for (const payload of [
      null,
      1,
      'page',
      [],
      { object: 'page', entry: null },
      { object: 'page', entry: [null, 1, { id: 5 }, { id: 'P', messaging: [null, { message: null }, { delivery: { mids: 5 } }] }] },
    ]) {
      expect(() => parseMetaDelivery(payload), JSON.stringify(payload)).to.not.throw();
    }
    expect(
      parseMetaDelivery({
        object: 'page',
        entry: [{ id: 'P', messaging: [{ sender: { id: 'S' }, message: { mid: 'm1', text: 'oi' } }, { delivery: { mids: ['m0', 7] } }] }],
      }),
    ).to.deep.equal([
      {
        externalId: 'P',
        events: [
          { type: 'InboundMessage', providerMessageId: 'm1', from: 'S', senderName: 'S', body: 'oi', isGroup: false },
          { type: 'MessageStatusChanged', providerMessageId: 'm0', status: 'delivered' },
        ],
      },
    ]);
  });
});

describe('SSRF: addresses that are not public', () => {
  it('refuses IPv4-compatible and other non-global IPv6 forms of loopback and private addresses', () => {
    for (const address of ['::7f00:1', '::a00:1', '::1', '::', '::ffff:7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::', 'fc00::1', 'fe80::1', '100::1']) {
      expect(isPublicAddress(address), address).to.equal(false);
    }
    for (const address of ['2606:4700:4700::1111', '8.8.8.8']) expect(isPublicAddress(address), address).to.equal(true);
  });

  it('refuses http://[::127.0.0.1]/ before connecting', async () => {
    const code = await safeFetch('http://[::127.0.0.1]:9/x', { maxBytes: 10, contentTypes: ['image/'] }).then(
      () => 'ok',
      (e: { code?: string }) => e.code,
    );
    expect(code).to.equal('ERR_URL_NOT_ALLOWED');
  });
});
