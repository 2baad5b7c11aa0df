// SPDX-License-Identifier: Apache-2.0

//go:build oidc

package oidc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// maxSteps bounds the requests of one sign-in.
const maxSteps = 12

// formAction finds the form of the provider's login and consent pages.
var formAction = regexp.MustCompile(`<form method="post" action="([^"]+)"`)

// signIn does in Go what a person does in the browser: it follows the
// authorization URL through the provider's redirects, fills in the login
// form as login with password and the consent form, and returns the query
// of the redirect to redirectURI (code, state, iss). It fails with the
// page on anything else: a wrong password, an error of the provider.
func signIn(ctx context.Context, authorizationURL, redirectURI, login, password string) (url.Values, error) {
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	next, method, form := authorizationURL, http.MethodGet, url.Values(nil)
	for range maxSteps {
		if strings.HasPrefix(next, redirectURI) {
			u, err := url.Parse(next)
			if err != nil {
				return nil, err
			}
			return u.Query(), nil
		}
		res, body, err := send(ctx, client, method, next, form)
		if err != nil {
			return nil, err
		}
		if res.StatusCode >= 300 && res.StatusCode < 400 {
			loc, err := res.Request.URL.Parse(res.Header.Get("Location"))
			if err != nil {
				return nil, err
			}
			next, method, form = loc.String(), http.MethodGet, nil
			continue
		}
		action := formAction.FindStringSubmatch(body)
		if res.StatusCode != http.StatusOK || action == nil {
			return nil, fmt.Errorf("sign-in stopped at %s: %d %.500s", next, res.StatusCode, body)
		}
		loc, err := res.Request.URL.Parse(action[1])
		if err != nil {
			return nil, err
		}
		form = url.Values{}
		if strings.Contains(body, `name="password"`) {
			form = url.Values{"login": {login}, "password": {password}}
		}
		next, method = loc.String(), http.MethodPost
	}
	return nil, fmt.Errorf("sign-in took more than %d requests", maxSteps)
}

// send makes one request of a sign-in and reads its body (64 KiB at most).
func send(ctx context.Context, client *http.Client, method, target string, form url.Values) (*http.Response, string, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return nil, "", err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	return res, string(data), err
}

// person signs in as login, counting the sign-ins: the go-sdk's
// AuthorizationCodeFetcher.
type person struct {
	login, password, redirectURI string
	signIns                      int
}

// fetch is the AuthorizationCodeFetcher: the person's sign-in in the
// browser.
func (p *person) fetch(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	p.signIns++
	q, err := signIn(ctx, args.URL, p.redirectURI, p.login, p.password)
	if err != nil {
		return nil, err
	}
	if q.Get("code") == "" {
		return nil, errors.New("the provider redirected without a code: " + q.Encode())
	}
	return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
}
