import { expect } from 'chai';
import { addDays, addMonths, dayKeyOf, monthGrid, moveByKey, rangeOf, stateOf, weekOf } from '../src/screens/schedules/calendar.js';

describe('console: the schedules calendar’s days', () => {
  it('reads an instant’s day on the company’s clock', () => {
    expect(dayKeyOf(new Date('2026-03-05T02:00:00Z'), 'America/Sao_Paulo')).to.equal('2026-03-04');
    expect(dayKeyOf(new Date('2026-03-05T02:00:00Z'), 'UTC')).to.equal('2026-03-05');
  });

  it('adds days and months across the year’s end and short months', () => {
    expect(addDays('2026-12-31', 1)).to.equal('2027-01-01');
    expect(addDays('2026-03-01', -1)).to.equal('2026-02-28');
    expect(addMonths('2026-01-31', 1)).to.equal('2026-02-28');
    expect(addMonths('2026-01-15', -1)).to.equal('2025-12-15');
  });

  it('lays a month out as whole weeks, Monday first', () => {
    const grid = monthGrid('2026-03-18');
    expect(grid[0]![0]).to.equal('2026-02-23');
    expect(grid[grid.length - 1]![6]).to.equal('2026-04-05');
    expect(grid.every((w) => w.length === 7)).to.equal(true);
    expect(weekOf('2026-03-18')).to.deep.equal(['2026-03-16', '2026-03-17', '2026-03-18', '2026-03-19', '2026-03-20', '2026-03-21', '2026-03-22']);
    expect(rangeOf('week', '2026-03-18')).to.deep.equal(['2026-03-16', '2026-03-22']);
    expect(rangeOf('day', '2026-03-18')).to.deep.equal(['2026-03-18', '2026-03-18']);
  });

  it('moves the focused day with the keys of a grid', () => {
    expect(moveByKey('2026-03-18', 'ArrowDown')).to.equal('2026-03-25');
    expect(moveByKey('2026-03-18', 'ArrowLeft')).to.equal('2026-03-17');
    expect(moveByKey('2026-03-18', 'Home')).to.equal('2026-03-16');
    expect(moveByKey('2026-03-18', 'End')).to.equal('2026-03-22');
    expect(moveByKey('2026-03-31', 'PageDown')).to.equal('2026-04-30');
    expect(moveByKey('2026-03-18', 'a')).to.equal(null);
  });

  it('names the route’s statuses', () => {
    expect(['PENDENTE', 'ENVIADA', 'ERRO', 'PERDIDA'].map(stateOf)).to.deep.equal(['pending', 'sent', 'failed', 'missed']);
  });
});
