// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// resolveRunID reads the configured DAG's latest run through the gateway
// (one dagu_read of target run with dagRunId latest) and returns its
// concrete run ID, so the run targets read a run a real Dagu holds.
func resolveRunID(ctx context.Context, cfg config) (string, error) {
	return resolveLatest(ctx, cfg, cfg.dag)
}

// resolveLatest reads the latest run of a DAG through the gateway and
// returns its concrete run ID.
func resolveLatest(ctx context.Context, cfg config, dag string) (string, error) {
	hc := newHTTPClient(cfg)
	defer hc.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	return readLatestRunID(ctx, cfg, hc, dag)
}

func readLatestRunID(ctx context.Context, cfg config, hc *http.Client, dag string) (string, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "dagu-mcp-gateway-loadtest", Version: "dev"}, nil)
	transport := &mcp.StreamableClientTransport{Endpoint: cfg.url, HTTPClient: hc, DisableStandaloneSSE: true, MaxRetries: -1}
	session, err := client.Connect(ctx, transport, nil)
	if err != nil {
		return "", fmt.Errorf("connecting to %s: %w", cfg.url, err)
	}
	defer session.Close()
	args := map[string]any{"target": "run", "name": dag, "dagRunId": latest}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: toolName, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("reading the latest run of %s: %w", dag, err)
	}
	if res.IsError {
		return "", fmt.Errorf("reading the latest run of %s: %s", dag, firstText(res))
	}
	return runIDOf(res.StructuredContent)
}

// runIDOf finds data.dagRunId in a run read's structured content.
func runIDOf(structured any) (string, error) {
	raw, err := json.Marshal(structured)
	if err != nil {
		return "", err
	}
	var out struct {
		Data struct {
			DAGRunID string `json:"dagRunId"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return "", fmt.Errorf("the run read's structured content: %w", err)
	}
	if out.Data.DAGRunID == "" || out.Data.DAGRunID == latest {
		return "", errors.New("the run read named no concrete dagRunId")
	}
	return out.Data.DAGRunID, nil
}
