'use strict';
// What a micro benchmark leaves in Redis, removed once it is done: every key under its prefix.
const { default: Redis } = require('ioredis');

async function removeKeys(prefix) {
  const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.unlink(...keys);
  redis.disconnect();
}

module.exports = { removeKeys };
