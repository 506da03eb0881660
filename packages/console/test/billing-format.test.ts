import { expect } from 'chai';
import { calendarDay, isOverdue, money, today } from '../src/screens/billing/billing-format.js';

/** The subscription screen's amounts and days, and when a company is overdue. */
describe('console: billing amounts, days and overdue', () => {
  it('writes the API’s decimal strings as reais in each language, and anything else as given', () => {
    expect(money('99.90', 'pt-BR').replace(/\s/g, ' ')).to.equal('R$ 99,90');
    expect(money('1234.5', 'en')).to.equal('R$1,234.50');
    expect(money('not a number', 'en')).to.equal('not a number');
  });

  it('shows a calendar day as that day wherever the browser is', () => {
    expect(calendarDay('2026-03-01', 'en')).to.equal('Mar 1, 2026');
    expect(calendarDay('2026-12-31', 'pt-BR')).to.equal('31 de dez. de 2026');
    expect(calendarDay('soon', 'en')).to.equal('soon');
  });

  it('is overdue once the due day is past on the browser’s calendar, not on the day itself, nor without a due date', () => {
    const now = new Date(2026, 11, 3, 23, 59);
    expect(today(now)).to.equal('2026-12-03');
    expect(isOverdue('2026-12-02', now)).to.equal(true);
    expect(isOverdue('2026-12-03', now)).to.equal(false);
    expect(isOverdue('2027-01-01', now)).to.equal(false);
    expect(isOverdue(null, now)).to.equal(false);
    expect(isOverdue('', now)).to.equal(false);
  });
});
