import { ConflictError } from '../shared/errors.js';
import type { ChannelQueries } from './check-number.js';

/** No channel runtime attached: number checks say the session cannot answer. */
export const DETACHED_CHANNEL_QUERIES: ChannelQueries = {
  async checkNumber() {
    throw new ConflictError('ERR_SESSION_NOT_CONNECTED');
  },
  async contacts() {
    throw new ConflictError('ERR_SESSION_NOT_CONNECTED');
  },
  async profile() {
    throw new ConflictError('ERR_SESSION_NOT_CONNECTED');
  },
};
