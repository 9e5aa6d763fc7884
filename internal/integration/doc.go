// Package integration tests sportsdb as it is deployed: several replicas (in this process
// or as child processes of the built binary) on one SQLite file or one PostgreSQL database,
// sharing rate limits through one Redis, with the network to PostgreSQL and Redis cut and
// restored under them. Everything lives in the test files; PostgreSQL and Redis are named by
// SPORTSDB_TEST_POSTGRES and SPORTSDB_TEST_REDIS (skipped when unset, failed under CI).
package integration
