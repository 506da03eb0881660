import { expect } from 'chai';
import { client, startTestBackend, type TestBackend } from '../support/test-backend.js';

/** The described routes answer what their response schemas say (the test backend checks every answer). */
describe('HTTP: version', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });

  it('GET /version names the backend, its version and when it started', async () => {
    const res = await client(b.url).get('/version');
    expect(res.status).to.equal(200);
    expect(res.body).to.have.keys(['name', 'version', 'startedAt']);
    expect(res.body.name).to.equal('servicedesk-backend');
    expect(res.body.version).to.match(/^\d+\.\d+\.\d+/);
    expect(new Date(res.body.startedAt).toISOString()).to.equal(res.body.startedAt);
  });

  it('POST /version compares major versions, whatever the rest of the version string', async () => {
    const anonymous = client(b.url);
    const {
      body: { version },
    } = await anonymous.get('/version');
    const major = Number(version.split('.')[0]);
    expect((await anonymous.post('/version', { version: `${major}.99.0` })).body).to.deep.equal({
      backend: version,
      frontend: `${major}.99.0`,
      compatible: true,
    });
    expect((await anonymous.post('/version', { version: `${major + 1}.0.0` })).body).to.include({ compatible: false });
    // The lineage's client sends its package version as it is (`2.2.2v-26`): the leading number is the major version.
    expect((await anonymous.post('/version', { version: `${major}.2.2v-26` })).body).to.include({ compatible: true });
    expect((await anonymous.post('/version', { version: 'latest' })).body).to.include({ compatible: false });
    expect((await anonymous.post('/version', { version: '' })).status).to.equal(422);
  });
});
