package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

// StreamLeaseTTL is how long the lease of an open stream lasts in Redis unless its replica
// refreshes it: the slots of a replica that stopped without closing its streams (a crash)
// come free within it. A replica refreshes its leases every third of it.
const StreamLeaseTTL = 30 * time.Second

// ErrNotShared: Redis is unreachable, so open streams cannot be counted there; the caller
// counts its own.
var ErrNotShared = errors.New("ratelimit: Redis unreachable, open streams not shared")

// Open streams of an id are a sorted set of leases scored by their expiry in milliseconds
// of Redis's clock. Taking one drops the expired, then adds the lease if fewer than the limit
// are left. KEYS[1] the set; ARGV the lease, the limit, the lifetime in milliseconds.
var takeLease = rueidis.NewLuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
`)

// renewLeases moves the expiry of the leases ARGV[2..] of KEYS[1] to ARGV[1] milliseconds
// from now; a lease that expired meanwhile (Redis was unreachable longer than that) is
// counted again, since its stream is still open.
var renewLeases = rueidis.NewLuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
for i = 2, #ARGV do
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[i])
end
redis.call('PEXPIRE', KEYS[1], ttl)
return 0
`)

func (r *Redis) leaseKey(id string) string { return r.prefix + "open-streams:" + id }

// leaseClient is the client to count streams with, or ErrNotShared while Redis is down.
func (r *Redis) leaseClient() (rueidis.Client, error) {
	c := r.client.Load()
	if c == nil || r.degraded.Load() {
		return nil, ErrNotShared
	}
	return *c, nil
}

// leaseFailed marks Redis down after a failed call (not after the caller gave up).
func (r *Redis) leaseFailed(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		r.markDown(err)
	}
	return fmt.Errorf("%w: %w", ErrNotShared, err)
}

// AcquireStream takes one of the limit open-stream slots of id, shared by every replica on
// this Redis, under lease (a name no other stream of any replica uses). ok is false when
// every slot is taken. The lease lasts StreamLeaseTTL: RefreshStreams keeps it while the
// stream is open, ReleaseStream gives it back.
func (r *Redis) AcquireStream(ctx context.Context, id, lease string, limit int) (ok bool, err error) {
	c, err := r.leaseClient()
	if err != nil {
		return false, err
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	n, err := takeLease.Exec(ctx, c, []string{r.leaseKey(id)},
		[]string{lease, strconv.Itoa(limit), strconv.FormatInt(StreamLeaseTTL.Milliseconds(), 10)}).AsInt64()
	if err != nil {
		return false, r.leaseFailed(ctx, err)
	}
	return n == 1, nil
}

// RefreshStreams renews the leases held, by id, for another StreamLeaseTTL.
func (r *Redis) RefreshStreams(ctx context.Context, held map[string][]string) error {
	c, err := r.leaseClient()
	if err != nil || len(held) == 0 {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	ttl := strconv.FormatInt(StreamLeaseTTL.Milliseconds(), 10)
	calls := make([]rueidis.LuaExec, 0, len(held))
	for id, leases := range held {
		calls = append(calls, rueidis.LuaExec{Keys: []string{r.leaseKey(id)}, Args: append([]string{ttl}, leases...)})
	}
	for _, res := range renewLeases.ExecMulti(ctx, c, calls...) {
		if err := res.Error(); err != nil {
			return r.leaseFailed(ctx, err)
		}
	}
	return nil
}

// ReleaseStream gives the slot of lease back.
func (r *Redis) ReleaseStream(ctx context.Context, id, lease string) error {
	c, err := r.leaseClient()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	if err := c.Do(ctx, c.B().Zrem().Key(r.leaseKey(id)).Member(lease).Build()).Error(); err != nil {
		return r.leaseFailed(ctx, err)
	}
	return nil
}
