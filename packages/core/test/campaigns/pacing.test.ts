import { expect } from 'chai';
import { DEFAULT_CAMPAIGN_SETTINGS, settingsFromRows, cleanSettingsInput } from '../../src/campaigns/campaign-settings.js';
import {
  afterProviderError,
  afterSend,
  decide,
  drawGap,
  initialPacingState,
  isThrottleSignal,
  pacingRules,
  type PacingRules,
} from '../../src/campaigns/pacing.js';
import { instantOf, isInsideWindow, nextOpening } from '../../src/campaigns/sending-window.js';
import { seeded } from './campaign-world.js';

const SP = 'America/Sao_Paulo';
const rules = (over: Partial<typeof DEFAULT_CAMPAIGN_SETTINGS> = {}, zone = SP): PacingRules =>
  pacingRules({ ...DEFAULT_CAMPAIGN_SETTINGS, messageInterval: 1, messageIntervalMax: 2, longerIntervalAfter: 0, capHourly: 0, capDaily: 0, ...over }, zone);
const at = (iso: string) => new Date(iso);
const state = initialPacingState(10);

describe('Campaigns: the pacing policy', () => {
  it('sends at once on a fresh connection inside the window, then waits the gap drawn at the last send', () => {
    const r = rules();
    const now = at('2024-06-03T12:00:00Z'); // Monday 09:00 in São Paulo
    expect(decide({ now, rules: r, state, recentSends: [], connected: true })).to.deep.equal({ kind: 'send' });
    const after = afterSend(state, r, now, seeded(1));
    expect(after.nextGapMs).to.be.within(1000, 2000);
    expect(decide({ now, rules: r, state: after, recentSends: [now], connected: true })).to.deep.equal({
      kind: 'wait',
      until: new Date(now.getTime() + after.nextGapMs),
      reason: 'gap',
    });
    const later = new Date(now.getTime() + after.nextGapMs);
    expect(decide({ now: later, rules: r, state: after, recentSends: [now], connected: true }).kind).to.equal('send');
  });

  it('draws gaps between the minimum and the maximum, deterministically from the random source, with the long pause', () => {
    const r = rules({ messageInterval: 1, messageIntervalMax: 2, longerIntervalAfter: 3, greaterInterval: 60 });
    const draw = (seed: number) => {
      const rnd = seeded(seed);
      let streak = 0;
      return Array.from({ length: 6 }, () => {
        const g = drawGap(r, streak, rnd);
        streak = g.streak;
        return g.gapMs;
      });
    };
    const gaps = draw(5);
    expect(draw(5)).to.deep.equal(gaps);
    expect([gaps[2], gaps[5]]).to.deep.equal([60_000, 60_000]);
    for (const g of [gaps[0], gaps[1], gaps[3], gaps[4]]) expect(g).to.be.within(1000, 2000);
  });

  it("waits for the window on the company's wall clock: weekdays only by default, opening at startHour", () => {
    const r = rules();
    // Friday 20:30 in São Paulo (23:30 UTC): next opening Monday 08:00 (11:00 UTC).
    expect(decide({ now: at('2024-06-07T23:30:00Z'), rules: r, state, recentSends: [], connected: true })).to.deep.equal({
      kind: 'wait',
      until: at('2024-06-10T11:00:00Z'),
      reason: 'window',
    });
    const weekend = rules({ sabado: true });
    expect(decide({ now: at('2024-06-07T23:30:00Z'), rules: weekend, state, recentSends: [], connected: true })).to.deep.equal({
      kind: 'wait',
      until: at('2024-06-08T11:00:00Z'),
      reason: 'window',
    });
    // A gap that ends after the window closed waits for the next opening, not for the gap alone.
    const last = { ...state, lastSentAt: at('2024-06-10T22:59:59Z'), nextGapMs: 2000 };
    expect(decide({ now: at('2024-06-10T22:59:59.500Z'), rules: r, state: last, recentSends: [], connected: true })).to.deep.equal({
      kind: 'wait',
      until: at('2024-06-11T11:00:00Z'),
      reason: 'gap',
    });
  });

  it('is DST-safe: the window opens at the wall time the day of the change, and in a gap at the first instant after it', () => {
    const ny = 'America/New_York';
    // 2024-03-10 is the spring-forward day in New York (02:00 → 03:00, UTC-5 → UTC-4).
    expect(new Date(instantOf(2024, 3, 10, 8 * 60, ny)).toISOString()).to.equal('2024-03-10T12:00:00.000Z');
    expect(new Date(instantOf(2024, 3, 9, 8 * 60, ny)).toISOString()).to.equal('2024-03-09T13:00:00.000Z');
    expect(new Date(instantOf(2024, 3, 10, 2 * 60 + 30, ny)).toISOString(), 'inside the gap').to.equal('2024-03-10T07:00:00.000Z');
    // Fall back (2024-11-03 01:00–02:00 twice): the first 01:30.
    expect(new Date(instantOf(2024, 11, 3, 90, ny)).toISOString()).to.equal('2024-11-03T05:30:00.000Z');
    const w = { startMinute: 8 * 60, endMinute: 20 * 60, weekdays: new Set([0, 1, 2, 3, 4, 5, 6]), timeZone: ny };
    expect(new Date(nextOpening(w, at('2024-03-10T02:00:00Z'))!).toISOString()).to.equal('2024-03-10T12:00:00.000Z');
    expect(isInsideWindow(w, at('2024-03-10T12:00:00Z'))).to.equal(true);
    expect(isInsideWindow(w, at('2024-03-10T11:59:00Z'))).to.equal(false);
    const berlin = rules({ sabado: true, domingo: true }, 'Europe/Berlin');
    // 2024-03-31 Berlin springs forward; 08:00 CEST is 06:00 UTC.
    expect(decide({ now: at('2024-03-31T01:00:00Z'), rules: berlin, state, recentSends: [], connected: true })).to.deep.equal({
      kind: 'wait',
      until: at('2024-03-31T06:00:00Z'),
      reason: 'window',
    });
  });

  it('caps sends per connection in any rolling hour and 24 hours', () => {
    const r = rules({ capHourly: 3, capDaily: 5 });
    const now = at('2024-06-03T13:00:00Z');
    const sends = [at('2024-06-03T12:10:00Z'), at('2024-06-03T12:20:00Z'), at('2024-06-03T12:30:00Z')];
    expect(decide({ now, rules: r, state, recentSends: sends, connected: true })).to.deep.equal({
      kind: 'wait',
      until: at('2024-06-03T13:10:00Z'),
      reason: 'hourly-cap',
    });
    const day = [at('2024-06-02T20:00:00Z'), at('2024-06-03T11:00:00Z'), at('2024-06-03T11:30:00Z'), ...sends.slice(0, 2)];
    // The daily cap frees at 2024-06-03T20:00Z, which is 17:00 in São Paulo, inside the window.
    expect(decide({ now, rules: r, state, recentSends: day, connected: true })).to.deep.equal({
      kind: 'wait',
      until: at('2024-06-03T20:00:00Z'),
      reason: 'daily-cap',
    });
  });

  it('rests after provider errors, and waits for a disconnected connection', () => {
    const r = rules({ backoffErrorThreshold: 2, backoffPauseMinutes: 15 });
    const now = at('2024-06-03T13:00:00Z');
    const one = afterProviderError(state, r, now);
    expect(one.backoffUntil).to.equal(null);
    const two = afterProviderError(one, r, now);
    expect(two.backoffUntil).to.deep.equal(at('2024-06-03T13:15:00Z'));
    expect(decide({ now, rules: r, state: two, recentSends: [], connected: true })).to.deep.equal({
      kind: 'wait',
      until: at('2024-06-03T13:15:00Z'),
      reason: 'backoff',
    });
    expect(decide({ now, rules: r, state, recentSends: [], connected: false })).to.deep.equal({
      kind: 'wait',
      until: at('2024-06-03T13:00:15Z'),
      reason: 'disconnected',
    });
    expect(isThrottleSignal('429 Too Many Requests')).to.equal(true);
    expect(isThrottleSignal('ERR_NUMBER_NOT_ON_CHANNEL')).to.equal(false);
  });

  it('reads the stored settings leniently and checks written ones strictly', () => {
    const s = settingsFromRows([
      { key: 'messageInterval', value: '30' },
      { key: 'messageIntervalMax', value: '10' },
      { key: 'sabado', value: 'true' },
      { key: 'startHour', value: '7:00' },
      { key: 'variables', value: '[{"key":"loja","value":"Centro"}]' },
    ]);
    expect(s).to.include({ messageInterval: 30, messageIntervalMax: 30, sabado: true, startHour: '08:00' });
    expect(s.variables).to.deep.equal([{ key: 'loja', value: 'Centro' }]);
    expect(cleanSettingsInput({ capHourly: 40, stopWords: ['Sair'], endHour: '18:30' })).to.deep.equal([
      { key: 'capHourly', value: '40' },
      { key: 'stopWords', value: '["Sair"]' },
      { key: 'endHour', value: '18:30' },
    ]);
    for (const bad of [{ capHourly: -1 }, { startHour: '25:00' }, { nope: 1 }, { messageInterval: 10, messageIntervalMax: 5 }]) {
      expect(() => cleanSettingsInput(bad))
        .to.throw()
        .with.property('code', 'ERR_INVALID_CAMPAIGN_SETTING');
    }
  });
});
