// SPDX-License-Identifier: Apache-2.0

package fakedagu

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func FuzzSearchCursors(f *testing.F) {
	f.Add("eyJ2IjoxLCJxIjoiZWNobyIsImZpbGVOYW1lIjoiYmlnX2xvZ19qb2IifQ")
	f.Add("eyJ2IjoxLCJxIjoidGhlIiwiaWQiOiJvcHMvb25jYWxsL2hhbmRib29rIn0")
	f.Add("")
	f.Add("%%%")
	f.Add("bnVsbA")
	f.Fuzz(func(t *testing.T, cursor string) {
		var dag dagSearchCursor
		if decodeCursor(cursor, &dag) == nil {
			var again dagSearchCursor
			if err := decodeCursor(encodeCursor(dag), &again); err != nil || !reflect.DeepEqual(normalizeDAGCursor(dag), normalizeDAGCursor(again)) {
				t.Errorf("DAG cursor does not round-trip: %+v vs %+v (%v)", dag, again, err)
			}
			sq := dagSearchQuery{q: dag.Q, workspace: workspaceAll}
			_ = sq.fits(dag)
		}
		var wiki wikiSearchCursor
		if decodeCursor(cursor, &wiki) == nil {
			sq := wikiSearchQuery{q: wiki.Q, workspace: workspaceAll}
			_ = sq.fits(wiki)
		}
	})
}

func normalizeDAGCursor(c dagSearchCursor) dagSearchCursor {
	if len(c.Labels) == 0 {
		c.Labels = nil
	}
	return c
}

func FuzzRunCursor(f *testing.F) {
	q := runListQuery{from: time.Unix(0, 0).UTC(), limit: 2}
	f.Add(q.cursorAfter(&runRecord{name: "approval_job", id: "0356UUns2Uzg25nn0kcIIt", ts: time.Date(2026, 11, 30, 9, 30, 20, 0, time.UTC)}))
	f.Add("eyJ2IjozfQ")
	f.Add("not a cursor")
	f.Fuzz(func(t *testing.T, cursor string) {
		q := runListQuery{from: time.Unix(0, 0).UTC(), cursor: cursor}
		after, err := q.afterCursor()
		if err == nil && cursor != "" && (after == nil || after.name == "" || after.id == "") {
			t.Errorf("accepted cursor %q without a position", cursor)
		}
		if err == nil && after != nil {
			q.cursor = q.cursorAfter(after)
			again, err := q.afterCursor()
			if err != nil || again.name != after.name || again.id != after.id || !again.ts.Equal(after.ts) {
				t.Errorf("run cursor does not round-trip: %v", err)
			}
		}
	})
}

func FuzzValidatePagePath(f *testing.F) {
	for _, seed := range []string{"runbooks/nightly-export", "a//b", "con", "x/y.", " lead", "ok name/x_y-z.md", strings.Repeat("a", 300)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if validatePagePath(p) != nil {
			return
		}
		if p == "" || len(p) > maxPagePathLen || strings.Contains(p, "//") || strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") {
			t.Errorf("accepted %q", p)
		}
	})
}

func FuzzTimeShift(f *testing.F) {
	f.Add("2026-11-30T09:30:24.472222823Z")
	f.Add("/var/lib/dagu/logs/x/dag-run_20261130_093019Z_id/run_20261130_093019Z_867a94/main.20261130.093019.586.id.out")
	f.Add("time=2026-11-30T09:30:19.585Z level=INFO started-at=2026-11-30T09:30:19+09:00")
	f.Add("0001-01-01T00:00:00Z")
	f.Fuzz(func(t *testing.T, s string) {
		const d = timeShift(36 * time.Hour)
		moved := d.apply(s)
		if !strings.ContainsAny(s, "0123456789") && moved != s {
			t.Errorf("a string without digits changed: %q -> %q", s, moved)
		}
		if ts, err := time.Parse(time.RFC3339Nano, s); err == nil && ts.Year() >= 2000 && ts.Year() < 9000 {
			if back := (-d).apply(moved); back != s {
				t.Errorf("shift does not round-trip: %q -> %q -> %q", s, moved, back)
			}
		}
	})
}

func FuzzLogWindow(f *testing.F) {
	f.Add("a\nb\nc\n", 0, 2, 0, 0)
	f.Add("", 1, 0, 0, 0)
	f.Add("only", 0, 0, 3, 5)
	f.Add("x\n\ny", 0, 0, 0, -1)
	f.Fuzz(func(t *testing.T, content string, head, tail, offset, limit int) {
		file := newLogFile(parseStoredLog(content))
		w := file.window(windowRequest{Head: head, Tail: tail, Offset: offset, Limit: limit})
		n := file.text.numLines()
		if w.count < 0 || w.first < 0 || w.first+w.count > n {
			t.Fatalf("window [%d,+%d) outside %d lines", w.first, w.count, n)
		}
		body := file.logBody(windowRequest{Head: head, Tail: tail, Offset: offset, Limit: limit})
		if _, has := body["lineCount"]; has != (w.count > 0) {
			t.Errorf("lineCount present=%v for %d lines", has, w.count)
		}
		if w.count > 0 && !w.tooLong && strings.Count(body["content"].(string), "\n") != w.count-1 {
			t.Errorf("content has the wrong number of lines")
		}
	})
}

func FuzzRouterFind(f *testing.F) {
	s := New(Options{Foreach: ForeachRoutes})
	for _, seed := range []string{"/dags", "/dag-runs/a/b/steps/c%2Fd/log", "/dag-runs/a/b/steps/s/foreach/1.x.0/steps/y/log", "//", "/dags/%zz", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, path string) {
		rt, params := s.router.find(path)
		if rt == nil {
			return
		}
		for k, v := range params {
			if v == "" || !strings.Contains(rt.template, "{"+k+"}") {
				t.Errorf("route %s gave param %s=%q", rt.template, k, v)
			}
		}
	})
}

func FuzzFindMatches(f *testing.F) {
	f.Add("steps:\n  - name: main\n    run: echo main\n", "ECHO")
	f.Add("a\nb", "")
	f.Fuzz(func(t *testing.T, text, q string) {
		if q == "" {
			return
		}
		for _, m := range findMatches(text, q) {
			lines := strings.Split(m.line, "\n")
			if m.lineNumber < m.startLine || m.lineNumber >= m.startLine+len(lines) || len(lines) > 2*snippetContext+1 {
				t.Fatalf("bad snippet %+v", m)
			}
			if !strings.Contains(strings.ToLower(lines[m.lineNumber-m.startLine]), strings.ToLower(q)) {
				t.Errorf("line %d does not contain %q", m.lineNumber, q)
			}
		}
	})
}

func FuzzBearerToken(f *testing.F) {
	f.Add("Bearer dagu_key")
	f.Add("bearer   x  ")
	f.Add("Basic abc")
	f.Fuzz(func(t *testing.T, header string) {
		token, ok := bearerToken(header)
		if ok && (token == "" || token != strings.TrimSpace(token)) {
			t.Errorf("token %q from %q", token, header)
		}
	})
}
