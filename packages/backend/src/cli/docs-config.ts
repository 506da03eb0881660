import { writeFile } from 'node:fs/promises';
import { RUNTIME_ENV_NAMES } from '@servicedesk/channel-runtime';
import { BACKEND_ENV_NAMES } from '../config.js';
import { configurationMarkdown, envExample } from '../configuration-reference.js';

/** `npm run docs:config`: writes docs/configuration.md and .env.example from the configuration reference. */
const root = new URL('../../../../', import.meta.url);
await writeFile(new URL('docs/configuration.md', root), configurationMarkdown(BACKEND_ENV_NAMES, RUNTIME_ENV_NAMES));
await writeFile(new URL('.env.example', root), envExample());
console.log('wrote docs/configuration.md and .env.example');
