/** `count` placeholders joined by commas, for `in (...)` lists and multi-row `values`: `marks(3)` → `?, ?, ?`. */
export function marks(count: number, mark = '?'): string {
  return Array.from({ length: count }, () => mark).join(', ');
}
