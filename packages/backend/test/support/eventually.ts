/**
 * Polls `probe` until it answers something truthy, and returns that. Probes that throw are
 * retried (a server still starting); at the deadline the last error is part of the failure.
 */
export async function eventually<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
