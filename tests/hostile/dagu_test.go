// SPDX-License-Identifier: Apache-2.0

//go:build hostile && linux

package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dagu-mcp-gateway/gateway/internal/fakedagu"
)

// dagu is the Dagu the gateways under attack read: a real one
// (HOSTILE_DAGU_URL) or the fake behind a small authenticating front.
type dagu struct {
	url      string // base URL, without the API base
	key      string // the victim's key, one Dagu accepts
	user     string // for logins (real Dagu: HOSTILE_DAGU_USER)
	password string
	bigLog   string // a dagu:// URI of a big finished step log
	front    *daguFront
}

// Fake-mode constants: the fake's recorded big-log run, and what the
// front serves for its step log (attack 3 of issue 28).
const (
	bigLogRun       = "/dag-runs/big_log_job/0356UUo2lMk0yUwBDR9c0n/steps/spew/log"
	bigLogLines     = 12_000
	bigLogLineBytes = 2_000
	fakeUser        = "alice"
	fakePassword    = "alice-password"
)

// newDagu reads the environment: HOSTILE_DAGU_URL and HOSTILE_DAGU_KEY
// (a key with the rest_api surface), HOSTILE_DAGU_USER and
// HOSTILE_DAGU_PASSWORD (logins), HOSTILE_BIG_LOG_URI (a dagu:// step log
// URI of a big finished log). Without HOSTILE_DAGU_URL the fake is served
// on a loopback port of this process.
func newDagu() (*dagu, func()) {
	if url := os.Getenv("HOSTILE_DAGU_URL"); url != "" {
		return &dagu{
			url:      strings.TrimRight(url, "/"),
			key:      os.Getenv("HOSTILE_DAGU_KEY"),
			user:     os.Getenv("HOSTILE_DAGU_USER"),
			password: os.Getenv("HOSTILE_DAGU_PASSWORD"),
			bigLog:   os.Getenv("HOSTILE_BIG_LOG_URI"),
		}, func() {}
	}
	front := newDaguFront()
	srv := httptest.NewServer(front)
	return &dagu{
		url: srv.URL, key: front.mintKey(), user: fakeUser, password: fakePassword, front: front,
		bigLog: "dagu://runs/big_log_job/0356UUo2lMk0yUwBDR9c0n/steps/spew/logs",
	}, srv.Close
}

// unknownCredentials counts the requests that reached the fake with a
// credential it never issued (-1 with a real Dagu, which does not say).
func (d *dagu) unknownCredentials() int64 {
	if d.front == nil {
		return -1
	}
	return d.front.checks.Load()
}

// bigLogReads counts the reads of the big log's tail window that reached
// the fake (-1 with a real Dagu, which does not say).
func (d *dagu) bigLogReads(tail int) int64 {
	if d.front == nil {
		return -1
	}
	if n, ok := d.front.tails.Load(tail); ok {
		return n.(*atomic.Int64).Load()
	}
	return 0
}

// unknownSince says how many unknown credentials reached the fake since
// it counted before ("n/a" with a real Dagu).
func (d *dagu) unknownSince(before int64) string {
	if d.front == nil {
		return "n/a"
	}
	return strconv.FormatInt(d.unknownCredentials()-before, 10)
}

// newCaller returns a credential Dagu accepts that no gateway has seen:
// a new API key of its own user on the fake, a fresh login on a real
// Dagu.
func (d *dagu) newCaller(t *testing.T) string {
	if d.front != nil {
		return d.front.mintKey()
	}
	return d.login(t)
}

// login signs the user in and returns the JWT Dagu hands out, which Dagu
// accepts as a bearer.
func (d *dagu) login(t *testing.T) string {
	t.Helper()
	if d.user == "" {
		t.Fatal("logins need HOSTILE_DAGU_USER and HOSTILE_DAGU_PASSWORD with a real Dagu")
	}
	body, _ := json.Marshal(map[string]string{"username": d.user, "password": d.password})
	res, err := http.Post(d.url+"/api/v1/auth/login", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Token string `json:"token"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&out); err != nil || res.StatusCode != http.StatusOK || out.Token == "" {
		t.Fatalf("login: status %d, %v", res.StatusCode, err)
	}
	return out.Token
}

// daguFront stands in front of the fake Dagu as Dagu's own authentication
// would: several API keys and login JWTs, each of one user, answered on
// /auth/me as recorded (fixture 002-auth-me); a credential it knows is
// passed on to the fake as the fake's key, any other reaches the fake as
// it is and is refused there. It also serves the step log of the fake's
// big-log run as a 12,000-line log of 2,000-character lines, with the
// recorded response shape and windows.
type daguFront struct {
	fake  *fakedagu.Server
	mu    sync.RWMutex
	users map[string]string // credential -> user ID
	// access is the workspace access of the API keys an admin narrowed
	// (PATCH /api-keys/{id}), by user ID; the others see every workspace.
	access  map[string]workspaceAccess
	minted  atomic.Int64
	checks  atomic.Int64 // requests with a credential the front did not know
	logLine string
	// tails counts the reads of the big log by their tail window.
	tails sync.Map // int -> *atomic.Int64
	// slowHeads makes head windows of the big log (either stream) answer
	// in 3 to 12 s, spread over the range (a Dagu slow for one route).
	slowHeads atomic.Bool
	slowSeq   atomic.Int64
}

const fakeInnerKey = "hostile-suite-inner-key"

func newDaguFront() *daguFront {
	return &daguFront{
		fake:    fakedagu.New(fakedagu.Options{APIKey: fakeInnerKey}),
		users:   map[string]string{frontAdminKey: "admin"},
		access:  map[string]workspaceAccess{},
		logLine: strings.Repeat("x", bigLogLineBytes-10),
	}
}

// mintKey makes an API key of its own: its user ID is api_key:<n>.
func (f *daguFront) mintKey() string {
	n := f.minted.Add(1)
	key := fmt.Sprintf("dagu_hostile_key_%06d_%s", n, strings.Repeat("k", 16))
	f.mu.Lock()
	f.users[key] = fmt.Sprintf("api_key:00000000-0000-0000-0000-%012d", n)
	f.mu.Unlock()
	return key
}

// mintLogin makes a JWT-shaped bearer of user.
func (f *daguFront) mintLogin(user string) string {
	n := f.minted.Add(1)
	token := fmt.Sprintf("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ%s%06d.c2lnbmF0dXJl", user, n)
	f.mu.Lock()
	f.users[token] = user
	f.mu.Unlock()
	return token
}

func (f *daguFront) userOf(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	f.mu.RLock()
	user, known := f.users[strings.TrimSpace(token)]
	f.mu.RUnlock()
	return user, known
}

func (f *daguFront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && r.URL.Path == "/api/v1/auth/login" {
		f.serveLogin(w, r)
		return
	}
	user, known := f.userOf(r)
	if !known {
		f.checks.Add(1)
		f.fake.ServeHTTP(w, r)
		return
	}
	if f.narrowing(w, r, user) {
		return
	}
	if f.slowHeads.Load() && r.URL.Path == "/api/v1"+bigLogRun && r.URL.Query().Has("head") {
		n := f.slowSeq.Add(1)
		select {
		case <-time.After(3*time.Second + time.Duration(n*7919%9000)*time.Millisecond):
		case <-r.Context().Done():
			return
		}
	}
	switch r.URL.Path {
	case "/api/v1/auth/me":
		writeJSON(w, map[string]any{"user": map[string]any{
			"authProvider": "builtin", "id": user, "role": "viewer", "username": user,
			"workspaceAccess": f.accessOf(user),
		}})
		return
	case "/api/v1" + bigLogRun:
		if r.URL.Query().Get("stream") != "stderr" {
			tail, _ := strconv.Atoi(r.URL.Query().Get("tail"))
			n, _ := f.tails.LoadOrStore(tail, new(atomic.Int64))
			n.(*atomic.Int64).Add(1)
			f.serveBigLog(w, r)
			return
		}
	}
	r.Header.Set("Authorization", "Bearer "+fakeInnerKey)
	f.fake.ServeHTTP(w, r)
}

// Narrowing an API key, as Dagu does it: an admin's PATCH
// /api-keys/{keyId} with the key's new workspaceAccess; from then on
// /auth/me names the grants, and the DAGs and runs of the fake, which the
// front holds to be in workspace frontWorkspace (as if labelled so), are
// answered 404 with Dagu's not-found body (never 403: Dagu reports what a
// key may not see as not found). Lists are not narrowed: the narrowing
// attack reads points.
const (
	frontAdminKey  = "dagu_hostile_admin_" + "0123456789abcdef"
	frontWorkspace = "team"
)

// workspaceAccess is the WorkspaceAccess of Dagu's API.
type workspaceAccess struct {
	All    bool             `json:"all"`
	Grants []workspaceGrant `json:"grants"`
}

type workspaceGrant struct {
	Workspace string `json:"workspace"`
	Role      string `json:"role"`
}

// sees reports whether the access holds the front's workspace.
func (a workspaceAccess) sees(workspace string) bool {
	if a.All {
		return true
	}
	for _, g := range a.Grants {
		if g.Workspace == workspace {
			return true
		}
	}
	return false
}

// accessOf is a user's workspace access: every workspace unless narrowed.
func (f *daguFront) accessOf(user string) workspaceAccess {
	f.mu.RLock()
	defer f.mu.RUnlock()
	if a, ok := f.access[user]; ok {
		return a
	}
	return workspaceAccess{All: true, Grants: []workspaceGrant{}}
}

// narrowing serves an admin's PATCH /api-keys/{keyId}, and answers a
// narrowed key's point reads of DAGs and runs outside its workspaces; it
// reports whether it answered.
func (f *daguFront) narrowing(w http.ResponseWriter, r *http.Request, user string) bool {
	if id, ok := strings.CutPrefix(r.URL.Path, "/api/v1/api-keys/"); ok && r.Method == http.MethodPatch {
		if user != "admin" {
			w.WriteHeader(http.StatusForbidden)
			return true
		}
		var in struct {
			WorkspaceAccess *workspaceAccess `json:"workspaceAccess"`
		}
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&in); err != nil || in.WorkspaceAccess == nil {
			w.WriteHeader(http.StatusBadRequest)
			return true
		}
		f.mu.Lock()
		f.access["api_key:"+id] = *in.WorkspaceAccess
		f.mu.Unlock()
		writeJSON(w, map[string]any{"id": id, "workspaceAccess": in.WorkspaceAccess})
		return true
	}
	point := strings.HasPrefix(r.URL.Path, "/api/v1/dag-runs/") || strings.HasPrefix(r.URL.Path, "/api/v1/dags/")
	if !point || f.accessOf(user).sees(frontWorkspace) {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	_, _ = io.WriteString(w, `{"code":"not_found","message":"Resource not found"}`+"\n")
	return true
}

// narrow has the admin narrow key to workspace ops, which does not hold
// the front's DAGs and runs, through Dagu's own route.
func (f *daguFront) narrow(t *testing.T, base, key string) {
	t.Helper()
	f.mu.RLock()
	user := f.users[key]
	f.mu.RUnlock()
	id, ok := strings.CutPrefix(user, "api_key:")
	if !ok {
		t.Fatalf("%q is not an API key", user)
	}
	body := `{"workspaceAccess":{"all":false,"grants":[{"workspace":"ops","role":"viewer"}]}}`
	req, _ := http.NewRequest(http.MethodPatch, base+"/api/v1/api-keys/"+id, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+frontAdminKey)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("PATCH /api-keys/%s: %d", id, res.StatusCode)
	}
}

func (f *daguFront) serveLogin(w http.ResponseWriter, r *http.Request) {
	var in struct{ Username, Password string }
	if err := json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&in); err != nil || in.Username != fakeUser || in.Password != fakePassword {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	writeJSON(w, map[string]any{"token": f.mintLogin(in.Username), "expiresAt": "2099-01-01T00:00:00Z", "user": map[string]any{"id": in.Username, "username": in.Username}})
}

// serveBigLog answers a window of the generated log: tail, head, or
// offset (1-based) with limit; 1,000 lines without any, as recorded.
func (f *daguFront) serveBigLog(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	num := func(name string) int { n, _ := strconv.Atoi(q.Get(name)); return max(n, 0) }
	from, count := bigLogLines-1000, 1000
	switch {
	case num("tail") > 0:
		count = min(num("tail"), bigLogLines)
		from = bigLogLines - count
	case num("head") > 0:
		from, count = 0, min(num("head"), bigLogLines)
	case num("offset") > 0 || num("limit") > 0:
		from = max(num("offset"), 1) - 1
		count = num("limit")
		if count == 0 {
			count = 1000
		}
		count = max(min(count, bigLogLines-from), 0)
	}
	var content strings.Builder
	content.Grow(count * bigLogLineBytes)
	for i := from; i < from+count; i++ {
		fmt.Fprintf(&content, "%08d %s\n", i+1, f.logLine)
	}
	writeJSON(w, map[string]any{
		"content": content.String(), "lineCount": count, "totalLines": bigLogLines,
		"hasMore": from+count < bigLogLines || from > 0, "isEstimate": false,
	})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
