import type { Cache, Clock } from '../shared/ports.js';

interface Entry {
  value: string;
  expiresAt: number;
}
interface Window {
  entries: Array<{ score: number; value: string }>;
  expiresAt: number;
}

/** The embedded default Cache: one process, same semantics as the Redis adapter. */
export class InMemoryCache implements Cache {
  private readonly entries = new Map<string, Entry>();
  private readonly windows = new Map<string, Window>();

  constructor(private readonly clock: Clock = { now: () => new Date() }) {}

  private now() {
    return this.clock.now().getTime();
  }
  private live(key: string): Entry | null {
    const e = this.entries.get(key);
    if (!e) return null;
    if (e.expiresAt <= this.now()) {
      this.entries.delete(key);
      return null;
    }
    return e;
  }
  private liveWindow(key: string): Window | null {
    const w = this.windows.get(key);
    if (!w) return null;
    if (w.expiresAt <= this.now()) {
      this.windows.delete(key);
      return null;
    }
    return w;
  }

  /** Forgets everything (tests reset between cases with it). */
  clear() {
    this.entries.clear();
    this.windows.clear();
  }

  async get(key: string) {
    return this.live(key)?.value ?? null;
  }
  async set(key: string, value: string, ttlSeconds: number) {
    this.entries.set(key, { value, expiresAt: this.now() + ttlSeconds * 1000 });
  }
  async setIfAbsent(key: string, value: string, ttlSeconds: number) {
    if (this.live(key)) return false;
    await this.set(key, value, ttlSeconds);
    return true;
  }
  async delete(key: string) {
    this.entries.delete(key);
    this.windows.delete(key);
  }
  async increment(key: string, ttlSeconds: number, by = 1) {
    const e = this.live(key);
    if (!e) {
      await this.set(key, String(by), ttlSeconds);
      return by;
    }
    e.value = String(Number(e.value) + by);
    return Number(e.value);
  }
  async ttl(key: string) {
    const e = this.live(key) ?? this.liveWindow(key);
    return e ? Math.ceil((e.expiresAt - this.now()) / 1000) : null;
  }
  async windowAppend(key: string, score: number, value: string, maxEntries: number, ttlSeconds: number) {
    const w = this.liveWindow(key) ?? { entries: [], expiresAt: 0 };
    w.entries.push({ score, value });
    w.entries.sort((a, b) => a.score - b.score);
    if (w.entries.length > maxEntries) w.entries.splice(0, w.entries.length - maxEntries);
    w.expiresAt = this.now() + ttlSeconds * 1000;
    this.windows.set(key, w);
  }
  async windowAfter(key: string, afterScore: number) {
    return (this.liveWindow(key)?.entries ?? []).filter((e) => e.score > afterScore).map((e) => ({ ...e }));
  }
  async windowLowest(key: string) {
    return this.liveWindow(key)?.entries[0]?.score ?? null;
  }
}
