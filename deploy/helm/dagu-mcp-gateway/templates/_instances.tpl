{{/* Where the pod sees the instances file, each instance's key and each
instance's CA bundle from an existing ConfigMap. */}}
{{- define "dagu-mcp-gateway.instancesDir" -}}/etc/dagu-mcp-gateway/instances{{- end }}
{{- define "dagu-mcp-gateway.instanceSecretDir" -}}/var/run/secrets/dagu-mcp-gateway-instances{{- end }}
{{- define "dagu-mcp-gateway.instanceCADir" -}}/etc/dagu-mcp-gateway/instance-ca{{- end }}

{{/* Name of the ConfigMap holding the instances file. */}}
{{- define "dagu-mcp-gateway.instancesConfigMap" -}}
{{- printf "%s-instances" (include "dagu-mcp-gateway.fullname" .) }}
{{- end }}

{{/* Refuses instances that would deploy a broken gateway: duplicate names,
a key missing (or given in passthrough), a CA both pasted and named, a CA
next to insecureSkipVerify. */}}
{{- define "dagu-mcp-gateway.checkInstances" -}}
{{- $seen := dict }}
{{- range .Values.instances }}
{{- if hasKey $seen .name }}
{{- fail (printf "instances: the name %q is used twice" .name) }}
{{- end }}
{{- $_ := set $seen .name true }}
{{- $passthrough := include "dagu-mcp-gateway.passthrough" $ }}
{{- if and $passthrough (get . "apiKeySecret") }}
{{- fail (printf "instances %s: config.upstreamAuth is passthrough (each caller's own key): drop apiKeySecret" .name) }}
{{- end }}
{{- if and (not $passthrough) (not (get . "apiKeySecret")) }}
{{- fail (printf "instances %s: apiKeySecret (name and key of an existing Secret) is required unless config.upstreamAuth is passthrough" .name) }}
{{- end }}
{{- $ca := get . "ca" | default dict }}
{{- if and (get $ca "pem") (get $ca "existingConfigMap") }}
{{- fail (printf "instances %s: ca.pem and ca.existingConfigMap are both set: use one" .name) }}
{{- end }}
{{- if and (get . "insecureSkipVerify") (or (get $ca "pem") (get $ca "existingConfigMap")) }}
{{- fail (printf "instances %s: insecureSkipVerify and ca are both set: keep the CA and drop insecureSkipVerify" .name) }}
{{- end }}
{{- end }}
{{- end }}

{{/* The instances file (serve --instances): each instance's URL, the file
its key is mounted at or passthrough, its CA file and its own settings. */}}
{{- define "dagu-mcp-gateway.instancesFile" -}}
{{- $list := list }}
{{- range .Values.instances }}
{{- $in := dict "name" .name "url" .url }}
{{- if not (include "dagu-mcp-gateway.passthrough" $) }}
{{- $_ := set $in "apiKeyFile" (printf "%s/%s/dagu-api-key" (include "dagu-mcp-gateway.instanceSecretDir" $) .name) }}
{{- end }}
{{- $ca := get . "ca" | default dict }}
{{- if (get $ca "pem") }}
{{- $_ := set $in "caFile" (printf "%s/%s-ca.pem" (include "dagu-mcp-gateway.instancesDir" $) .name) }}
{{- else if (get $ca "existingConfigMap") }}
{{- $_ := set $in "caFile" (printf "%s/%s/%s" (include "dagu-mcp-gateway.instanceCADir" $) .name (default "ca.crt" (get $ca "key"))) }}
{{- end }}
{{- if (get . "insecureSkipVerify") }}
{{- $_ := set $in "insecureSkipVerify" true }}
{{- end }}
{{- with (get . "upstreamTimeout") }}
{{- $_ := set $in "upstreamTimeout" . }}
{{- end }}
{{- with (get . "upstreamCompression") }}
{{- $_ := set $in "upstreamCompression" . }}
{{- end }}
{{- $list = append $list $in }}
{{- end }}
{{- toYaml (dict "instances" $list) }}
{{- end }}
