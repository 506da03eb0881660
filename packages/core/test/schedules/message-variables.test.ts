import { expect } from 'chai';
import { renderMessage } from '../../src/schedules/message-variables.js';

describe("Schedules: the text's variables", () => {
  const facts = {
    contactName: 'Maria da Silva',
    userName: 'Ana',
    ticketId: 42,
    queueName: 'Suporte',
    connectionName: 'Vendas',
    companyName: 'Acme',
    at: new Date('2026-03-05T21:07:09.000Z'),
    timeZone: 'America/Sao_Paulo',
  };

  it("fills in the contact, the signer, the ticket and the moment on the company's clock, and leaves unknown ones as written", () => {
    expect(renderMessage('{{ms}}, {{firstName}} ({{name}})! {{userName}} de {{name_company}}, fila {{queue}}, via {{connection}}.', facts)).to.equal(
      'Boa noite, Maria (Maria da Silva)! Ana de Acme, fila Suporte, via Vendas.',
    );
    expect(renderMessage('{{date}} {{hour}} | {{data_hora}} | #{{ticket_id}} | {{protocol}} | {{ FIRSTNAME }} | {{nope}} | {nome}', facts)).to.equal(
      '05-03-2026 18:07:09 | 05-03-2026 às 18:07:09 | #42 | 20260305070942 | Maria | {{nope}} | {nome}',
    );
  });

  it('greets by the local hour', () => {
    const at = (iso: string) => renderMessage('{{ms}}', { ...facts, at: new Date(iso) });
    expect([at('2026-03-05T08:30:00.000Z'), at('2026-03-05T10:00:00.000Z'), at('2026-03-05T15:30:00.000Z'), at('2026-03-05T22:00:00.000Z')]).to.deep.equal([
      'Boa madrugada',
      'Bom dia',
      'Boa tarde',
      'Boa noite',
    ]);
  });
});
