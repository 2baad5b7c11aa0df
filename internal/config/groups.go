// SPDX-License-Identifier: Apache-2.0

package config

// Group is what a setting is for. A subcommand's --help and the
// configuration reference (docs/configuration.md) list the settings by
// group, in the order of Groups.
type Group int

// The groups, in the order help and the reference show them.
const (
	// GroupNone is a flag outside every group: help lists it last.
	GroupNone Group = iota
	// GroupDagu is which Dagu server to read and how to reach it.
	GroupDagu
	// GroupHTTP is the HTTP server and who may call it.
	GroupHTTP
	// GroupSignIn is signing in with an OpenID provider and the access
	// policy of the people who do.
	GroupSignIn
	// GroupAnswers is what a read answers and which reads exist.
	GroupAnswers
	// GroupLimits is how long, how much and how often reads may take.
	GroupLimits
	// GroupCaches is how long Dagu's answers are reused.
	GroupCaches
	// GroupShared is the state the replicas share.
	GroupShared
	// GroupWorkbooks is the local workbook reads.
	GroupWorkbooks
	// GroupProcess is logging and the runtime.
	GroupProcess
	// GroupDemo is the demo's own Dagu (flags of the demo command).
	GroupDemo
)

// groupTexts are each group's help heading and the reference's sentence
// about it.
var groupTexts = map[Group]struct{ title, about string }{
	GroupNone:      {"Other flags", ""},
	GroupDagu:      {"Dagu server", "Which Dagu server the gateway reads and how it reaches it: its URL, its API key, TLS, several servers at once."},
	GroupHTTP:      {"HTTP server and callers", "Where `serve` and `demo` listen and who may call them: inbound tokens or each caller's own Dagu key, the host allow-list, proxies, the metrics listener."},
	GroupSignIn:    {"Sign-in (OpenID Connect)", "People sign in with the team's OpenID provider and the access policy decides what each one reads: the gateway is the provider's resource server, checking the access tokens MCP clients obtain themselves."},
	GroupAnswers:   {"Answers", "What a read answers: its size, the text and links of its content for clients that need them, which targets exist, the reference topics."},
	GroupLimits:    {"Limits", "How long a read may take and how much of Dagu, memory and the caller's share it may use."},
	GroupCaches:    {"Caches", "How long Dagu's answers are reused within one gateway (with shared state, across the replicas too)."},
	GroupShared:    {"Shared state", "An optional Redis or Valkey the replicas share: a second cache level, the rate limit and the upstream budget across replicas."},
	GroupWorkbooks: {"Workbooks", "Reads of local Excel workbooks (the `workbook` target): where they may be, and how much of them is read."},
	GroupProcess:   {"Logging and runtime", "The log and the garbage collector."},
	GroupDemo:      {"Demo Dagu", "The demo's own Dagu."},
}

// Groups returns the groups in the order help and the reference list them,
// GroupNone last.
func Groups() []Group {
	return []Group{GroupDagu, GroupHTTP, GroupSignIn, GroupAnswers, GroupLimits, GroupCaches, GroupShared, GroupWorkbooks, GroupProcess, GroupDemo, GroupNone}
}

// Title is the group's heading in help and in the reference.
func (g Group) Title() string { return groupTexts[g].title }

// About is the reference's sentence about the group.
func (g Group) About() string { return groupTexts[g].about }
