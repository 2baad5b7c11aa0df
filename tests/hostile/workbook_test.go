// SPDX-License-Identifier: Apache-2.0

//go:build hostile && linux

package hostile

import (
	"archive/zip"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/tests/gwproc"
)

// writeWorkbook writes an .xlsx of sheets sheets, each a header row and
// rows rows of cols cells, text and numbers in turn (inline strings, so
// the package has no shared string table).
func writeWorkbook(t *testing.T, path string, sheets, rows, cols int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := zip.NewWriter(f)
	part := func(name string, write func(w *strings.Builder)) {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`)
		write(&b)
		w, err := z.Create(name)
		if err == nil {
			_, err = w.Write([]byte(b.String()))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	const (
		pkgRels = "http://schemas.openxmlformats.org/package/2006/relationships"
		docRels = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
		main    = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
	)
	part("[Content_Types].xml", func(b *strings.Builder) {
		b.WriteString(`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>`)
		for s := 1; s <= sheets; s++ {
			fmt.Fprintf(b, `<Override PartName="/xl/worksheets/sheet%d.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`, s)
		}
		b.WriteString(`</Types>`)
	})
	part("_rels/.rels", func(b *strings.Builder) {
		fmt.Fprintf(b, `<Relationships xmlns=%q><Relationship Id="rId1" Type="%s/officeDocument" Target="xl/workbook.xml"/></Relationships>`, pkgRels, docRels)
	})
	part("xl/workbook.xml", func(b *strings.Builder) {
		fmt.Fprintf(b, `<workbook xmlns=%q xmlns:r=%q><sheets>`, main, docRels)
		for s := 1; s <= sheets; s++ {
			fmt.Fprintf(b, `<sheet name="Sheet%d" sheetId="%d" r:id="rId%d"/>`, s, s, s)
		}
		b.WriteString(`</sheets></workbook>`)
	})
	part("xl/_rels/workbook.xml.rels", func(b *strings.Builder) {
		fmt.Fprintf(b, `<Relationships xmlns=%q>`, pkgRels)
		for s := 1; s <= sheets; s++ {
			fmt.Fprintf(b, `<Relationship Id="rId%d" Type="%s/worksheet" Target="worksheets/sheet%d.xml"/>`, s, docRels, s)
		}
		b.WriteString(`</Relationships>`)
	})
	column := func(c int) string { return string(rune('A' + c)) }
	for s := 1; s <= sheets; s++ {
		part(fmt.Sprintf("xl/worksheets/sheet%d.xml", s), func(b *strings.Builder) {
			fmt.Fprintf(b, `<worksheet xmlns=%q><sheetData><row r="1">`, main)
			for c := range cols {
				fmt.Fprintf(b, `<c r="%s1" t="inlineStr"><is><t>field %d</t></is></c>`, column(c), c+1)
			}
			b.WriteString(`</row>`)
			for r := 2; r <= rows+1; r++ {
				fmt.Fprintf(b, `<row r="%d">`, r)
				for c := range cols {
					if c%2 == 0 {
						fmt.Fprintf(b, `<c r="%s%d" t="inlineStr"><is><t>item %d-%d</t></is></c>`, column(c), r, r, c)
					} else {
						fmt.Fprintf(b, `<c r="%s%d"><v>%d</v></c>`, column(c), r, r*c)
					}
				}
				b.WriteString(`</row>`)
			}
			b.WriteString(`</sheetData></worksheet>`)
		})
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// patientAttacker is the workbook attacker's client: each read is bounded
// by its context alone.
var patientAttacker = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}

// TestIssue38WorkbookSlots is the attack on the workbook slots (the
// outside attack of issue 38, finding 4): one token runs 16 threads (its
// --caller-concurrency) profiling a big workbook (20 sheets of 10,000
// rows by 12 columns, about 12 MB) under --workbook-root, which keep both
// slots (--workbook-concurrency 2) busy; the victim, another token,
// profiles a workbook of 10 rows in turn, 100 ms apart. The victim's
// reads must succeed at least minVictimBigSuccess of the time within the
// call timeout, and their median must stay under half of it: in arrival
// order the victim's read waited for every read the attacker had queued
// before it, and answered after 25 to 29.4 s of the 30 s (each read
// queued gets its slot when one that came before it reaches its deadline,
// so it is served just in time, and refused when the machine is slower).
// Given the slot first freed, it waits only for the attacker's read
// nearest its end.
func TestIssue38WorkbookSlots(t *testing.T) {
	// The attacker's threads start over 24 s; the victim reads for the
	// 36 s after.
	const workbookAttackTime = 60 * time.Second
	d := daguUnder
	root := t.TempDir()
	big, small := filepath.Join(root, "big.xlsx"), filepath.Join(root, "small.xlsx")
	writeWorkbook(t, big, 20, 10_000, 12)
	writeWorkbook(t, small, 1, 10, 3)
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	writeFile(t, tokens, "attacker:"+attackerToken+"\nvictim:"+victimToken+"\n")
	g := gwproc.Start(t, gwproc.Options{Bin: gatewayBin, Env: os.Environ(), Args: []string{
		"--dagu-url", d.url, "--dagu-api-key", d.key, "--auth-token-file", tokens, "--workbook-root", root,
	}})
	at := g.Base + "/mcp"
	read := func(path string) string { return fmt.Sprintf(`{"target":"workbook","path":%q}`, path) }

	start := time.Now()
	if o := patientRead(at, victimToken, read(small)); !o.ok {
		t.Fatalf("the victim does not read its workbook before the attack: %d %s %v", o.status, o.answer, o.err)
	}
	smallBefore := time.Since(start)
	start = time.Now()
	if o := patientRead(at, attackerToken, read(big)); !o.ok {
		t.Fatalf("the attacker does not read the big workbook before the attack: %d %s %v", o.status, o.answer, o.err)
	}
	bigBefore := time.Since(start)

	ctx := withTimeout(t, workbookAttackTime)
	var victim, attacker sizedTally
	var wg sync.WaitGroup
	// The attacker's threads start attackStagger apart, so that its reads
	// come and reach their deadlines at different times, as a client's
	// do; the victim starts once they all run.
	const attackThreads, attackStagger = 16, 1500 * time.Millisecond
	var calls atomic.Int64
	for i := range attackThreads {
		wg.Go(func() {
			sleep(ctx, time.Duration(i)*attackStagger)
			for ctx.Err() == nil && calls.Add(1) <= maxAttackRequests {
				// Each thread waits for its answer (a refusal at the
				// call's deadline included) and asks again at once, as a
				// client without a timeout of its own does.
				readCtx, cancel := context.WithTimeout(ctx, victimReadTimeout+5*time.Second)
				start := time.Now()
				o := postVia(readCtx, patientAttacker, at, attackerToken, rpcBody(read(big)), nil)
				cancel()
				if ctx.Err() == nil {
					attacker.add(o, time.Since(start))
				}
			}
		})
	}
	wg.Go(func() {
		sleep(ctx, attackThreads*attackStagger)
		for ctx.Err() == nil {
			start := time.Now()
			victim.add(patientRead(at, victimToken, read(small)), time.Since(start))
			sleep(ctx, 100*time.Millisecond)
		}
	})
	wg.Wait()
	t.Logf("RESULT workbook slots: victim %d/%d (%.0f%%, p50 %s); attacker %d of %d; before the attack small %s, big %s; peak RSS %d MiB",
		victim.ok.Load(), victim.total.Load(), 100*victim.rate(), victim.p50().Round(time.Millisecond),
		attacker.ok.Load(), attacker.total.Load(), smallBefore.Round(time.Millisecond), bigBefore.Round(time.Millisecond), g.PeakRSS(t)>>20)
	for why, n := range victim.failures {
		t.Logf("victim read failed %d times: %s", n, why)
	}
	for why, n := range attacker.failures {
		t.Logf("attacker read failed %d times: %s", n, why)
	}
	if !g.Alive() {
		t.Errorf("the gateway died during the attack")
	}
	if rss := g.PeakRSS(t); rss > maxPeakRSS {
		t.Errorf("peak RSS %d MiB, above %d MiB", rss>>20, maxPeakRSS>>20)
	}
	if victim.total.Load() == 0 || victim.rate() < minVictimBigSuccess {
		t.Errorf("the victim's workbook reads succeeded %d of %d times, below %.0f%%",
			victim.ok.Load(), victim.total.Load(), 100*minVictimBigSuccess)
	}
	if p50 := victim.p50(); p50 > victimReadTimeout/2 {
		t.Errorf("the victim's workbook reads took %s (median), more than half the call timeout: they waited for the attacker's", p50.Round(time.Millisecond))
	}
}
