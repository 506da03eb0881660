import type { CampaignSettings } from './campaign-settings.js';
import { isInsideWindow, minuteOfDay, nextOpening, type SendingWindow } from './sending-window.js';

/** A number in [0, 1); injected so that pacing is deterministic in tests. */
export interface RandomSource {
  next(): number;
}

/**
 * What a connection remembers between sends (stored, so that another instance or a restart
 * goes on with the same pacing): when it last sent, the gap it drew right after that send
 * (drawn then, one send ahead, never for the whole campaign up front), how many sends since the
 * last long pause, and the provider errors that make it rest.
 */
export interface ConnectionPacingState {
  readonly connectionId: number;
  readonly lastSentAt: Date | null;
  /** The gap before the next send, in ms, drawn when `lastSentAt` was recorded. */
  readonly nextGapMs: number;
  /** Sends since the last long pause. */
  readonly streak: number;
  readonly consecutiveErrors: number;
  readonly backoffUntil: Date | null;
}

export function initialPacingState(connectionId: number): ConnectionPacingState {
  return { connectionId, lastSentAt: null, nextGapMs: 0, streak: 0, consecutiveErrors: 0, backoffUntil: null };
}

/** The pacing part of the settings, in the units the policy works in. */
export interface PacingRules {
  readonly minGapMs: number;
  readonly maxGapMs: number;
  readonly longPauseAfter: number;
  readonly longPauseMs: number;
  readonly window: SendingWindow;
  readonly capHourly: number;
  readonly capDaily: number;
  readonly backoffErrorThreshold: number;
  readonly backoffPauseMs: number;
  /** How long to wait before looking again at a connection that is not connected. */
  readonly disconnectedRetryMs: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
export const DISCONNECTED_RETRY_MS = 15_000;

export function pacingRules(s: CampaignSettings, timeZone: string): PacingRules {
  const weekdays = new Set([1, 2, 3, 4, 5]);
  if (s.sabado) weekdays.add(6);
  if (s.domingo) weekdays.add(0);
  return {
    minGapMs: s.messageInterval * 1000,
    maxGapMs: Math.max(s.messageInterval, s.messageIntervalMax) * 1000,
    longPauseAfter: s.longerIntervalAfter,
    longPauseMs: s.greaterInterval * 1000,
    window: { startMinute: minuteOfDay(s.startHour), endMinute: minuteOfDay(s.endHour), weekdays, timeZone },
    capHourly: s.capHourly,
    capDaily: s.capDaily,
    backoffErrorThreshold: s.backoffErrorThreshold,
    backoffPauseMs: s.backoffPauseMinutes * 60_000,
    disconnectedRetryMs: DISCONNECTED_RETRY_MS,
  };
}

export type WaitReason = 'disconnected' | 'backoff' | 'gap' | 'window' | 'hourly-cap' | 'daily-cap' | 'window-never-opens';

export type PacingDecision = { readonly kind: 'send' } | { readonly kind: 'wait'; readonly until: Date; readonly reason: WaitReason };

export interface PacingInput {
  readonly now: Date;
  readonly rules: PacingRules;
  readonly state: ConnectionPacingState;
  /** This connection's sends (every campaign) in the 24 hours before `now`, any order. */
  readonly recentSends: readonly Date[];
  readonly connected: boolean;
}

/** How far ahead a wait may be answered at most (a window that opens only in a week is looked at again then). */
const MAX_WAIT_MS = 8 * DAY_MS;

/**
 * Whether the connection may send now, or the earliest moment it may, and the first rule that
 * holds it back. Every rule is checked against the same candidate moment until all agree, so the
 * answer never lands inside a closed window or over a cap.
 */
export function decide(input: PacingInput): PacingDecision {
  const { now, rules, state } = input;
  if (!input.connected) return { kind: 'wait', until: new Date(now.getTime() + rules.disconnectedRetryMs), reason: 'disconnected' };
  const sends = input.recentSends
    .map((d) => d.getTime())
    .filter((t) => t > now.getTime() - DAY_MS)
    .sort((a, b) => a - b);
  let t = now.getTime();
  let first: WaitReason | null = null;
  const push = (to: number, reason: WaitReason) => {
    if (to > t) {
      t = to;
      first ??= reason;
      return true;
    }
    return false;
  };
  for (let i = 0; i < 50; i++) {
    let moved = false;
    if (state.backoffUntil) moved = push(state.backoffUntil.getTime(), 'backoff') || moved;
    if (state.lastSentAt) moved = push(state.lastSentAt.getTime() + state.nextGapMs, 'gap') || moved;
    moved = push(capFreeAt(sends, t, HOUR_MS, rules.capHourly), 'hourly-cap') || moved;
    moved = push(capFreeAt(sends, t, DAY_MS, rules.capDaily), 'daily-cap') || moved;
    if (!isInsideWindow(rules.window, t)) {
      const open = nextOpening(rules.window, t);
      if (open === null) return { kind: 'wait', until: new Date(now.getTime() + DAY_MS), reason: 'window-never-opens' };
      moved = push(open, 'window') || moved;
    }
    if (!moved) break;
    if (t - now.getTime() > MAX_WAIT_MS) break;
  }
  return t <= now.getTime() ? { kind: 'send' } : { kind: 'wait', until: new Date(t), reason: first ?? 'gap' };
}

/** The first moment ≥ t at which fewer than `cap` sends lie in the rolling window of `spanMs` ending then. */
function capFreeAt(sortedSends: readonly number[], t: number, spanMs: number, cap: number): number {
  if (cap <= 0) return t;
  const inWindow = sortedSends.filter((s) => s > t - spanMs && s <= t);
  if (inWindow.length < cap) return t;
  // The oldest sends must leave the window until only cap-1 remain.
  return inWindow[inWindow.length - cap]! + spanMs;
}

/**
 * The gap to wait after the send that is being recorded: random between the minimum and the
 * maximum, or the long pause after every `longPauseAfter` sends. Returns the new streak too.
 */
export function drawGap(rules: PacingRules, streakBefore: number, random: RandomSource): { gapMs: number; streak: number } {
  const streak = streakBefore + 1;
  if (rules.longPauseAfter > 0 && rules.longPauseMs > 0 && streak >= rules.longPauseAfter)
    return { gapMs: Math.max(rules.longPauseMs, rules.minGapMs), streak: 0 };
  const span = rules.maxGapMs - rules.minGapMs;
  return { gapMs: rules.minGapMs + Math.floor(random.next() * (span + 1)), streak };
}

/** The state after a send at `at`. */
export function afterSend(state: ConnectionPacingState, rules: PacingRules, at: Date, random: RandomSource): ConnectionPacingState {
  const { gapMs, streak } = drawGap(rules, state.streak, random);
  return { ...state, lastSentAt: at, nextGapMs: gapMs, streak, consecutiveErrors: 0 };
}

/**
 * Provider errors that mean "slow down" (rate limits, spam and ban signals). Other failures (a
 * number that does not exist) do not count toward the back-off.
 */
export function isThrottleSignal(reason: string | null | undefined): boolean {
  return !!reason && /too.?many|rate|limit|429|ban|block|spam|throttl/i.test(reason);
}

/** The state after a provider error at `at`: past the threshold the connection rests. */
export function afterProviderError(state: ConnectionPacingState, rules: PacingRules, at: Date): ConnectionPacingState {
  const consecutiveErrors = state.consecutiveErrors + 1;
  if (rules.backoffErrorThreshold > 0 && consecutiveErrors >= rules.backoffErrorThreshold) {
    return { ...state, consecutiveErrors: 0, backoffUntil: new Date(at.getTime() + rules.backoffPauseMs) };
  }
  return { ...state, consecutiveErrors };
}
