import { describeCacheContract } from '../contracts/cache-contract.js';
import { InMemoryCache } from '../../src/in-process/cache.js';
import { FixedClock } from '../../src/in-memory/support.js';

describeCacheContract('in-memory', async () => {
  const clock = new FixedClock();
  return { cache: new InMemoryCache(clock), advance: (ms) => clock.advance(ms) };
});
