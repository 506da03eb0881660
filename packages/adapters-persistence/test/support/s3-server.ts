import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's one key pair (the proxy in front of it may be told to want another secret). */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface TestS3Server {
  /** `http://127.0.0.1:<port>`: path-style requests, signed with `S3_TEST_CREDENTIALS`. */
  readonly endpoint: string;
  readonly buckets: readonly string[];
  /** Requests refused for their signature so far. */
  readonly refusedSignatures: number;
  /** The keys of the objects in a bucket under a prefix, as the SDK lists them. */
  objectKeys(bucket: string, prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
/** RFC 3986 encoding, as Signature Version 4 writes query strings. */
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Whether a request carries a valid AWS Signature Version 4 for `secret` (header form, the one the
 * SDK uses). s3rver itself checks only the access key id of such requests, so a wrong secret would
 * pass unnoticed; this check is what a real service does first.
 */
export function hasValidSignature(req: IncomingMessage, secret: string): boolean {
  const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
    req.headers.authorization ?? '',
  );
  const amzDate = req.headers['x-amz-date'];
  if (!auth || typeof amzDate !== 'string') return false;
  const [, , date, region, service, signedHeaders, signature] = auth as unknown as [string, string, string, string, string, string, string];
  const [rawPath, rawQuery = ''] = (req.url ?? '/').split('?', 2) as [string, string?];
  const query = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      const [k, v] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
      return [rfc3986(decodeURIComponent(k)), rfc3986(decodeURIComponent(v))] as const;
    })
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headers = signedHeaders
    .split(';')
    .map(
      (name) =>
        `${name}:${String(req.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = [req.method, rawPath, query, headers, signedHeaders, String(req.headers['x-amz-content-sha256'] ?? '')].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  const expected = createHmac('sha256', key).update(toSign).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

function refuse(res: ServerResponse) {
  res
    .writeHead(403, { 'content-type': 'application/xml' })
    .end(
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code>' +
        '<Message>The request signature we calculated does not match the signature you provided.</Message></Error>',
    );
}

/**
 * An S3-compatible server for tests: s3rver on a temporary directory, behind a small proxy that
 * refuses requests whose signature does not match `secretAccessKey` (403 `SignatureDoesNotMatch`);
 * the access key id is always s3rver's (`S3RVER`).
 */
export async function startS3Server(
  buckets: readonly string[] = ['bucket'],
  secretAccessKey: string = S3_TEST_CREDENTIALS.secretAccessKey,
): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  const { port: backendPort } = await s3rver.run();
  let refusedSignatures = 0;
  const proxy: Server = createServer((req, res) => {
    if (!hasValidSignature(req, secretAccessKey)) {
      refusedSignatures++;
      req.resume();
      refuse(res);
      return;
    }
    const forwarded = request({ host: '127.0.0.1', port: backendPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    endpoint,
    buckets,
    get refusedSignatures() {
      return refusedSignatures;
    },
    async objectKeys(bucket, prefix = '') {
      const s3 = new S3Client({
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: S3_TEST_CREDENTIALS.accessKeyId, secretAccessKey },
      });
      try {
        const keys: string[] = [];
        let token: string | undefined;
        do {
          const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
          keys.push(...(page.Contents ?? []).map((o) => o.Key!));
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
        return keys;
      } finally {
        s3.destroy();
      }
    },
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await s3rver.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
