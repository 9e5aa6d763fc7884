package ratelimit

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

// While Redis is away each replica limits on its own, in memory; when Redis returns, the
// requests each replica admitted meanwhile are added to the shared logs there (replay), so
// the window that spans the outage goes on counting them. The memory limiter also keeps
// every request Redis admits through this replica (record), so a replica cut off from Redis
// goes on from its own part of the window rather than from nothing.
//
// The worst case across an outage, for a key of limit N served by R replicas, is R×N in any
// window: each replica may admit up to N of its own while none can see the others, and a
// replica that admitted through Redis before the outage counts those. Once Redis is back
// and the replicas have replayed, the shared log holds every admission, and no request is
// admitted until the window has fewer than N.

// record counts a request admitted elsewhere (by Redis) in id's ring: it always goes in,
// dropping the oldest if the ring is full, since it was admitted.
func (m *Memory) record(id string, limit int) {
	m.log.Add(id, limit, m.clk.Now().UnixNano(), true)
}

// admittedBetween calls fn, for every id, with the ages (now less the time) of its requests
// admitted from from until before to that are still in the window.
func (m *Memory) admittedBetween(from, to time.Time, fn func(id string, ages []time.Duration)) {
	now := m.clk.Now().UnixNano()
	since, until := from.UnixNano(), to.UnixNano()
	m.log.Each(now, func(id string, times []int64) {
		var ages []time.Duration
		for _, at := range times {
			if at >= since && at < until {
				ages = append(ages, time.Duration(now-at))
			}
		}
		if len(ages) > 0 {
			fn(id, ages)
		}
	})
}

// replay adds what the fallback admitted from from until before to to the shared logs in
// Redis.
func (r *Redis) replay(from, to time.Time) error {
	c := r.client.Load()
	if c == nil {
		return errNoClient
	}
	var keys, args []string
	send := func() error {
		if len(keys) == 0 {
			return nil
		}
		ctx, cancel := r.callContext()
		defer cancel()
		err := mergeLog.Exec(ctx, *c, keys, append([]string{strconv.FormatInt(Window.Microseconds(), 10)}, args...)).Error()
		keys, args = keys[:0], args[:0]
		if err != nil {
			return fmt.Errorf("ratelimit: replay the outage's requests into Redis: %w", err)
		}
		return nil
	}
	var err error
	r.fallback.admittedBetween(from, to, func(id string, ages []time.Duration) {
		if err != nil {
			return
		}
		keys = append(keys, r.prefix+id)
		args = append(args, packAges(ages))
		if len(keys) == maxBatch {
			err = send()
		}
	})
	if err != nil {
		return err
	}
	return send()
}

// packAges writes ages in microseconds as the 8-byte big-endian doubles the logs hold.
func packAges(ages []time.Duration) string {
	b := make([]byte, 8*len(ages))
	for i, a := range ages {
		binary.BigEndian.PutUint64(b[8*i:], math.Float64bits(float64(a.Microseconds())))
	}
	return string(b)
}

// mergeLog adds requests to the logs of slidingLog (script.go), on Redis's clock: KEYS are
// ids, ARGV[1] the window in microseconds, ARGV[1+i] the ages of KEYS[i]'s requests as
// packed doubles of microseconds. Each log is rewritten with its live entries and the added
// ones, oldest first, without a header. A log may then hold more than its limit; slidingLog
// admits again only once fewer than the limit remain in the window.
var mergeLog = rueidis.NewLuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local window = tonumber(ARGV[1])
local ttl = math.ceil(window / 1000)
for i = 1, #KEYS do
  local key = KEYS[i]
  local times = {}
  local old = redis.call('GET', key)
  if old and #old > 0 and #old % 8 == 0 then
    for j = 0, #old / 8 - 1 do
      local at = struct.unpack('>d', old, 8 * j + 1)
      if at >= 0 and now - at < window then times[#times + 1] = at end
    end
  end
  local ages = ARGV[i + 1]
  for j = 0, #ages / 8 - 1 do
    local at = now - struct.unpack('>d', ages, 8 * j + 1)
    if now - at < window then times[#times + 1] = at end
  end
  if #times > 0 then
    table.sort(times)
    local parts = {}
    for j, at in ipairs(times) do parts[j] = struct.pack('>d', at) end
    redis.call('SET', key, table.concat(parts), 'PX', ttl)
  end
end
return #KEYS
`)
