// SPDX-License-Identifier: Apache-2.0

//go:build oidc

package oidc

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// forgedTokens are n well-formed access tokens for resource, with the
// provider's issuer and every claim right, each signed by a key the
// provider never published under a key ID of its own.
func forgedTokens(t *testing.T, resource string, n int) []string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	payload, _ := json.Marshal(map[string]any{"iss": idp.issuer, "sub": "mallory", "aud": resource, "scope": scope,
		"groups": []string{"sre"}, "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix()})
	tokens := make([]string, n)
	for i := range tokens {
		opts := (&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", "forged-"+strconv.Itoa(i))
		signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, opts)
		if err != nil {
			t.Fatal(err)
		}
		jws, err := signer.Sign(payload)
		if err != nil {
			t.Fatal(err)
		}
		if tokens[i], err = jws.CompactSerialize(); err != nil {
			t.Fatal(err)
		}
	}
	return tokens
}

// minRefresh is the gateway's least time between two fetches an unknown
// key ID may start (oidc.DefaultMinRefresh).
const minRefresh = 5 * time.Second

// jwksFetches is how many times the provider's JWKS was fetched so far.
func jwksFetches(t *testing.T) int {
	t.Helper()
	res, err := http.Get(idp.issuer + "/test/jwks-fetches")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var n struct{ Fetches int }
	if err := json.NewDecoder(io.LimitReader(res.Body, 1024)).Decode(&n); err != nil {
		t.Fatal(err)
	}
	return n.Fetches
}

// TestForgedKeyIDsDoNotFetchPerToken sends 1,000 tokens with key IDs the
// provider never published, from 32 callers at once, to a gateway that
// has held its keys for longer than the minimum refresh interval: every
// one is refused 401, and together they cost at most one JWKS fetch per
// started interval (5 s) of the burst, never one per token. The count is
// logged (BENCHMARKS.md).
func TestForgedKeyIDsDoNotFetchPerToken(t *testing.T) {
	s := startSingle(t)
	endpoint := s.gw.Base + "/mcp"
	// One good token first, so the gateway holds the provider's keys;
	// then the burst comes after the minimum refresh interval, when an
	// unknown key ID may start a fetch.
	if res, _ := postMCP(t, endpoint, serviceToken(t, endpoint, scope)); res.StatusCode != http.StatusOK {
		t.Fatalf("a good token: %d", res.StatusCode)
	}
	tokens := forgedTokens(t, endpoint, 1000)
	time.Sleep(minRefresh + time.Second)
	before := jwksFetches(t)
	start := time.Now()
	statuses := sendAll(t, endpoint, tokens, 32)
	elapsed := time.Since(start)
	fetches := jwksFetches(t) - before
	if statuses[http.StatusUnauthorized] != len(tokens) {
		t.Errorf("statuses %v; want every forged token refused 401", statuses)
	}
	if limit := 1 + int(elapsed/minRefresh); fetches > limit {
		t.Errorf("%d JWKS fetches for %d forged tokens in %v; want at most %d", fetches, len(tokens), elapsed.Round(time.Millisecond), limit)
	}
	t.Logf("%d tokens with unknown key IDs, 32 at a time: %d JWKS fetches in %v", len(tokens), fetches, elapsed.Round(time.Millisecond))
}

// sendAll posts an initialize with each token from the given number of
// callers at once and counts the statuses.
func sendAll(t *testing.T, endpoint string, tokens []string, callers int) map[int]int {
	t.Helper()
	var mu sync.Mutex
	statuses := map[int]int{}
	next := make(chan string)
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for tok := range next {
				status := postStatus(endpoint, tok)
				mu.Lock()
				statuses[status]++
				mu.Unlock()
			}
		})
	}
	for _, tok := range tokens {
		next <- tok
	}
	close(next)
	wg.Wait()
	return statuses
}

// postStatus posts an initialize with the bearer and returns the status
// (0 when the request failed).
func postStatus(endpoint, bearer string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(initialize))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+bearer)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	return res.StatusCode
}
