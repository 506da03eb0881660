import { exitOnStartupFailure } from '@servicedesk/channel-runtime';
import { readConfig } from './config.js';
import { startBackend } from './backend.js';

/**
 * `npm start`: the backend on embedded defaults unless the environment points elsewhere. A start
 * that fails (a bad setting, the port in use, a dependency that does not answer) prints one line
 * `startup failed: <setting>: <reason>` and exits with 1.
 */
const backend = await Promise.resolve()
  .then(() => startBackend(readConfig()))
  .catch(exitOnStartupFailure);
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    backend.logger.info({ signal }, 'shutting down');
    backend.close().then(
      () => process.exit(0),
      (err) => {
        backend.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
