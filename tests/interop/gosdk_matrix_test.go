// SPDX-License-Identifier: Apache-2.0

//go:build eramatrix

package interop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEraMatrix is the go-sdk client's part of era-matrix.mjs: at each
// revision, against the gateway behind the matrix's recording proxy
// (ERA_MATRIX_URL, REV standing for the revision), it does what the other
// clients do and prints one "ROW <json>" line for the matrix. The go-sdk
// client has no way to send an unknown method or a batch.
func TestEraMatrix(t *testing.T) {
	url := os.Getenv("ERA_MATRIX_URL")
	if url == "" {
		t.Fatal("ERA_MATRIX_URL is not set: run era-matrix.mjs")
	}
	for _, rev := range []string{"2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cells := goMatrixRow(ctx, strings.ReplaceAll(url, "REV", rev), rev)
		cancel()
		row, _ := json.Marshal(map[string]any{"client": "go-sdk " + goSDKVersion(), "rev": rev, "cells": cells})
		fmt.Printf("ROW %s\n", row)
	}
}

// goSDKVersion is the go-sdk version this module builds with.
func goSDKVersion() string { return "1.8.0" }

// goMatrixRow runs the matrix's behaviours through one go-sdk session.
func goMatrixRow(ctx context.Context, url, rev string) map[string]string {
	cells := map[string]string{"unknown": "n/a", "batch": "n/a"}
	client := mcp.NewClient(&mcp.Implementation{Name: "era-matrix-go", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: rev})
	if err != nil {
		cells["init"] = "connect failed: " + err.Error()
		return cells
	}
	defer cs.Close()
	cells["init"] = cs.InitializeResult().ProtocolVersion
	if tools, err := cs.ListTools(ctx, nil); err != nil {
		cells["list"] = "threw: " + err.Error()
	} else {
		cells["list"] = "no dagu_read"
		for _, tool := range tools.Tools {
			if tool.Name == "dagu_read" {
				ui, _ := tool.Meta["ui"].(map[string]any)
				cells["list"] = "dagu_read"
				if ui["resourceUri"] != nil {
					cells["list"] += ", ui"
				}
			}
		}
	}
	cells["call"] = goCall(ctx, cs, `{"target":"run","name":"failing_job","dagRunId":"latest"}`, func(sc map[string]any) string {
		data, _ := sc["data"].(map[string]any)
		return fmt.Sprint(data["statusLabel"])
	})
	cells["bad"] = goCall(ctx, cs, `{"target":"run","name":"failing_job","dagRunId":"latest","limit":"many"}`, func(sc map[string]any) string {
		return fmt.Sprint(sc["code"])
	})
	cells["hints"] = goHints(ctx, cs)
	cells["missing"] = goMissing(ctx, cs) // last: era-matrix.mjs adds what the proxy saw of it
	return cells
}

// goCall calls dagu_read and renders its result: "isError" when it is one, then what show picks.
func goCall(ctx context.Context, cs *mcp.ClientSession, args string, show func(map[string]any) string) string {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "dagu_read", Arguments: json.RawMessage(args)})
	if err != nil {
		return "threw: " + err.Error()
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var sc map[string]any
	_ = json.Unmarshal(raw, &sc)
	if res.IsError {
		return "isError " + show(sc)
	}
	if strings.Contains(args, `"many"`) {
		return "ok " + show(sc)
	}
	return show(sc)
}

// goMissing reads a resource that does not exist: the code, and whether data is the contract's object.
func goMissing(ctx context.Context, cs *mcp.ClientSession) string {
	_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "dagu://dags/no_such_dag/spec"})
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) {
		return fmt.Sprintf("answered (%v)", err)
	}
	var data struct{ Code string }
	_ = json.Unmarshal(rpc.Data, &data)
	if data.Code == "resource_not_found" {
		return fmt.Sprintf("%d +contract", rpc.Code)
	}
	return fmt.Sprint(rpc.Code)
}

// goHints renders the cache hints of a finished run's resource, a reference topic and a tools/call result.
func goHints(ctx context.Context, cs *mcp.ClientSession) string {
	latest, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "dagu://runs/failing_job/latest"})
	if err != nil {
		return "threw: " + err.Error()
	}
	var id struct {
		DAGRunID string `json:"dagRunId"`
	}
	_ = json.Unmarshal([]byte(latest.Contents[0].Text), &id)
	run, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "dagu://runs/failing_job/" + id.DAGRunID})
	if err != nil {
		return "threw: " + err.Error()
	}
	ref, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "dagu://reference/read-tool"})
	if err != nil {
		return "threw: " + err.Error()
	}
	hint := func(c mcp.Cacheable) string {
		if c.CacheScope == "" {
			return "none"
		}
		return fmt.Sprintf("%s/%d", c.CacheScope, c.TTLMs)
	}
	refShown := ref.CacheScope
	if refShown == "" {
		refShown = "none"
	}
	// The go-sdk's CallToolResult has no cache hints to show.
	return fmt.Sprintf("run %s, latest %s, ref %s, call none", hint(run.Cacheable), hint(latest.Cacheable), refShown)
}
