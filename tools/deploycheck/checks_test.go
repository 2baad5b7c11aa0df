// SPDX-License-Identifier: Apache-2.0

package deploycheck

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// gateway returns the one Deployment of b and its gateway container.
func (b *bundle) gateway(t *testing.T) (*appsv1.Deployment, *corev1.Container) {
	t.Helper()
	if len(b.deployments) != 1 {
		t.Fatalf("want one Deployment, got %d (%v)", len(b.deployments), b.names)
	}
	d := b.deployments[0]
	for i := range d.Spec.Template.Spec.Containers {
		if c := &d.Spec.Template.Spec.Containers[i]; c.Name == "gateway" {
			return d, c
		}
	}
	t.Fatalf("Deployment %s has no container named gateway", d.Name)
	return nil, nil
}

// selects reports whether selector matches the label set.
func selects(t *testing.T, selector *metav1.LabelSelector, set map[string]string) bool {
	t.Helper()
	if selector == nil {
		return false
	}
	s, err := metav1.LabelSelectorAsSelector(selector)
	if err != nil {
		t.Fatalf("invalid selector %v: %v", selector, err)
	}
	return s.Matches(labels.Set(set))
}

// checkWorkload checks what every way of deploying must get right: the
// Deployment selects its pods, the Service, PodDisruptionBudget, HPA and
// NetworkPolicy point at them, the container runs non-root on a read-only
// root filesystem with both probes on /healthz (a replica is ready when it
// answers, whatever Dagu's state), and the image is a pinned reference.
func checkWorkload(t *testing.T, b *bundle) {
	t.Helper()
	d, c := b.gateway(t)
	pod := d.Spec.Template
	podLabels := pod.Labels
	if !selects(t, d.Spec.Selector, podLabels) {
		t.Errorf("Deployment selector %v does not match its pod labels %v", d.Spec.Selector, podLabels)
	}

	checkImage(t, c.Image)
	checkSecurity(t, &pod.Spec, c)
	checkProbes(t, c)
	checkVolumes(t, &pod.Spec, c)

	if len(b.services) != 1 {
		t.Fatalf("want one Service, got %v", b.names)
	}
	svc := b.services[0]
	if len(svc.Spec.Selector) == 0 || !labels.SelectorFromSet(svc.Spec.Selector).Matches(labels.Set(podLabels)) {
		t.Errorf("Service selector %v does not match the pod labels %v", svc.Spec.Selector, podLabels)
	}
	for _, p := range svc.Spec.Ports {
		if !containerHasPort(c, p.TargetPort) {
			t.Errorf("Service port %s targets %s, which the container does not expose", p.Name, p.TargetPort.String())
		}
	}
	for _, pdb := range b.pdbs {
		if !selects(t, pdb.Spec.Selector, podLabels) {
			t.Errorf("PodDisruptionBudget selector %v does not match the pod labels %v", pdb.Spec.Selector, podLabels)
		}
		if (pdb.Spec.MinAvailable == nil) == (pdb.Spec.MaxUnavailable == nil) {
			t.Errorf("PodDisruptionBudget needs exactly one of minAvailable and maxUnavailable")
		}
	}
	for _, hpa := range b.hpas {
		ref := hpa.Spec.ScaleTargetRef
		if ref.Kind != "Deployment" || ref.Name != d.Name || ref.APIVersion != "apps/v1" {
			t.Errorf("HPA targets %v, not Deployment %s", ref, d.Name)
		}
		if d.Spec.Replicas != nil {
			t.Errorf("Deployment sets replicas although an HPA scales it")
		}
		if hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas > hpa.Spec.MaxReplicas || len(hpa.Spec.Metrics) == 0 {
			t.Errorf("HPA min/max/metrics inconsistent: %+v", hpa.Spec)
		}
	}
	for _, np := range b.netpols {
		checkNetworkPolicy(t, np, podLabels, c)
	}
	for _, sm := range b.serviceMonitors {
		if !selects(t, &sm.Spec.Selector, svc.Labels) {
			t.Errorf("ServiceMonitor selector %v does not match the Service labels %v", sm.Spec.Selector, svc.Labels)
		}
		for _, ep := range sm.Spec.Endpoints {
			if !slices.ContainsFunc(svc.Spec.Ports, func(p corev1.ServicePort) bool { return p.Name == ep.Port }) {
				t.Errorf("ServiceMonitor scrapes port %q, which the Service does not name", ep.Port)
			}
			if ep.Path != "/metrics" {
				t.Errorf("ServiceMonitor path %q, want /metrics", ep.Path)
			}
		}
	}
}

func checkImage(t *testing.T, image string) {
	t.Helper()
	name, digest, hasDigest := strings.Cut(image, "@")
	if hasDigest && !strings.HasPrefix(digest, "sha256:") {
		t.Errorf("image %q: digest must be sha256:...", image)
	}
	lastSlash := strings.LastIndex(name, "/")
	tagAt := strings.LastIndex(name, ":")
	hasTag := tagAt > lastSlash
	if !hasTag && !hasDigest {
		t.Errorf("image %q has neither tag nor digest", image)
	}
	if hasTag && name[tagAt+1:] == "latest" {
		t.Errorf("image %q uses the floating tag latest", image)
	}
}

func checkSecurity(t *testing.T, pod *corev1.PodSpec, c *corev1.Container) {
	t.Helper()
	psc, sc := pod.SecurityContext, c.SecurityContext
	if sc == nil {
		t.Fatalf("container %s has no securityContext", c.Name)
	}
	nonRoot := (sc.RunAsNonRoot != nil && *sc.RunAsNonRoot) || (psc != nil && psc.RunAsNonRoot != nil && *psc.RunAsNonRoot)
	if !nonRoot {
		t.Errorf("runAsNonRoot is not set")
	}
	if psc != nil && psc.RunAsUser != nil && *psc.RunAsUser == 0 {
		t.Errorf("pod runs as uid 0")
	}
	if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
		t.Errorf("root filesystem is not read-only")
	}
	if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		t.Errorf("allowPrivilegeEscalation is not false")
	}
	if sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") || len(sc.Capabilities.Add) > 0 {
		t.Errorf("capabilities must drop ALL and add none: %+v", sc.Capabilities)
	}
	if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
		t.Errorf("the service account token is mounted; the gateway never calls the Kubernetes API")
	}
}

func checkProbes(t *testing.T, c *corev1.Container) {
	t.Helper()
	for _, p := range []struct {
		name  string
		probe *corev1.Probe
		path  string
	}{{"liveness", c.LivenessProbe, "/healthz"}, {"readiness", c.ReadinessProbe, "/healthz"}} {
		if p.probe == nil || p.probe.HTTPGet == nil {
			t.Errorf("%s probe is not an HTTP GET", p.name)
			continue
		}
		if p.probe.HTTPGet.Path != p.path || !containerHasPort(c, p.probe.HTTPGet.Port) {
			t.Errorf("%s probe GETs %s on %s, want %s on a container port", p.name, p.probe.HTTPGet.Path, p.probe.HTTPGet.Port.String(), p.path)
		}
	}
}

// checkVolumes checks that every mount has a volume and that /tmp is
// writable scratch space (the root filesystem is read-only).
func checkVolumes(t *testing.T, pod *corev1.PodSpec, c *corev1.Container) {
	t.Helper()
	volumes := map[string]corev1.Volume{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = v
	}
	tmp := false
	for _, m := range c.VolumeMounts {
		v, ok := volumes[m.Name]
		if !ok {
			t.Errorf("mount %s has no volume", m.Name)
		}
		if m.MountPath == "/tmp" && v.EmptyDir != nil && !m.ReadOnly {
			tmp = true
		}
	}
	if !tmp {
		t.Errorf("no writable emptyDir on /tmp")
	}
}

func containerHasPort(c *corev1.Container, port intstr.IntOrString) bool {
	return slices.ContainsFunc(c.Ports, func(p corev1.ContainerPort) bool {
		if port.Type == intstr.String {
			return p.Name == port.StrVal
		}
		return p.ContainerPort == port.IntVal
	})
}

// checkNetworkPolicy: the policy applies to the gateway pods, lets them
// resolve names through the cluster DNS (port 53) and reach Dagu, and no
// egress peer selects the gateway itself (the symptom of a peer selector
// rewritten with the gateway's own labels).
func checkNetworkPolicy(t *testing.T, np *networkingv1.NetworkPolicy, podLabels map[string]string, c *corev1.Container) {
	t.Helper()
	if !selects(t, &np.Spec.PodSelector, podLabels) {
		t.Errorf("NetworkPolicy podSelector %v does not match the pod labels %v", np.Spec.PodSelector, podLabels)
	}
	if !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeEgress) || !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeIngress) {
		t.Errorf("NetworkPolicy policyTypes %v, want Ingress and Egress", np.Spec.PolicyTypes)
	}
	kubeDNS := map[string]string{"k8s-app": "kube-dns"}
	dnsUDP, dnsTCP := false, false
	for _, rule := range np.Spec.Egress {
		toDNS := slices.ContainsFunc(rule.To, func(p networkingv1.NetworkPolicyPeer) bool {
			return p.PodSelector != nil && reflect.DeepEqual(p.PodSelector.MatchLabels, kubeDNS) && len(p.PodSelector.MatchExpressions) == 0
		})
		for _, p := range rule.Ports {
			if toDNS && p.Port != nil && p.Port.IntValue() == 53 {
				dnsUDP = dnsUDP || (p.Protocol != nil && *p.Protocol == corev1.ProtocolUDP)
				dnsTCP = dnsTCP || (p.Protocol != nil && *p.Protocol == corev1.ProtocolTCP)
			}
		}
		for _, peer := range rule.To {
			if peer.PodSelector != nil && len(peer.PodSelector.MatchLabels)+len(peer.PodSelector.MatchExpressions) > 0 && selects(t, peer.PodSelector, podLabels) {
				t.Errorf("egress peer %v selects the gateway's own pods: a rewritten selector?", peer.PodSelector)
			}
		}
	}
	if !dnsUDP || !dnsTCP {
		t.Errorf("NetworkPolicy egress does not allow DNS (53/UDP and 53/TCP) to pods labelled k8s-app=kube-dns: %+v", np.Spec.Egress)
	}
	if len(np.Spec.Egress) < 2 {
		t.Errorf("NetworkPolicy has no egress rule for Dagu")
	}
	for _, rule := range np.Spec.Ingress {
		if len(rule.Ports) == 0 {
			t.Errorf("an ingress rule opens every port")
		}
		for _, p := range rule.Ports {
			if p.Port == nil || !containerHasPort(c, *p.Port) {
				t.Errorf("ingress port %v is not a gateway port", p.Port)
			}
		}
	}
}

// env returns the container's environment as a map.
func env(c *corev1.Container) map[string]string {
	m := map[string]string{}
	for _, e := range c.Env {
		m[e.Name] = e.Value
	}
	return m
}
