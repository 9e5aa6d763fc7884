package server

import (
	"cmp"
	"io"
	"net"
	"os"
	"syscall"
)

// sendSection sends the rest of a section of a file to a connection with sendfile(2) at the
// section's own offset, so that many requests send from one file at once without sharing
// its file position (net's sendfile reads from the position). handled is false, with
// nothing sent, when the section is not of a file or the connection has no descriptor.
func sendSection(dst net.Conn, sr *io.SectionReader) (written int64, handled bool, err error) {
	outer, base, size := sr.Outer()
	f, ok := outer.(*os.File)
	if !ok {
		return 0, false, nil
	}
	dc, ok := dst.(syscall.Conn)
	if !ok {
		return 0, false, nil
	}
	src, err := f.SyscallConn()
	if err != nil {
		return 0, false, nil
	}
	out, err := dc.SyscallConn()
	if err != nil {
		return 0, false, nil
	}
	pos, _ := sr.Seek(0, io.SeekCurrent)
	off, remain := base+pos, size-pos
	var serr, werr error
	// The file's Read holds it open while the bytes go; the connection's Write waits, within
	// its write deadline, while the socket is full.
	rerr := src.Read(func(in uintptr) bool {
		serr = out.Write(func(fd uintptr) bool {
			for remain > 0 {
				n, err := syscall.Sendfile(int(fd), int(in), &off, int(min(remain, 1<<30)))
				if n > 0 {
					written += int64(n)
					remain -= int64(n)
				}
				switch {
				case err == syscall.EAGAIN:
					return false
				case err == syscall.EINTR:
				case err != nil:
					werr = &net.OpError{Op: "sendfile", Net: dst.LocalAddr().Network(), Addr: dst.RemoteAddr(), Err: err}
					return true
				case n == 0:
					werr = io.ErrUnexpectedEOF // the file is shorter than the section
					return true
				}
			}
			return true
		})
		return true
	})
	_, _ = sr.Seek(pos+written, io.SeekStart)
	return written, true, cmp.Or(werr, serr, rerr)
}
