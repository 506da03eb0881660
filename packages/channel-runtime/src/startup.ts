import { access, mkdir, constants } from 'node:fs/promises';
import { createServer } from 'node:net';
import { z } from 'zod';
import { parseConnectors } from './start-runtime.js';

/**
 * Why an executable cannot start, naming the setting to fix: printed as one line
 * `startup failed: <setting>: <reason>` (no stack trace), then the process exits with 1.
 */
export class StartupError extends Error {
  constructor(
    readonly setting: string,
    readonly reason: string,
  ) {
    super(`${setting}: ${reason}`);
    this.name = 'StartupError';
  }
}

/** The first line of an error's own text (driver errors carry their code, e.g. `connect ECONNREFUSED 127.0.0.1:1`). */
export function briefly(err: unknown): string {
  const e = err as { message?: unknown; code?: unknown; chainedError?: { message?: unknown } };
  const own = typeof e?.message === 'string' && e.message ? e.message : String(err);
  const chained = typeof e?.chainedError?.message === 'string' ? ` (${e.chainedError.message})` : '';
  return `${own.split('\n')[0]}${chained}`;
}

/** Runs one start-up step; its failure becomes a StartupError naming `setting`. */
export async function during<T>(setting: string, what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof StartupError) throw err;
    throw new StartupError(setting, `${what}: ${briefly(err)}`);
  }
}

/** Creates `dir` if needed and checks that this process may write there. */
export async function assertWritableDir(setting: string, dir: string): Promise<void> {
  await during(setting, `${dir} is not writable`, async () => {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  });
}

/** Binds `port` for an instant: a port in use stops the start before anything else happens. 0 is always free. */
export async function assertPortFree(setting: string, port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      reject(new StartupError(setting, err.code === 'EADDRINUSE' ? `${host}:${port} is already in use` : `cannot listen on ${host}:${port}: ${briefly(err)}`)),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** Prints why the start failed on one line, without a stack trace, and exits with 1. */
export function exitOnStartupFailure(err: unknown): never {
  const line = err instanceof StartupError ? `${err.setting}: ${err.reason}` : briefly(err);
  process.stderr.write(`startup failed: ${line}\n`);
  process.exit(1);
}

// Environment variables as zod schemas: unset (or empty) takes the default; anything else must be valid.

/** A whole number ≥ `min`, or `fallback` when unset. */
export const envInt = (fallback: number, min = 0, unit = '') =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return fallback;
      const n = Number(raw);
      if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(n) || n < min) {
        ctx.addIssue({ code: 'custom', message: `must be a ${min > 0 ? 'positive' : 'non-negative'} whole number${unit}, not "${raw}"` });
        return z.NEVER;
      }
      return n;
    });

/** `true` or `false`, or `fallback` when unset. */
export const envBool = (fallback = false) =>
  z
    .enum(['true', 'false'], { error: (i) => `must be "true" or "false", not "${String(i.input)}"` })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true'));

/** A URL with one of `schemes` (without the colon). */
export const envUrl = (schemes: readonly string[]) =>
  z.string().refine(
    (raw) => {
      try {
        return schemes.includes(new URL(raw).protocol.slice(0, -1));
      } catch {
        return false;
      }
    },
    { error: `must be a URL starting with ${schemes.map((s) => `${s}://`).join(' or ')}` },
  );

/** A NATS name token: the deployment prefix of streams, subjects and durables. */
export const envNatsPrefix = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'must be letters, digits, "_" or "-" (no dots, spaces or wildcards)' })
  .optional()
  .transform((v) => v ?? '');

/** Parses the environment with `schema`, empty values counting as unset; the first problem stops the start. */
export function parseEnv<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): z.output<S> {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new StartupError(String(issue.path[0] ?? 'configuration'), issue.message);
}

/** `CHANNEL_CONNECTORS`: a comma-separated list of connector names (both executables read it). */
export const envConnectors = () =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      try {
        return parseConnectors(raw);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message.replace(/^CHANNEL_CONNECTORS: /, '') });
        return z.NEVER;
      }
    });
