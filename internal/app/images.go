package app

import (
	"context"
	"net/url"

	"sportsdb/internal/config"
	"sportsdb/internal/imageurl"
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
	_, all := d.Upstream.(ImageUpstream)
	return imageurl.New(imageurl.Options{Images: images, Hosts: hosts, All: all, PublicURL: c.PublicURL,
		TrustProxy: c.TrustProxy, TrustedProxies: c.TrustedProxies})
}
