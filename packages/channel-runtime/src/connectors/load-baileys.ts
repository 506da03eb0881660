import { onceAsync } from '@servicedesk/core';

/** Baileys' module as a value, for code that loads it on demand. */
export type BaileysModule = typeof import('baileys');

/**
 * Baileys costs ~60 MB of heap once imported, so nothing on the start path imports it: the
 * connector and its auth state call this the first time a Baileys session needs it. A failed
 * import is not cached, so a later session tries again.
 */
export const loadBaileys: () => Promise<BaileysModule> = onceAsync(() => import('baileys'));
