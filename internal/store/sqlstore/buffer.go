package sqlstore

import (
	"context"
	"errors"
	"fmt"

	"sportsdb/internal/record"
)

// Buffer is the part of the write transaction (Tx) that collects upserts and replaces in a
// Batch and has them written whenever size records are waiting.
type Buffer struct {
	*Batch
	backend string // for error messages: "sqlite", "postgres"
	size    int
	flush   func(context.Context) error
	closed  bool // the transaction has ended: buffering more would lose it silently
}

// NewBuffer returns an empty buffer that calls flush when size records are waiting.
func NewBuffer(backend string, size int, flush func(context.Context) error) *Buffer {
	return &Buffer{Batch: NewBatch(), backend: backend, size: size, flush: flush}
}

// Upsert stores r merged into the stored record of the same id.
func (b *Buffer) Upsert(ctx context.Context, r record.Record) error {
	if err := b.add(ctx, r, false); err != nil {
		return fmt.Errorf("%s: upsert: %w", b.backend, err)
	}
	return nil
}

// Replace stores r as it is. A replaced record keeps its place in insertion order.
func (b *Buffer) Replace(ctx context.Context, r record.Record) error {
	if err := b.add(ctx, r, true); err != nil {
		return fmt.Errorf("%s: replace: %w", b.backend, err)
	}
	return nil
}

// Close marks the transaction ended; a later Upsert or Replace is an error.
func (b *Buffer) Close() { b.closed = true }

func (b *Buffer) add(ctx context.Context, r record.Record, replace bool) error {
	if b.closed {
		return errors.New("transaction has ended")
	}
	if err := b.Batch.Add(r, replace); err != nil {
		return err
	}
	if b.Batch.Len() >= b.size {
		return b.flush(ctx)
	}
	return nil
}
