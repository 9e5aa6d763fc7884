package apitest

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"

	"sportsdb/internal/store"
)

// MemImages keeps images in memory, for a store that keeps none: a put advances the data
// version of the environment's store, as a store that keeps them does.
type MemImages struct {
	mu     sync.Mutex
	images map[string]store.Image
	puts   atomic.Int64
}

// NewMemImages makes an empty MemImages.
func NewMemImages() *MemImages { return &MemImages{images: map[string]store.Image{}} }

// imageStore is the environment's store keeping its images in a MemImages.
type imageStore struct {
	store.Store
	*MemImages
}

func (s imageStore) DataVersion(ctx context.Context) (int64, error) {
	v, err := s.Store.DataVersion(ctx)
	return v + s.puts.Load(), err
}

func (m *MemImages) PutImage(_ context.Context, img store.Image) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.images[img.Path] = img
	m.puts.Add(1)
	return nil
}

func (m *MemImages) Image(_ context.Context, path string) (store.Image, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	img, ok := m.images[path]
	if !ok {
		return store.Image{}, store.ErrNotFound
	}
	return img, nil
}

func (m *MemImages) ImageInfo(ctx context.Context, path string) (store.Image, error) {
	img, err := m.Image(ctx, path)
	img.Data = nil
	return img, err
}

func (m *MemImages) ImageByHash(_ context.Context, hash string) (store.Image, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, img := range m.images {
		if img.Hash == hash {
			img.Data = nil
			return img, nil
		}
	}
	return store.Image{}, store.ErrNotFound
}

func (m *MemImages) ImagePaths(_ context.Context, fn func(string) error) error {
	m.mu.Lock()
	var paths []string
	for p := range m.images {
		paths = append(paths, p)
	}
	m.mu.Unlock()
	sort.Strings(paths)
	for _, p := range paths {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

func (m *MemImages) DeleteImage(_ context.Context, path string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.images[path]; !ok {
		return store.ErrNotFound
	}
	delete(m.images, path)
	m.puts.Add(1)
	return nil
}

func (m *MemImages) ImageStats(context.Context) (store.ImageStats, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var s store.ImageStats
	for _, img := range m.images {
		s.Images++
		s.Bytes += img.Size
	}
	return s, nil
}
