// SPDX-License-Identifier: Apache-2.0

package deploycheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// The line of kustomization.yaml that its comment tells operators to
// uncomment to enable the NetworkPolicy.
const networkPolicyLine = "  # - networkpolicy.yaml\n"

// buildKustomization runs `kustomize build dir` in process.
func buildKustomization(t *testing.T, dir string) *bundle {
	t.Helper()
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	resources, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	out, err := resources.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	b := &bundle{}
	b.decodeStream(t, "kustomize build", out)
	return b
}

func kustomizeDir(t *testing.T) string {
	return filepath.Join(repoRoot(t), "deploy", "kubernetes")
}

func TestKustomizeBase(t *testing.T) {
	b := buildKustomization(t, kustomizeDir(t))
	want := []string{
		"ConfigMap/dagu-mcp-gateway",
		"Service/dagu-mcp-gateway",
		"Deployment/dagu-mcp-gateway",
		"PodDisruptionBudget/dagu-mcp-gateway",
	}
	checkObjects(t, b, "kustomize build", want)
	checkWorkload(t, b)
	d, c := b.gateway(t)
	if !strings.HasPrefix(c.Image, "ghcr.io/dagu-mcp-gateway/gateway:") {
		t.Errorf("image %q: the images: entry of kustomization.yaml did not apply", c.Image)
	}
	if d.Labels["app.kubernetes.io/name"] != "dagu-mcp-gateway" || d.Spec.Template.Labels["app.kubernetes.io/name"] != "dagu-mcp-gateway" {
		t.Errorf("common label missing from the Deployment or its pods: %v / %v", d.Labels, d.Spec.Template.Labels)
	}
}

// TestKustomizeNetworkPolicy enables the NetworkPolicy exactly as
// kustomization.yaml says (uncomment one line) in a copy of the directory,
// and checks that DNS and Dagu stay reachable and the policy selects the
// gateway's pods.
func TestKustomizeNetworkPolicy(t *testing.T) {
	src := kustomizeDir(t)
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "kustomization.yaml" {
			text := string(data)
			if strings.Count(text, networkPolicyLine) != 1 {
				t.Fatalf("kustomization.yaml no longer has the line %q to uncomment", strings.TrimSpace(networkPolicyLine))
			}
			data = []byte(strings.Replace(text, networkPolicyLine, "  - networkpolicy.yaml\n", 1))
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := buildKustomization(t, dst)
	if len(b.netpols) != 1 {
		t.Fatalf("no NetworkPolicy after enabling it: %v", b.names)
	}
	checkWorkload(t, b)

	// The peers must reach kustomize's output unchanged.
	np := b.netpols[0]
	daguPeer := np.Spec.Egress[1].To[0].PodSelector
	if daguPeer == nil || len(daguPeer.MatchLabels) != 1 || daguPeer.MatchLabels["app.kubernetes.io/name"] != "dagu" {
		t.Errorf("Dagu peer selector rewritten: %v", daguPeer)
	}
	clients := np.Spec.Ingress[0].From[0].PodSelector
	if clients == nil || len(clients.MatchLabels) != 1 || clients.MatchLabels["dagu-mcp-gateway/client"] != "true" {
		t.Errorf("client peer selector rewritten: %v", clients)
	}
}

// TestKustomizeLocalImage builds the kustomization with its images: entry
// set as docs/install.md's `kustomize edit set image` line sets it, to the image
// `make docker` builds until a release exists.
func TestKustomizeLocalImage(t *testing.T) {
	const entry = "  - name: ghcr.io/dagu-mcp-gateway/gateway\n"
	src, dst := kustomizeDir(t), t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "kustomization.yaml" {
			if strings.Count(string(data), entry) != 1 {
				t.Fatalf("kustomization.yaml has no images: entry %q", strings.TrimSpace(entry))
			}
			data = []byte(strings.Replace(string(data), entry, entry+"    newName: dagu-mcp-gateway\n", 1))
			data = regexp.MustCompile(`(?m)^    newTag: .*$`).ReplaceAll(data, []byte(`    newTag: "local"`))
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, c := buildKustomization(t, dst).gateway(t)
	if c.Image != "dagu-mcp-gateway:local" {
		t.Errorf("image %q, want dagu-mcp-gateway:local", c.Image)
	}
	install, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "install.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(install), "ghcr.io/dagu-mcp-gateway/gateway=dagu-mcp-gateway:local") {
		t.Error("docs/install.md's kustomize snippet no longer sets the local image this test builds")
	}
}
