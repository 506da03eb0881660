import { readConfig } from './config.js';
import { startBackend } from './backend.js';

/** `npm start`: the backend on embedded defaults unless the environment points elsewhere. */
const backend = await startBackend(readConfig());
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    backend.logger.info({ signal }, 'shutting down');
    backend.close().then(() => process.exit(0), (err) => { backend.logger.error({ err }, 'shutdown failed'); process.exit(1); });
  });
}
