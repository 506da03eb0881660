import { runDeployment } from './deploy.js';
import { freshDatabase, natsServerBinary, PrivateNatsServer, type FreshDatabase } from './processes.js';

/**
 * `npm start -w @servicedesk/example-channel-runtime-deployment`: runs the deployment once on a
 * fresh database of the DATABASE_URL server (dropped afterwards) and on BROKER_URL, or on a private
 * nats-server when BROKER_URL is not set. Exit codes: 0 done, 1 the deployment failed, 2 something
 * it needs is missing.
 */
const env = process.env;
if (!env.DATABASE_URL) {
  console.error(
    'DATABASE_URL is required: a PostgreSQL server URL, e.g. postgres://postgres@127.0.0.1:5432/postgres.\n' +
      'A fresh database is created on that server for the run and dropped afterwards.',
  );
  process.exit(2);
}

const abort = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => abort.abort(new Error(`stopped by ${signal}`)));

let nats: PrivateNatsServer | undefined;
let brokerUrl = env.BROKER_URL;
if (!brokerUrl) {
  const binary = natsServerBinary();
  if (!binary) {
    console.error(
      'BROKER_URL is not set and nats-server is not installed.\n' +
        'Either point BROKER_URL at a NATS server with JetStream (nats-server -js), or install one (apt-get install nats-server).',
    );
    process.exit(2);
  }
  nats = await PrivateNatsServer.start(binary);
  brokerUrl = nats.url;
  console.log(`nats: started a private ${binary} -js on ${brokerUrl}`);
}

let database: FreshDatabase | undefined;
try {
  database = await freshDatabase(env.DATABASE_URL);
  console.log(`database: created ${database.name}`);
  const result = await runDeployment({
    databaseUrl: database.url,
    brokerUrl,
    signal: abort.signal,
    log: (line) => console.log(line),
    onOutput: (service, line) => console.log(`  ${service.padEnd(7)} | ${line}`),
  });
  console.log(
    [
      '',
      'Result',
      `  backend       ${result.backendUrl} (stopped)`,
      `  connection    #${result.connectionId}`,
      `  message       ${result.messageId} in ticket #${result.ticketId}: ${result.status}`,
      `  lease owner   ${result.leaseOwner}`,
      `  reply         ${result.reply}`,
    ].join('\n'),
  );
} catch (err) {
  console.error(`\nThe deployment failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  if (database) {
    await database.drop();
    console.log(`database: dropped ${database.name}`);
  }
  if (nats) {
    await nats.stop();
    console.log('nats: stopped');
  }
}
// A broker or database client that outlived its owner must not keep the script alive.
process.exit(process.exitCode ?? 0);
