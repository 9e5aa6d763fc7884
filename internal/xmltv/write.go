package xmltv

import (
	"bytes"
	"encoding/xml"
)

// xmltvTime is XMLTV's time: UTC, with its offset.
const xmltvTime = "20060102150405 -0700"

// xml writes the guide as an XMLTV document (xmltv.dtd): channels first, then programmes,
// each element's children in the order the DTD lists them.
func (g *guide) xml() []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<!DOCTYPE tv SYSTEM "xmltv.dtd">` + "\n")
	b.WriteString(`<tv source-info-name="sportsdb" generator-info-name="sportsdb">` + "\n")
	for _, c := range g.channels {
		b.WriteString(`  <channel id="` + esc(c.id) + `">` + "\n")
		b.WriteString("    <display-name>" + esc(c.name) + "</display-name>\n")
		icon(&b, c.icon)
		b.WriteString("  </channel>\n")
	}
	for _, p := range g.programmes {
		b.WriteString(`  <programme start="` + p.start.UTC().Format(xmltvTime) + `" stop="` +
			p.stop.UTC().Format(xmltvTime) + `" channel="` + esc(p.channel) + `">` + "\n")
		element(&b, "title", p.title)
		element(&b, "sub-title", p.subTitle)
		element(&b, "desc", p.desc)
		for _, c := range p.categories {
			element(&b, "category", c)
		}
		icon(&b, p.icon)
		b.WriteString("  </programme>\n")
	}
	b.WriteString("</tv>\n")
	return b.Bytes()
}

// element writes <name lang="en">text</name>, nothing for empty text.
func element(b *bytes.Buffer, name, text string) {
	if text == "" {
		return
	}
	b.WriteString("    <" + name + ` lang="en">` + esc(text) + "</" + name + ">\n")
}

func icon(b *bytes.Buffer, src string) {
	if src != "" {
		b.WriteString(`    <icon src="` + esc(src) + `"/>` + "\n")
	}
}

// esc escapes text for an element or a quoted attribute.
func esc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s)) // writes to memory cannot fail
	return b.String()
}
