package ratelimit

import "github.com/redis/rueidis"

// slidingLog is the whole decision for a batch of requests, run atomically inside Redis on
// Redis's own clock, so replicas with drifting clocks still share one exact window. KEYS are
// the requests' ids in arrival order (an id may repeat), ARGV[1] the window in microseconds
// and ARGV[1+i] the limit of KEYS[i]. It answers, per key, {admitted 0/1, requests in the
// window, microseconds until the oldest leaves it}.
//
// Each key holds its admitted request times, oldest first, as 8-byte big-endian doubles of
// microseconds. An admitted request appends its 8 bytes instead of rewriting the log, so a
// decision costs the same whatever the limit. Times that left the window are not cut off one
// by one: the first slot then holds a header, the negated index of the first slot that may
// still be in the window (a negative time, so a reader that does not know headers sees one
// more expired entry), and the log is rewritten without its dead head only once that head is
// as long as the live part. A value of any other shape (not written here) is started afresh.
var slidingLog = rueidis.NewLuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local window = tonumber(ARGV[1])
local ttl = math.ceil(window / 1000)
local chunk = 16
local out = {}

-- decide admits or refuses one request of key and returns {admitted, count, reset}.
local function decide(key, limit)
  local size = redis.call('STRLEN', key)
  local head = redis.call('GETRANGE', key, 0, 8 * chunk - 1)
  local slots = size / 8
  local first = 0
  if size > 0 and size % 8 == 0 then
    local v = struct.unpack('>d', head, 1)
    if v < 0 then first = -v end
  end
  if size == 0 or size % 8 ~= 0 or first ~= math.floor(first) or first >= slots then
    -- No log, a foreign value, or a header past the end: start afresh.
    redis.call('SET', key, struct.pack('>d', now), 'PX', ttl)
    return {1, 1, window}
  end
  local start = first
  local base = 0
  local oldest = nil
  while first < slots do
    if first >= base + chunk then
      base = first
      head = redis.call('GETRANGE', key, 8 * base, 8 * (base + chunk) - 1)
    end
    local at = struct.unpack('>d', head, 8 * (first - base) + 1)
    if now - at < window then
      oldest = at
      break
    end
    first = first + 1
  end
  local count = slots - first
  if count == 0 then
    redis.call('SET', key, struct.pack('>d', now), 'PX', ttl)
    return {1, 1, window}
  end
  if count >= limit then
    if first > start then
      redis.call('SETRANGE', key, 0, struct.pack('>d', -first))
    end
    -- A log that holds more than the limit (requests admitted by replicas during a Redis
    -- outage, merged back) frees a slot only when all but limit-1 of its entries have left.
    local freeing = oldest
    if count > limit then
      local at = first + count - limit
      freeing = struct.unpack('>d', redis.call('GETRANGE', key, 8 * at, 8 * at + 7), 1)
    end
    return {0, count, freeing + window - now}
  end
  local entry = struct.pack('>d', now)
  if first >= 32 and first >= count then
    local live = redis.call('GETRANGE', key, 8 * first, -1)
    redis.call('SET', key, live .. entry, 'PX', ttl)
  else
    if first > start then
      redis.call('SETRANGE', key, 0, struct.pack('>d', -first))
    end
    redis.call('APPEND', key, entry)
    redis.call('PEXPIRE', key, ttl)
  end
  return {1, count + 1, oldest + window - now}
end

for i = 1, #KEYS do
  local r = decide(KEYS[i], tonumber(ARGV[i + 1]))
  out[#out + 1] = r[1]
  out[#out + 1] = r[2]
  out[#out + 1] = r[3]
end
return out
`)
