import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import { client, startTestBackend, type TestBackend } from '../support/test-backend.js';

const CHROMIUM = '/usr/bin/chromium';
const SWAGGER_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The `src` and `href` URLs of a page. */
const urlsOf = (html: string) => [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);

describe('HTTP: the API reference page', () => {
  let b: TestBackend;
  let html: string;
  before(async () => {
    b = await startTestBackend();
    const res = await client(b.url).get('/docs');
    expect(res.status).to.equal(200);
    html = res.body as string;
  });
  after(async () => {
    await b.close();
  });

  it('answers GET /docs with an HTML page that loads nothing from elsewhere and runs no inline script', async () => {
    const res = await fetch(`${b.url}/docs`);
    expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).to.include("script-src 'self'").and.include("default-src 'none'");
    expect(html).to.include('data-spec-url="/openapi.json"');
    for (const url of urlsOf(html)) expect(url, 'no CDN').to.match(/^(\/|data:)/);
    expect(
      html.match(/<script[^>]*>/g)!.every((tag) => / src="/.test(tag)),
      'no inline script',
    ).to.equal(true);
  });

  it('serves the bundled Swagger UI from the swagger-ui-dist package, versioned and cached for long', async () => {
    const assets = urlsOf(html).filter((u) => u.startsWith('/docs/assets/'));
    expect(assets).to.have.length(3);
    for (const url of assets) {
      const res = await fetch(b.url + url);
      expect(res.status, url).to.equal(200);
      expect(res.headers.get('cache-control'), url).to.equal('public, max-age=31536000, immutable');
      expect(res.headers.get('content-type'), url).to.equal(url.endsWith('.css') ? 'text/css; charset=utf-8' : 'application/javascript; charset=utf-8');
      const body = Buffer.from(await res.arrayBuffer());
      const name = path.basename(url);
      if (name.startsWith('swagger-ui')) expect(body.equals(readFileSync(path.join(SWAGGER_DIR, name))), url).to.equal(true);
    }
    expect(assets.some((u) => u.includes(`/swagger-ui-${createRequire(import.meta.url)('swagger-ui-dist/package.json').version}/`))).to.equal(true);
  });

  it('serves /openapi.json compressed to a client that accepts it (Brotli first, then gzip), the same document', async () => {
    const { request } = await import('node:http');
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    /** The raw answer: fetch would decompress it and hide the encoding. */
    const raw = (acceptEncoding: string) =>
      new Promise<{ encoding: string | undefined; vary: string | undefined; body: Buffer }>((resolve, reject) => {
        const req = request(`${b.url}/openapi.json`, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], vary: String(res.headers.vary ?? ''), body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });
    const plain = await raw('identity');
    expect(plain.encoding).to.equal(undefined);
    const document = JSON.parse(plain.body.toString('utf8'));
    expect(document.openapi).to.be.a('string');
    expect(plain.vary).to.match(/accept-encoding/i);
    const br = await raw('gzip, deflate, br');
    expect(br.encoding).to.equal('br');
    expect(br.body.length, 'Brotli makes it several times smaller').to.be.below(plain.body.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).to.deep.equal(document);
    const gz = await raw('gzip');
    expect(gz.encoding).to.equal('gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString('utf8'))).to.deep.equal(document);
  });

  describe(`in Chromium (skipped when ${CHROMIUM} is absent)`, function () {
    this.timeout(60_000);
    let browser: Browser;
    before(async function () {
      if (!existsSync(CHROMIUM)) {
        console.log(`      skipped: no browser at ${CHROMIUM} (install the chromium package to run it)`);
        this.skip();
      }
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
      });
    });
    after(async () => {
      await browser?.close();
    });

    it("renders the operations of the document, with nothing refused by the page's CSP and nothing fetched elsewhere", async () => {
      const page = await browser.newPage();
      const problems: string[] = [];
      const elsewhere: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('request', (r) => {
        if (!r.url().startsWith(b.url) && !r.url().startsWith('data:')) elsewhere.push(r.url());
      });
      const doc = (await client(b.url).get('/openapi.json')).body as { paths: Record<string, Record<string, { summary: string }>> };
      const [firstPath, firstItem] = Object.entries(doc.paths)[0]!;
      const [firstMethod, firstOperation] = Object.entries(firstItem)[0]!;
      const started = Date.now();
      await page.goto(`${b.url}/docs`);
      // The operations list is drawn: the document's first operation, its summary on screen.
      const first = page.locator('.opblock').first();
      await first.waitFor({ timeout: 30_000 });
      // Not a target (bench and scripts measure speed): what a reader of the log wants to know.
      console.log(`      /docs drew its first operations ${Date.now() - started} ms after it was asked for`);
      expect(await first.locator('.opblock-summary-method').textContent()).to.equal(firstMethod.toUpperCase());
      expect(await first.locator('.opblock-summary-path').getAttribute('data-path')).to.equal(firstPath);
      expect(await first.locator('.opblock-summary-description').isVisible()).to.equal(true);
      expect(await first.locator('.opblock-summary-description').textContent()).to.equal(firstOperation.summary);
      const version = page.locator('.opblock', { hasText: 'Backend name, version and uptime' });
      expect(await version.count()).to.equal(1);
      expect(await version.locator('.opblock-summary-method').textContent()).to.equal('GET');
      await version.locator('.opblock-summary-control').click();
      await page.locator('.opblock.is-open .responses-table').first().waitFor();
      // Its description (Markdown), its response with the schema's example, and its error responses.
      const opened = await page.locator('.opblock.is-open').textContent();
      expect(opened).to.include('The deployment check').and.include('"servicedesk-backend"').and.include('Internal server error');
      // Swagger UI renders what is on screen; its filter (by tag) brings an operation from far down the document.
      await page.locator('.operation-filter-input').fill('Contacts');
      await page.locator('.opblock', { hasText: '/contacts/upload' }).waitFor({ timeout: 10_000 });
      // An operation whose parameters and schemas are shared components shows them once opened (the page resolves its refs).
      const list = page.locator('.opblock', { has: page.locator('[data-path="/contacts"]') }).filter({ hasText: 'GET' });
      await list.locator('.opblock-summary-control').click();
      await list.locator('.parameters').waitFor({ timeout: 10_000 });
      expect(await list.locator('.parameters').textContent())
        .to.include('searchParam')
        .and.include('pageNumber');
      expect(problems, problems.join('\n')).to.deep.equal([]);
      expect(elsewhere).to.deep.equal([]);
      await page.close();
    });
  });
});
