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
	sc := newXMLScanner(r)
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
	doc := io.MultiReader(strings.NewReader("<a>"), io.LimitReader(infiniteReader{}, 3*maxXMLTokenBytes), strings.NewReader("</a>"))
	sc := newXMLScanner(doc)
	var names []string
	for {
		err := sc.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, string(sc.name))
	}
	if !reflect.DeepEqual(names, []string{"a", "a"}) {
		t.Errorf("tokens %q", names)
	}
}

func TestNextAttr(t *testing.T) {
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
