package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"text/tabwriter"

	"sportsdb/internal/media"
	"sportsdb/internal/store"
)

func mediaAddCmd(ctx context.Context, inv *invocation) error {
	file := inv.args[0]
	info, err := os.Stat(file)
	if err != nil {
		return fmt.Errorf("media add: %w", err)
	}
	// Refused before it is read: the file may be anything.
	if info.Size() > media.MaxBytes {
		return fmt.Errorf("media add: %s: %w: %d bytes, at most %d", file, media.ErrTooLarge, info.Size(), media.MaxBytes)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("media add: %w", err)
	}
	st, is, err := openAs[store.Images](ctx, inv, "media: the database keeps no images")
	if err != nil {
		return err
	}
	defer st.Close()
	img, err := media.New(is, media.Options{Clock: inv.cfg.Clock()}).Put(ctx, inv.cfg.MediaPath, data, "")
	if err != nil {
		return fmt.Errorf("media add: %s: %w", file, err)
	}
	fmt.Fprintf(inv.stdout, "%s\t%s\t%dx%d\t%d bytes\n", img.Path, img.Type, img.Width, img.Height, img.Size)
	return nil
}

func mediaListCmd(ctx context.Context, inv *invocation) error {
	st, is, err := openAs[store.Images](ctx, inv, "media: the database keeps no images")
	if err != nil {
		return err
	}
	defer st.Close()
	tw := tabwriter.NewWriter(inv.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tTYPE\tPIXELS\tBYTES\tSOURCE")
	err = is.ImagePaths(ctx, func(path string) error {
		img, err := is.ImageInfo(ctx, path)
		if errors.Is(err, store.ErrNotFound) {
			return nil // removed meanwhile
		}
		if err != nil {
			return err
		}
		src := img.Source
		if src == "" {
			src = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%dx%d\t%d\t%s\n", img.Path, img.Type, img.Width, img.Height, img.Size, src)
		return nil
	})
	if err != nil {
		return fmt.Errorf("media list: %w", err)
	}
	stats, err := is.ImageStats(ctx)
	if err != nil {
		return fmt.Errorf("media list: %w", err)
	}
	tw.Flush()
	fmt.Fprintf(inv.stdout, "%d images with their copies, %d bytes\n", stats.Images, stats.Bytes)
	return nil
}

func mediaRemoveCmd(ctx context.Context, inv *invocation) error {
	path := inv.args[0]
	if _, err := media.ParsePath(path); err != nil {
		return fmt.Errorf("media remove: %w", err)
	}
	st, is, err := openAs[store.Images](ctx, inv, "media: the database keeps no images")
	if err != nil {
		return err
	}
	defer st.Close()
	if err := is.DeleteImage(ctx, path); errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("media remove: no image at %s", path)
	} else if err != nil {
		return fmt.Errorf("media remove: %w", err)
	}
	return nil
}
