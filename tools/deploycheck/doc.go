// SPDX-License-Identifier: Apache-2.0

// Package deploycheck holds the checks of the deployment files under
// deploy/ and of .goreleaser.yaml: the Helm chart rendered with the Helm Go
// library, the kustomization built with kustomize's Go API, every rendered
// object decoded strictly against the Kubernetes API types, and light
// structural checks of the compose file, the systemd unit and the
// Dockerfile. The chart must render every setting of the gateway's settings
// table (internal/config/settings.go, read from source). Run it with `make deploy-check` (cd tools && go test ./...).
//
// It lives in its own module so that Helm, kustomize and GoReleaser never
// enter the gateway's go.mod.
package deploycheck
