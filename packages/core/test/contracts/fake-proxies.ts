import net from 'node:net';

/** One tunnel a fake proxy was asked for: where to, and with which credentials. */
export interface TunnelRequest {
  readonly host: string;
  readonly port: number;
  readonly username: string | null;
  readonly accepted: boolean;
}

export interface FakeProxy {
  readonly port: number;
  readonly tunnels: TunnelRequest[];
  /** False makes every tunnel fail (the proxy answers but cannot reach anything). */
  reachable: boolean;
  close(): Promise<void>;
}

interface FakeProxyOptions {
  /** Credentials the proxy asks for; absent: none. */
  readonly credentials?: { readonly username: string; readonly password: string };
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

function closer(server: net.Server, sockets: Set<net.Socket>) {
  return () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

/** Joins the client to the target both ways. */
function splice(client: net.Socket, host: string, port: number, onOpen: () => void, onFail: () => void, sockets: Set<net.Socket>) {
  const upstream = net.connect({ host, port }, () => {
    onOpen();
    client.pipe(upstream).pipe(client);
  });
  sockets.add(upstream);
  upstream.on('error', () => {
    onFail();
    client.destroy();
  });
  client.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());
}

/** A loopback proxy server: `handle` serves each client, with the tunnel log and the reachable switch. */
async function startFakeProxy(
  handle: (client: net.Socket, tunnels: TunnelRequest[], state: { reachable: boolean }, sockets: Set<net.Socket>) => void,
): Promise<FakeProxy> {
  const sockets = new Set<net.Socket>();
  const tunnels: TunnelRequest[] = [];
  const state = { reachable: true };
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('error', () => {});
    handle(client, tunnels, state, sockets);
  });
  const port = await listen(server);
  return {
    port,
    tunnels,
    get reachable() {
      return state.reachable;
    },
    set reachable(v) {
      state.reachable = v;
    },
    close: closer(server, sockets),
  };
}

/** An HTTP CONNECT proxy on loopback (Basic authentication when `credentials` are given), recording each tunnel asked for. */
export function startFakeHttpProxy(options: FakeProxyOptions = {}): Promise<FakeProxy> {
  return startFakeProxy((client, tunnels, state, sockets) => {
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      client.off('data', onData);
      const rest = Buffer.from(head.slice(end + 4), 'latin1');
      const [requestLine, ...lines] = head.slice(0, end).split('\r\n');
      const m = /^CONNECT (\[[^\]]+\]|[^:\s]+):(\d+) HTTP\/1\.[01]$/.exec(requestLine ?? '');
      if (!m) {
        client.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n');
        return;
      }
      const auth = lines.find((l) => /^proxy-authorization:/i.test(l))?.split(/:\s*/)[1];
      const decoded = auth?.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString() : null;
      const [user, pass] = decoded === null ? [null, null] : [decoded.slice(0, decoded.indexOf(':')), decoded.slice(decoded.indexOf(':') + 1)];
      const ok = !options.credentials || (user === options.credentials.username && pass === options.credentials.password);
      const host = m[1]!.replace(/^\[|\]$/g, '');
      tunnels.push({ host, port: Number(m[2]), username: user ?? null, accepted: ok });
      if (!ok) {
        client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="fake"\r\n\r\n');
        return;
      }
      if (!state.reachable) {
        client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
        return;
      }
      splice(
        client,
        host,
        Number(m[2]),
        () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (rest.length) client.emit('data', rest);
        },
        () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'),
        sockets,
      );
    };
    client.on('data', onData);
  });
}

/** A SOCKS5 proxy on loopback (RFC 1929 username/password when `credentials` are given), recording each tunnel asked for. */
export function startFakeSocks5Proxy(options: FakeProxyOptions = {}): Promise<FakeProxy> {
  return startFakeProxy((client, tunnels, state, sockets) => {
    let buffer = Buffer.alloc(0);
    let stage: 'greeting' | 'auth' | 'request' | 'done' = 'greeting';
    let username: string | null = null;
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (stage === 'greeting') {
          if (buffer.length < 2 || buffer.length < 2 + buffer[1]!) return;
          const methods = [...buffer.subarray(2, 2 + buffer[1]!)];
          buffer = buffer.subarray(2 + buffer[1]!);
          const wanted = options.credentials ? 0x02 : 0x00;
          if (!methods.includes(wanted)) {
            client.end(Buffer.from([0x05, 0xff]));
            return;
          }
          client.write(Buffer.from([0x05, wanted]));
          stage = options.credentials ? 'auth' : 'request';
        } else if (stage === 'auth') {
          if (buffer.length < 2) return;
          const ulen = buffer[1]!;
          if (buffer.length < 3 + ulen || buffer.length < 3 + ulen + buffer[2 + ulen]!) return;
          username = buffer.subarray(2, 2 + ulen).toString();
          const password = buffer.subarray(3 + ulen, 3 + ulen + buffer[2 + ulen]!).toString();
          buffer = buffer.subarray(3 + ulen + buffer[2 + ulen]!);
          const ok = username === options.credentials!.username && password === options.credentials!.password;
          if (!ok) {
            tunnels.push({ host: '', port: 0, username, accepted: false });
            client.end(Buffer.from([0x01, 0x01]));
            return;
          }
          client.write(Buffer.from([0x01, 0x00]));
          stage = 'request';
        } else if (stage === 'request') {
          if (buffer.length < 5) return;
          const type = buffer[3]!;
          const addrLen = type === 0x01 ? 4 : type === 0x04 ? 16 : 1 + buffer[4]!;
          if (buffer.length < 4 + addrLen + 2) return;
          const addr = buffer.subarray(4, 4 + addrLen);
          const host =
            type === 0x01 ? [...addr].join('.') : type === 0x04 ? (addr.toString('hex').match(/.{4}/g) ?? []).join(':') : addr.subarray(1).toString();
          const port = buffer.readUInt16BE(4 + addrLen);
          const rest = buffer.subarray(4 + addrLen + 2);
          stage = 'done';
          client.off('data', onData);
          tunnels.push({ host, port, username, accepted: true });
          const reply = (code: number) => Buffer.from([0x05, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0]);
          if (!state.reachable) {
            client.end(reply(0x04));
            return;
          }
          splice(
            client,
            host,
            port,
            () => {
              client.write(reply(0x00));
              if (rest.length) client.emit('data', rest);
            },
            () => client.end(reply(0x05)),
            sockets,
          );
          return;
        } else return;
      }
    };
    client.on('data', onData);
  });
}

/** A TCP server on loopback that accepts and holds connections: the target proxy checks tunnel to. */
export async function startTunnelTarget(): Promise<{ port: number; accepted: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const state = { accepted: 0 };
  const server = net.createServer((s) => {
    sockets.add(s);
    state.accepted += 1;
    s.on('error', () => {});
  });
  const port = await listen(server);
  return {
    port,
    get accepted() {
      return state.accepted;
    },
    close: closer(server, sockets),
  };
}
