// SPDX-License-Identifier: Apache-2.0

package doctor

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/dagu-mcp-gateway/gateway/internal/config"
	"github.com/dagu-mcp-gateway/gateway/internal/restclient"
)

// createKeyHint says how a Dagu admin makes a key the gateway can use.
const createKeyHint = `A Dagu admin creates one in Dagu's API key settings, or over REST with
  POST <dagu-url>/api/v1/api-keys
  {"name":"dagu-mcp-gateway","role":"viewer","allowedSurfaces":["rest_api"],
   "attributionClass":"service_account","serviceAccountName":"dagu-mcp-gateway"}
(the viewer role is enough; manager or admin also lets the gateway report run attempt IDs).`

// advice is doctor's word on a failed probe: what the problem is (a
// sentence per line) and what to do about it.
type advice struct {
	problem, remedy string
}

// String is the advice as doctor prints it.
func (a advice) String() string {
	text := a.problem
	if a.remedy != "" {
		text += "\n" + a.remedy
	}
	return text + "\nFix the problem above and run doctor again."
}

// adviceRows decide the advice on a failed probe from its facts (the probe's
// reason and status, the REST error's facts), never from an error's text.
// The first row that holds decides.
var adviceRows = []struct {
	holds  func(cfg config.Config, p restclient.ProbeResult, e *restclient.Error) bool
	advice func(cfg config.Config, p restclient.ProbeResult, e *restclient.Error) advice
}{
	{func(cfg config.Config, p restclient.ProbeResult, _ *restclient.Error) bool {
		return p.Reason == restclient.ProbeAuth && !HasKey(cfg)
	}, func(config.Config, restclient.ProbeResult, *restclient.Error) advice {
		return advice{"No API key is configured and Dagu requires one.", fmt.Sprintf("Put the key in a file and set %s\n(or --%s), or set %s (or --%s).\n%s",
			keyFileSetting.Env, keyFileSetting.Flag, keySetting.Env, keySetting.Flag, createKeyHint)}
	}},
	{func(_ config.Config, p restclient.ProbeResult, _ *restclient.Error) bool {
		return p.Reason == restclient.ProbeAuth && p.Status == http.StatusForbidden
	}, func(config.Config, restclient.ProbeResult, *restclient.Error) advice {
		return advice{"Dagu accepted the API key but its role or workspace grants may not list DAGs (HTTP 403).",
			"Give the key a role that can read DAGs and runs (viewer or higher) with access to the workspaces to read.\n" + createKeyHint}
	}},
	{func(_ config.Config, p restclient.ProbeResult, _ *restclient.Error) bool {
		return p.Reason == restclient.ProbeAuth && p.Status == http.StatusUnauthorized
	}, func(cfg config.Config, _ restclient.ProbeResult, _ *restclient.Error) advice {
		return advice{fmt.Sprintf("Dagu rejected the API key %s (HTTP 401).\n"+
			"It is wrong, expired or revoked, or Dagu runs in basic auth mode, which accepts no API keys.", keyOrigin(cfg)),
			"Check the key, or create a new one.\n" + createKeyHint}
	}},
	{func(_ config.Config, p restclient.ProbeResult, _ *restclient.Error) bool {
		return p.Reason == restclient.ProbeAuth
	}, func(cfg config.Config, p restclient.ProbeResult, _ *restclient.Error) advice {
		return advice{fmt.Sprintf("The API key %s could not be used: %s.", keyOrigin(cfg), p.Detail), ""}
	}},
	{func(_ config.Config, p restclient.ProbeResult, _ *restclient.Error) bool {
		return p.Reason == restclient.ProbeSurface
	}, func(config.Config, restclient.ProbeResult, *restclient.Error) advice {
		return advice{"Dagu knows the API key but it lacks the rest_api surface (HTTP 403: a key limited to mcp\n" +
			"cannot read Dagu's REST API, which the gateway uses).", "Create a key whose surfaces include rest_api.\n" + createKeyHint}
	}},
	{func(_ config.Config, _ restclient.ProbeResult, e *restclient.Error) bool {
		return e != nil && e.PlainHTTP
	}, func(cfg config.Config, _ restclient.ProbeResult, _ *restclient.Error) advice {
		return advice{fmt.Sprintf("The server at %s answered in plain HTTP, not TLS: it probably speaks http://, not https://.", cfg.DaguURL),
			fmt.Sprintf("Start the URL (%s) with http://, or serve Dagu over TLS.", urlSetting(cfg))}
	}},
	{func(_ config.Config, p restclient.ProbeResult, _ *restclient.Error) bool {
		return p.Reason == restclient.ProbeTLS
	}, func(cfg config.Config, p restclient.ProbeResult, _ *restclient.Error) advice {
		return advice{fmt.Sprintf("The TLS handshake with %s failed (%s).", cfg.DaguURL, p.Detail),
			fmt.Sprintf("If Dagu's certificate comes from a private CA, give that CA with --%s (%s); check that the URL's\n"+
				"host name is one the certificate names.", caFileSetting.Flag, caFileSetting.Env)}
	}},
	{func(_ config.Config, p restclient.ProbeResult, _ *restclient.Error) bool {
		return p.Reason == restclient.ProbeNetwork
	}, func(cfg config.Config, _ restclient.ProbeResult, _ *restclient.Error) advice {
		return advice{fmt.Sprintf("Nothing answered at %s.", cfg.DaguURL),
			fmt.Sprintf("Check the URL (%s) and that Dagu runs and is reachable from here.", urlSetting(cfg))}
	}},
	{func(_ config.Config, _ restclient.ProbeResult, e *restclient.Error) bool {
		return e != nil && e.ContentType != ""
	}, func(cfg config.Config, _ restclient.ProbeResult, e *restclient.Error) advice {
		return advice{fmt.Sprintf("Something answered at %s, but with %s, not Dagu's JSON API: the URL probably points at\n"+
			"the wrong path (a web page, Dagu's UI under another base path) or at a server that is not Dagu.", cfg.DaguURL, e.ContentType),
			wrongPathRemedy(cfg)}
	}},
	{func(_ config.Config, p restclient.ProbeResult, _ *restclient.Error) bool {
		return p.Status == http.StatusNotFound
	}, func(cfg config.Config, _ restclient.ProbeResult, _ *restclient.Error) advice {
		return advice{fmt.Sprintf("No Dagu REST API answers at %s (HTTP 404): the URL probably points at the wrong path\n"+
			"or at a server that is not Dagu.", cfg.DaguURL), wrongPathRemedy(cfg)}
	}},
	{func(_ config.Config, p restclient.ProbeResult, _ *restclient.Error) bool {
		return p.Status >= http.StatusInternalServerError
	}, func(cfg config.Config, p restclient.ProbeResult, _ *restclient.Error) advice {
		return advice{fmt.Sprintf("Dagu at %s, or a proxy in front of it, failed (HTTP %d).", cfg.DaguURL, p.Status),
			"Check that Dagu runs, and its logs."}
	}},
}

// adviceFor is doctor's advice on a failed probe.
func adviceFor(cfg config.Config, p restclient.ProbeResult) advice {
	e, _ := restclient.AsError(p.Err)
	for _, row := range adviceRows {
		if row.holds(cfg, p, e) {
			return row.advice(cfg, p, e)
		}
	}
	return advice{fmt.Sprintf("The gateway cannot read from this Dagu (%s).", p.Detail), ""}
}

// Problem is doctor's sentence about a failed probe, on one line: what the
// start-up log says of a Dagu the gateway cannot read from.
func Problem(cfg config.Config, p restclient.ProbeResult) string {
	return strings.ReplaceAll(adviceFor(cfg, p).problem, "\n", " ")
}

// wrongPathRemedy says what a URL that reaches no Dagu API should be.
func wrongPathRemedy(cfg config.Config) string {
	return fmt.Sprintf("Set %s to Dagu's base URL: the address of Dagu's web UI, with the base path Dagu is\n"+
		"configured with if any, without /api/v1 or /api/v2.", urlSetting(cfg))
}

// urlSetting names where the Dagu URL was configured.
func urlSetting(cfg config.Config) string {
	if cfg.InstancesFile != "" {
		return "the instance's url in " + cfg.InstancesFile
	}
	return daguURLSetting.Env
}
