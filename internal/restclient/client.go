package restclient

import (
	"fmt"
	"net/url"

	"github.com/dagu-mcp-gateway/gateway/internal/restclient/gen"
)

// Client calls Dagu's REST API through the generated client, over the
// guarded, retrying resty transport. It is safe for concurrent use. Its
// methods return generated types (for package upstream)
// and *Error values.
type Client struct {
	api      *gen.ClientWithResponses
	cfg      Config
	restBase *url.URL
}

// New validates cfg and builds a Client. It does not contact Dagu.
func New(cfg Config) (*Client, error) {
	cfg = cfg.withDefaults()
	restBase, err := restBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	hc, err := newHTTPClient(cfg)
	if err != nil {
		return nil, err
	}
	m, err := newMetrics(cfg.Metrics)
	if err != nil {
		return nil, fmt.Errorf("upstream metrics: %w", err)
	}
	d := newDoer(cfg, newGuard(restBase), hc, m)
	api, err := gen.NewClientWithResponses(restBase.String(), gen.WithHTTPClient(d))
	if err != nil {
		return nil, fmt.Errorf("dagu client: %w", err)
	}
	return &Client{api: api, cfg: cfg, restBase: restBase}, nil
}

// KeyFingerprint identifies the API key in use (see KeyFingerprint).
func (c *Client) KeyFingerprint() string { return c.cfg.Key.Fingerprint() }

// jsonAnswer is what every generated *XxxResponse offers for its 200 body.
type jsonAnswer[T any] interface{ GetJSON200() *T }

// decoded finishes a generated call: transport failures pass through as
// *Error values (the doer already turned non-2xx answers into errors), a
// parse failure is KindDecode, and a 2xx answer without a JSON body (wrong
// content type) is KindDecode too.
func decoded[T any, R jsonAnswer[T]](route string, res R, err error) (*T, error) {
	if err != nil {
		return nil, decodeError(route, err)
	}
	body := res.GetJSON200()
	if body == nil {
		return nil, &Error{Route: route, Kind: KindDecode, Message: "answer is not a JSON body"}
	}
	return body, nil
}

// checkParams refuses a call whose path parameter is empty or a dot
// segment before anything is built: the generated client leaves "." and
// ".." unescaped, and URL resolution would silently drop them.
func checkParams(route string, values ...string) error {
	for _, v := range values {
		if !validParam(v) {
			return refused(route, "path parameter %q is not allowed", v)
		}
	}
	return nil
}

// ptr returns a pointer to v, or nil for the zero value: Dagu treats an
// absent parameter as "default", so zero means "do not send".
func ptr[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}
