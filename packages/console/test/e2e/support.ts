import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium: CI installs it (`.ci/run`); without it the browser suites skip, saying so. */
export const CHROMIUM = '/usr/bin/chromium';
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Skips the suite when no browser is installed, and builds the console the way `npm start` does. */
export function prepareConsole(ctx: Mocha.Context): void {
  if (!existsSync(CHROMIUM)) {
    console.log(`      skipped: no browser at ${CHROMIUM} (install the chromium package to run it)`);
    ctx.skip();
  }
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
}

/** Headless Chromium with the network closed to everything but the page's own server. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-dev-shm-usage'],
  });
}

/** A browser profile of its own (cookies, storage): one operator. */
export async function operator(
  browser: Browser,
  options: { locale?: string; width?: number; height?: number } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: options.locale ?? 'en-US', viewport: { width: options.width ?? 1280, height: options.height ?? 800 } });
  context.setDefaultTimeout(15_000);
  return { context, page: await context.newPage() };
}

/** Signs in through the sign-in page (English labels) and waits for the company namespace to be live. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string, at = '/app/'): Promise<void> {
  await page.goto(`${baseUrl}${at}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
}

/**
 * Switches the console's language from the profile (the user's name in the top bar), then goes back
 * to the screen it was on. The option is found by its code, whatever language the page speaks.
 */
export async function switchLanguage(page: Page, code: string): Promise<void> {
  await page.locator('.topbar .user-name').click();
  await page.locator('select', { has: page.locator(`option[value="${code}"]`) }).selectOption(code);
  await page.goBack();
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/**
 * axe-core's WCAG 2.1 A/AA rules on what the page shows now (or within the element `within`
 * selects): no serious or critical violation (each one listed with its elements when there is).
 * Run in the page through the debugging protocol, which the console's Content-Security-Policy
 * does not govern.
 */
export async function expectAccessible(page: Page, what: string, within?: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run: (context: Document | object, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(selector ? { include: [[selector]] } : document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  }, within ?? null);
  const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(grave, `${what}: ${JSON.stringify(grave, null, 2)}`).to.deep.equal([]);
}

/**
 * A picture of each step to look at, under the temp folder in a folder per suite; with
 * `CONSOLE_SCREENSHOTS=docs/console`, in that one folder as `<suite>-<name>.png` (the docs' pictures).
 */
export async function shot(page: Page, suite: string, name: string): Promise<void> {
  const docs = process.env.CONSOLE_SCREENSHOTS;
  const dir = docs ? path.resolve(ROOT, docs) : path.join(os.tmpdir(), 'console-screenshots', suite);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, docs ? `${suite}-${name}.png` : `${name}.png`) });
}
