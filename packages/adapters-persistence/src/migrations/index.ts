import { M0001Foundation } from './m0001-foundation.js';

/** Applied in this order; never edit a released migration, add the next one. */
export const BACKEND_MIGRATIONS = [{ name: 'm0001-foundation', class: M0001Foundation }];
