// SPDX-License-Identifier: Apache-2.0

//go:build oidc

package oidc

// visit is one client's sign-in at one endpoint and what it reads there:
// the plan both clients follow (the go-sdk's here, the TypeScript SDK's
// in tsclient.test.mjs, which gets it as JSON).
type visit struct {
	Name     string `json:"name"`
	Login    string `json:"login"` // a person; "" for the service account
	Password string `json:"password,omitempty"`
	Endpoint string `json:"endpoint"`
	// Rule is the rule that admits the caller; "": none does (403).
	Rule string `json:"rule"`
	// Targets is the target enum the caller's tools/list offers (nil:
	// not checked): the rule's, after the references every rule allows.
	Targets []string `json:"targets,omitempty"`
	// Reads are dagu_read arguments that answer; Refused are refused as
	// unauthorized naming the rule, RefusedURIs the resources the same.
	Reads       []string `json:"reads,omitempty"`
	Refused     []string `json:"refused,omitempty"`
	RefusedURIs []string `json:"refusedUris,omitempty"`
	// Instance is the Dagu the endpoint serves ("" without --instances).
	Instance string `json:"instance"`
}

// Reads of the plan.
const (
	readDAGs   = `{"target":"dags"}`
	readDAG    = `{"target":"dag","name":"failing_job"}`
	readRuns   = `{"target":"runs","query":"status=2"}`
	readRun    = `{"target":"run","name":"failing_job","dagRunId":"latest"}`
	readLog    = `{"target":"step_log","name":"failing_job","dagRunId":"latest","stepName":"explode"}`
	runURI     = "dagu://runs/failing_job/latest"
	dagSpecURI = "dagu://dags/failing_job/spec"
)

// person returns a visit of the login, whose password is the provider's.
func (p *provider) person(name, login, endpoint, instance, rule string) visit {
	return visit{Name: name, Login: login, Password: p.accounts[login].Password, Endpoint: endpoint, Instance: instance, Rule: rule}
}

// singlePlan is what each client does against startSingle's gateway.
func singlePlan(base string) []visit {
	mcp := base + "/mcp"
	sre := idp.person("sre reads everything", "alice", mcp, "", "sre")
	sre.Reads = []string{readDAGs, readRuns, readRun, readLog}
	analyst := idp.person("analysts read DAGs only", "bob", mcp, "", "analysts")
	analyst.Targets = []string{"references", "reference", "dags", "dag"}
	analyst.Reads = []string{readDAGs, readDAG}
	analyst.Refused = []string{readRuns, readLog}
	analyst.RefusedURIs = []string{runURI}
	stranger := idp.person("no rule for a contractor", "carol", mcp, "", "")
	ci := visit{Name: "the service account reads runs", Endpoint: mcp, Rule: "ci", Targets: []string{"references", "reference", "runs", "run"},
		Reads: []string{readRuns, readRun}, Refused: []string{readDAGs}, RefusedURIs: []string{dagSpecURI}}
	return []visit{sre, analyst, stranger, ci}
}

// instancesPlan is what each client does against startInstances'
// gateway: every endpoint its own resource.
func instancesPlan(base string) []visit {
	east, west := base+"/dagu/east/mcp", base+"/dagu/west/mcp"
	sreEast := idp.person("sre at east", "alice", east, "east", "sre")
	sreEast.Reads = []string{readDAGs, readRuns}
	sreWest := idp.person("sre at west", "alice", west, "west", "sre")
	sreWest.Reads = []string{readRun}
	analystEast := idp.person("analysts at east", "bob", east, "east", "analysts")
	analystEast.Targets = []string{"references", "reference", "dags", "dag"}
	analystEast.Reads = []string{readDAG}
	analystEast.Refused = []string{readRuns}
	analystEast.RefusedURIs = []string{runURI}
	analystWest := idp.person("no rule for analysts at west", "bob", west, "west", "")
	ciWest := visit{Name: "the service account at west", Endpoint: west, Instance: "west", Rule: "ci", Reads: []string{readRuns},
		Refused: []string{readDAG}}
	ciEast := visit{Name: "no rule for the service account at east", Endpoint: east, Instance: "east"}
	return []visit{sreEast, sreWest, analystEast, analystWest, ciWest, ciEast}
}
