import { expect } from 'chai';
import { estimateFinish, type Pacing, pacingOf } from '../src/screens/campaigns/estimate.js';

const OPEN: Pacing = {
  messageInterval: 10,
  messageIntervalMax: 10,
  longerIntervalAfter: 0,
  greaterInterval: 0,
  startHour: '00:00',
  endHour: '24:00',
  sabado: true,
  domingo: true,
  capHourly: 0,
  capDaily: 0,
};
const MONDAY_9 = { weekday: 1, seconds: 9 * 3600 };

describe('console: the campaign finish estimate', () => {
  it('adds the average gap between sends, the first one at once', () => {
    expect(estimateFinish(1, OPEN, MONDAY_9)!.seconds).to.equal(0);
    expect(estimateFinish(10, OPEN, MONDAY_9)!.seconds).to.equal(90);
    expect(estimateFinish(10, { ...OPEN, messageInterval: 20, messageIntervalMax: 40 }, MONDAY_9)!.seconds).to.equal(270);
  });

  it('pauses greaterInterval after every longerIntervalAfter sends', () => {
    expect(estimateFinish(5, { ...OPEN, longerIntervalAfter: 2, greaterInterval: 100 }, MONDAY_9)!.seconds).to.equal(40 + 200);
  });

  it('keeps to the hourly cap in any rolling hour', () => {
    // 3 an hour: sends at 0, 10, 20, then 3600, 3610.
    expect(estimateFinish(5, { ...OPEN, capHourly: 3 }, MONDAY_9)!.seconds).to.equal(3610);
  });

  it('keeps to the daily cap', () => {
    expect(estimateFinish(3, { ...OPEN, capDaily: 2 }, MONDAY_9)!.seconds).to.equal(86_400);
  });

  it('waits for the window and skips the weekend when it is off', () => {
    const office = { ...OPEN, startHour: '08:00', endHour: '20:00', sabado: false, domingo: false };
    // Friday 19:59:55: one send, the next at Monday 08:00.
    const friday = { weekday: 5, seconds: 20 * 3600 - 5 };
    const e = estimateFinish(2, office, friday)!;
    expect(e.days).to.equal(3);
    expect(e.end).to.deep.equal({ weekday: 1, seconds: 8 * 3600 });
    // Started before the window opens: the first send at its opening.
    expect(estimateFinish(1, office, { weekday: 2, seconds: 6 * 3600 })!.end).to.deep.equal({ weekday: 2, seconds: 8 * 3600 });
  });

  it('says never when no send is allowed', () => {
    expect(estimateFinish(1, { ...OPEN, startHour: '10:00', endHour: '09:00' }, MONDAY_9)).to.equal(null);
  });

  it('reads the stored rows with the documented defaults', () => {
    const p = pacingOf([
      { key: 'messageInterval', value: '0' },
      { key: 'sabado', value: 'true' },
    ]);
    expect(p).to.deep.include({ messageInterval: 0, messageIntervalMax: 40, sabado: true, domingo: false, capHourly: 30, capDaily: 150, startHour: '08:00' });
  });
});
