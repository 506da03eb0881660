/** Pending entries by subject family: numeric tokens (connection or integration ids) are left out. */
export function subjectCounts(subjects: Iterable<string>, counts: Iterable<number> = []): Record<string, number> {
  const n = [...counts];
  const out: Record<string, number> = {};
  let i = 0;
  for (const subject of subjects) {
    const family = subject
      .split('.')
      .filter((t) => !/^\d+$/.test(t))
      .join('.');
    out[family] = (out[family] ?? 0) + (n[i++] ?? 1);
  }
  return out;
}
