import { expect } from 'chai';
import { asSuper, client, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

// Every settings route answers a body its response schema accepts (the test backend validates each answer).
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

function form(fields: Record<string, string>, file: { data: Buffer; name: string; type?: string }) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append('file', new Blob([file.data], { type: file.type ?? 'image/png' }), file.name);
  return f;
}

describe('HTTP: settings answers fit their response schemas', () => {
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

  it('company settings: list, one, object, by column, both writes', async () => {
    const { api, company } = await newCompanyWithAdmin(b);
    const list = await api.get('/settings');
    expect(list.status).to.equal(200);
    expect(list.body).to.deep.include({ key: 'userRating', value: 'disabled' });
    expect((await api.get('/settings/userRating')).body).to.deep.equal({ key: 'userRating', value: 'disabled' });
    expect((await api.put('/settings/userRating', { value: 'enabled' })).body).to.deep.equal({ key: 'userRating', value: 'enabled' });
    expect((await api.put('/companySettings/', { column: 'hoursCloseTicketsAuto', data: 12 })).body).to.deep.equal({
      key: 'hoursCloseTicketsAuto',
      value: '12',
    });
    const object = await api.get('/companySettings');
    expect(object.status).to.equal(200);
    expect(object.body).to.include({ companyId: String(company.id), userRating: 'enabled', hoursCloseTicketsAuto: '12' });
    const own = await api.get(`/companySettings/${company.id}`);
    expect(own.status).to.equal(200);
    expect(own.body).to.deep.equal(object.body);
    const one = await api.get('/companySettingOne/?column=userRating');
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.equal({ userRating: 'enabled' });
  });

  it('platform settings: read, write, public read, uploads', async () => {
    const { api } = await asSuper(b);
    expect((await api.put('/setting/appName', { value: 'Acme Desk' })).body).to.deep.equal({ key: 'appName', value: 'Acme Desk' });
    expect((await api.get('/setting/appName')).body).to.deep.equal({ key: 'appName', value: 'Acme Desk' });
    const pub = await client(b.url).get('/public-settings/appName');
    expect(pub.status).to.equal(200);
    expect(pub.body).to.equal('Acme Desk');
    expect(pub.headers.get('content-type')).to.match(/^application\/json/);

    const logo = await api.post('/settings-whitelabel/logo', form({ mode: 'Dark' }, { data: PNG, name: 'logo.png' }));
    expect(logo.status).to.equal(200);
    expect(logo.body).to.match(/^platform\/appLogoDark-/);
    const background = await api.post('/settings-whitelabel/login', form({}, { data: PNG, name: 'bg.png' }));
    expect(background.status).to.equal(200);
    expect(background.body.key).to.equal('loginBackground');
    const certificate = await api.post(
      '/settings/privateFile',
      form({ settingKey: 'paymentCertificate' }, { data: Buffer.from('certificate bytes'), name: 'cert.p12', type: 'application/octet-stream' }),
    );
    expect(certificate.status).to.equal(200);
    expect(certificate.body).to.deep.equal({ key: 'paymentCertificate', stored: true, size: 17 });
  });
});
