/** A stable 32-bit FNV-1a hash of a text (unsigned): for shard numbers and lock keys. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
