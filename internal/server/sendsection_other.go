//go:build !linux

package server

import (
	"io"
	"net"
)

// sendSection is left to the connection's own ReadFrom on systems other than Linux.
func sendSection(net.Conn, *io.SectionReader) (int64, bool, error) { return 0, false, nil }
