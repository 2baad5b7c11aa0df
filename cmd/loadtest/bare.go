// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxCapturedAnswer bounds the one answer -serve-bare copies.
const maxCapturedAnswer = 4 << 20

// captured is one tools/call answer as the gateway sent it: the result
// (content and flags, decoded) and the structured content's exact bytes,
// with the input schema the gateway advertises for the tool (the SDK reads
// the called tool's schema on every call, so the floor must carry the same).
type captured struct {
	result      *mcp.CallToolResult
	structured  json.RawMessage
	inputSchema json.RawMessage
}

// captureAnswer makes one dagu_read call of target through the gateway and
// keeps its answer's bytes, read off the wire.
func captureAnswer(ctx context.Context, cfg config, target string) (*captured, error) {
	rec := &recordingTransport{next: newHTTPClient(cfg).Transport}
	hc := &http.Client{Transport: rec, Timeout: cfg.timeout}
	client := mcp.NewClient(&mcp.Implementation{Name: "dagu-mcp-gateway-loadtest", Version: "dev"}, nil)
	transport := &mcp.StreamableClientTransport{Endpoint: cfg.url, HTTPClient: hc, DisableStandaloneSSE: true, MaxRetries: -1}
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", cfg.url, err)
	}
	defer session.Close()
	schema, err := advertisedSchema(ctx, session)
	if err != nil {
		return nil, err
	}
	rec.body = nil
	if _, err := session.CallTool(ctx, &mcp.CallToolParams{Name: toolName, Arguments: targets[target].args(cfg)}); err != nil {
		return nil, err
	}
	answer, err := decodeAnswer(rec.body)
	if err != nil {
		return nil, err
	}
	answer.inputSchema = schema
	return answer, nil
}

// advertisedSchema is the dagu_read input schema from tools/list, encoded.
func advertisedSchema(ctx context.Context, session *mcp.ClientSession) (json.RawMessage, error) {
	list, err := session.ListTools(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("listing tools: %w", err)
	}
	for _, tool := range list.Tools {
		if tool.Name == toolName {
			return json.Marshal(tool.InputSchema)
		}
	}
	return nil, fmt.Errorf("the server lists no %s tool", toolName)
}

// decodeAnswer reads a JSON-RPC response carrying a tools/call result.
func decodeAnswer(body []byte) (*captured, error) {
	var envelope struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(body, &envelope); err != nil || len(envelope.Result) == 0 {
		return nil, fmt.Errorf("the answer is not a JSON-RPC result (a JSON answer is needed, not a stream): %v", err)
	}
	var parts struct {
		Structured json.RawMessage `json:"structuredContent"`
	}
	res := new(mcp.CallToolResult)
	if err := json.Unmarshal(envelope.Result, res); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(envelope.Result, &parts); err != nil {
		return nil, err
	}
	if res.IsError {
		return nil, errors.New("the answer is a tool error")
	}
	return &captured{result: res, structured: parts.Structured}, nil
}

// recordingTransport keeps the body of the last answer it carried.
type recordingTransport struct {
	next http.RoundTripper
	body []byte
}

func (r *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err != nil || req.Method != http.MethodPost {
		return resp, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxCapturedAnswer))
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	r.body = body
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// bareHandler is a go-sdk server with nothing but a dagu_read tool that
// answers every call with the captured answer and advertises the captured
// input schema, served like the gateway serves MCP (stateless, JSON answers).
func bareHandler(answer *captured) http.Handler {
	server := mcp.NewServer(&mcp.Implementation{Name: "bare-go-sdk", Version: "dev"}, nil)
	schema := answer.inputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	server.AddTool(&mcp.Tool{Name: toolName, InputSchema: schema},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: answer.result.Content, StructuredContent: answer.structured}, nil
		})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}

// serveBare captures the gateway's answer to the first target of the mix
// and serves it from a bare go-sdk server on addr until ctx ends: the
// floor a comparison with -baseline measures the gateway against.
func serveBare(ctx context.Context, cfg config, addr string, stdout io.Writer) error {
	cctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	answer, err := captureAnswer(cctx, cfg, cfg.mix[0])
	cancel()
	if err != nil {
		return fmt.Errorf("capturing the gateway's answer to %s: %w", cfg.mix[0], err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: bareHandler(answer), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "bare go-sdk server on http://%s/mcp answers %s with the gateway's answer (%d structured bytes)\n",
		ln.Addr(), cfg.mix[0], len(answer.structured))
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
