// Package gen is the Go client oapi-codegen generates from api/openapi.yaml:
// the request builders and the response types of the Dagu REST routes the
// gateway reads. Never edit client.gen.go by hand; change api/openapi.yaml and
// regenerate from the repository root with
//
//	go tool oapi-codegen -config api/oapi-codegen.yaml api/openapi.yaml
//
// or `go generate ./internal/restclient/gen`, which runs the same command.
// This file is written by hand; generation writes only client.gen.go. The
// generated types stay inside packages restclient, mapping and upstream
// (upstream builds request parameters and reads answers with them);
// internal/archtest fails when any other package imports gen.
package gen

//go:generate go -C ../../.. tool oapi-codegen -config api/oapi-codegen.yaml api/openapi.yaml
