{{/* Chart name, truncated to the 63 characters a label value allows. */}}
{{- define "dagu-mcp-gateway.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name of the release's objects. */}}
{{- define "dagu-mcp-gateway.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "dagu-mcp-gateway.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels every object carries. */}}
{{- define "dagu-mcp-gateway.labels" -}}
helm.sh/chart: {{ include "dagu-mcp-gateway.chart" . }}
{{ include "dagu-mcp-gateway.selectorLabels" . }}
app.kubernetes.io/version: {{ include "dagu-mcp-gateway.tag" . | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Labels selecting the gateway pods; never change them on upgrade. */}}
{{- define "dagu-mcp-gateway.selectorLabels" -}}
app.kubernetes.io/name: {{ include "dagu-mcp-gateway.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "dagu-mcp-gateway.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "dagu-mcp-gateway.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Name of the Secret with the Dagu API key and the inbound tokens. */}}
{{- define "dagu-mcp-gateway.secretName" -}}
{{- default (include "dagu-mcp-gateway.fullname" .) .Values.secret.name }}
{{- end }}

{{- define "dagu-mcp-gateway.tag" -}}
{{- default .Chart.AppVersion .Values.image.tag }}
{{- end }}

{{/* Image reference: repository@digest when a digest is set, else repository:tag. */}}
{{- define "dagu-mcp-gateway.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (include "dagu-mcp-gateway.tag" .) }}
{{- end }}
{{- end }}

{{/* Port of a host:port listen address, as a number. */}}
{{- define "dagu-mcp-gateway.port" -}}
{{- $port := regexReplaceAll "^.*:" . "" }}
{{- if not (regexMatch "^[0-9]+$" $port) }}
{{- fail (printf "listen address %q has no numeric port" .) }}
{{- end }}
{{- $port | atoi }}
{{- end }}

{{- define "dagu-mcp-gateway.httpPort" -}}
{{- include "dagu-mcp-gateway.port" .Values.config.listen }}
{{- end }}

{{- define "dagu-mcp-gateway.metricsPort" -}}
{{- include "dagu-mcp-gateway.port" .Values.config.metricsListen }}
{{- end }}

{{/* Whether the chart renders the CA ConfigMap or mounts an existing one. */}}
{{- define "dagu-mcp-gateway.caConfigMap" -}}
{{- if .Values.dagu.ca.existingConfigMap }}
{{- .Values.dagu.ca.existingConfigMap }}
{{- else if .Values.dagu.ca.pem }}
{{- printf "%s-ca" (include "dagu-mcp-gateway.fullname" .) }}
{{- end }}
{{- end }}

{{/* Replicas that run when the cluster is healthy. */}}
{{- define "dagu-mcp-gateway.minReplicas" -}}
{{- if .Values.autoscaling.enabled }}
{{- .Values.autoscaling.minReplicas }}
{{- else }}
{{- .Values.replicaCount }}
{{- end }}
{{- end }}

{{/* A number or string setting as text; numbers are printed as integers
(values arrive as float64, which would print 52428800 as 5.24288e+07). */}}
{{- define "dagu-mcp-gateway.scalar" -}}
{{- if or (kindIs "float64" .) (kindIs "int64" .) (kindIs "int" .) }}
{{- int64 . }}
{{- else }}
{{- . }}
{{- end }}
{{- end }}

{{/* Whether callers bring their own Dagu keys: no Dagu key and no inbound
tokens then, so no Secret is read or mounted. */}}
{{- define "dagu-mcp-gateway.passthrough" -}}
{{- if eq .Values.config.upstreamAuth "passthrough" }}true{{ end }}
{{- end }}

{{/* The names the Service answers to inside the cluster. */}}
{{- define "dagu-mcp-gateway.serviceHosts" -}}
{{- $svc := include "dagu-mcp-gateway.fullname" . }}
{{- $ns := .Release.Namespace }}
{{- list $svc (printf "%s.%s" $svc $ns) (printf "%s.%s.svc" $svc $ns) (printf "%s.%s.svc.%s" $svc $ns .Values.clusterDomain) | join "," }}
{{- end }}

{{/* --allowed-host: empty (no Host check) unless config.allowedHosts is
set; then the Service's own cluster names are added, so the in-cluster URL
keeps working next to an ingress host. */}}
{{- define "dagu-mcp-gateway.allowedHosts" -}}
{{- with .Values.config.allowedHosts }}
{{- $hosts := concat . (splitList "," (include "dagu-mcp-gateway.serviceHosts" $)) }}
{{- $hosts | uniq | join "," }}
{{- end }}
{{- end }}
