package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sportsdb/internal/testsupport"
)

// testCA is a certificate authority made for one test.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pool *x509.CertPool
}

func newTestCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1000), Subject: pkix.Name{CommonName: "sportsdb test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &testCA{cert: cert, key: key, pool: pool}
}

// issue writes a certificate of the public service's host names, of that serial number, and
// its key, to certPath and keyPath.
func (ca *testCA) issue(t *testing.T, serial int64, certPath, keyPath string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "www.thesportsdb.com"},
		DNSNames: []string{"www.thesportsdb.com", "r2.thesportsdb.com"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	write := func(path, typ string, b []byte) {
		if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: b}), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(certPath, "CERTIFICATE", der)
	write(keyPath, "EC PRIVATE KEY", kder)
}

// client asks addr for any host name, trusting only pool, as a media centre whose DNS sends
// www.thesportsdb.com to sportsdb does.
func client(addr string, pool *x509.CertPool) *http.Client {
	var d net.Dialer
	return &http.Client{Transport: &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: pool},
		ForceAttemptHTTP2: true,
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
	}}
}

// serve --tls-cert/--tls-key answers HTTPS over HTTP/2 as www.thesportsdb.com to a client
// that trusts only the operator's CA, and uses a renewed certificate without a restart.
func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	ca := newTestCA(t)
	certPath, keyPath := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	ca.issue(t, 1, certPath, keyPath)

	if out, ok := sportsdb(t, dir, nil, "serve", "--tls-cert", certPath); ok || !strings.Contains(out, "--tls-cert and --tls-key go together") {
		t.Errorf("--tls-cert alone: ok=%v %s", ok, out)
	}
	addr, _ := startServeCollect(t, dir, []string{"SPORTSDB_DB=tls.db", "SPORTSDB_TLS_CERT=" + certPath, "SPORTSDB_TLS_KEY=" + keyPath})

	get := func(c *http.Client, host string) (*http.Response, error) {
		resp, err := c.Get("https://" + host + "/api/v1/json/123/all_sports.php")
		if err == nil {
			resp.Body.Close()
		}
		return resp, err
	}
	for _, host := range []string{"www.thesportsdb.com", "r2.thesportsdb.com"} {
		resp, err := get(client(addr, ca.pool), host)
		if err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		if resp.StatusCode != 200 || resp.Proto != "HTTP/2.0" || resp.TLS.PeerCertificates[0].SerialNumber.Int64() != 1 {
			t.Errorf("%s: %d %s serial %v", host, resp.StatusCode, resp.Proto, resp.TLS.PeerCertificates[0].SerialNumber)
		}
	}
	if _, err := get(client(addr, x509.NewCertPool()), "www.thesportsdb.com"); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("a client that does not trust the CA: %v", err)
	}

	// Renewal: new files in place; the next handshake uses them.
	ca.issue(t, 2, certPath, keyPath)
	later := time.Now().Add(time.Minute)
	for _, p := range []string{certPath, keyPath} {
		if err := os.Chtimes(p, later, later); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := get(client(addr, ca.pool), "www.thesportsdb.com")
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.TLS.PeerCertificates[0].SerialNumber.Int64(); got != 2 || resp.StatusCode != 200 {
		t.Errorf("after renewal: serial %d, status %d; want the renewed certificate (2)", got, resp.StatusCode)
	}
}

// A renewal that does not load (a key half written) keeps the certificate in use and is
// warned of once, however many handshakes come, until the files change again; a good
// renewal after it is used at once.
func TestCertFilesBadRenewalWarnedOnce(t *testing.T) {
	dir := t.TempDir()
	ca := newTestCA(t)
	certPath, keyPath := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	ca.issue(t, 1, certPath, keyPath)
	var logs testsupport.LogBuffer
	cf, err := newCertFiles(certPath, keyPath, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	serial := func() int64 {
		t.Helper()
		c, err := cf.getCertificate(nil)
		if err != nil {
			t.Fatal(err)
		}
		x, err := x509.ParseCertificate(c.Certificate[0])
		if err != nil {
			t.Fatal(err)
		}
		return x.SerialNumber.Int64()
	}
	// touch gives both files a modification time of their own, so each change is seen.
	stamp := time.Now()
	touch := func() {
		stamp = stamp.Add(time.Minute)
		for _, p := range []string{certPath, keyPath} {
			if err := os.Chtimes(p, stamp, stamp); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(keyPath, []byte("-----BEGIN EC PRIVATE KEY-----\nhalf"), 0o600); err != nil {
		t.Fatal(err)
	}
	touch()
	for range 5 {
		if got := serial(); got != 1 {
			t.Fatalf("after a bad renewal: serial %d, want the one in use (1)", got)
		}
	}
	if n := strings.Count(logs.String(), "keeping the certificate in use"); n != 1 {
		t.Errorf("5 handshakes after a bad renewal logged %d warnings, want 1:\n%s", n, logs.String())
	}
	ca.issue(t, 2, certPath, keyPath)
	touch()
	if got := serial(); got != 2 {
		t.Errorf("after a good renewal: serial %d, want 2", got)
	}
	if n := strings.Count(logs.String(), "certificate reloaded"); n != 1 {
		t.Errorf("reloads logged %d times, want 1:\n%s", n, logs.String())
	}
}
