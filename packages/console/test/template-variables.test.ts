import { expect } from 'chai';
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
