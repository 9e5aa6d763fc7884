package media

// The pictures of the package's tests, for its HTTP tests (package media_test).
var (
	PNGOf        = pngOf
	JPEGOf       = jpegOf
	PNGClaiming  = pngClaiming
	JPEGClaiming = jpegClaiming
)
