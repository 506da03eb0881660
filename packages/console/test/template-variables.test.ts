import { expect } from 'chai';
import type { Schema } from '../src/api/client.js';
import { emptyValues, templatePreview } from '../src/screens/templates/bizchat-values.js';
import { insertVariable, previewTemplate, SAMPLE_TICKET_ID, TEMPLATE_VARIABLES } from '../src/screens/templates/variables.js';

/** The templates screen's variables: put in at the caret, and previewed as the server fills them. */
describe('console: company template variables', () => {
  const facts = { contactName: 'Maria Silva', userName: 'Bruno', queueName: 'Sales', connectionName: 'WhatsApp', companyName: 'Loja Verde' };

  it('puts a variable in at the caret, over a selection, and says where the caret goes', () => {
    expect(insertVariable('Hello , bye', 'firstName', 6, 6)).to.deep.equal({ text: 'Hello {{firstName}}, bye', caret: 19 });
    expect(insertVariable('Hello NAME!', 'name', 6, 10)).to.deep.equal({ text: 'Hello {{name}}!', caret: 14 });
    // A caret past the end (the box was emptied meanwhile) lands at the end.
    expect(insertVariable('Hi', 'ms', 10, 12)).to.deep.equal({ text: 'Hi{{ms}}', caret: 8 });
  });

  it('previews every listed variable with the sample values, on the given clock, leaving unknown ones as written', () => {
    const at = new Date('2026-03-05T14:07:09Z');
    const text = TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join('|');
    expect(previewTemplate(`${text}|{{unknown}}`, facts, at, 'America/Sao_Paulo').split('|')).to.deep.equal([
      'Maria',
      'Maria Silva',
      'Bruno',
      'Bom dia',
      '11:07:09',
      '05-03-2026',
      '05-03-2026 às 11:07:09',
      String(SAMPLE_TICKET_ID),
      `2026030507091024`,
      'Sales',
      'WhatsApp',
      'Loja Verde',
      '{{unknown}}',
    ]);
  });
});

/** A business template's values: one per part, and the text as the contact will read it. */
describe('console: business template values', () => {
  const order: Schema<'BizchatTemplate'> = {
    id: '1',
    name: 'order_update',
    language: 'pt_BR',
    status: 'APPROVED',
    category: 'UTILITY',
    parameterFormat: 'POSITIONAL',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}' },
      { type: 'BODY', text: 'Olá {{1}}, entrega em {{2}}.' },
      { type: 'FOOTER', text: 'Loja Verde' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Rastrear', url: 'https://loja.example/track/{{1}}' }] },
    ],
    variables: { header: 1, headerFormat: 'TEXT', body: ['1', '2'], buttons: [0] },
  };

  it('takes one value per header variable, body variable and button, and previews those typed so far', () => {
    const values = emptyValues(order);
    expect(values).to.deep.equal({ header: [''], body: ['', ''], buttons: [''] });
    expect(templatePreview(order, values)).to.equal('Pedido {{1}}\nOlá {{1}}, entrega em {{2}}.\nLoja Verde');
    expect(templatePreview(order, { header: ['#7'], body: ['Maria', ''], buttons: ['7'] })).to.equal('Pedido #7\nOlá Maria, entrega em {{2}}.\nLoja Verde');
  });

  it('fills a NAMED template by its variables’ names, and leaves a media header out of the text', () => {
    const named: Schema<'BizchatTemplate'> = {
      ...order,
      parameterFormat: 'NAMED',
      components: [
        { type: 'HEADER', format: 'IMAGE' },
        { type: 'BODY', text: 'Hi {{first_name}}, order {{order}}.' },
      ],
      variables: { header: 1, headerFormat: 'IMAGE', body: ['first_name', 'order'], buttons: [] },
    };
    expect(templatePreview(named, { header: ['https://x.test/a.png'], body: ['Ana', '42'], buttons: [] })).to.equal('Hi Ana, order 42.');
  });
});
