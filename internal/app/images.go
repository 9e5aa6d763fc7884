package app

import (
	"context"
	"errors"
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
	return imageurl.New(imageurl.Options{Images: images, Hosts: hosts, All: all, PublicURL: c.PublicURL,
		TrustProxy: c.TrustProxy, TrustedProxies: c.TrustedProxies})
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

// imageSource is the store the image tree reads, and its options. With a read-through that
// fetches images, an original the store does not hold is fetched on its first request, and
// so is the original of a copy asked for (media.Options.Missing).
func imageSource(d Deps) (store.Store, media.Options) {
	o := d.Media
	up, reads := d.Upstream.(ImageUpstream)
	is, keeps := d.Store.(store.Images)
	if !reads || !keeps {
		return d.Store, o
	}
	if o.Missing == nil {
		o.Missing = up.Image
	}
	return readThroughImages{Store: d.Store, Images: is, up: up}, o
}

// readThroughImages is a store whose originals not held are fetched when asked for.
type readThroughImages struct {
	store.Store
	store.Images
	up ImageUpstream
}

// Image returns the image at path, fetching an original first when it is not held. A fetch
// that fails (the upstream has none, the budget is spent) leaves it not found: answered 404,
// and asked for again on a later request unless the upstream refused it.
func (s readThroughImages) Image(ctx context.Context, path string) (store.Image, error) {
	img, err := s.Images.Image(ctx, path)
	if !errors.Is(err, store.ErrNotFound) {
		return img, err
	}
	if p, perr := media.ParsePath(path); perr != nil || p.Copy != "" {
		return img, err // a copy is made from its original, which Missing brings
	}
	if s.up.Image(ctx, path) != nil {
		return img, err
	}
	return s.Images.Image(ctx, path)
}
