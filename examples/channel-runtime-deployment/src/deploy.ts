import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { readEnvFile } from './env-file.js';
import { freePort, minimalEnv, ServiceProcess } from './processes.js';

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));
export const BACKEND_ENV_FILE = path.join(EXAMPLE_DIR, 'backend.env');
export const RUNTIME_ENV_FILE = path.join(EXAMPLE_DIR, 'runtime.env');
export const BACKEND_ENTRY = 'packages/backend/src/main.ts';
export const RUNTIME_ENTRY = 'packages/channel-runtime/src/main.ts';

/** The backend's built-in admin e-mail (`DEFAULT_ADMIN_EMAIL` in packages/backend/src/config.ts). */
const DEFAULT_ADMIN_EMAIL = 'admin@admin.com';
/** The sandbox contact the demo writes to; the echo answers from the same number. */
export const CONTACT_NUMBER = '5511999990000';

export interface DeploymentOptions {
  /** The database both processes use: the backend its tables, the runtime its schema `channel`. */
  readonly databaseUrl: string;
  /** NATS with JetStream, shared by both processes. */
  readonly brokerUrl: string;
  /** The backend's port; a free one when omitted. */
  readonly port?: number;
  /** Parent of each process's DATA_DIR (`backend/`, `runtime/`); a temporary directory, removed afterwards, when omitted. */
  readonly dataDir?: string;
  readonly backendEnvFile?: string;
  readonly runtimeEnvFile?: string;
  /** The text sent to the sandbox contact. */
  readonly body?: string;
  /** How long each wait (backend up, session connected, message read, reply stored) may take. */
  readonly stepTimeoutMs?: number;
  /** Called with a line for each step. */
  readonly log?: (line: string) => void;
  /** Called with every output line of either process. */
  readonly onOutput?: (service: 'backend' | 'runtime', line: string) => void;
  /** Aborting stops the waits; both processes are stopped as on any other failure. */
  readonly signal?: AbortSignal;
}

export interface DeploymentResult {
  readonly backendUrl: string;
  readonly connectionId: number;
  readonly ticketId: number;
  readonly messageId: string;
  /** The sent message's delivery status at the end: `read` once the sandbox contact has read it. */
  readonly status: string;
  /** `channel.session_leases.owner` of the connection: the RUNTIME_INSTANCE_ID serving it. */
  readonly leaseOwner: string;
  /** The body of the contact's answer ("Re: <body>" with SANDBOX_ECHO=true). */
  readonly reply: string;
}

/** The parts of the HTTP API's answers this script reads. */
interface MessageView {
  id: string;
  body: string;
  fromMe: boolean;
  status: string;
  providerMessageId: string | null;
}
interface MessagePage {
  messages: MessageView[];
}

/**
 * Deploys the backend and a channel runtime as two processes, each with its own configuration
 * file, then proves the runtime serves the backend's sandbox sessions: a connection is created
 * through the backend, comes up CONNECTED on the runtime (which holds its lease), a send made
 * through the official API is read, and the contact's echo reaches the ticket. Both processes are
 * stopped before this returns or throws.
 */
export async function runDeployment(options: DeploymentOptions): Promise<DeploymentResult> {
  options.signal?.throwIfAborted();
  const log = options.log ?? (() => undefined);
  const stepMs = options.stepTimeoutMs ?? 60_000;
  const body = options.body ?? `Hello from the channel-runtime deployment example (${new Date().toISOString()})`;
  const backendFile = options.backendEnvFile ?? BACKEND_ENV_FILE;
  const runtimeFile = options.runtimeEnvFile ?? RUNTIME_ENV_FILE;
  const backendConfig = await readEnvFile(backendFile);
  const runtimeConfig = await readEnvFile(runtimeFile);
  checkConfiguration(backendConfig, runtimeConfig, { backendFile, runtimeFile });

  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'sd-runtime-deployment-')));
  const port = options.port ?? (await freePort());
  const backendUrl = `http://127.0.0.1:${port}`;
  // Each process gets its file plus the four deployment-specific values: never the other's file.
  const backend = new ServiceProcess(
    'backend',
    BACKEND_ENTRY,
    {
      ...minimalEnv(),
      ...backendConfig,
      DATABASE_URL: options.databaseUrl,
      BROKER_URL: options.brokerUrl,
      PORT: String(port),
      DATA_DIR: path.join(dataDir, 'backend'),
    },
    (line) => options.onOutput?.('backend', line),
  );
  const runtime = new ServiceProcess(
    'runtime',
    RUNTIME_ENTRY,
    {
      ...minimalEnv(),
      ...runtimeConfig,
      DATABASE_URL: options.databaseUrl,
      BROKER_URL: options.brokerUrl,
      DATA_DIR: path.join(dataDir, 'runtime'),
    },
    (line) => options.onOutput?.('runtime', line),
  );

  /** Polls `probe` until it returns a value; a process that died or an abort ends the wait at once. */
  const until = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    const deadline = Date.now() + stepMs;
    let lastError: unknown;
    for (;;) {
      options.signal?.throwIfAborted();
      for (const service of [backend, runtime]) {
        const reason = service.exitReason();
        if (reason) throw new Error(`the ${service.name} ${reason} while waiting for ${what}; its last output:\n${service.tail()}`);
      }
      try {
        const value = await probe();
        if (value !== undefined) return value;
      } catch (err) {
        lastError = err;
      }
      if (Date.now() > deadline) {
        throw new Error(`timed out after ${stepMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  const db = new pg.Client({ connectionString: options.databaseUrl });
  try {
    log(`backend: starting ${BACKEND_ENTRY} with ${path.basename(backendFile)} on ${backendUrl}`);
    backend.start();
    const version = await until('GET /version', async () => {
      const res = await fetch(`${backendUrl}/version`);
      return res.ok ? ((await res.json()) as Record<string, unknown>) : undefined;
    });
    log(`backend: online (${JSON.stringify(version)})`);

    // Started only now and on its own: the runtime migrates its schema and waits for commands on NATS.
    log(`runtime: starting ${RUNTIME_ENTRY} with ${path.basename(runtimeFile)} as ${runtimeConfig.RUNTIME_INSTANCE_ID ?? '(a random instance id)'}`);
    runtime.start();

    const email = backendConfig.ADMIN_EMAIL || DEFAULT_ADMIN_EMAIL;
    const login = await http<{ token: string }>(backendUrl, 'POST', '/auth/login', { body: { email, password: backendConfig.ADMIN_PASSWORD } });
    log(`backend: logged in as ${email}`);

    // The connection's API token selects it on /api/messages/send; random, so reruns never clash.
    const token = randomBytes(24).toString('base64url');
    const connection = await http<{ id: number; status: string }>(backendUrl, 'POST', '/chatapp/', {
      token: login.token,
      body: { name: 'Runtime deployment sandbox', provider: 'sandbox', token },
    });
    log(`backend: created sandbox connection #${connection.id} (${connection.status}); its start command goes to the runtime over NATS`);
    await until(`connection #${connection.id} CONNECTED`, async () => {
      const current = await http<{ status: string }>(backendUrl, 'GET', `/chatapp/${connection.id}`, { token: login.token });
      return current.status === 'CONNECTED' ? true : undefined;
    });
    log(`backend: connection #${connection.id} is CONNECTED (the runtime reported its session up)`);

    const sent = await http<{ messageId: string; ticketId: number }>(backendUrl, 'POST', '/api/messages/send', {
      token,
      body: { number: CONTACT_NUMBER, body },
    });
    log(`backend: send accepted, message ${sent.messageId} in ticket #${sent.ticketId}`);
    const conversation = () => http<MessagePage>(backendUrl, 'GET', `/messages/${sent.ticketId}`, { token: login.token });
    const message = await until(`message ${sent.messageId} read`, async () => {
      const found = (await conversation()).messages.find((m) => m.id === sent.messageId);
      return found?.status === 'read' ? found : undefined;
    });
    log(`backend: message ${message.id} is ${message.status} (acknowledged by the runtime's sandbox session)`);

    await db.connect();
    const leaseOwner = await until(`a live lease on connection #${connection.id}`, async () => {
      const { rows } = await db.query<{ owner: string }>('select owner from channel.session_leases where chatapp_id = $1 and expires_at > clock_timestamp()', [
        connection.id,
      ]);
      return rows[0]?.owner;
    });
    log(`database: channel.session_leases says connection #${connection.id} is held by "${leaseOwner}"`);

    // The echo's provider id is derived from our message id, which tells it apart from any other inbound.
    const reply = await until("the contact's echo in the ticket", async () =>
      (await conversation()).messages.find((m) => !m.fromMe && m.providerMessageId === `echo-${sent.messageId}`),
    );
    log(`backend: the contact answered "${reply.body}"`);

    return {
      backendUrl,
      connectionId: connection.id,
      ticketId: sent.ticketId,
      messageId: message.id,
      status: message.status,
      leaseOwner,
      reply: reply.body,
    };
  } finally {
    await db.end().catch(() => undefined);
    // The runtime first: on SIGTERM it closes its sessions and releases their leases, so another instance could take them at once.
    await runtime.stop();
    await backend.stop();
    log('stopped: runtime and backend (SIGTERM)');
    if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

/** Refuses configurations that could never finish the demo, before anything is started. */
function checkConfiguration(backend: Record<string, string>, runtime: Record<string, string>, files: { backendFile: string; runtimeFile: string }): void {
  if (!backend.ADMIN_PASSWORD) {
    throw new Error(`${files.backendFile} must set ADMIN_PASSWORD: the built-in default must be changed at first login, which this script does not do`);
  }
  const connectors = runtime.CHANNEL_CONNECTORS;
  if (
    connectors &&
    !connectors
      .split(',')
      .map((s) => s.trim())
      .includes('sandbox')
  ) {
    throw new Error(`${files.runtimeFile}: CHANNEL_CONNECTORS must include sandbox (it is "${connectors}")`);
  }
  if (runtime.SANDBOX_ECHO !== 'true') {
    throw new Error(`${files.runtimeFile} must set SANDBOX_ECHO=true: the reply this script waits for is the sandbox's echo`);
  }
}

/** One JSON request; anything but 2xx is an error carrying the status and the answer. */
async function http<T>(baseUrl: string, method: string, route: string, o: { token?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { ...(o.token ? { authorization: `Bearer ${o.token}` } : {}), ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}
