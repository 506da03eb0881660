import { randomBytes } from 'node:crypto';
import { describeCacheContract } from '@servicedesk/core/contracts/cache-contract';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import RedisMock from 'ioredis-mock';
import { createRedisCache, RedisCache } from '../../src/cache/redis-cache.js';

/** Tests of what the contract cannot see: the key prefix and how foreign keys read. */
function describeRedisSpecifics(client: () => Redis) {
  describe('Redis specifics', () => {
    const prefix = `sd-test-${randomBytes(6).toString('hex')}:`;

    it('prefixes every key it writes', async () => {
      const cache = new RedisCache(client(), prefix);
      await cache.set('value', 'v', 60);
      await cache.increment('counter', 60);
      await cache.windowAppend('window', 1, 'w', 10, 60);
      expect(await client().get(`${prefix}value`)).to.equal('v');
      expect(await client().get(`${prefix}counter`)).to.equal('1');
      expect(await client().zcard(`${prefix}window`)).to.equal(1);
      expect(await client().exists('value', 'counter', 'window')).to.equal(0);
      await cache.delete('value');
      expect(await client().exists(`${prefix}value`)).to.equal(0);
    });

    it('uses the sd: prefix by default', async () => {
      const key = `${prefix}default`;
      await new RedisCache(client()).set(key, 'v', 60);
      expect(await client().get(`sd:${key}`)).to.equal('v');
      await client().del(`sd:${key}`);
    });

    it('reads a key without an expiry as having no TTL (null)', async () => {
      await client().set(`${prefix}persistent`, 'v');
      expect(await new RedisCache(client(), prefix).ttl('persistent')).to.equal(null);
    });

    it('honours fractional TTLs in milliseconds', async () => {
      const cache = new RedisCache(client(), prefix);
      await cache.set('fraction', 'v', 2.5);
      const ms = await client().pttl(`${prefix}fraction`);
      expect(ms).to.be.within(2000, 2500);
      expect(await cache.ttl('fraction')).to.equal(3);
    });

    after(async () => {
      const keys = await client().keys(`${prefix}*`);
      if (keys.length > 0) await client().del(...keys);
    });
  });
}

describe('RedisCache', () => {
  describe('on ioredis-mock', () => {
    let client: Redis;
    before(() => {
      client = new RedisMock();
    });
    after(() => {
      client.disconnect();
    });

    describeCacheContract('RedisCache (ioredis-mock)', async () => ({ cache: new RedisCache(client, `sd-test-${randomBytes(4).toString('hex')}:`) }));
    describeRedisSpecifics(() => client);
  });

  describe('on Redis (TEST_REDIS_URL)', () => {
    const url = integrationUrl('TEST_REDIS_URL');
    let client: Redis;
    const prefix = `sd-test-${randomBytes(6).toString('hex')}:`;
    before(async function () {
      if (!url) return this.skip();
      client = new Redis(url, { maxRetriesPerRequest: 2 });
      await client.ping();
    });
    after(async () => {
      if (!client) return;
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(...keys);
      await client.quit();
    });

    describeCacheContract('RedisCache (Redis)', async () => ({ cache: new RedisCache(client, prefix) }));
    describeRedisSpecifics(() => client);

    it('createRedisCache connects to the URL and closes', async () => {
      const { cache, close } = await createRedisCache(url!);
      const key = `${prefix}created`;
      await cache.set(key, 'v', 60);
      expect(await client.get(`sd:${key}`)).to.equal('v');
      await cache.delete(key);
      await close();
      const closed = await cache.get(key).then(
        () => null,
        (error: unknown) => error,
      );
      expect(closed).to.be.instanceOf(Error);
    });

    it("createRedisCache puts a deployment's prefix (REDIS_PREFIX) before every key, so deployments share one Redis", async () => {
      const a = await createRedisCache(url!, { prefix: 'deploy-a' });
      const b = await createRedisCache(url!, { prefix: 'deploy-b' });
      const key = `${prefix}shared`;
      await a.cache.set(key, 'from a', 60);
      await b.cache.set(key, 'from b', 60);
      expect([await a.cache.get(key), await b.cache.get(key)]).to.deep.equal(['from a', 'from b']);
      expect(await client.get(`deploy-a:sd:${key}`)).to.equal('from a');
      expect(await client.exists(`sd:${key}`)).to.equal(0);
      await a.cache.delete(key);
      await b.cache.delete(key);
      await a.close();
      await b.close();
    });
  });
});
