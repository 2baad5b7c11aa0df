// SPDX-License-Identifier: Apache-2.0

package fakedagu

import "net/http"

// webUIPage stands in for the single-page web UI Dagu 2.x serves for every
// path it has no route for (under /api/v2 too): a 200 HTML answer that is
// not an API answer.
const webUIPage = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Dagu</title></head>
<body><div id="root"></div><script src="/assets/bundle.js"></script></body>
</html>
`

// writeWebUI answers with the web UI page.
func writeWebUI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(webUIPage))
	}
}
