/**
 * A new token for a connection: 32 random bytes as 64 hexadecimal digits, within the server's rule
 * (16 to 256 printable characters without spaces). The server keeps only a digest and a mask
 * (`tokenHint`, answered as `token`: the first and last four characters), so the token is shown
 * once, when generated.
 */
export function newConnectionToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The curl line that sends a text through the message API of the server at `backendUrl`. */
export function curlExample(backendUrl: string, token: string): string {
  return [
    `curl -X POST '${backendUrl}/api/messages/send' \\`,
    `  -H 'Authorization: Bearer ${token}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"number":"5511999990000","body":"Hello from our system"}'`,
  ].join('\n');
}
