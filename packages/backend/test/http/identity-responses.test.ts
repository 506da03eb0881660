import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { ADMIN, asSuper, client, login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

// Every identity route answers a body its response schema accepts (the test backend validates each answer).
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

function refreshCookie(setCookie: string): string {
  const match = /jrt=([^;]*)/.exec(setCookie);
  if (!match) throw new Error(`no jrt cookie in: ${setCookie}`);
  return `jrt=${match[1]}`;
}

describe('HTTP: identity answers fit their response schemas', () => {
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

  it('login, refresh, me and logout', async () => {
    const loggedIn = await client(b.url).post('/auth/login', { email: ADMIN.email, password: ADMIN.password });
    expect(loggedIn.status).to.equal(200);
    expect(loggedIn.body).to.include({ mustChangePassword: false });
    expect(loggedIn.body.user).to.include({ email: ADMIN.email, super: true });
    const cookie = refreshCookie(loggedIn.headers.get('set-cookie') ?? '');
    const refreshed = await client(b.url).post('/auth/refresh_token', undefined, { cookie });
    expect(refreshed.status).to.equal(200);
    expect(refreshed.body.user.id).to.equal(loggedIn.body.user.id);
    const api = client(b.url, refreshed.body.token);
    const me = await api.get('/auth/me');
    expect(me.status).to.equal(200);
    expect(me.body).to.include({ id: loggedIn.body.user.id, profile: 'admin', super: true });
    expect(me.body.company).to.include({ id: loggedIn.body.user.companyId });
    const out = await api.call('DELETE', '/auth/logout', undefined, { cookie: refreshCookie(refreshed.headers.get('set-cookie') ?? '') });
    expect(out.status).to.equal(200);
    expect(out.body).to.deep.equal({ message: 'Logged out' });
  });

  it('sign-up answers the company and its admin', async () => {
    const res = await client(b.url).post('/auth/signup', {
      companyName: 'Signup Co',
      name: 'Ana Admin',
      email: 'ana@signup.test',
      password: 'long-enough',
      planId: 1,
      phone: '+55 11 4000-1234',
    });
    expect(res.status).to.equal(201);
    expect(res.body.company).to.include({ name: 'Signup Co', email: 'ana@signup.test', status: true });
    expect(res.body.company.schedules).to.have.length(7);
    expect(res.body.user).to.include({ email: 'ana@signup.test', profile: 'admin', companyId: res.body.company.id });
  });

  it('looks a CNPJ up in the registry', async () => {
    const registry: Server = createServer((req, res) => {
      if (req.url?.endsWith('/11222333000181')) {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            razao_social: 'ACME ATENDIMENTO LTDA',
            nome_fantasia: 'Acme',
            descricao_situacao_cadastral: 'ATIVA',
            email: null,
            ddd_telefone_1: '1140001234',
            logradouro: 'Avenida Paulista',
            numero: '1000',
            bairro: 'Bela Vista',
            municipio: 'São Paulo',
            uf: 'SP',
            cep: '01310100',
          }),
        );
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const withRegistry = await startTestBackend({ CNPJ_REGISTRY_URL: `http://127.0.0.1:${(registry.address() as AddressInfo).port}/cnpj` });
    try {
      const res = await client(withRegistry.url).get('/auth/consulta-cnpj/11.222.333%2F0001-81');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ cnpj: '11222333000181', name: 'ACME ATENDIMENTO LTDA', tradeName: 'Acme', email: null });
      expect(res.body.address).to.include({ city: 'São Paulo', state: 'SP' });
      const unknown = await client(withRegistry.url).get('/auth/consulta-cnpj/11444777000161');
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.deep.equal({ error: 'ERR_CNPJ_NOT_FOUND' });
    } finally {
      await withRegistry.close();
      await new Promise((resolve) => registry.close(resolve));
    }
  });

  it('user management: list, picker, create, show, update, avatar, width, delete', async () => {
    const { api, company } = await newCompanyWithAdmin(b);
    const created = await api.post('/users', {
      name: 'Olga Operadora',
      email: 'olga@ops.test',
      password: 'olga-password-1',
      startWork: '08:00',
      endWork: '17:30',
    });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ companyId: company.id, profile: 'user', startWork: '08:00', lastLoginAt: null, profileImage: null });
    const id = created.body.id as number;

    const page = await api.get('/users?searchParam=olga');
    expect(page.status).to.equal(200);
    expect(page.body).to.include({ count: 1, hasMore: false });
    const picker = await api.get('/users/list');
    expect(picker.status).to.equal(200);
    expect(picker.body.map((u: { email: string }) => u.email)).to.include('olga@ops.test');

    expect((await api.get(`/users/${id}`)).body).to.include({ id, name: 'Olga Operadora' });
    const updated = await api.put(`/users/${id}`, { name: 'Olga Souza', farewellMessage: 'Até logo!', allTicket: 'enable' });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.include({ name: 'Olga Souza', farewellMessage: 'Até logo!', allTicket: 'enable' });

    const form = new FormData();
    form.append('profileImage', new Blob([PNG], { type: 'image/png' }), 'olga.png');
    const avatar = await api.post(`/users/${id}/media-upload`, form);
    expect(avatar.status).to.equal(200);
    expect(avatar.body.user.profileImage).to.be.a('string');

    const width = await api.put(`/users/toggleChangeWidht/${id}`, {});
    expect(width.status).to.equal(200);
    expect(width.body.defaultTicketsManagerWidth).to.equal(400);

    const deleted = await api.delete(`/users/${id}`);
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ message: 'User deleted' });
  });

  it('a user who just logged in shows the last login', async () => {
    const { admin } = await newCompanyWithAdmin(b);
    const { api } = await asSuper(b);
    const shown = await api.get(`/users/${admin.id}`);
    expect(shown.status).to.equal(200);
    expect(shown.body.lastLoginAt).to.be.a('string');
    const session = await login(b.url, ADMIN.email, ADMIN.password);
    expect(session.user.lastLoginAt).to.be.a('string');
  });
});
