// SPDX-License-Identifier: Apache-2.0

package deploycheck

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// repoRoot is the gateway repository, two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test source")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// strictCodecs decode with the Kubernetes API types and refuse unknown
// and duplicate fields, as `kubectl apply --validate=strict` does.
var strictCodecs = serializer.NewCodecFactory(scheme.Scheme, serializer.EnableStrict)

// bundle is a set of decoded objects, by kind.
type bundle struct {
	names           []string // kind/name of every object, in order
	deployments     []*appsv1.Deployment
	services        []*corev1.Service
	serviceAccounts []*corev1.ServiceAccount
	secrets         []*corev1.Secret
	configMaps      []*corev1.ConfigMap
	pdbs            []*policyv1.PodDisruptionBudget
	hpas            []*autoscalingv2.HorizontalPodAutoscaler
	netpols         []*networkingv1.NetworkPolicy
	serviceMonitors []*serviceMonitor
}

// decodeStream splits a multi-document YAML stream and decodes every
// non-empty document into b. source names the stream in failures.
func (b *bundle) decodeStream(t *testing.T, source string, data []byte) {
	t.Helper()
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", source, err)
		}
		if isEmptyDocument(doc) {
			continue
		}
		b.decode(t, source, doc)
	}
}

// isEmptyDocument reports whether doc holds only blank lines and comments.
func isEmptyDocument(doc []byte) bool {
	for _, line := range strings.Split(string(doc), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && line != "---" && !strings.HasPrefix(line, "#") {
			return false
		}
	}
	return true
}

func (b *bundle) decode(t *testing.T, source string, doc []byte) {
	t.Helper()
	var meta metav1.TypeMeta
	if err := yaml.Unmarshal(doc, &meta); err != nil {
		t.Fatalf("%s: not YAML: %v\n%s", source, err, doc)
	}
	if meta.APIVersion == "monitoring.coreos.com/v1" && meta.Kind == "ServiceMonitor" {
		sm := decodeServiceMonitor(t, source, doc)
		b.serviceMonitors = append(b.serviceMonitors, sm)
		b.names = append(b.names, "ServiceMonitor/"+sm.Metadata.Name)
		return
	}
	obj, gvk, err := strictCodecs.UniversalDeserializer().Decode(doc, nil, nil)
	if err != nil {
		// A strict decoding error names every unknown or duplicate field.
		t.Fatalf("%s: %s does not decode strictly: %v\n%s", source, meta.Kind, err, doc)
	}
	accessor, ok := obj.(metav1.Object)
	if !ok || accessor.GetName() == "" {
		t.Fatalf("%s: %s without metadata.name", source, gvk.Kind)
	}
	b.names = append(b.names, gvk.Kind+"/"+accessor.GetName())
	switch o := obj.(type) {
	case *appsv1.Deployment:
		b.deployments = append(b.deployments, o)
	case *corev1.Service:
		b.services = append(b.services, o)
	case *corev1.ServiceAccount:
		b.serviceAccounts = append(b.serviceAccounts, o)
	case *corev1.Secret:
		b.secrets = append(b.secrets, o)
	case *corev1.ConfigMap:
		b.configMaps = append(b.configMaps, o)
	case *policyv1.PodDisruptionBudget:
		b.pdbs = append(b.pdbs, o)
	case *autoscalingv2.HorizontalPodAutoscaler:
		b.hpas = append(b.hpas, o)
	case *networkingv1.NetworkPolicy:
		b.netpols = append(b.netpols, o)
	default:
		t.Fatalf("%s: unexpected object %s (%T)", source, gvk, obj)
	}
}

// serviceMonitor is the part of the Prometheus Operator's ServiceMonitor
// (monitoring.coreos.com/v1) the chart renders. Decoding is strict, so a
// field the chart writes that is not listed here fails the check; the
// field names follow the operator's API reference.
type serviceMonitor struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Metadata   metav1.ObjectMeta `json:"metadata"`
	Spec       struct {
		Selector          metav1.LabelSelector `json:"selector"`
		NamespaceSelector *struct {
			Any        bool     `json:"any,omitempty"`
			MatchNames []string `json:"matchNames,omitempty"`
		} `json:"namespaceSelector,omitempty"`
		Endpoints []serviceMonitorEndpoint `json:"endpoints"`
	} `json:"spec"`
}

type serviceMonitorEndpoint struct {
	Port          string `json:"port,omitempty"`
	Path          string `json:"path,omitempty"`
	Scheme        string `json:"scheme,omitempty"`
	Interval      string `json:"interval,omitempty"`
	ScrapeTimeout string `json:"scrapeTimeout,omitempty"`
	Authorization *struct {
		Type        string                    `json:"type,omitempty"`
		Credentials *corev1.SecretKeySelector `json:"credentials,omitempty"`
	} `json:"authorization,omitempty"`
}

func decodeServiceMonitor(t *testing.T, source string, doc []byte) *serviceMonitor {
	t.Helper()
	data, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		t.Fatalf("%s: ServiceMonitor: %v", source, err)
	}
	var sm serviceMonitor
	strictErrs, err := sigsjson.UnmarshalStrict(data, &sm, sigsjson.DisallowUnknownFields)
	if err == nil && len(strictErrs) > 0 {
		err = errors.Join(strictErrs...)
	}
	if err != nil {
		t.Fatalf("%s: ServiceMonitor does not decode strictly: %v\n%s", source, err, doc)
	}
	if sm.Metadata.Name == "" || len(sm.Spec.Endpoints) == 0 {
		t.Fatalf("%s: ServiceMonitor without name or endpoints", source)
	}
	return &sm
}

// unmarshalStrict decodes YAML into v, refusing unknown and duplicate
// fields (sigs.k8s.io/yaml goes through JSON, so v uses json tags).
func unmarshalStrict(data []byte, v any) error {
	return yaml.UnmarshalStrict(data, v)
}
