package mirror

// The predicates as methods too, so that a *Fetcher is the server's Upstream (server.Config)
// as it is, without an adapter.

// EmptyAnswer says whether an answer holds no records (the function EmptyAnswer).
func (*Fetcher) EmptyAnswer(body []byte) bool { return EmptyAnswer(body) }

// TimeDependent says whether an answer depends on the time (the function TimeDependent).
func (*Fetcher) TimeDependent(version, pathAndQuery string) bool {
	return TimeDependent(version, pathAndQuery)
}
