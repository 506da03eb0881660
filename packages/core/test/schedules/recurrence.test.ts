import { expect } from 'chai';
import { latestDue, momentOf, nextMoment, NO_RECURRENCE, type Moment, type Recurrence, type Series } from '../../src/schedules/recurrence.js';
import { localParts } from '../../src/shared/zoned-time.js';

const NY = 'America/New_York';
const series = (anchor: string, r: Partial<Recurrence>, timeZone = NY): Series => ({
  recurrence: { ...NO_RECURRENCE, frequency: 'days', every: 1, count: 0, ...r },
  anchorAt: new Date(anchor),
  anchorSequence: 1,
  seriesStart: 1,
  timeZone,
});
/** The first `n` moments of a series, as ISO strings. */
function moments(s: Series, n: number): string[] {
  const out: string[] = [];
  let m: Moment | null = { sequence: s.anchorSequence, at: s.anchorAt };
  while (m && out.length < n) {
    out.push(m.at.toISOString());
    m = nextMoment(s, m);
  }
  return out;
}
const localTime = (iso: string, zone = NY) => {
  const p = localParts(new Date(iso), zone);
  return `${Math.floor(p.minute / 60)}:${String(p.minute % 60).padStart(2, '0')}`;
};

describe("Schedules: recurrences on the company's clock", () => {
  it('keeps a weekly 09:00 at 09:00 local across the spring and autumn changes', () => {
    // Thursdays 09:00 in New York: EST (UTC-5) before 8 March 2026, EDT (UTC-4) after, EST again from 1 November.
    const weekly = series('2026-03-05T14:00:00.000Z', { frequency: 'weeks' });
    expect(moments(weekly, 3)).to.deep.equal(['2026-03-05T14:00:00.000Z', '2026-03-12T13:00:00.000Z', '2026-03-19T13:00:00.000Z']);
    const autumn = series('2026-10-22T13:00:00.000Z', { frequency: 'weeks' });
    expect(moments(autumn, 3)).to.deep.equal(['2026-10-22T13:00:00.000Z', '2026-10-29T13:00:00.000Z', '2026-11-05T14:00:00.000Z']);
    expect(moments(autumn, 3).map((m) => localTime(m))).to.deep.equal(['9:00', '9:00', '9:00']);
  });

  it('moves a wall time that does not exist (the spring gap) to the first instant after it, and takes the first of a repeated hour', () => {
    const daily = series('2026-03-07T07:30:00.000Z', { frequency: 'days' }); // 02:30 EST
    expect(moments(daily, 3)).to.deep.equal(['2026-03-07T07:30:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z']);
    expect(moments(daily, 3).map((m) => localTime(m))).to.deep.equal(['2:30', '3:00', '2:30']);
    const repeated = series('2026-10-31T05:30:00.000Z', { frequency: 'days' }); // 01:30 EDT; 1 November has 01:30 twice
    expect(moments(repeated, 2)[1]).to.equal('2026-11-01T05:30:00.000Z');
  });

  it('adds plain elapsed time for minutes, whatever the clock does', () => {
    const every90 = series('2026-03-08T06:30:00.000Z', { frequency: 'minutes', every: 90 });
    expect(moments(every90, 3)).to.deep.equal(['2026-03-08T06:30:00.000Z', '2026-03-08T08:00:00.000Z', '2026-03-08T09:30:00.000Z']);
  });

  it("keeps the day of the month, or the month's last day when it is shorter", () => {
    const monthly = series('2026-01-31T15:00:00.000Z', { frequency: 'months' }); // 10:00 EST on the 31st
    expect(moments(monthly, 4)).to.deep.equal(['2026-01-31T15:00:00.000Z', '2026-02-28T15:00:00.000Z', '2026-03-31T14:00:00.000Z', '2026-04-30T14:00:00.000Z']);
    const quarterly = series('2026-11-15T15:00:00.000Z', { frequency: 'months', every: 3 });
    expect(moments(quarterly, 2)[1]).to.equal('2027-02-15T15:00:00.000Z');
  });

  it('steps business days Monday to Friday, from a weekend too', () => {
    const fromThursday = series('2026-03-05T14:00:00.000Z', { frequency: 'businessDays' });
    expect(moments(fromThursday, 4).map((m) => m.slice(0, 10))).to.deep.equal(['2026-03-05', '2026-03-06', '2026-03-09', '2026-03-10']);
    const everyFifth = series('2026-03-05T14:00:00.000Z', { frequency: 'businessDays', every: 5 });
    expect(moments(everyFifth, 3).map((m) => m.slice(0, 10))).to.deep.equal(['2026-03-05', '2026-03-12', '2026-03-19']);
    const fromSaturday = series('2026-03-07T14:00:00.000Z', { frequency: 'businessDays' });
    expect(moments(fromSaturday, 3).map((m) => m.slice(0, 10))).to.deep.equal(['2026-03-07', '2026-03-09', '2026-03-10']);
  });

  it('moves weekend moments to the Friday before or the Monday after, one send where they meet', () => {
    // Every 2 days from Thursday 5 March: the 7th is a Saturday, the 9th a Monday.
    const before = series('2026-03-05T14:00:00.000Z', { frequency: 'days', every: 2, weekend: 'before' });
    expect(moments(before, 3).map((m) => m.slice(0, 10))).to.deep.equal(['2026-03-05', '2026-03-06', '2026-03-09']);
    const after = series('2026-03-05T14:00:00.000Z', { frequency: 'days', every: 1, weekend: 'after' });
    expect(moments(after, 4).map((m) => m.slice(0, 10))).to.deep.equal(['2026-03-05', '2026-03-06', '2026-03-09', '2026-03-10']);
    const any = series('2026-03-05T14:00:00.000Z', { frequency: 'days', every: 2, weekend: 'any' });
    expect(moments(any, 2)[1]!.slice(0, 10)).to.equal('2026-03-07');
  });

  it("ends after `count` sends or at `until`, counting from the series' start", () => {
    expect(moments(series('2026-03-05T14:00:00.000Z', { count: 3 }), 10)).to.have.length(3);
    expect(moments(series('2026-03-05T14:00:00.000Z', { until: new Date('2026-03-07T14:00:00.000Z') }), 10)).to.have.length(3);
    expect(moments(series('2026-03-05T14:00:00.000Z', {}), 10)).to.have.length(10);
    expect(moments({ ...series('2026-03-05T14:00:00.000Z', { count: 2 }), anchorSequence: 5, seriesStart: 5 }, 10)).to.have.length(2);
    expect(nextMoment(series('2026-03-05T14:00:00.000Z', { frequency: 'none' }), { sequence: 1, at: new Date('2026-03-05T14:00:00.000Z') })).to.equal(null);
  });

  it('finds the latest due moment after a long gap, within the end', () => {
    const daily = series('2026-03-02T14:00:00.000Z', {});
    const first = { sequence: 1, at: daily.anchorAt };
    expect(latestDue(daily, first, new Date('2026-03-02T13:00:00.000Z'))).to.deep.equal(first);
    expect(latestDue(daily, first, new Date('2026-03-05T15:00:00.000Z'))).to.deep.equal({ sequence: 4, at: new Date('2026-03-05T14:00:00.000Z') });
    expect(latestDue({ ...daily, recurrence: { ...daily.recurrence, count: 2 } }, first, new Date('2026-03-05T15:00:00.000Z')).sequence).to.equal(2);
    const minutes = series('2026-03-02T14:00:00.000Z', { frequency: 'minutes', every: 15, until: new Date('2026-03-02T16:00:00.000Z') });
    expect(latestDue(minutes, first, new Date('2026-03-02T14:50:00.000Z'))).to.deep.equal({ sequence: 4, at: new Date('2026-03-02T14:45:00.000Z') });
    expect(latestDue(minutes, first, new Date('2026-03-09T00:00:00.000Z'))).to.deep.equal({ sequence: 9, at: new Date('2026-03-02T16:00:00.000Z') });
    expect(momentOf(minutes, 9).toISOString()).to.equal('2026-03-02T16:00:00.000Z');
  });
});
