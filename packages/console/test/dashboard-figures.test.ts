import { expect } from 'chai';
import { chartQuery, chartSummary, daysBetween, durationText, isoDay, lastDays, rangeQuery, retryAfterSeconds } from '../src/screens/dashboard/figures.js';
import { dddsOf, readAllPages } from '../src/screens/reports/pages.js';

const units = { none: '—', seconds: '{{n}} s', minutes: '{{n}} min', hours: '{{h}} h {{m}} min' };

describe('console: the dashboard’s figures and the reports’ pages', () => {
  it('asks the last N days, today included, as calendar days of this browser', () => {
    const now = new Date(2026, 2, 10, 23, 30);
    expect(isoDay(now)).to.equal('2026-03-10');
    expect(lastDays(1, now)).to.deep.equal({ from: '2026-03-10', to: '2026-03-10' });
    expect(lastDays(30, now)).to.deep.equal({ from: '2026-02-09', to: '2026-03-10' });
    expect(daysBetween('2026-02-09', '2026-03-10')).to.equal(30);
    expect(daysBetween('2026-03-10', '2026-03-10')).to.equal(1);
    expect(daysBetween('2026-03-11', '2026-03-10')).to.equal(0);
  });

  it('spells the range and filters as each route takes them', () => {
    const f = { from: '2026-03-01', to: '2026-03-31', queueId: 4, userId: null };
    expect(rangeQuery(f)).to.deep.equal({ date_from: '2026-03-01', date_to: '2026-03-31', queueIds: [4] });
    expect(chartQuery({ ...f, queueId: null, userId: 7 })).to.deep.equal({ initialDate: '2026-03-01', finalDate: '2026-03-31', userIds: [7] });
  });

  it('says mean minutes in words: none, seconds, minutes, hours', () => {
    expect(durationText(0, 'en', units)).to.equal('—');
    expect(durationText(0.5, 'en', units)).to.equal('30 s');
    expect(durationText(12.345, 'en', units)).to.equal('12.3 min');
    expect(durationText(12.345, 'pt-BR', units)).to.equal('12,3 min');
    expect(durationText(125, 'en', units)).to.equal('2 h 05 min');
  });

  it('reads the refresh’s Retry-After as seconds or a date, else the 30-second window', () => {
    expect(retryAfterSeconds('17')).to.equal(17);
    expect(retryAfterSeconds('0')).to.equal(1);
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(retryAfterSeconds('Tue, 10 Mar 2026 12:00:20 GMT', now)).to.equal(20);
    expect(retryAfterSeconds(null)).to.equal(30);
    expect(retryAfterSeconds('soon')).to.equal(30);
  });

  it('sums a chart for its summary: the total, the highest bar, the empty ones', () => {
    expect(
      chartSummary([
        { label: 'a', value: 0 },
        { label: 'b', value: 3 },
        { label: 'c', value: 3 },
        { label: 'd', value: 1 },
      ]),
    ).to.deep.equal({ total: 7, top: { label: 'b', value: 3 }, empty: 1 });
    expect(chartSummary([{ label: 'a', value: 0 }]).top).to.equal(null);
  });

  it('reads every page of a filter, a few at a time, keeping a row seen twice once and the pages in order', async () => {
    const rows = Array.from({ length: 45 }, (_, i) => ({ id: i + 1 }));
    const asked: number[] = [];
    let seen = 0;
    const all = await readAllPages(
      async (n) => {
        asked.push(n);
        // Page 3 repeats the last row of page 2, as a list that moved while it was read.
        const slice = rows.slice((n - 1) * 20, n * 20);
        return { rows: n === 3 ? [rows[39]!, ...slice] : slice, count: 45 };
      },
      { parallel: 2, progress: (done) => (seen = done) },
    );
    expect(asked.sort()).to.deep.equal([1, 2, 3]);
    expect(all.map((r) => r.id)).to.deep.equal(rows.map((r) => r.id));
    expect(seen).to.equal(46);
    expect(await readAllPages(async () => ({ rows: [], count: 0 }))).to.deep.equal([]);
  });

  it('reads states and area codes from what was typed', () => {
    expect(dddsOf(' sp, 21 ;rj  11')).to.deep.equal(['SP', '21', 'RJ', '11']);
    expect(dddsOf('  ')).to.deep.equal([]);
  });
});
