import { expect } from 'chai';
import i18next from 'i18next';
import { en } from '../src/i18n/en.js';
import { ptBR } from '../src/i18n/pt-BR.js';
import { sendOutcomeOf } from '../src/replies/send-outcome.js';
import { errorText, failureText } from '../src/ui/errors.js';

describe('console: refusals in words', () => {
  const i18n = i18next.createInstance();
  before(() => i18n.init({ lng: 'en', resources: { en: { translation: en }, 'pt-BR': { translation: ptBR } }, interpolation: { escapeValue: false } }));

  it("says why the channel did not deliver, from the code before the provider's text", () => {
    const t = i18n.getFixedT('en');
    expect(failureText(t, 'ERR_SESSION_NOT_CONNECTED')).to.equal(en.errors.codes.ERR_SESSION_NOT_CONNECTED);
    expect(failureText(t, 'ERR_BIZCHAT_UNDELIVERABLE: Message undeliverable')).to.equal(en.errors.codes.ERR_BIZCHAT_UNDELIVERABLE);
    expect(failureText(i18n.getFixedT('pt-BR'), 'ERR_SEND_FAILED: socket closed')).to.equal(ptBR.errors.codes.ERR_SEND_FAILED);
  });

  it('shows a reason it has no sentence for as recorded, inside a sentence, and one without reason too', () => {
    const t = i18n.getFixedT('en');
    expect(failureText(t, 'ERR_GRAPH_131000: Something went wrong')).to.equal('The channel did not deliver it (ERR_GRAPH_131000: Something went wrong).');
    expect(failureText(t, 'provider said no')).to.equal('The channel did not deliver it (provider said no).');
    expect(failureText(t, null)).to.equal('The channel did not deliver it.');
  });

  it("words a reply's refusal by its code", () => {
    const t = i18n.getFixedT('en');
    expect(errorText(t, 'ERR_TICKET_CLOSED')).to.equal('The conversation is closed.');
    expect(errorText(t, 'ERR_SOMETHING_NEW')).to.equal('Something went wrong (ERR_SOMETHING_NEW).');
  });

  it("waits out a send only while its outcome is unknown; a closed ticket's 409 is a refusal", () => {
    expect(sendOutcomeOf(201, undefined)).to.deep.equal({ kind: 'sent' });
    expect(sendOutcomeOf(409, 'ERR_IDEMPOTENT_REQUEST_IN_PROGRESS')).to.deep.equal({ kind: 'unknown' });
    expect(sendOutcomeOf(409, 'ERR_TICKET_CLOSED')).to.deep.equal({ kind: 'refused', error: 'ERR_TICKET_CLOSED' });
    expect(sendOutcomeOf(503, undefined)).to.deep.equal({ kind: 'unknown' });
    expect(sendOutcomeOf(429, 'ERR_TOO_MANY_REQUESTS')).to.deep.equal({ kind: 'unknown' });
    expect(sendOutcomeOf(403, 'ERR_NO_PERMISSION')).to.deep.equal({ kind: 'refused', error: 'ERR_NO_PERMISSION' });
    expect(sendOutcomeOf(400, undefined)).to.deep.equal({ kind: 'refused', error: 'HTTP_400' });
  });
});
