// SPDX-License-Identifier: Apache-2.0

package workbook

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// tokens renders every token of doc, with text wanted everywhere.
func tokens(r io.Reader) ([]string, error) {
	sc := newXMLScanner(r, nil)
	sc.wantText = true
	var out []string
	for {
		err := sc.next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		switch sc.kind {
		case tokenStart:
			out = append(out, fmt.Sprintf("<%s|%s|%v>", sc.name, strings.TrimSpace(string(sc.attrs)), sc.selfClosing))
		case tokenEnd:
			out = append(out, fmt.Sprintf("</%s>", sc.name))
		case tokenText:
			out = append(out, "T:"+string(appendUnescaped(nil, sc.text)))
		case tokenCDATA:
			out = append(out, "C:"+string(sc.text))
		}
	}
}

func TestXMLScannerTokens(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{"elements and attributes", `<?xml version="1.0"?><a x="1"><b y='2'/></a>`,
			[]string{`<a|x="1"|false>`, `<b|y='2'|true>`, `</a>`}},
		{"prefixes dropped", `<x:row r="1"><x:c/></x:row>`,
			[]string{`<row|r="1"|false>`, `<c||true>`, `</row>`}},
		{"gt inside attribute", `<a t="x>y" u='>'>v</a>`,
			[]string{`<a|t="x>y" u='>'|false>`, "T:v", `</a>`}},
		{"entities", `<t>a&amp;b&lt;&#65;&#x42;&bogus;&</t>`,
			[]string{`<t||false>`, "T:a&b<AB&bogus;&", `</t>`}},
		{"cdata and comments", `<t><!-- <no> --><![CDATA[<raw>&amp;]]></t>`,
			[]string{`<t||false>`, "C:<raw>&amp;", `</t>`}},
		{"doctype skipped", `<!DOCTYPE x><a/>`, []string{`<a||true>`}},
		{"newline in tag", "<c\nr=\"A1\"\n/>", []string{"<c|r=\"A1\"|true>"}},
		{"trailing text", `<a/>tail`, []string{`<a||true>`, "T:tail"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tokens(strings.NewReader(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			oneByte, err := tokens(iotest.OneByteReader(strings.NewReader(tt.doc)))
			if err != nil || !reflect.DeepEqual(oneByte, tt.want) {
				t.Errorf("one byte at a time: %q, %v", oneByte, err)
			}
		})
	}
}

func TestXMLScannerErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		doc  io.Reader
		want error
	}{
		{"unterminated tag", strings.NewReader(`<a x="1`), errXMLUnterminated},
		{"unterminated comment", strings.NewReader(`<!-- x`), errXMLUnterminated},
		{"oversized token", io.MultiReader(strings.NewReader("<a b=\""), infiniteReader{}), errXMLTokenTooLarge},
		{"read error", iotest.ErrReader(io.ErrUnexpectedEOF), io.ErrUnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tokens(tt.doc); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// infiniteReader yields 'x' forever.
type infiniteReader struct{}

func (infiniteReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func TestXMLScannerSkipsUnwantedTextWithoutBuffering(t *testing.T) {
	t.Parallel()
	doc := io.MultiReader(strings.NewReader("<a>"), io.LimitReader(infiniteReader{}, 3*maxXMLTokenBytes), strings.NewReader("</a>"))
	sc := newXMLScanner(doc, nil)
	var names []string
	eachToken(t, sc, func() { names = append(names, string(sc.name)) })
	if !reflect.DeepEqual(names, []string{"a", "a"}) {
		t.Errorf("tokens %q", names)
	}
}

func TestNextAttr(t *testing.T) {
	t.Parallel()
	raw := []byte(` r="A1" x:s = '3' t="s" broken`)
	var got []string
	for {
		name, value, rest, ok := nextAttr(raw)
		if !ok {
			break
		}
		got = append(got, string(name)+"="+string(value))
		raw = rest
	}
	if want := []string{"r=A1", "s=3", "t=s"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// FuzzXMLScanner feeds arbitrary bytes: the scanner must not panic and
// must see the same tokens whether input arrives whole or byte by byte.
func FuzzXMLScanner(f *testing.F) {
	for _, seed := range []string{
		`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`,
		`<a t='x>y'><![CDATA[z]]><!-- c --></a>`,
		`<?pi?><t>&amp;&#1;&#xFFFFFFFF;</t>`,
		`<<>>`, `<a b="`, `</`, `<!`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		whole, errWhole := tokens(strings.NewReader(string(doc)))
		split, errSplit := tokens(iotest.OneByteReader(strings.NewReader(string(doc))))
		if (errWhole == nil) != (errSplit == nil) || !reflect.DeepEqual(whole, split) {
			t.Errorf("whole %q (%v) != split %q (%v)", whole, errWhole, split, errSplit)
		}
	})
}

// decodedPieces scans one element of text and returns the decoded
// concatenation of its text tokens and how many there were.
func decodedPieces(t *testing.T, r io.Reader) (string, int) {
	t.Helper()
	sc := newXMLScanner(r, nil)
	sc.wantText = true
	var got []byte
	pieces := 0
	eachToken(t, sc, func() {
		if sc.kind == tokenText {
			got = appendText(got, sc.text, false)
			pieces++
		}
	})
	return string(got), pieces
}

// eachToken calls visit after each token sc reads, to the end of the
// document; a scan error fails the test.
func eachToken(t *testing.T, sc *xmlScanner, visit func()) {
	t.Helper()
	for {
		err := sc.next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		visit()
	}
}

// FuzzXMLScannerPieces repeats a fuzzed unit past the piece size: the
// pieces always decode to the text decoded whole.
func FuzzXMLScannerPieces(f *testing.F) {
	f.Add("a&amp;b_x0041_", uint16(5000))
	f.Add("&#95;x00", uint16(9000))
	f.Add("_", uint16(40000))
	f.Fuzz(func(t *testing.T, unit string, reps uint16) {
		unit = strings.ReplaceAll(unit, "<", "")
		if unit == "" || len(unit)*int(reps) > 1<<20 {
			return
		}
		text := strings.Repeat(unit, int(reps))
		want := string(appendText(nil, []byte(text), false))
		if got, _ := decodedPieces(t, strings.NewReader("<t>"+text+"</t>")); got != want {
			t.Fatalf("pieces decode to %d bytes, whole to %d", len(got), len(want))
		}
	})
}

// TestXMLScannerSplitsLongText checks that long wanted text arrives in
// pieces of at most textChunkBytes that decode, one by one, to the whole
// text decoded at once, wherever entities and escapes fall; text too
// dense with them to be cut safely arrives whole.
func TestXMLScannerSplitsLongText(t *testing.T) {
	t.Parallel()
	sparse := strings.Repeat("plain text ", 9) + "&amp;&#95;x0041_ _x000D_"
	tests := []struct {
		name  string
		text  string
		split bool
	}{
		{"plain", strings.Repeat("abcdefgh", 20_000), true},
		{"sparse entities and escapes", strings.Repeat(sparse, 1_000), true},
		{"dense entities", strings.Repeat("x&amp;y&#x41;z&lt;", 12_000), false},
		{"dense escapes", strings.Repeat("a_x000D_b_x005F_", 12_000), false},
		{"only ampersands", strings.Repeat("&", 3*textChunkBytes), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "<t>" + tt.text + "</t>"
			want := string(appendText(nil, []byte(tt.text), false))
			for _, r := range []io.Reader{strings.NewReader(doc), iotest.HalfReader(strings.NewReader(doc))} {
				got, pieces := decodedPieces(t, r)
				if got != want {
					t.Fatalf("pieces decode to %d bytes, want %d", len(got), len(want))
				}
				if tt.split && pieces < len(tt.text)/textChunkBytes {
					t.Errorf("%d pieces for %d bytes", pieces, len(tt.text))
				}
			}
		})
	}
}
