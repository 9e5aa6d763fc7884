package app

import (
	"context"
	"fmt"
	"net/url"

	"sportsdb/internal/config"
	"sportsdb/internal/imageurl"
	"sportsdb/internal/media"
	"sportsdb/internal/store"
)

// ImageUpstream is a read-through that fetches the images the store does not hold
// (mirror.Fetcher.Image): the image routes ask it on a first request (media.Options.Missing).
type ImageUpstream interface {
	Image(ctx context.Context, path string) error
}

// imageRewriter is what points the image addresses of answers at this server: nil with
// --media-urls stored, or when the store keeps no images. Reading through to an upstream
// that fetches images, every image address points here: the image is fetched on its first
// request.
func imageRewriter(c *config.Config, d Deps) *imageurl.Rewriter {
	if c.MediaURLs == "stored" {
		return nil
	}
	images, _ := d.Store.(store.Images)
	if images == nil {
		return nil
	}
	hosts := append([]string(nil), imageurl.PublicHosts...)
	// Records read from another sportsdb name its own host.
	if u, err := url.Parse(c.Upstream); err == nil && u.Host != "" {
		hosts = append(hosts, u.Host)
	}
	hosts = append(hosts, c.MediaHosts...)
	_, all := d.Upstream.(ImageUpstream)
	// The data clock times the loads of the set: a pinned clock (demos, tests) never spaces
	// them out, so an image stored is named here by the next answer.
	clk := c.Clock()
	if d.Clock != nil {
		clk = d.Clock
	}
	return imageurl.New(imageurl.Options{Images: images, Hosts: hosts, All: all, PublicURL: c.PublicURL,
		TrustProxy: c.TrustProxy, TrustedProxies: c.TrustedProxies, Now: clk.Now})
}

// ImageAddresses is the rewrite of the records serve sends where no request says an address
// (webhooks, MQTT): the addresses of held images on --public-url; nil without it, with
// --media-urls stored, or when the store keeps no images.
func ImageAddresses(c *config.Config, d Deps) func(context.Context, []byte) []byte {
	rw := imageRewriter(c, d)
	if rw == nil {
		return nil
	}
	return rw.Published(d.Store.DataVersion)
}

// imageOptions are the options of the image tree. With a read-through that
// fetches images, an original the store does not hold (asked for, or the original of a copy
// asked for) is fetched first (media.Options.Missing); one the upstream cannot give now (it
// has none, the budget is spent, it is down) is not found here.
func imageOptions(d Deps) media.Options {
	o := d.Media
	up, reads := d.Upstream.(ImageUpstream)
	if !reads || o.Missing != nil {
		return o
	}
	o.Missing = func(ctx context.Context, path string) error {
		if err := up.Image(ctx, path); err != nil {
			return fmt.Errorf("%w: %v", store.ErrNotFound, err)
		}
		return nil
	}
	return o
}
