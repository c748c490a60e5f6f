/*
 * Lua scripts run inside Redis, so that storing and retention are one atomic step and search
 * reads the index where it lives. They address keys by prefix: Loupe expects one Redis, not a
 * Cluster (every key would need the same hash tag there).
 */

/**
 * ARGV: prefix, lifetime (s), max profiles, now (ms), then per profile: token, time (ms),
 * summary JSON, profile JSON. Returns { stored, replaced }.
 */
export const WRITE_SCRIPT = `
local p, lifetime, max, now = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local index, meta = p .. 'profiler:index', p .. 'profiler:meta'
local stored, replaced = 0, 0
for i = 5, #ARGV, 4 do
  local token = ARGV[i]
  local key = p .. 'profile:' .. token
  if redis.call('EXISTS', key) == 1 then replaced = replaced + 1 end
  redis.call('SET', key, ARGV[i + 3], 'EX', lifetime)
  redis.call('ZADD', index, ARGV[i + 1], token)
  redis.call('HSET', meta, token, ARGV[i + 2])
  stored = stored + 1
end
local cutoff = '(' .. tostring(now - lifetime * 1000)
local expired = redis.call('ZRANGEBYSCORE', index, '-inf', cutoff)
for _, token in ipairs(expired) do redis.call('HDEL', meta, token) end
if #expired > 0 then redis.call('ZREMRANGEBYSCORE', index, '-inf', cutoff) end
local count = redis.call('ZCARD', index)
if count > max then
  local excess = redis.call('ZRANGE', index, 0, count - max - 1)
  for _, token in ipairs(excess) do
    redis.call('DEL', p .. 'profile:' .. token)
    redis.call('HDEL', meta, token)
  end
  redis.call('ZREMRANGEBYRANK', index, 0, count - max - 1)
end
return { stored, replaced }
`;

/**
 * ARGV: prefix, ip, method, url substring, status code, start (ms or -inf), end (ms or +inf),
 * limit, main requests only (1/0). Empty filters match everything. Returns token, summary JSON,
 * token, summary JSON…, newest first. A row that is not a JSON object cannot be filtered: it is
 * returned whatever the filters (for the caller to report), except to a main-requests-only search.
 */
export const FIND_SCRIPT = `
local p, ip, method, url, status = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local min, max, limit, mainOnly = ARGV[6], ARGV[7], tonumber(ARGV[8]), ARGV[9] == '1'
local index, meta = p .. 'profiler:index', p .. 'profiler:meta'
local out, found, offset, batch = {}, 0, 0, 500
while found < limit do
  local tokens = redis.call('ZREVRANGEBYSCORE', index, max, min, 'LIMIT', offset, batch)
  if #tokens == 0 then break end
  local rows = redis.call('HMGET', meta, unpack(tokens))
  for i = 1, #rows do
    local row = rows[i]
    if row then
      local ok, r = pcall(cjson.decode, row)
      local readable = ok and type(r) == 'table'
      if (not readable and not mainOnly) or (readable
        and (ip == '' or r.ip == ip)
        and (method == '' or r.method == method)
        and (status == '' or tostring(r.statusCode) == status)
        and (url == '' or (type(r.url) == 'string' and string.find(r.url, url, 1, true)))
        and (not mainOnly or r.parent == cjson.null)) then
        out[#out + 1] = tokens[i]
        out[#out + 1] = row
        found = found + 1
        if found >= limit then break end
      end
    end
  end
  offset = offset + batch
end
return out
`;

/** ARGV: prefix. Deletes every indexed profile and the index; returns how many there were. */
export const PURGE_SCRIPT = `
local p = ARGV[1]
local index = p .. 'profiler:index'
local tokens = redis.call('ZRANGE', index, 0, -1)
for i = 1, #tokens, 500 do
  local keys = {}
  for j = i, math.min(i + 499, #tokens) do keys[#keys + 1] = p .. 'profile:' .. tokens[j] end
  redis.call('DEL', unpack(keys))
end
redis.call('DEL', index, p .. 'profiler:meta')
return #tokens
`;
