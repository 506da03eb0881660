import net from 'node:net';
import tls from 'node:tls';
import ipaddr from 'ipaddr.js';
import type { ProxyChecker, ProxyCheckResult } from '@servicedesk/core/proxies/ports';
import type { ProxyEndpoint } from '@servicedesk/core/proxies/proxy';
import { pinnedLookupFor } from './safe-fetch.js';

export interface TunnelProxyCheckerOptions {
  /** Where the tunnel is opened to through the proxy (`PROXY_CHECK_TARGET`, default `web.whatsapp.com:443`): never an address a request chose. */
  readonly target?: { readonly host: string; readonly port: number };
  /** Let proxies on loopback and private addresses through (`ALLOW_PRIVATE_URLS=true`; tests, a proxy on the LAN). */
  readonly allowPrivate?: boolean;
  readonly timeoutMs?: number;
}

const DEFAULT_TARGET = { host: 'web.whatsapp.com', port: 443 };
/** A proxy's answer to the tunnel request is a status line and a few headers; more is not an answer. */
const MAX_REPLY = 16 * 1024;

/** Reads from the socket until `done` says the reply is whole (answers what it read), or fails on close, overflow or the deadline. */
function readReply(socket: net.Socket, done: (data: Buffer) => number | null): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    const cleanup = () => {
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const length = done(data);
      if (length !== null) {
        cleanup();
        resolve(data.subarray(0, length));
      } else if (data.length > MAX_REPLY) {
        cleanup();
        reject(new Error('reply too long'));
      }
    };
    const onClose = () => {
      cleanup();
      reject(new Error('closed by the proxy'));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    socket.on('data', onData).on('close', onClose).on('error', onError);
  });
}

const need = (n: number) => (data: Buffer) => (data.length >= n ? n : null);

async function httpConnect(socket: net.Socket, e: ProxyEndpoint, target: { host: string; port: number }): Promise<void> {
  const authority = `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
  const auth = e.username !== null ? `Proxy-Authorization: Basic ${Buffer.from(`${e.username}:${e.password ?? ''}`).toString('base64')}\r\n` : '';
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`);
  const reply = (
    await readReply(socket, (d) => {
      const end = d.indexOf('\r\n\r\n');
      return end < 0 ? null : end + 4;
    })
  ).toString('latin1');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(reply)?.[1];
  if (status === '407') throw new Error('the proxy refused the credentials (407)');
  if (status !== '200') throw new Error(`the proxy answered ${status ?? 'something that is not HTTP'} to CONNECT`);
}

function socksAddress(host: string): Buffer {
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return Buffer.from([0x01, ...ipaddr.IPv4.parse(host).toByteArray()]);
  if (ipaddr.IPv6.isValid(host)) return Buffer.from([0x04, ...ipaddr.IPv6.parse(host).toByteArray()]);
  const name = Buffer.from(host, 'ascii');
  return Buffer.concat([Buffer.from([0x03, name.length]), name]);
}

/** The proxy's address as a URL, for the outgoing-call rule (an IPv6 host in brackets). */
const urlOf = (e: Pick<ProxyEndpoint, 'host' | 'port'>) => new URL(`http://${e.host.includes(':') ? `[${e.host}]` : e.host}:${e.port}`);

const port16 = (port: number) => Buffer.from([port >> 8, port & 0xff]);

/** RFC 1928 (and RFC 1929 username/password): greeting, authentication, CONNECT. */
async function socks5(socket: net.Socket, e: ProxyEndpoint, target: { host: string; port: number }): Promise<void> {
  socket.write(Buffer.from(e.username !== null ? [0x05, 0x02, 0x00, 0x02] : [0x05, 0x01, 0x00]));
  const [version, method] = await readReply(socket, need(2));
  if (version !== 0x05) throw new Error('not a SOCKS5 proxy');
  if (method === 0x02 && e.username !== null) {
    const user = Buffer.from(e.username);
    const pass = Buffer.from(e.password ?? '');
    socket.write(Buffer.concat([Buffer.from([0x01, user.length]), user, Buffer.from([pass.length]), pass]));
    const [, status] = await readReply(socket, need(2));
    if (status !== 0x00) throw new Error('the proxy refused the credentials');
  } else if (method !== 0x00) {
    throw new Error(method === 0x02 ? 'the proxy asks for credentials' : 'the proxy accepts none of our authentication methods');
  }
  socket.write(Buffer.concat([Buffer.from([0x05, 0x01, 0x00]), socksAddress(target.host), port16(target.port)]));
  const head = await readReply(socket, need(2));
  if (head[1] !== 0x00) throw new Error(`the proxy could not reach the target (SOCKS5 reply ${head[1]})`);
}

/** SOCKS4a: the target's name is resolved by the proxy. */
async function socks4(socket: net.Socket, e: ProxyEndpoint, target: { host: string; port: number }): Promise<void> {
  const ipv4 = ipaddr.IPv4.isValidFourPartDecimal(target.host);
  const address = ipv4 ? Buffer.from(ipaddr.IPv4.parse(target.host).toByteArray()) : Buffer.from([0, 0, 0, 1]);
  const user = Buffer.from(`${e.username ?? ''}\0`);
  const name = ipv4 ? Buffer.alloc(0) : Buffer.from(`${target.host}\0`);
  socket.write(Buffer.concat([Buffer.from([0x04, 0x01]), port16(target.port), address, user, name]));
  const reply = await readReply(socket, need(8));
  if (reply[1] !== 0x5a) throw new Error(`the proxy refused the tunnel (SOCKS4 reply ${reply[1]})`);
}

/**
 * Checks a proxy by opening a tunnel through it to a fixed target (HTTP CONNECT, over TLS for
 * `https`, SOCKS4a or SOCKS5 with username/password): the proxy must accept the credentials and
 * reach the target within the deadline. The proxy's own address follows our outgoing-call rule
 * (resolved once, public unless allowed: 422 `ERR_URL_NOT_ALLOWED`); any other failure is an
 * answer `ok: false` with the reason, never an exception. Credentials never appear in a reason.
 */
export class TunnelProxyChecker implements ProxyChecker {
  constructor(private readonly o: TunnelProxyCheckerOptions = {}) {}

  async admit(e: Pick<ProxyEndpoint, 'host' | 'port'>): Promise<void> {
    await pinnedLookupFor(urlOf(e), this.o.allowPrivate ?? false);
  }

  async check(e: ProxyEndpoint): Promise<ProxyCheckResult> {
    const target = this.o.target ?? DEFAULT_TARGET;
    const timeoutMs = this.o.timeoutMs ?? 10_000;
    const lookup = await pinnedLookupFor(urlOf(e), this.o.allowPrivate ?? false);
    if (!lookup) return { ok: false, error: 'the proxy host does not resolve' };
    const started = performance.now();
    let socket: net.Socket | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      const work = (async () => {
        const options = { host: e.host, port: e.port, lookup };
        const s = e.protocol === 'https' ? tls.connect({ ...options, ...(ipaddr.isValid(e.host) ? {} : { servername: e.host }) }) : net.connect(options);
        socket = s;
        await new Promise<void>((resolve, reject) => {
          s.once(e.protocol === 'https' ? 'secureConnect' : 'connect', () => resolve()).once('error', reject);
        });
        if (e.protocol === 'socks5') await socks5(s, e, target);
        else if (e.protocol === 'socks4') await socks4(s, e, target);
        else await httpConnect(s, e, target);
      })();
      work.catch(() => {});
      await Promise.race([work, deadline]);
      return { ok: true, latencyMs: Math.max(0, Math.round(performance.now() - started)) };
    } catch (err) {
      return { ok: false, error: (err as Error).message.slice(0, 300) };
    } finally {
      clearTimeout(timer);
      socket?.destroy();
    }
  }
}
