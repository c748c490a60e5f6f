import test from 'ava';
import Redis from 'ioredis';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { Response } from '../../../src';
import { profiledRequest, startIoApp, startUpstream } from './io-app';

test('smoke', async (t) => {
  const upstream = await startUpstream();
  const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
  const pool = new pg.Pool({ host: '127.0.0.1', database: 'test', user: 'postgres' });
  const my = mysql.createPool({ host: '127.0.0.1', user: 'root', database: 'test' });
  const io = await startIoApp([
    {
      name: 'io', path: '/io', methods: ['GET'],
      controller: {
        name: 'io',
        handle: async () => {
          await (await fetch(`${upstream.url}/json?token=SECRET1`)).json();
          await redis.set('loupe-test:x', 'v');
          await redis.get('loupe-test:x');
          for (let i = 0; i < 3; i++) await pool.query('SELECT $1::int AS n', [i]);
          await my.query('SELECT ? AS n', [1]);
          return Response.json({ ok: true });
        },
      },
    },
  ]);
  try {
    const { profile } = await profiledRequest(io, { path: '/io' });
    t.log(JSON.stringify(profile.collectors['db'], null, 1));
    t.log(JSON.stringify(profile.collectors['http_client'], null, 1));
    t.log(JSON.stringify(profile.collectors['redis'], null, 1));
    t.pass();
  } finally {
    await io.close();
    redis.disconnect();
    await pool.end();
    await my.end();
    await upstream.close();
  }
});
