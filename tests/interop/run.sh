#!/usr/bin/env bash
# Interoperability tests: the official MCP TypeScript SDK, LangChain JS (its
# MCP adapters with ChatOpenAI and ChatAnthropic), the Vercel AI SDK and the
# OpenAI Agents SDK (the versions pinned in package-lock.json) against the
# gateway built from this checkout, over Streamable HTTP and stdio. The
# framework tests check what reaches the model with fake model endpoints:
# no model key, no network beyond the npm registry. Needs Go, Node 20
# or later, npm, and the npm registry (or an npm cache holding the locked
# packages). It never skips: a missing tool or an unreachable registry fails
# the run.
set -euo pipefail
cd "$(dirname "$0")"

suite=interop
# shellcheck source=../nodesuite.sh
source ../nodesuite.sh
install_and_build

node --test --test-timeout=120000
