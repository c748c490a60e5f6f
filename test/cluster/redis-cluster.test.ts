import test from 'ava';
import { connectRedis } from '../../src/redis/connect-redis';
import { RedisProfileStorage } from '../../src/profiler/redis-profile-storage';
import { type RedisClient } from '../../src/redis/redis-client';
import { TEST_CLIENT_TIMEOUTS, testKeyPrefix } from '../helpers/test-redis';
import { startThrowawayCluster, type ThrowawayCluster } from '../helpers/throwaway-cluster';
import { profileStorageContract } from '../profiler/profile-storage-contract';

// One cluster for the file (its ports are fixed); every test serial, the one that kills a master last.
let cluster: ThrowawayCluster | undefined;
const clients: RedisClient[] = [];

test.before(async () => {
  cluster = await startThrowawayCluster();
});

test.after.always(async () => {
  for (const client of clients) client.disconnect();
  await cluster?.stop();
});

function running(): ThrowawayCluster {
  if (cluster === undefined) throw new Error('the cluster did not start');
  return cluster;
}

async function client(name: string): Promise<RedisClient> {
  const redis = await connectRedis(running().url, name, TEST_CLIENT_TIMEOUTS);
  clients.push(redis);
  return redis;
}

// Each of the 16 groups keeps its share of maxProfiles: the contract's retention case writes
// tokens that all fall in group 0 (c10000, c20000…), so that group is given the whole limit.
profileStorageContract(test.serial, 'RedisProfileStorage on a cluster, in 16 groups', async ({ maxProfiles, lifetime }) => {
  return new RedisProfileStorage({ redis: await client('loupe-test-contract'), prefix: testKeyPrefix(), groups: 16, hashTags: true, lifetime, maxProfiles: maxProfiles * 16 });
});
