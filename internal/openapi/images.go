package openapi

import (
	"fmt"

	"sportsdb/internal/media"
)

const tagImages = "images"

// imagesPaths adds the image tree (docs/CONTRACT.md section 14, docs/PICTURES.md): no key to
// read, an editor's key to upload. {path} stands for every segment after /images/, slashes
// included, as in the public service's image URLs.
func imagesPaths(paths *obj) {
	pathParam := newObj("name", "path", "in", "path", "required", true, "schema", newObj("type", "string"),
		"description", "Whatever follows /images/ in the image's URL on the public service, slashes included.",
		"example", "media/team/badge/vrtrtp1448813175.png")
	sizes := make([]string, 0, len(media.Copies))
	for _, s := range []string{"medium", "small", "preview", "tiny"} {
		if _, ok := media.Copies[s]; ok {
			sizes = append(sizes, s)
		}
	}
	sizeParam := newObj("name", "size", "in", "path", "required", true, "schema", newObj("type", "string", "enum", sizes),
		"description", fmt.Sprintf("The smaller copy: medium (at most %d px wide), small (%d), preview (%d) or tiny (%d).",
			media.Copies["medium"], media.Copies["small"], media.Copies["preview"], media.Copies["tiny"]))
	one := newObj()
	one.set("get", imageGet(media.RouteImage, "get_image", "An image", "The image kept at this path, as the public service serves it there. "+
		"No key, no rate limit. Content-Type from the bytes; ETag of the content; cached a year, immutable; ranges and If-None-Match answered.",
		[]any{pathParam}))
	one.set("put", imagePut(pathParam))
	paths.set("/images/{path}", one)
	paths.set("/images/{path}/{size}", newObj("get", imageGet(media.RouteCopy, "get_image_copy", "A smaller copy of an image",
		"The image at {path} scaled down to the size's width, aspect kept, never enlarged (a narrower original is its own copy), "+
			"in the original's format (a GIF's first frame; a WebP's copy a lossless WebP). Made on its first request and kept.",
		[]any{pathParam, sizeParam})))
}

func imageGet(route, id, summary, desc string, params []any) *obj {
	binary := newObj("schema", newObj("type", "string", "format", "binary"))
	content := newObj()
	for _, t := range []string{media.PNG, media.JPEG, media.GIF, media.WebP} {
		content.set(t, binary)
	}
	headers := newObj(
		"ETag", newObj("schema", newObj("type", "string"), "description", "The SHA-256 of the bytes, quoted."),
		"Cache-Control", newObj("schema", newObj("const", media.CacheControl)))
	responses := newObj(
		"200", newObj("description", "The image.", "headers", headers, "content", content),
		"206", newObj("description", "The range asked for (Range: bytes=...).", "content", content),
		"304", newObj("description", "Not modified: If-None-Match named its ETag."),
		"400", errAnswer("A path no image can have: an empty, \".\" or \"..\" segment, a control character, over 512 bytes.", message(), nil),
		"404", ref("responses", "NotFound"),
		"503", ref("responses", "Unavailable"))
	return newObj("tags", []string{tagImages}, "summary", summary, "operationId", id, "description", desc,
		"x-route", route, "parameters", params, "responses", responses, "security", []any{})
}

func imagePut(pathParam *obj) *obj {
	binary := newObj("schema", newObj("type", "string", "format", "binary"))
	info := newObj("type", "object", "required", []string{"path", "type", "width", "height", "size", "hash"}, "additionalProperties", false,
		"properties", newObj("path", newObj("type", "string"), "type", newObj("enum", []string{media.PNG, media.JPEG, media.GIF, media.WebP}),
			"width", newObj("type", "integer"), "height", newObj("type", "integer"), "size", newObj("type", "integer"),
			"hash", newObj("type", "string", "description", "The SHA-256 of the bytes: the ETag it is served with.")))
	answer := func(d string) *obj {
		return newObj("description", d, "content", newObj("application/json", newObj("schema", info)))
	}
	responses := newObj(
		"200", answer("Replaced: the path held an image, and its smaller copies are gone."),
		"201", answer("Created."),
		"400", errAnswer("Invalid API key (none or unknown), a bad path or a copy's path, or a truncated or damaged file (the message says what).", message(), nil),
		"403", errAnswer("The key has no role that writes (editor or admin).", message("This key cannot write"), nil),
		"405", errAnswer("A path outside /images/media/.", message("Method not allowed"), nil),
		"413", errAnswer(fmt.Sprintf("Over %d MB, or over %d megapixels by its header (never decoded).", media.MaxBytes>>20, media.MaxPixels/1_000_000), message(), nil),
		"415", errAnswer("Not a PNG, JPEG, GIF or WebP image (SVG is refused).", message("Not a PNG, JPEG, GIF or WebP image"), nil),
		"429", ref("responses", "RateLimited"),
		"503", ref("responses", "Unavailable"))
	return newObj("tags", []string{tagImages}, "summary", "Upload an image", "operationId", "put_image",
		"description", "An editor's or admin's key keeps the raw bytes at this path, under /images/media/, for every replica. "+
			"Uploads count against the key's rate limit.",
		"x-route", media.RouteUpload, "parameters", []any{pathParam},
		"requestBody", newObj("required", true, "content", newObj("image/*", binary)),
		"responses", responses, "security", []any{newObj("ApiKeyHeader", []string{})})
}
