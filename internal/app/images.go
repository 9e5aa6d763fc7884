package app

import (
	"net/url"

	"sportsdb/internal/config"
	"sportsdb/internal/imageurl"
	"sportsdb/internal/store"
)

// imageRewriter is what points the image addresses of answers at this server: nil with
// --media-urls stored, or when the store keeps no images and nothing reads through.
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
	return imageurl.New(imageurl.Options{Images: images, Hosts: hosts, PublicURL: c.PublicURL,
		TrustProxy: c.TrustProxy, TrustedProxies: c.TrustedProxies})
}
