import type { Agent } from 'node:https';
import type { SessionProxy } from '@servicedesk/core';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { SocksProxyAgent } from 'socks-proxy-agent';

/*
 * The agents open a tunnel through the proxy for each connection and hand the socket to Node's
 * http, https and ws clients, which then speak TLS (or plain WebSocket) to the real target.
 */

/** `host:port`, an IPv6 host in brackets as URLs write it. */
function addressOf(proxy: SessionProxy): string {
  return `${proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host}:${proxy.port}`;
}

/** The proxy's URL for its agent: credentials URL-encoded, SOCKS with the scheme that lets the proxy resolve names. */
function proxyUrlOf(proxy: SessionProxy): string {
  const scheme = proxy.protocol === 'socks5' ? 'socks5h' : proxy.protocol === 'socks4' ? 'socks4a' : proxy.protocol;
  const user = proxy.username === null ? '' : encodeURIComponent(proxy.username);
  const password = proxy.password === null ? '' : `:${encodeURIComponent(proxy.password)}`;
  return `${scheme}://${user || password ? `${user}${password}@` : ''}${addressOf(proxy)}`;
}

/**
 * An agent that opens every connection through the proxy: HTTP CONNECT (`http`, `https`) or SOCKS.
 * Typed as https' Agent, what Baileys asks for; it serves plain http and ws:// requests as well.
 */
export function proxyAgentOf(proxy: SessionProxy): Agent {
  const url = proxyUrlOf(proxy);
  return proxy.protocol === 'http' || proxy.protocol === 'https' ? new HttpsProxyAgent(url) : new SocksProxyAgent(url);
}

/** Where a session's proxy is, for logs: never its credentials. */
export function proxyLabelOf(proxy: SessionProxy): string {
  return `${proxy.protocol}://${addressOf(proxy)}`;
}
