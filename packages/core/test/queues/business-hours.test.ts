import { expect } from 'chai';
import { checkSettingValue, isTimeZone, isWithinBusinessHours, settingDefinition, wallClock, type BusinessHours } from '../../src/index.js';

const slot = (weekdayEn: BusinessHours['weekdayEn'], startTime: string, endTime: string): BusinessHours => ({
  weekday: weekdayEn,
  weekdayEn,
  startTime,
  endTime,
});

describe('Business hours', () => {
  it('reads the wall clock of the time zone', () => {
    const at = new Date('2026-01-02T02:30:00Z'); // Friday in UTC, Thursday 23:30 in São Paulo
    expect(wallClock(at, 'UTC')).to.deep.equal({ weekday: 'friday', time: '02:30' });
    expect(wallClock(at, 'America/Sao_Paulo')).to.deep.equal({ weekday: 'thursday', time: '23:30' });
    expect(wallClock(new Date('2026-01-01T00:00:00Z'), 'UTC').time).to.equal('00:00');
  });

  it('is open inside a slot of the day (start inclusive, end exclusive), closed on blank or missing days, always open without slots', () => {
    const week = [slot('thursday', '08:00', '12:00'), slot('thursday', '13:00', '18:00'), slot('friday', '', '')];
    const sp = (iso: string) => isWithinBusinessHours(week, new Date(iso), 'America/Sao_Paulo');
    expect(sp('2026-01-01T11:00:00Z')).to.equal(true); // 08:00 Thursday
    expect(sp('2026-01-01T10:59:00Z')).to.equal(false);
    expect(sp('2026-01-01T15:00:00Z')).to.equal(false); // 12:00, the lunch break
    expect(sp('2026-01-01T16:00:00Z')).to.equal(true);
    expect(sp('2026-01-01T21:00:00Z')).to.equal(false); // 18:00
    expect(sp('2026-01-02T12:00:00Z')).to.equal(false); // Friday, blank
    expect(sp('2026-01-03T12:00:00Z')).to.equal(false); // Saturday, missing
    expect(isWithinBusinessHours([], new Date('2026-01-03T12:00:00Z'), 'UTC')).to.equal(true);
  });

  it('validates the company time zone setting with Intl', () => {
    expect(isTimeZone('America/Sao_Paulo')).to.equal(true);
    expect(isTimeZone('Mars/Olympus')).to.equal(false);
    const def = settingDefinition('timezone', 'company')!;
    expect(def.defaultValue).to.equal('America/Sao_Paulo');
    expect(checkSettingValue(def, 'Europe/Lisbon')).to.equal(null);
    expect(checkSettingValue(def, 'Nowhere/Town')).to.equal('ERR_SETTING_VALUE_NOT_ALLOWED');
    expect(checkSettingValue(def, '')).to.equal('ERR_SETTING_VALUE_NOT_ALLOWED');
  });
});
