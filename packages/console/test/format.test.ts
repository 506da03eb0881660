import { expect } from 'chai';
import { dayLabel, relativeTime, timeOfDay } from '../src/ui/format.js';

/** The list's and the conversation's dates: the same words as the browser's own formatting, from formatters made once. */
describe('console: dates and times', () => {
  const now = new Date(2026, 11, 3, 15, 30);
  const at = (days: number, hours = 9, minutes = 5) => new Date(2026, 11, 3 - days, hours, minutes).toISOString();
  const labels = { today: 'Today', yesterday: 'Yesterday' };

  it('shows the time today, the weekday within six days, else the date, in each language', () => {
    for (const language of ['en', 'pt-BR', 'es']) {
      expect(relativeTime(at(0), language, now)).to.equal(new Date(at(0)).toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' }));
      expect(relativeTime(at(2), language, now)).to.equal(new Date(at(2)).toLocaleDateString(language, { weekday: 'short' }));
      expect(relativeTime(at(40), language, now)).to.equal(
        new Date(at(40)).toLocaleDateString(language, { day: '2-digit', month: '2-digit', year: '2-digit' }),
      );
    }
    expect(relativeTime(at(0, 9, 5), 'en', now)).to.match(/09:05/);
    expect(timeOfDay(at(3, 18, 45), 'pt-BR')).to.equal('18:45');
  });

  it('names today and yesterday by the calendar day, not by 24 hours, also across a month', () => {
    expect(dayLabel(at(0, 0, 1), 'en', labels, now)).to.equal('Today');
    expect(dayLabel(at(1, 23, 59), 'en', labels, now)).to.equal('Yesterday');
    const firstOfMonth = new Date(2026, 11, 1, 0, 10);
    expect(dayLabel(new Date(2026, 10, 30, 23, 0).toISOString(), 'en', labels, firstOfMonth)).to.equal('Yesterday');
    expect(dayLabel(at(2), 'es', labels, now)).to.equal(
      new Date(at(2)).toLocaleDateString('es', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
    );
  });
});
