import { expect } from 'chai';
import i18next from 'i18next';
import { ApiError } from '../src/api/client.js';
import { en } from '../src/i18n/en.js';
import { ptBR } from '../src/i18n/pt-BR.js';
import { editRefusal } from '../src/screens/connection-edit-refusal.js';
import { strings } from '../src/screens/connection-edit-strings.js';

describe("console: where the connection dialog's refusals are shown", () => {
  const i18n = i18next.createInstance();
  before(() =>
    i18n.init({
      lng: 'en',
      fallbackNS: 'translation',
      resources: { en: { translation: en, connectionEdit: strings.en }, 'pt-BR': { translation: ptBR, connectionEdit: strings['pt-BR'] } },
      interpolation: { escapeValue: false },
    }),
  );
  const t = () => i18n.getFixedT('en', 'connectionEdit');

  it('puts a code that names a field beside that field, in the screen’s words, and nothing above the buttons', () => {
    expect(editRefusal(t(), new ApiError(422, 'ERR_INVALID_CONNECTION_TOKEN_FORMAT'))).to.deep.equal({
      byField: { token: strings.en.codes.ERR_INVALID_CONNECTION_TOKEN_FORMAT },
      form: null,
    });
    expect(editRefusal(t(), new ApiError(422, 'ERR_PAGE_ACCESS_TOKEN_INVALID')).byField).to.deep.equal({
      secrets: strings.en.codes.ERR_PAGE_ACCESS_TOKEN_INVALID,
    });
    expect(editRefusal(i18n.getFixedT('pt-BR', 'connectionEdit'), new ApiError(409, 'ERR_TOKEN_IN_USE')).byField.token).to.equal(
      strings['pt-BR'].codes.ERR_TOKEN_IN_USE,
    );
  });

  it("says a schema refusal's fields in the reader's language rather than the server's English", () => {
    const err = new ApiError(400, 'ERR_VALIDATION', [
      { path: 'body.reopenWindowMinutes', message: 'Too big: expected number to be <=10080' },
      { path: 'body.greetingMessage', message: 'Too big: expected string to have <=4000 characters' },
    ] as never);
    expect(editRefusal(t(), err)).to.deep.equal({
      byField: { reopenWindowMinutes: strings.en.invalid.reopenWindowMinutes, greetingMessage: strings.en.invalid.greetingMessage },
      form: null,
    });
  });

  it('shows any other refusal above the buttons, and none when there is none', () => {
    expect(editRefusal(t(), new ApiError(403, 'ERR_NO_PERMISSION')).form)
      .to.be.a('string')
      .and.not.equal('');
    expect(editRefusal(t(), new ApiError(500, 'ERR_SOMETHING_NEW'))).to.deep.equal({ byField: {}, form: 'Something went wrong (ERR_SOMETHING_NEW).' });
    expect(editRefusal(t(), null)).to.deep.equal({ byField: {}, form: null });
  });
});
