package integration

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/rueidis"

	"sportsdb/internal/testsupport"
)

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// freshPostgres creates an empty database for one test and drops it when the test ends. It
// returns the database's URL.
func freshPostgres(t testing.TB) string {
	t.Helper()
	base := testsupport.Env(t, "SPORTSDB_TEST_POSTGRES")
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		t.Fatalf("SPORTSDB_TEST_POSTGRES must be a postgres:// URL with a host")
	}
	admin := *u
	admin.Path = "/postgres"
	name := "sportsdb_it_" + randomHex(6)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin.String())
	if err != nil {
		t.Fatalf("connect to the postgres database: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, admin.String())
		if err != nil {
			t.Errorf("drop test database: %v", err)
			return
		}
		defer conn.Close(ctx)
		// FORCE ends connections a stopped child process may have left behind.
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop test database: %v", err)
		}
	})
	db := *u
	db.Path = "/" + name
	return db.String()
}

// hostPort is the host:port of a postgres:// or redis:// URL.
func hostPort(t testing.TB, raw, defaultPort string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		t.Fatalf("not a URL with a host: the service address variable")
	}
	if u.Port() == "" {
		return net.JoinHostPort(u.Hostname(), defaultPort)
	}
	return u.Host
}

// withHost returns raw with its host:port replaced (to go through a proxy).
func withHost(t testing.TB, raw, host string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("not a URL: the service address variable")
	}
	u.Host = host
	return u.String()
}

// redisPrefix returns a key prefix of one test and deletes its keys when the test ends.
func redisPrefix(t testing.TB, redisURL string) string {
	t.Helper()
	prefix := "sportsdb-it:" + randomHex(8) + ":"
	t.Cleanup(func() { deleteRedisKeys(t, redisURL, prefix+"*") })
	return prefix
}

// deleteRedisKeys deletes every key matching pattern.
func deleteRedisKeys(t testing.TB, redisURL, pattern string) {
	t.Helper()
	opt, err := rueidis.ParseURL(redisURL)
	if err != nil {
		t.Errorf("redis cleanup: %v", err)
		return
	}
	opt.DisableCache = true
	c, err := rueidis.NewClient(opt)
	if err != nil {
		t.Errorf("redis cleanup: %v", err)
		return
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var cursor uint64
	for {
		e, err := c.Do(ctx, c.B().Scan().Cursor(cursor).Match(pattern).Count(1000).Build()).AsScanEntry()
		if err != nil {
			t.Errorf("redis cleanup scan: %v", err)
			return
		}
		if len(e.Elements) > 0 {
			if err := c.Do(ctx, c.B().Del().Key(e.Elements...).Build()).Error(); err != nil {
				t.Errorf("redis cleanup del: %v", err)
			}
		}
		if cursor = e.Cursor; cursor == 0 {
			return
		}
	}
}
