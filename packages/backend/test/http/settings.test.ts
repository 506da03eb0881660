import { expect } from 'chai';
import { asSuper, client, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

function form(fields: Record<string, string>, file?: { field: string; data: Buffer; name: string }) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (file) f.append(file.field, new Blob([file.data]), file.name);
  return f;
}

describe('HTTP: settings', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  it('each admin reads and changes only its own company settings', async () => {
    const a = await newCompanyWithAdmin(b);
    const other = await newCompanyWithAdmin(b);
    expect((await a.api.put('/settings/userRating', { value: 'enabled' })).body).to.deep.equal({ key: 'userRating', value: 'enabled' });
    expect((await a.api.get('/settings/userRating')).body.value).to.equal('enabled');
    expect((await other.api.get('/settings/userRating')).body.value).to.equal('disabled');
    const list = await a.api.get('/settings');
    expect(list.body.find((s: { key: string }) => s.key === 'userRating').value).to.equal('enabled');
    expect((await a.api.get('/companySettings')).body).to.include({ userRating: 'enabled', companyId: String(a.company.id) });
    expect((await a.api.get(`/companySettings/${other.company.id}`)).status).to.equal(404);
    expect((await a.api.put('/companySettings/', { column: 'chatBotType', data: 'list' })).body.value).to.equal('list');
    expect((await a.api.get('/companySettingOne/?column=chatBotType')).body).to.deep.equal({ chatBotType: 'list' });
    const { api: sup } = await asSuper(b);
    expect((await sup.get(`/companySettings/${a.company.id}`)).body.chatBotType).to.equal('list');
  });

  it("refuses keys outside the allow-list and values outside each key's rule", async () => {
    const a = await newCompanyWithAdmin(b);
    expect((await a.api.put('/settings/evilKey', { value: 'x' })).status).to.equal(404);
    expect((await a.api.get('/settings/evilKey')).status).to.equal(404);
    expect((await a.api.put('/settings/userRating', { value: 'maybe' })).status).to.equal(422);
    expect((await a.api.put('/settings/hoursCloseTicketsAuto', { value: '-3' })).status).to.equal(422);
    expect((await a.api.put('/settings/userRating', {})).status).to.equal(422);
    expect((await a.api.put('/companySettings/', { column: 'appName', data: 'x' })).status).to.equal(404);
    expect((await a.api.get('/companySettingOne/')).status).to.equal(422);
  });

  it('ordinary users read settings but only admins change them', async () => {
    const a = await newCompanyWithAdmin(b);
    await a.api.post('/users', { name: 'Op', email: 'op@set.test', password: 'op-password' });
    const op = client(b.url, (await client(b.url).post('/auth/login', { email: 'op@set.test', password: 'op-password' })).body.token);
    expect((await op.get('/settings/userRating')).status).to.equal(200);
    expect((await op.put('/settings/userRating', { value: 'enabled' })).status).to.equal(403);
  });

  it('global settings: super writes, users read, the login page reads only public keys', async () => {
    const { api: sup } = await asSuper(b);
    const a = await newCompanyWithAdmin(b);
    expect((await sup.put('/setting/appName', { value: 'Atende+' })).status).to.equal(200);
    expect((await a.api.put('/setting/appName', { value: 'Mine' })).status).to.equal(403);
    expect((await a.api.get('/setting/appName')).body.value).to.equal('Atende+');
    // The login page reads the bare value; `allowSignup` is the lineage's name for `userCreation`.
    expect((await client(b.url).get('/public-settings/appName?token=wtV')).body).to.equal('Atende+');
    expect((await client(b.url).get('/public-settings/allowSignup')).body).to.equal('enabled');
    expect((await client(b.url).get('/public-settings/appLogoDark')).body).to.equal('');
    expect((await client(b.url).get('/public-settings/paymentCertificate')).status).to.equal(404);
    expect((await client(b.url).get('/public-settings/userRating')).status).to.equal(404);
    expect((await sup.put('/setting/primaryColorLight', { value: 'red' })).status).to.equal(422);
    expect((await sup.put('/setting/appLogoLight', { value: 'http://evil/x.png' })).status).to.equal(422);
  });

  it('white-label logo and login image uploads are checked and served publicly', async () => {
    const { api: sup } = await asSuper(b);
    const logo = await sup.post('/settings-whitelabel/logo', form({ mode: 'Light' }, { field: 'file', data: PNG, name: 'logo.png' }));
    expect(logo.status).to.equal(200);
    // The answer is the logo's path under /public/ (a JSON string), as the public setting is.
    expect(logo.body).to.match(/^platform\/appLogoLight-.+\.png$/);
    expect((await client(b.url).get('/public-settings/appLogoLight')).body).to.equal(logo.body);
    expect((await sup.get('/settings')).body).to.deep.include({ key: 'appLogoLight', value: logo.body });
    const served = await fetch(`${b.url}/public/${logo.body}`);
    expect(served.status).to.equal(200);
    expect(served.headers.get('content-type')).to.equal('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).to.equal(true);
    expect((await sup.post('/settings-whitelabel/login', form({}, { field: 'file', data: PNG, name: 'bg.png' }))).body.key).to.equal('loginBackground');
    expect((await sup.post('/settings-whitelabel/logo', form({ mode: 'Sideways' }, { field: 'file', data: PNG, name: 'x.png' }))).status).to.equal(422);
    expect(
      (await sup.post('/settings-whitelabel/logo', form({ mode: 'Dark' }, { field: 'file', data: Buffer.from('<svg/>'), name: 'x.svg' }))).status,
    ).to.equal(422);
    expect((await sup.post('/settings-whitelabel/logo', form({ mode: 'Dark' }))).status).to.equal(422);
    const a = await newCompanyWithAdmin(b);
    expect((await a.api.post('/settings-whitelabel/logo', form({ mode: 'Light' }, { field: 'file', data: PNG, name: 'l.png' }))).status).to.equal(403);
    // The white-label page removes a logo by saving it empty: the file goes too.
    expect((await a.api.put('/settings/appLogoLight', { key: 'appLogoLight', value: '' })).status).to.equal(403);
    expect((await sup.put('/settings/appLogoLight', { key: 'appLogoLight', value: '' })).status).to.equal(200);
    expect((await client(b.url).get('/public-settings/appLogoLight')).body).to.equal('');
    expect((await fetch(`${b.url}/public/${logo.body}`)).status).to.equal(404);
  });

  it('private files are stored but never served', async () => {
    const { api: sup } = await asSuper(b);
    const res = await sup.post(
      '/settings/privateFile',
      form({ settingKey: 'paymentCertificate' }, { field: 'file', data: Buffer.from('secret-cert'), name: 'c.p12' }),
    );
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ key: 'paymentCertificate', stored: true });
    expect((await sup.get('/setting/paymentCertificate')).status).to.equal(404);
    expect((await sup.post('/settings/privateFile', form({ settingKey: 'appName' }, { field: 'file', data: Buffer.from('x'), name: 'x' }))).status).to.equal(
      404,
    );
    expect((await client(b.url).get('/private/platform/anything')).status).to.equal(404);
  });
});
