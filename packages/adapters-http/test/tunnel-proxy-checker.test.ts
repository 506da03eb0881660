import { expect } from 'chai';
import { startFakeHttpProxy, startFakeSocks5Proxy, startTunnelTarget } from '@servicedesk/core/contracts/fake-proxies';
import { TunnelProxyChecker } from '../src/outbound/tunnel-proxy-checker.js';

describe('TunnelProxyChecker', () => {
  const creds = { username: 'acme', password: 'p4ss:word' };
  let target: Awaited<ReturnType<typeof startTunnelTarget>>;
  before(async () => {
    target = await startTunnelTarget();
  });
  after(async () => {
    await target.close();
  });
  const checker = (o: { allowPrivate?: boolean; timeoutMs?: number } = {}) =>
    new TunnelProxyChecker({ target: { host: '127.0.0.1', port: target.port }, allowPrivate: true, timeoutMs: 2_000, ...o });

  it('opens a tunnel through an HTTP CONNECT proxy to the fixed target, with Basic credentials', async () => {
    const proxy = await startFakeHttpProxy({ credentials: creds });
    try {
      const before = target.accepted;
      const ok = await checker().check({ protocol: 'http', host: '127.0.0.1', port: proxy.port, username: 'acme', password: 'p4ss:word' });
      expect(ok.ok).to.equal(true);
      expect(proxy.tunnels).to.deep.equal([{ host: '127.0.0.1', port: target.port, username: 'acme', accepted: true }]);
      expect(target.accepted).to.equal(before + 1);
      const refused = await checker().check({ protocol: 'http', host: '127.0.0.1', port: proxy.port, username: 'acme', password: 'wrong' });
      expect(refused).to.deep.equal({ ok: false, error: 'the proxy refused the credentials (407)' });
      proxy.reachable = false;
      expect(await checker().check({ protocol: 'http', host: '127.0.0.1', port: proxy.port, username: 'acme', password: 'p4ss:word' })).to.deep.equal({
        ok: false,
        error: 'the proxy answered 502 to CONNECT',
      });
    } finally {
      await proxy.close();
    }
  });

  it('opens a tunnel through a SOCKS5 proxy with username and password', async () => {
    const proxy = await startFakeSocks5Proxy({ credentials: creds });
    try {
      expect((await checker().check({ protocol: 'socks5', host: '127.0.0.1', port: proxy.port, username: 'acme', password: 'p4ss:word' })).ok).to.equal(true);
      expect(proxy.tunnels.at(-1)).to.deep.equal({ host: '127.0.0.1', port: target.port, username: 'acme', accepted: true });
      expect(await checker().check({ protocol: 'socks5', host: '127.0.0.1', port: proxy.port, username: 'acme', password: 'nope' })).to.deep.equal({
        ok: false,
        error: 'the proxy refused the credentials',
      });
      expect(await checker().check({ protocol: 'socks5', host: '127.0.0.1', port: proxy.port, username: null, password: null })).to.deep.equal({
        ok: false,
        error: 'the proxy accepts none of our authentication methods',
      });
    } finally {
      await proxy.close();
    }
  });

  it('answers a closed port, a silent proxy and a private address as the rule says', async () => {
    const closed = await startTunnelTarget();
    const port = closed.port;
    await closed.close();
    const refused = await checker().check({ protocol: 'http', host: '127.0.0.1', port, username: null, password: null });
    expect(refused.ok).to.equal(false);
    const silent = await startTunnelTarget();
    try {
      expect(
        await checker({ timeoutMs: 200 }).check({ protocol: 'socks5', host: '127.0.0.1', port: silent.port, username: null, password: null }),
      ).to.deep.equal({ ok: false, error: 'no answer within 200 ms' });
    } finally {
      await silent.close();
    }
    const error = await checker({ allowPrivate: false })
      .check({ protocol: 'http', host: '127.0.0.1', port: 3128, username: null, password: null })
      .catch((e) => e);
    expect(error).to.include({ code: 'ERR_URL_NOT_ALLOWED' });
  });
});
