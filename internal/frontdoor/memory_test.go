// SPDX-License-Identifier: Apache-2.0

package frontdoor

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dagu-mcp-gateway/gateway/internal/membudget"
	"github.com/dagu-mcp-gateway/gateway/internal/reqctx"
)

// memoryFrontDoor serves h behind the front door's memory admission on a
// loopback listener without tokens.
func memoryFrontDoor(t *testing.T, budget *membudget.Budget, h http.Handler) *httptest.Server {
	t.Helper()
	front, err := New(Options{MCP: h, Listen: "127.0.0.1:0", Memory: budget})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(front)
	t.Cleanup(ts.Close)
	return ts
}

// TestMemoryAdmission: a request reserves its share before its body is
// read; one that does not fit is refused at once with 503 and Retry-After,
// and every request gives its reservation back however its handler ends.
func TestMemoryAdmission(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		budget     int64
		body       string
		handler    func(http.ResponseWriter, *http.Request)
		wantStatus int
	}{
		{"fits", 1 << 20, ping, func(w http.ResponseWriter, r *http.Request) { _, _ = io.Copy(w, r.Body) }, http.StatusOK},
		{"does not fit", requestBaseBytes + 100, strings.Repeat(" ", 64), func(http.ResponseWriter, *http.Request) { t.Error("a refused request was served") }, http.StatusServiceUnavailable},
		{"handler panics", 1 << 20, ping, func(http.ResponseWriter, *http.Request) { panic("boom") }, http.StatusInternalServerError},
		{"handler grows and fails", 1 << 20, ping, func(w http.ResponseWriter, r *http.Request) {
			if err := membudget.From(r.Context()).Grow(1 << 30); !errors.Is(err, membudget.ErrSpent) {
				t.Errorf("growth past the budget: %v", err)
			}
			_ = membudget.From(r.Context()).Grow(1 << 10)
			w.WriteHeader(http.StatusAccepted)
		}, http.StatusAccepted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			budget := membudget.New("test", tt.budget)
			ts := memoryFrontDoor(t, budget, http.HandlerFunc(tt.handler))
			resp, err := ts.Client().Post(ts.URL+"/mcp", "application/json", strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.wantStatus)
			}
			if tt.wantStatus == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") != "1" {
				t.Fatalf("Retry-After = %q", resp.Header.Get("Retry-After"))
			}
			// The server finished the handler before the client read the
			// whole answer; Close waits for it.
			ts.Close()
			if budget.InUse() != 0 {
				t.Fatalf("%d bytes still reserved after the request", budget.InUse())
			}
		})
	}
}

// TestMemoryIsReleasedWhenTheClientGoesAway: a client that gives up while
// its request is served leaves nothing reserved once the handler returns.
func TestMemoryIsReleasedWhenTheClientGoesAway(t *testing.T) {
	t.Parallel()
	budget := membudget.New("test", 1<<20)
	started, finished := make(chan struct{}), make(chan struct{})
	ts := memoryFrontDoor(t, budget, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		defer close(finished)
		close(started)
		<-r.Context().Done()
	}))
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/mcp", strings.NewReader(ping))
	go func() {
		<-started
		if budget.InUse() == 0 {
			t.Error("nothing reserved while the request is served")
		}
		cancel()
	}()
	if _, err := ts.Client().Do(req); err == nil {
		t.Fatal("the cancelled request succeeded")
	}
	<-finished
	ts.Close()
	if budget.InUse() != 0 {
		t.Fatalf("%d bytes still reserved after the client went away", budget.InUse())
	}
}

// TestReservationReachesTheTool: behind the real SDK handler, a tool's
// context carries the request's reservation, so the answer it builds is
// reserved in the same budget.
func TestReservationReachesTheTool(t *testing.T) {
	t.Parallel()
	budget := membudget.New("test", 4<<20)
	server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	held := make(chan int64, 1)
	server.AddTool(&mcp.Tool{Name: "probe", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			err := membudget.From(ctx).Grow(1 << 20)
			held <- membudget.From(ctx).Held()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, err
		})
	ts := memoryFrontDoor(t, budget, MCPHandler(server, nil))
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"probe","arguments":{}}}`))
	expectMCPAnswer(t, ts, req, http.StatusOK, `"ok"`)
	if got := <-held; got <= 1<<20 {
		t.Fatalf("the tool's reservation holds %d bytes: it did not reach the tool", got)
	}
	ts.Close()
	if budget.InUse() != 0 {
		t.Fatalf("%d bytes still reserved", budget.InUse())
	}
}

// deadlineWriter records the chunks written and the deadlines set, and
// fails writes after failAfter chunks (a client that stopped reading).
type deadlineWriter struct {
	httptest.ResponseRecorder
	chunks    []int
	deadlines int
	failAfter int
}

func (d *deadlineWriter) Write(p []byte) (int, error) {
	if d.failAfter > 0 && len(d.chunks) == d.failAfter {
		return 0, errors.New("i/o timeout")
	}
	d.chunks = append(d.chunks, len(p))
	return len(p), nil
}

func (d *deadlineWriter) SetWriteDeadline(time.Time) error { d.deadlines++; return nil }

// TestAnswersAreWrittenInChunksWithDeadlines: every chunk gets its own
// write deadline, and the first chunk the client does not take ends the
// write.
func TestAnswersAreWrittenInChunksWithDeadlines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		size       int
		failAfter  int
		wantChunks int
		wantErr    bool
	}{
		{"small", 100, 0, 1, false},
		{"several chunks", 3*chunkBytes + 1, 0, 4, false},
		{"client stops reading", 10 * chunkBytes, 2, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := &deadlineWriter{failAfter: tt.failAfter}
			n, err := newChunkedWriter(rec).Write(make([]byte, tt.size))
			if (err != nil) != tt.wantErr || len(rec.chunks) != tt.wantChunks || rec.deadlines < len(rec.chunks) {
				t.Fatalf("err %v, chunks %v, deadlines %d", err, rec.chunks, rec.deadlines)
			}
			for _, c := range rec.chunks {
				if c > chunkBytes {
					t.Fatalf("a chunk of %d bytes", c)
				}
			}
			if !tt.wantErr && n != tt.size {
				t.Fatalf("wrote %d of %d", n, tt.size)
			}
		})
	}
}

// TestNoCallerCanSpendAnothersMemory: in passthrough, the requests of one
// verified caller, and those of all unverified callers together, reserve
// within their own share of the budget, so requests held open (a declared
// body never sent holds its reservation until the read timeout) never make
// another verified caller's read answer 503. Before the shares, 768
// made-up bearers, or 91 requests of one login token, each holding one
// such request spent the whole default budget.
func TestNoCallerCanSpendAnothersMemory(t *testing.T) {
	t.Parallel()
	passthrough := func(o *Options) {
		o.Passthrough = true
		o.Verify = func(_ context.Context, credential, _ string) (reqctx.Trust, string) {
			if strings.HasPrefix(credential, "dagu_") {
				return reqctx.TrustVerified, "key:" + credential
			}
			return reqctx.TrustRefused, "unverified:192.0.2.1"
		}
	}
	// The attack reviewer's case: one inbound token holder's held
	// requests left the other token holders 1 of 80 reads.
	tokens := func(o *Options) { o.Tokens = []string{"dagu_hog-token-0123", "dagu_good"} }
	tests := []struct {
		name, hog, good string
		mode            func(*Options)
		// grow: each held request of the hog grows its reservation as far
		// as it goes (the answers it builds), as a flood of big reads does.
		grow bool
	}{
		{"passthrough, made-up key", "made-up", "dagu_good", passthrough, false},
		{"passthrough, one ordinary key", "dagu_hog", "dagu_good", passthrough, false},
		{"inbound tokens, one token holder", "dagu_hog-token-0123", "dagu_good", tokens, false},
		{"inbound tokens, one token holder's answers", "dagu_hog-token-0123", "dagu_good", tokens, true},
		{"passthrough, one ordinary key's answers", "dagu_hog", "dagu_good", passthrough, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			held := holdRequests(t, tt.hog, tt.good, tt.mode, tt.grow)
			if held == 0 || held >= 8 {
				t.Fatalf("%s held %d requests in a budget of 8", tt.hog, held)
			}
		})
	}
}

// holdRequests serves a front door (in the mode mode sets) whose budget
// takes 8 requests of unknown length, sends requests of hog that the
// handler holds (each grown as far as it goes first, with grow) until one
// is refused, then checks that the verified caller good is still served;
// it returns how many of hog's requests were held.
func holdRequests(t *testing.T, hog, good string, mode func(*Options), grow bool) int {
	const maxBody = 8 << 10
	budget := membudget.New("test", 8*requestReserve(maxBody, maxBody))
	release, entered := make(chan struct{}), make(chan struct{}, 64)
	o := Options{
		Listen: "127.0.0.1:0", Memory: budget, MaxBodyBytes: maxBody,
		MCP: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") == "Bearer "+hog {
				for grow && membudget.From(r.Context()).Grow(maxBody) == nil {
				}
				entered <- struct{}{}
				<-release
			}
			w.WriteHeader(http.StatusOK)
		}),
	}
	mode(&o)
	front, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(front)
	t.Cleanup(ts.Close)
	post := func(bearer string) int {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(ping))
		req.Header.Set("Authorization", "Bearer "+bearer)
		if bearer == hog {
			req.ContentLength = -1 // unknown length: the reservation of the largest body allowed
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Error(err)
			return 0
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	held := 0
	done := make(chan int, 16)
	defer func() {
		close(release)
		for range held {
			<-done
		}
	}()
	for range 16 {
		go func() { done <- post(hog) }()
		select {
		case <-entered:
			held++
			continue
		case code := <-done:
			if code != http.StatusServiceUnavailable {
				t.Fatalf("a request of %s ended with %d while others were held", hog, code)
			}
		}
		break
	}
	if code := post(good); code != http.StatusOK {
		t.Errorf("with %d requests of %s held, a verified caller's request answered %d, want 200", held, hog, code)
	}
	if budget.Refusals() == 0 {
		t.Error("the budget counted no refusal")
	}
	return held
}
