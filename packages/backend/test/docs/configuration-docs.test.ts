import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { RUNTIME_ENV_NAMES } from '@servicedesk/channel-runtime';
import { BACKEND_ENV_NAMES } from '../../src/config.js';
import { CONFIGURATION, configurationMarkdown, envExample } from '../../src/configuration-reference.js';

const root = new URL('../../../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');

describe('Docs: the configuration reference', () => {
  it('describes exactly the variables the two executables read', () => {
    expect(Object.keys(CONFIGURATION).sort()).to.deep.equal([...new Set([...BACKEND_ENV_NAMES, ...RUNTIME_ENV_NAMES])].sort());
  });

  it('docs/configuration.md and .env.example are what `npm run docs:config` writes (run it after changing a variable)', () => {
    expect(read('docs/configuration.md')).to.equal(configurationMarkdown(BACKEND_ENV_NAMES, RUNTIME_ENV_NAMES));
    expect(read('.env.example')).to.equal(envExample());
  });

  it('.env.example names every variable once, commented out', () => {
    const names = [...read('.env.example').matchAll(/^# ([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(names.sort()).to.deep.equal(Object.keys(CONFIGURATION).sort());
    expect(
      read('.env.example')
        .split('\n')
        .filter((l) => l && !l.startsWith('#')),
    ).to.deep.equal([]);
  });
});
