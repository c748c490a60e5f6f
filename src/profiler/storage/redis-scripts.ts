/*
 * Lua scripts run inside Redis, so that storing and retention are one atomic step and search
 * reads the index where it lives. Each runs on one group of profile keys (see ProfileKeys) and
 * is given that group's keys in KEYS, so that on a Redis Cluster it is sent to the master of the
 * group's slot; every key of a group carries the same hash tag, so they all live in that slot.
 */

/**
 * KEYS: index, meta, sizes, bytes, the writer's record, the profile key prefix of the group.
 * ARGV: lifetime (s), max profiles, max bytes, now (ms), batch number, the live channel (empty:
 * none), then per profile: token, time (ms), summary JSON, profile JSON. Returns { stored, replaced }.
 *
 * Each profile's size (its JSON and its search row) is kept in `sizes` and their sum in `bytes`;
 * past either limit the oldest profiles of the group are removed. The outcome is recorded under
 * the writer's id with the batch number, so that a writer whose call timed out can ask whether
 * the batch ran after all. The profile keys are the prefix and the token: retention finds the
 * tokens it removes only here. Once stored, the batch's summaries are announced on the live
 * channel as one JSON array (liveMessage): in the same step as the write, from the arguments it
 * was given, so that announcing sends nothing more.
 */
export const WRITE_SCRIPT = `
local index, meta, sizes, total, record, p = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local lifetime, max, maxBytes, now, batch, channel = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5], ARGV[6]
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
    for j, token in ipairs(part) do keys[j] = p .. token end
    for _, size in ipairs(redis.call('HMGET', sizes, unpack(part))) do held = held - (tonumber(size) or 0) end
    redis.call('DEL', unpack(keys))
    redis.call('HDEL', meta, unpack(part))
    redis.call('HDEL', sizes, unpack(part))
    redis.call('ZREM', index, unpack(part))
  end
end
local stored, replaced, rows = 0, 0, {}
for i = 7, #ARGV, 4 do
  local token = ARGV[i]
  local key = p .. token
  if redis.call('EXISTS', key) == 1 then replaced = replaced + 1 end
  local size = #ARGV[i + 2] + #ARGV[i + 3]
  held = held + size - (tonumber(redis.call('HGET', sizes, token)) or 0)
  redis.call('SET', key, ARGV[i + 3], 'EX', lifetime)
  redis.call('ZADD', index, ARGV[i + 1], token)
  redis.call('HSET', meta, token, ARGV[i + 2])
  redis.call('HSET', sizes, token, size)
  if channel ~= '' then rows[#rows + 1] = ARGV[i + 2] end
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
redis.call('SET', record, batch .. ' ' .. stored .. ' ' .. replaced, 'EX', lifetime)
if #rows > 0 then redis.call('PUBLISH', channel, '[' .. table.concat(rows, ',') .. ']') end
return { stored, replaced }
`;

/**
 * KEYS: index, meta. ARGV: ip, method, url substring, status (a code such as `404`, or a class
 * such as `5xx`), route, start (ms or -inf), end (ms or +inf), flags, least queries, sort
 * (`time` or `duration`), order (`desc` or `asc`), offset, limit, scan bound. Flags is a string
 * of letters: `m` main requests only, `f` no `/favicon.ico`, `a` aborted requests only, `n` only
 * requests with an N+1 query shape, `r` readable rows only. Empty filters match everything; a
 * row without the I/O counters (stored before Loupe indexed them) counts as no queries.
 *
 * Reads at most `scan bound` rows of the index, newest first within [start, end], so that a
 * search costs Redis a bounded time whatever it holds; every match among them is counted and
 * sorted, and the page [offset, offset + limit) returned. Returns total, scanned, complete (1 when
 * the whole range was read), then for each row: token, summary JSON, time (the index score) and
 * duration (-1 when unknown), the last two as text, so that the pages of several groups can be
 * merged in the same order. A row that is not a JSON object with a numeric statusCode cannot be
 * filtered: it matches whatever the filters (for the caller to report), except under `r`.
 */
export const FIND_SCRIPT = `
local index, meta = KEYS[1], KEYS[2]
local ip, method, url, status, route = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local min, max, flags, minQueries, sort, order = ARGV[6], ARGV[7], ARGV[8], tonumber(ARGV[9]), ARGV[10], ARGV[11]
local offset, limit, bound = tonumber(ARGV[12]), tonumber(ARGV[13]), tonumber(ARGV[14])
local mainOnly, noFavicon, abortedOnly, readableOnly = string.find(flags, 'm', 1, true), string.find(flags, 'f', 1, true), string.find(flags, 'a', 1, true), string.find(flags, 'r', 1, true)
local nPlusOneOnly = string.find(flags, 'n', 1, true)
local statusClass = nil
if string.match(status, '^%dxx$') then statusClass = tonumber(string.sub(status, 1, 1)) end
local function matches(r)
  if ip ~= '' and r.ip ~= ip then return false end
  if method ~= '' and r.method ~= method then return false end
  if route ~= '' and r.route ~= route then return false end
  if statusClass then
    if math.floor(r.statusCode / 100) ~= statusClass then return false end
  elseif status ~= '' and tostring(r.statusCode) ~= status then return false end
  if url ~= '' and not (type(r.url) == 'string' and string.find(r.url, url, 1, true)) then return false end
  if mainOnly and r.parent ~= cjson.null then return false end
  if abortedOnly and not (r.aborted == true or r.statusCode == 0) then return false end
  if nPlusOneOnly and not (type(r.nPlusOne) == 'number' and r.nPlusOne > 0) then return false end
  if minQueries and (type(r.queries) == 'number' and r.queries or 0) < minQueries then return false end
  if noFavicon and type(r.url) == 'string' and string.match(r.url, '^%a[%w+.-]*://[^/?#]*([^?#]*)') == '/favicon.ico' then return false end
  return true
end
local found, scanned, complete, batch = {}, 0, 0, 500
while true do
  local take = math.min(batch, bound - scanned)
  if take <= 0 then break end
  local scored = redis.call('ZREVRANGEBYSCORE', index, max, min, 'WITHSCORES', 'LIMIT', scanned, take)
  local tokens, times = {}, {}
  for i = 1, #scored, 2 do
    tokens[#tokens + 1] = scored[i]
    times[#times + 1] = scored[i + 1]
  end
  scanned = scanned + #tokens
  if #tokens == 0 then complete = 1 break end
  local rows = redis.call('HMGET', meta, unpack(tokens))
  for i = 1, #rows do
    local row = rows[i]
    if row then
      local ok, r = pcall(cjson.decode, row)
      if ok and type(r) == 'table' and type(r.statusCode) == 'number' then
        if matches(r) then found[#found + 1] = { tokens[i], row, type(r.duration) == 'number' and r.duration or -1, #found, times[i] } end
      elseif not readableOnly then
        found[#found + 1] = { tokens[i], row, -1, #found, times[i] }
      end
    end
  end
  if #tokens < take then complete = 1 break end
end
if sort == 'duration' then
  -- Ties keep the order of the index: newest first.
  if order == 'asc' then
    table.sort(found, function(a, b) if a[3] ~= b[3] then return a[3] < b[3] end return a[4] < b[4] end)
  else
    table.sort(found, function(a, b) if a[3] ~= b[3] then return a[3] > b[3] end return a[4] < b[4] end)
  end
elseif order == 'asc' then
  local n = #found
  for i = 1, math.floor(n / 2) do found[i], found[n - i + 1] = found[n - i + 1], found[i] end
end
local out = { #found, scanned, complete }
for i = offset + 1, math.min(offset + limit, #found) do
  out[#out + 1] = found[i][1]
  out[#out + 1] = found[i][2]
  out[#out + 1] = found[i][5]
  out[#out + 1] = tostring(found[i][3])
end
return out
`;

/**
 * KEYS: index, meta, sizes, bytes, the profile key prefix of the group. Deletes every indexed
 * profile of the group and its index; returns how many there were.
 */
export const PURGE_SCRIPT = `
local index, p = KEYS[1], KEYS[5]
local tokens = redis.call('ZRANGE', index, 0, -1)
for i = 1, #tokens, 500 do
  local keys = {}
  for j = i, math.min(i + 499, #tokens) do keys[#keys + 1] = p .. tokens[j] end
  redis.call('DEL', unpack(keys))
end
redis.call('DEL', index, KEYS[2], KEYS[3], KEYS[4])
return #tokens
`;
