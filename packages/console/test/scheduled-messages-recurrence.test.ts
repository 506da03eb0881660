import { expect } from 'chai';
import { recurrenceOf } from '../src/screens/schedules/calendar.js';

describe('console: a schedule’s recurrence read from the routes’ numbers', () => {
  it('is none when it is sent once (every 0), whatever the unit', () => {
    expect(recurrenceOf({ intervalo: 1, every: 0, count: 1, weekend: 4, until: null })).to.equal(null);
    expect(recurrenceOf({ intervalo: 3, every: 0, count: 0, weekend: 6, until: null })).to.equal(null);
  });

  it('names each unit and weekend rule the routes take', () => {
    const units = [1, 2, 3, 4, 5].map((intervalo) => recurrenceOf({ intervalo, every: 2, count: 0, weekend: 4, until: null })?.unit);
    expect(units).to.deep.equal(['days', 'weeks', 'months', 'minutes', 'businessDays']);
    const rules = [4, 5, 6].map((weekend) => recurrenceOf({ intervalo: 1, every: 1, count: 3, weekend, until: null })?.weekend);
    expect(rules).to.deep.equal(['send', 'friday', 'monday']);
  });

  it('keeps every, count and until as given', () => {
    expect(recurrenceOf({ intervalo: 2, every: 3, count: 4, weekend: 5, until: '2030-05-01T12:00:00.000Z' })).to.deep.equal({
      unit: 'weeks',
      every: 3,
      count: 4,
      weekend: 'friday',
      until: '2030-05-01T12:00:00.000Z',
    });
  });
});
