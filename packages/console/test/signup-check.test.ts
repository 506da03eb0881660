import { expect } from 'chai';
import { checkSignup, documentDigits, type SignupForm } from '../src/screens/signup/signup-check.js';

const FILLED: SignupForm = {
  companyName: 'Acme',
  document: '',
  phone: '',
  name: 'Ana Souza',
  email: 'ana@acme.test',
  password: 'ana-password-1',
  confirm: 'ana-password-1',
};

describe('console: the sign-up form’s checks before sending', () => {
  it('lets a complete form through, the phone and document being optional', () => {
    expect(checkSignup(FILLED, 1)).to.deep.equal({});
    expect(checkSignup({ ...FILLED, document: '123.456.789-09' }, 1)).to.deep.equal({});
    expect(checkSignup({ ...FILLED, document: '11.222.333/0001-81' }, 1)).to.deep.equal({});
  });

  it('names each field as the server would refuse it', () => {
    const empty: SignupForm = { companyName: ' ', document: '', phone: '', name: '', email: '', password: '', confirm: '' };
    expect(checkSignup(empty, null)).to.deep.equal({
      planId: 'pickPlan',
      companyName: 'required',
      name: 'required',
      email: 'invalidEmail',
      password: 'tooShort',
    });
    expect(checkSignup({ ...FILLED, companyName: 'A', name: ' B ' }, 1)).to.deep.equal({ companyName: 'tooShortName', name: 'tooShortName' });
    expect(checkSignup({ ...FILLED, email: 'ana@acme' }, 1)).to.deep.equal({ email: 'invalidEmail' });
    expect(checkSignup({ ...FILLED, document: '1234567' }, 1)).to.deep.equal({ document: 'documentDigits' });
    expect(checkSignup({ ...FILLED, password: 'x'.repeat(129), confirm: 'x'.repeat(129) }, 1)).to.deep.equal({ password: 'tooLong' });
  });

  it('asks for the same password twice, once it is long enough', () => {
    expect(checkSignup({ ...FILLED, confirm: 'ana-password-2' }, 1)).to.deep.equal({ confirm: 'mismatch' });
    expect(checkSignup({ ...FILLED, password: 'short', confirm: 'other' }, 1)).to.deep.equal({ password: 'tooShort' });
  });

  it('reads a document’s digits through its punctuation', () => {
    expect(documentDigits('11.222.333/0001-81')).to.equal('11222333000181');
    expect(documentDigits(' 123.456.789-09 ')).to.equal('12345678909');
  });
});
