/*
 * Lua scripts run inside Redis, so that storing and retention are one atomic step and search
 * reads the index where it lives. They address keys by prefix: Loupe expects one Redis, not a
 * Cluster (every key would need the same hash tag there).
 */

/**
 * ARGV: prefix, lifetime (s), max profiles, max bytes, now (ms), writer id, batch number, then per
 * profile: token, time (ms), summary JSON, profile JSON. Returns { stored, replaced }.
 *
 * Each profile's size (its JSON and its search row) is kept in `profiler:sizes` and their sum in
 * `profiler:bytes`; past either limit the oldest profiles are removed. The outcome is recorded
 * under the writer's id with the batch number, so that a writer whose call timed out can ask
 * whether the batch ran after all.
 */
export const WRITE_SCRIPT = `
local p, lifetime, max, maxBytes, now = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local writer, batch = ARGV[6], ARGV[7]
local index, meta, sizes, total = p .. 'profiler:index', p .. 'profiler:meta', p .. 'profiler:sizes', p .. 'profiler:bytes'
local held = tonumber(redis.call('GET', total))
if not held then
  -- The total was lost (evicted, deleted): sum the sizes again.
  held = 0
  for _, size in ipairs(redis.call('HVALS', sizes)) do held = held + tonumber(size) end
end
local function forget(tokens)
  for i = 1, #tokens, 500 do
    local part = { unpack(tokens, i, math.min(i + 499, #tokens)) }
    local keys = {}
    for j, token in ipairs(part) do keys[j] = p .. 'profile:' .. token end
    for _, size in ipairs(redis.call('HMGET', sizes, unpack(part))) do held = held - (tonumber(size) or 0) end
    redis.call('DEL', unpack(keys))
    redis.call('HDEL', meta, unpack(part))
    redis.call('HDEL', sizes, unpack(part))
    redis.call('ZREM', index, unpack(part))
  end
end
local stored, replaced = 0, 0
for i = 8, #ARGV, 4 do
  local token = ARGV[i]
  local key = p .. 'profile:' .. token
  if redis.call('EXISTS', key) == 1 then replaced = replaced + 1 end
  local size = #ARGV[i + 2] + #ARGV[i + 3]
  held = held + size - (tonumber(redis.call('HGET', sizes, token)) or 0)
  redis.call('SET', key, ARGV[i + 3], 'EX', lifetime)
  redis.call('ZADD', index, ARGV[i + 1], token)
  redis.call('HSET', meta, token, ARGV[i + 2])
  redis.call('HSET', sizes, token, size)
  stored = stored + 1
end
forget(redis.call('ZRANGEBYSCORE', index, '-inf', '(' .. tostring(now - lifetime * 1000)))
local count = redis.call('ZCARD', index)
if count > max then forget(redis.call('ZRANGE', index, 0, count - max - 1)) end
while held > maxBytes do
  -- The oldest first, just as many as bring the total under the limit.
  local oldest = redis.call('ZRANGE', index, 0, 63)
  if #oldest == 0 then break end
  local oldestSizes = redis.call('HMGET', sizes, unpack(oldest))
  local over, take = held - maxBytes, {}
  for j, token in ipairs(oldest) do
    if over <= 0 then break end
    take[j] = token
    over = over - (tonumber(oldestSizes[j]) or 0)
  end
  forget(take)
end
if redis.call('ZCARD', index) == 0 then held = 0 end
redis.call('SET', total, held)
redis.call('SET', p .. 'profiler:writer:' .. writer, batch .. ' ' .. stored .. ' ' .. replaced, 'EX', lifetime)
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
redis.call('DEL', index, p .. 'profiler:meta', p .. 'profiler:sizes', p .. 'profiler:bytes')
return #tokens
`;
