package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The images workload's measurements that a request list cannot make (bench/images.sh):
// how long the first request for a smaller copy of a large original takes (the server
// decodes, scales, encodes and keeps it) against a request for a kept copy, and the server's
// memory while many first requests for copies of distinct large originals arrive at once.
// The originals are made here, deterministic photographs' stand-ins (gradients and noise,
// which JPEG and PNG cannot shrink to nothing), and uploaded by an editor key.

// imagesConfig is one `loadgen images`.
type imagesConfig struct {
	base, key  string
	pid        int
	copySide   int // the originals timed for a copy are copySide x copySide
	copyRuns   int // distinct originals timed, of each format
	burst      int // originals of the burst, each asked for a copy at once
	burstW     int
	burstH     int
	sampleGap  time.Duration
	httpClient *http.Client
}

// imagesResult is the line `loadgen images` prints.
type imagesResult struct {
	Type string `json:"type"`
	// Copy times of a copySide original, first request (made) and a later one (kept), in ms.
	CopySide      int                `json:"copy_side"`
	CopyFirstMs   map[string]float64 `json:"copy_first_ms_median"`
	CopyFirstMax  map[string]float64 `json:"copy_first_ms_max"`
	CopyKeptMs    map[string]float64 `json:"copy_kept_ms_median"`
	OriginalBytes map[string]int64   `json:"original_bytes"`
	// The burst: originals, their megapixels, and the server's RSS (KB) before it, its
	// highest sample during it, and VmHWM (the process's peak so far) before and after.
	Burst          int     `json:"burst"`
	BurstMP        float64 `json:"burst_megapixels"`
	BurstMs        float64 `json:"burst_ms"`
	BurstFailed    int     `json:"burst_failed"`
	RSSBeforeKB    int64   `json:"rss_before_kb"`
	RSSPeakKB      int64   `json:"rss_peak_kb"`
	HWMBeforeKB    int64   `json:"hwm_before_kb"`
	HWMAfterKB     int64   `json:"hwm_after_kb"`
	RSSIncreaseKB  int64   `json:"rss_increase_kb"`
	LoadAvgAtStart string  `json:"load_avg_start"`
	LoadAvgAtEnd   string  `json:"load_avg_end"`
}

func imagesCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen images", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "", "server address, host:port")
	keyFile := fs.String("editor", "", "file holding an editor key, for the uploads")
	var c imagesConfig
	fs.IntVar(&c.pid, "pid", 0, "the server's process id, for its memory (/proc/PID/status)")
	fs.IntVar(&c.copySide, "side", 2000, "side of the square originals timed for a copy")
	fs.IntVar(&c.copyRuns, "runs", 5, "distinct originals timed, of each format")
	fs.IntVar(&c.burst, "burst", 64, "originals of the burst, each asked for a copy at once")
	fs.IntVar(&c.burstW, "burst-w", 4000, "width of the burst's originals")
	fs.IntVar(&c.burstH, "burst-h", 3000, "height of the burst's originals")
	fs.DurationVar(&c.sampleGap, "sample", 5*time.Millisecond, "how often the server's RSS is read during the burst")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *addr == "" || *keyFile == "" || c.pid == 0 {
		return errors.New("images: -addr, -editor and -pid are required")
	}
	key, err := os.ReadFile(*keyFile)
	if err != nil {
		return fmt.Errorf("images: %w", err)
	}
	c.base, c.key = "http://"+*addr, strings.TrimSpace(string(key))
	c.httpClient = &http.Client{Timeout: 2 * time.Minute}
	res, err := runImages(ctx, c, stderr)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(res)
}

func runImages(ctx context.Context, c imagesConfig, log io.Writer) (imagesResult, error) {
	res := imagesResult{Type: "images", CopySide: c.copySide, Burst: c.burst, LoadAvgAtStart: loadAverage(),
		CopyFirstMs: map[string]float64{}, CopyFirstMax: map[string]float64{}, CopyKeptMs: map[string]float64{},
		OriginalBytes: map[string]int64{}}
	for _, format := range []string{"jpg", "png"} {
		var first, kept []time.Duration
		for i := range c.copyRuns {
			img := testImage(c.copySide, c.copySide, int64(1000+i))
			data, err := encodeImage(img, format)
			if err != nil {
				return res, err
			}
			res.OriginalBytes[format] = int64(len(data))
			path := fmt.Sprintf("/images/media/bench/copy/%d-%d.%s", c.copySide, i, format)
			if err := c.upload(ctx, path, data); err != nil {
				return res, err
			}
			for j := range 3 {
				took, err := c.timeGet(ctx, path+"/medium")
				if err != nil {
					return res, err
				}
				if j == 0 {
					first = append(first, took)
				} else {
					kept = append(kept, took)
				}
			}
		}
		slices.Sort(first)
		slices.Sort(kept)
		res.CopyFirstMs[format] = ms(first[len(first)/2])
		res.CopyFirstMax[format] = ms(first[len(first)-1])
		res.CopyKeptMs[format] = ms(kept[len(kept)/2])
		fmt.Fprintf(log, "images: a %dx%d %s original's first copy took %.1f ms (median of %d), a kept one %.2f ms\n",
			c.copySide, c.copySide, format, res.CopyFirstMs[format], len(first), res.CopyKeptMs[format])
	}
	if err := c.burstRun(ctx, &res, log); err != nil {
		return res, err
	}
	res.LoadAvgAtEnd = loadAverage()
	return res, nil
}

// burstRun uploads the burst's originals one at a time, then asks for a copy of each at once
// while it samples the server's RSS.
func (c imagesConfig) burstRun(ctx context.Context, res *imagesResult, log io.Writer) error {
	paths := make([]string, c.burst)
	base := testImage(c.burstW, c.burstH, 7)
	for i := range paths {
		// Each original differs (a stripe of its own), so no two share their bytes.
		img := image.NewRGBA(base.Bounds())
		copy(img.Pix, base.Pix)
		for x := range c.burstW {
			img.Set(x, i%c.burstH, color.RGBA{uint8(i), uint8(255 - i), uint8(i * 7), 255})
		}
		data, err := encodeImage(img, "jpg")
		if err != nil {
			return err
		}
		paths[i] = fmt.Sprintf("/images/media/bench/burst/%d.jpg", i)
		if err := c.upload(ctx, paths[i], data); err != nil {
			return err
		}
	}
	res.BurstMP = float64(c.burstW*c.burstH) / 1e6
	var err error
	if res.RSSBeforeKB, err = procStatus(c.pid, "VmRSS"); err != nil {
		return err
	}
	if res.HWMBeforeKB, err = procStatus(c.pid, "VmHWM"); err != nil {
		return err
	}
	stop := make(chan struct{})
	peak := make(chan int64, 1)
	go func() {
		high := res.RSSBeforeKB
		tick := time.NewTicker(c.sampleGap)
		defer tick.Stop()
		for {
			if v, err := procStatus(c.pid, "VmRSS"); err == nil {
				high = max(high, v)
			}
			select {
			case <-stop:
				peak <- high
				return
			case <-tick.C:
			}
		}
	}()
	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, p := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.timeGet(ctx, p+"/small"); err != nil {
				mu.Lock()
				res.BurstFailed++
				mu.Unlock()
				fmt.Fprintln(log, "images: burst:", err)
			}
		}()
	}
	wg.Wait()
	res.BurstMs = ms(time.Since(start))
	close(stop)
	res.RSSPeakKB = <-peak
	if res.HWMAfterKB, err = procStatus(c.pid, "VmHWM"); err != nil {
		return err
	}
	res.RSSIncreaseKB = res.RSSPeakKB - res.RSSBeforeKB
	fmt.Fprintf(log, "images: %d first copies of distinct %.0f-megapixel originals at once: %.0f ms, RSS %d -> %d MB (peak sampled), VmHWM %d -> %d MB\n",
		c.burst, res.BurstMP, res.BurstMs, res.RSSBeforeKB>>10, res.RSSPeakKB>>10, res.HWMBeforeKB>>10, res.HWMAfterKB>>10)
	return nil
}

func (c imagesConfig) upload(ctx context.Context, path string, data []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base+path, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("X-API-KEY", c.key)
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return fmt.Errorf("images: upload %s: %w", path, err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("images: upload %s: %d %s", path, resp.StatusCode, body)
	}
	return nil
}

// timeGet times a GET of path to its last byte; anything but a 200 image is an error.
func (c imagesConfig) timeGet(ctx context.Context, path string) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("images: GET %s: %w", path, err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	took := time.Since(start)
	if err != nil || resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "image/") || n == 0 {
		return 0, fmt.Errorf("images: GET %s: %d %s, %d bytes, %v", path, resp.StatusCode, resp.Header.Get("Content-Type"), n, err)
	}
	return took, nil
}

// testImage is a deterministic w x h picture of gradients and noise from seed.
func testImage(w, h int, seed int64) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	s := uint64(seed)*0x9E3779B97F4A7C15 + 1
	for y := range h {
		for x := range w {
			s ^= s << 13
			s ^= s >> 7
			s ^= s << 17
			n := uint8(s & 31)
			i := img.PixOffset(x, y)
			img.Pix[i] = uint8(x*255/w) ^ n
			img.Pix[i+1] = uint8(y*255/h) + n
			img.Pix[i+2] = uint8((x+y)*255/(w+h)) - n
			img.Pix[i+3] = 255
		}
	}
	return img
}

func encodeImage(img image.Image, format string) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	switch format {
	case "jpg":
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85})
	case "png":
		err = png.Encode(&buf, img)
	default:
		err = fmt.Errorf("no encoder for %s", format)
	}
	return buf.Bytes(), err
}

// procStatus reads one kB figure of /proc/PID/status (VmRSS, VmHWM).
func procStatus(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("the server's %s: %w", field, err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}
