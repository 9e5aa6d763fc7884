package main

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"sync"
)

// certFiles serves a certificate and key read from files, and reads them again when either
// file changes (its modification time or size), so a renewed certificate is used from the
// next TLS handshake without a restart. A pair that does not load (a renewal half written)
// keeps the previous one in use, with a warning.
type certFiles struct {
	certPath, keyPath string
	logger            *slog.Logger

	mu     sync.Mutex
	cert   *tls.Certificate
	stamp  string // the files' modification times and sizes when cert was read
	failed string // the stamp (or the error) of the files that last failed to load
}

func newCertFiles(certPath, keyPath string, logger *slog.Logger) (*certFiles, error) {
	if (certPath == "") != (keyPath == "") {
		return nil, errors.New("--tls-cert and --tls-key go together: give both, or neither for plain HTTP")
	}
	cf := &certFiles{certPath: certPath, keyPath: keyPath, logger: logger}
	stamp, err := cf.stampNow()
	if err != nil {
		return nil, err
	}
	if err := cf.load(stamp); err != nil {
		return nil, err
	}
	return cf, nil
}

func (cf *certFiles) stampNow() (string, error) {
	var s string
	for _, p := range []string{cf.certPath, cf.keyPath} {
		fi, err := os.Stat(p)
		if err != nil {
			return "", fmt.Errorf("tls: %w", err)
		}
		s += fmt.Sprintf("%d/%d;", fi.ModTime().UnixNano(), fi.Size())
	}
	return s, nil
}

func (cf *certFiles) load(stamp string) error {
	c, err := tls.LoadX509KeyPair(cf.certPath, cf.keyPath)
	if err != nil {
		return fmt.Errorf("tls: --tls-cert and --tls-key: %w", err)
	}
	cf.cert, cf.stamp = &c, stamp
	return nil
}

// getCertificate is tls.Config.GetCertificate. Files that failed to load are not read again,
// and not warned of again, until they change: a bad renewal costs one warning, not one load
// and one log line per handshake.
func (cf *certFiles) getCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	cf.mu.Lock()
	defer cf.mu.Unlock()
	stamp, err := cf.stampNow()
	switch {
	case err != nil:
		stamp = err.Error()
	case stamp == cf.stamp:
		cf.failed = ""
		return cf.cert, nil
	case stamp == cf.failed:
		return cf.cert, nil
	default:
		if err = cf.load(stamp); err == nil {
			cf.failed = ""
			cf.logger.Info("tls: certificate reloaded", "cert", cf.certPath)
			return cf.cert, nil
		}
	}
	if stamp != cf.failed {
		cf.failed = stamp
		cf.logger.Warn("tls: keeping the certificate in use", "err", err)
	}
	return cf.cert, nil
}

// tlsListener serves HTTPS on ln, offering HTTP/2 and HTTP/1.1. net/http bounds each
// handshake by the server's read timeouts, as it does for its own TLS listeners.
func tlsListener(ln net.Listener, cf *certFiles) net.Listener {
	return tls.NewListener(ln, &tls.Config{
		GetCertificate: cf.getCertificate,
		MinVersion:     tls.VersionTLS12,
		NextProtos:     []string{"h2", "http/1.1"},
	})
}
